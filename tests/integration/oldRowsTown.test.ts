// A town's world file from before schema 4 (memories and events as tables, texts and agent ids in every row) still
// replays read-only as it is, and resumes live after migration 4 moves its rows: the same state at every moment,
// every memory and event the same, and the town goes on exactly as a copy of the file that never was in the old layout.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorldDb, type WorldDb } from '../../server/src/store/WorldDb';
import { memoryLayoutOf } from '../../server/src/store/memoryTexts';
import { eventLayoutOf } from '../../server/src/store/eventRows';
import { stateAt } from '../../server/src/history/stateAt';
import { OLD_TOWN_FILE, openBoth, recordTown, runBoth } from '../fixtures/oldTown';
import { takeFileBackToMemoryTable } from '../fixtures/oldMemoryRows';

const memoryRows = (db: WorldDb) => db.db.prepare('SELECT * FROM memories ORDER BY id').all();
const events = (db: WorldDb) => [...db.events.scan()];

describe('a town whose file was made before schema 4', () => {
  it('replays read-only as it is, and resumes migrated as if it had never been in the old layout', async () => {
    const recorded = await recordTown((town) => ({ rows: memoryRows(town.db), logged: events(town.db) }));
    const { oldDir, moments, states, world } = recorded;
    const { rows, logged } = recorded.read;
    expect(states.every((s) => s.length > 1000)).toBe(true);
    takeFileBackToMemoryTable(path.join(oldDir, OLD_TOWN_FILE));

    const old = openWorldDb(path.join(oldDir, OLD_TOWN_FILE), null, { readonly: true });
    expect([old.schemaVersion, memoryLayoutOf(old.db), eventLayoutOf(old.db)]).toEqual([3, 'table', 'table']);
    expect(memoryRows(old)).toEqual(rows);
    expect(events(old)).toEqual(logged);
    expect(moments.map((t) => JSON.stringify(stateAt(old, world, t)))).toEqual(states);
    old.close();

    const towns = await openBoth(recorded);
    const { migrated, untouched } = towns;
    expect([migrated.resumed, memoryLayoutOf(migrated.db.db), eventLayoutOf(migrated.db.db)]).toEqual([true, 'rows', 'rows']);
    expect(memoryRows(migrated.db)).toEqual(rows);
    await runBoth(recorded, towns);
    expect(memoryRows(migrated.db).length).toBeGreaterThan(rows.length);
    expect(memoryRows(migrated.db)).toEqual(memoryRows(untouched.db));
    expect(events(migrated.db)).toEqual(events(untouched.db));
    await migrated.close();
    await untouched.close();
  }, 120_000);
});
