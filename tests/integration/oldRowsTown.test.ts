// A town's world file from before schema 4 (memories and events as tables, texts and agent ids in every row) still
// replays read-only as it is, and resumes live after migration 4 moves its rows: the same state at every moment,
// every memory and event the same, and the town goes on exactly as a copy of the file that never was in the old layout.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorldDb, type WorldDb } from '../../server/src/store/WorldDb';
import { memoryLayoutOf } from '../../server/src/store/memoryTexts';
import { eventLayoutOf } from '../../server/src/store/eventRows';
import { stateAt } from '../../server/src/history/stateAt';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import { tempDir, openOfflineTown } from '../helpers';
import { takeFileBackToMemoryTable } from '../fixtures/oldMemoryRows';

const FILE = 'smalltown.sqlite';

const memoryRows = (db: WorldDb) => db.db.prepare('SELECT * FROM memories ORDER BY id').all();
const events = (db: WorldDb) => [...db.events.scan()];

describe('a town whose file was made before schema 4', () => {
  it('replays read-only as it is, and resumes migrated as if it had never been in the old layout', async () => {
    const oldDir = tempDir();
    const town = await openOfflineTown({ dataDir: oldDir, startTime: '2026-02-13T07:00' });
    const start = town.gameMs;
    await town.loop.runLockstep(start + 3 * GAME_MS_PER_HOUR, 20_000);
    const moments = [start + GAME_MS_PER_HOUR, start + 2.5 * GAME_MS_PER_HOUR];
    const states = moments.map((t) => JSON.stringify(stateAt(town.db, town.world, t)));
    expect(states.every((s) => s.length > 1000)).toBe(true);
    const rows = memoryRows(town.db);
    const logged = events(town.db);
    const world = town.world;
    await town.close();
    const copyDir = tempDir();
    fs.copyFileSync(path.join(oldDir, FILE), path.join(copyDir, FILE));
    takeFileBackToMemoryTable(path.join(oldDir, FILE));

    const old = openWorldDb(path.join(oldDir, FILE), null, { readonly: true });
    expect([old.schemaVersion, memoryLayoutOf(old.db), eventLayoutOf(old.db)]).toEqual([3, 'table', 'table']);
    expect(memoryRows(old)).toEqual(rows);
    expect(events(old)).toEqual(logged);
    expect(moments.map((t) => JSON.stringify(stateAt(old, world, t)))).toEqual(states);
    old.close();

    const migrated = await openOfflineTown({ dataDir: oldDir, startTime: '2026-02-13T07:00' });
    const untouched = await openOfflineTown({ dataDir: copyDir, startTime: '2026-02-13T07:00' });
    expect([migrated.resumed, memoryLayoutOf(migrated.db.db), eventLayoutOf(migrated.db.db)]).toEqual([true, 'rows', 'rows']);
    expect(memoryRows(migrated.db)).toEqual(rows);
    for (const t of [migrated, untouched]) await t.loop.runLockstep(start + 4 * GAME_MS_PER_HOUR, 20_000);
    expect(memoryRows(migrated.db).length).toBeGreaterThan(rows.length);
    expect(memoryRows(migrated.db)).toEqual(memoryRows(untouched.db));
    expect(events(migrated.db)).toEqual(events(untouched.db));
    await migrated.close();
    await untouched.close();
  }, 120_000);
});
