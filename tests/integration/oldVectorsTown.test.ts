// A town's world file from before shared vectors (schema 2: vec0, one vector per memory) still replays read-only
// as it is, and resumes live after migration 3 moves its vectors: the same state at every moment, every memory's
// vector the same bytes, and the town goes on exactly as a copy of the file that never was in the old layout.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorldDb, type WorldDb } from '../../server/src/store/WorldDb';
import { vectorLayoutOf, vectorQueries } from '../../server/src/store/memoryVectors';
import { stateAt } from '../../server/src/history/stateAt';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import { tempDir, openOfflineTown } from '../helpers';
import { takeFileBackToVec0 } from '../fixtures/oldVectors';

const FILE = 'smalltown.sqlite';

function vectorsOf(db: WorldDb): string[] {
  const read = db.db.prepare(vectorQueries(vectorLayoutOf(db.db)).ofMemory);
  const ids = db.db.prepare('SELECT id FROM memories ORDER BY id').pluck().all() as number[];
  return ids.map((id) => (read.get(BigInt(id)) as { embedding: Buffer }).embedding.toString('base64'));
}

const memoryRows = (db: WorldDb) =>
  db.db.prepare('SELECT id, agent_id, kind, description, created_ms, last_accessed_ms, importance FROM memories ORDER BY id').all();

describe('a town whose file was made before shared vectors', () => {
  it('replays read-only as it is, and resumes migrated as if it had never been in the old layout', async () => {
    const oldDir = tempDir();
    const town = await openOfflineTown({ dataDir: oldDir, startTime: '2026-02-13T07:00' });
    const start = town.gameMs;
    await town.loop.runLockstep(start + 3 * GAME_MS_PER_HOUR, 20_000);
    const moments = [start + GAME_MS_PER_HOUR, start + 2.5 * GAME_MS_PER_HOUR];
    const states = moments.map((t) => JSON.stringify(stateAt(town.db, town.world, t)));
    expect(states.every((s) => s.length > 1000)).toBe(true);
    const vectors = vectorsOf(town.db);
    const world = town.world;
    await town.close();
    const copyDir = tempDir();
    fs.copyFileSync(path.join(oldDir, FILE), path.join(copyDir, FILE));
    takeFileBackToVec0(path.join(oldDir, FILE), town.embedder.dimension);

    const old = openWorldDb(path.join(oldDir, FILE), null, { readonly: true });
    expect([old.schemaVersion, old.memories.layout]).toEqual([2, 'vec0']);
    expect(vectorsOf(old)).toEqual(vectors);
    expect(moments.map((t) => JSON.stringify(stateAt(old, world, t)))).toEqual(states);
    old.close();

    const migrated = await openOfflineTown({ dataDir: oldDir, startTime: '2026-02-13T07:00' });
    const untouched = await openOfflineTown({ dataDir: copyDir, startTime: '2026-02-13T07:00' });
    expect([migrated.resumed, migrated.db.memories.layout]).toEqual([true, 'shared']);
    expect(vectorsOf(migrated.db)).toEqual(vectors);
    for (const t of [migrated, untouched]) await t.loop.runLockstep(start + 4 * GAME_MS_PER_HOUR, 20_000);
    expect(memoryRows(migrated.db).length).toBeGreaterThan(vectors.length);
    expect(memoryRows(migrated.db)).toEqual(memoryRows(untouched.db));
    expect(vectorsOf(migrated.db)).toEqual(vectorsOf(untouched.db));
    expect(migrated.db.events.lastSeq()).toBe(untouched.db.events.lastSeq());
    await migrated.close();
    await untouched.close();
  }, 120_000);
});
