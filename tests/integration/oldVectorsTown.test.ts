// A town's world file from before shared vectors (schema 2: vec0, one vector per memory) still replays read-only
// as it is, and resumes live after migration 3 moves its vectors: the same state at every moment, every memory's
// vector the same bytes, and the town goes on exactly as a copy of the file that never was in the old layout.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorldDb, type WorldDb } from '../../server/src/store/WorldDb';
import { vectorLayoutOf, vectorQueries } from '../../server/src/store/memoryVectors';
import { stateAt } from '../../server/src/history/stateAt';
import { OLD_TOWN_FILE, openBoth, recordTown, runBoth } from '../fixtures/oldTown';
import { takeFileBackToVec0 } from '../fixtures/oldVectors';

function vectorsOf(db: WorldDb): string[] {
  const read = db.db.prepare(vectorQueries(vectorLayoutOf(db.db)).ofMemory);
  const ids = db.db.prepare('SELECT id FROM memories ORDER BY id').pluck().all() as number[];
  return ids.map((id) => (read.get(BigInt(id)) as { embedding: Buffer }).embedding.toString('base64'));
}

const memoryRows = (db: WorldDb) =>
  db.db.prepare('SELECT id, agent_id, kind, description, created_ms, last_accessed_ms, importance FROM memories ORDER BY id').all();

describe('a town whose file was made before shared vectors', () => {
  it('replays read-only as it is, and resumes migrated as if it had never been in the old layout', async () => {
    const recorded = await recordTown((town) => vectorsOf(town.db));
    const { oldDir, moments, states, world, read: vectors } = recorded;
    expect(states.every((s) => s.length > 1000)).toBe(true);
    takeFileBackToVec0(path.join(oldDir, OLD_TOWN_FILE), recorded.dimension);

    const old = openWorldDb(path.join(oldDir, OLD_TOWN_FILE), null, { readonly: true });
    expect([old.schemaVersion, old.memories.layout]).toEqual([2, 'vec0']);
    expect(vectorsOf(old)).toEqual(vectors);
    expect(moments.map((t) => JSON.stringify(stateAt(old, world, t)))).toEqual(states);
    old.close();

    const towns = await openBoth(recorded);
    const { migrated, untouched } = towns;
    expect([migrated.resumed, migrated.db.memories.layout]).toEqual([true, 'shared']);
    expect(vectorsOf(migrated.db)).toEqual(vectors);
    await runBoth(recorded, towns);
    expect(memoryRows(migrated.db).length).toBeGreaterThan(vectors.length);
    expect(memoryRows(migrated.db)).toEqual(memoryRows(untouched.db));
    expect(vectorsOf(migrated.db)).toEqual(vectorsOf(untouched.db));
    expect(migrated.db.events.lastSeq()).toBe(untouched.db.events.lastSeq());
    await migrated.close();
    await untouched.close();
  }, 120_000);
});
