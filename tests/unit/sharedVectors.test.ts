// Memories share one stored vector per distinct vector (memoryVectors.ts): every memory still reads back the
// exact bytes it was written with, through every reader (the store's retrieval, replay's scoring, the export),
// and an older file's vec0 vectors move into the shared rows when it is opened live.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorldDb, type WorldDb } from '../../server/src/store/WorldDb';
import { InMemoryMemoryStore } from '../../server/src/store/InMemoryMemoryStore';
import { bytesOf, sha1Int48, vectorLayoutOf, vectorOf, vectorQueries, VectorRows } from '../../server/src/store/memoryVectors';
import { scoreMemoriesAt } from '../../server/src/store/memoriesAt';
import { exportMemories } from '../../server/src/analysis/exports';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import type { MemoryInput } from '../../server/src/store/types';
import { Rng } from '../../server/src/sim/rng';
import { asAgentId } from '../../server/src/world/types';
import { takeFileBackToVec0 } from '../fixtures/oldVectors';

const HOUR = 3_600_000;
const embedder = loadOfflineEmbedder();
const EMBEDDING = { model: 'offline', dimension: embedder.dimension };
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A town's observations: few texts, noted again and again by one agent and by many (as the generated town's are). */
async function townMemories(seed: number, n: number): Promise<MemoryInput[]> {
  const rng = new Rng(seed);
  const people = ['Ada Lovelace', 'Bo Chen', 'Cole Cruz', 'Freya Suzuki'];
  const doings = ['is sleeping', 'is taking a shower', 'is checking figures', 'is reading by the window', 'is sleeping soundly'];
  const texts = Array.from({ length: n }, () => `${people[rng.int(0, people.length - 1)]} ${doings[rng.int(0, doings.length - 1)]}`);
  const vectors = await embedder.embed(texts);
  return texts.map((description, i) => ({
    agentId: asAgentId(`agent${rng.int(0, 5)}`),
    kind: 'observation' as const,
    description,
    createdGameMs: i * 60_000,
    importance: rng.int(1, 10),
    embedding: vectors[i],
  }));
}

/** The memories whose vector, read back from the file, is not byte for byte the one written. */
function mismatches(world: WorldDb, ids: number[], inputs: MemoryInput[]): number[] {
  const read = world.db.prepare(vectorQueries(vectorLayoutOf(world.db)).ofMemory);
  return ids.filter((id, i) => {
    const row = read.get(BigInt(id)) as { embedding: Buffer } | undefined;
    return !row || !row.embedding.equals(bytesOf(inputs[i].embedding));
  });
}

const distinctVectors = (inputs: MemoryInput[]) => new Set(inputs.map((m) => bytesOf(m.embedding).toString('base64'))).size;

describe('vectors shared by identical memories', () => {
  it('stores each distinct vector once, and every memory reads back its own exactly', async () => {
    const inputs = await townMemories(1, 600);
    const world = openWorldDb(':memory:', EMBEDDING);
    const ids = world.memories.add(inputs);
    expect(world.memories.layout).toBe('shared');
    expect(mismatches(world, ids, inputs)).toEqual([]);
    const rows = world.db.prepare('SELECT count(*) FROM memory_vectors').pluck().get() as number;
    // 20 texts at most, some of them the same words in another order (a bag of words embeds them alike).
    expect(rows).toBe(distinctVectors(inputs));
    expect(rows).toBeLessThanOrEqual(20);
    // Different texts with different vectors never share a row; the same text always does.
    const byText = new Map<string, Set<number>>();
    for (const [i, id] of ids.entries()) {
      const vid = world.db.prepare('SELECT vector_id FROM memories WHERE id = ?').pluck().get(id) as number;
      if (!byText.has(inputs[i].description)) byText.set(inputs[i].description, new Set());
      byText.get(inputs[i].description)!.add(vid);
    }
    expect([...byText.values()].every((s) => s.size === 1)).toBe(true);
    const owners = new Map<number, Float32Array>();
    for (const [text, [vid]] of [...byText.entries()].map(([t, s]) => [t, [...s]] as const)) {
      const mine = inputs.find((m) => m.description === text)!.embedding;
      const other = owners.get(vid);
      if (other) expect(bytesOf(other).equals(bytesOf(mine)), `${text} shares row ${vid} with a different vector`).toBe(true);
      owners.set(vid, mine);
    }
    world.close();
  });

  it('keeps different vectors apart when their hashes collide', async () => {
    const inputs = await townMemories(2, 200);
    const world = openWorldDb(':memory:', EMBEDDING);
    const rows = new VectorRows(world.db, () => 7);
    const ids = inputs.map((m) => rows.idOf(m.embedding));
    expect(new Set(ids).size).toBe(distinctVectors(inputs));
    const read = world.db.prepare('SELECT embedding FROM memory_vectors WHERE id = ?').pluck();
    expect(ids.every((id, i) => (read.get(id) as Buffer).equals(bytesOf(inputs[i].embedding)))).toBe(true);
    world.close();
  });

  it('catches a memory pointed at another vector (the control: the check can fail)', async () => {
    const inputs = await townMemories(3, 100);
    const world = openWorldDb(':memory:', EMBEDDING);
    const ids = world.memories.add(inputs);
    const victim = ids.findIndex((_, i) => !bytesOf(inputs[i].embedding).equals(bytesOf(inputs[0].embedding)));
    const wrong = world.db.prepare('SELECT vector_id FROM memories WHERE id = ?').pluck().get(ids[0]) as number;
    world.db.prepare('UPDATE memories SET vector_id = ? WHERE id = ?').run(wrong, ids[victim]);
    expect(mismatches(world, ids, inputs)).toEqual([ids[victim]]);
    world.close();
  });

  it('scores alike through the store, replay and the export', async () => {
    const inputs = await townMemories(4, 400);
    const world = openWorldDb(':memory:', EMBEDDING, { columnCacheBytes: 0 });
    const reference = new InMemoryMemoryStore();
    world.memories.add(inputs);
    reference.add(inputs);
    const [query] = await embedder.embed(['Freya is reading']);
    const o = {
      agentId: asAgentId('agent2'),
      query,
      nowGameMs: 400 * 60_000,
      k: 8,
      weights: { recency: 1, importance: 1, relevance: 1 },
      decayPerGameHour: 0.995,
    };
    expect(world.memories.retrieve({ ...o, touch: false })).toEqual(reference.retrieve({ ...o, touch: false }));
    const atReplay = scoreMemoriesAt(world, o.agentId, query, o.nowGameMs, o.k, o.weights, o.decayPerGameHour);
    expect(atReplay.map((s) => s.relevance)).toEqual(reference.retrieve({ ...o, touch: false }).map((s) => s.relevance));
    let csv = '';
    await exportMemories(world, new Writable({ write: (chunk, _e, done) => ((csv += String(chunk)), done()) }), { vectors: true });
    expect(csv.trim().split('\n')).toHaveLength(inputs.length + 1);
    expect(csv.split('\n')[1]).toContain(Array.from(inputs[0].embedding, (x) => x.toPrecision(6)).join(' '));
    world.close();
  });
});

describe('a file made before shared vectors (vec0, schema 2)', () => {
  async function oldFile(): Promise<{ file: string; inputs: MemoryInput[]; ids: number[] }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-vectors-'));
    dirs.push(dir);
    const file = path.join(dir, 'old.sqlite');
    const inputs = await townMemories(5, 500);
    const world = openWorldDb(file, EMBEDDING);
    const ids = world.memories.add(inputs);
    world.close();
    takeFileBackToVec0(file, EMBEDDING.dimension);
    return { file, inputs, ids };
  }

  it('reads as it is read-only, and moves its vectors into shared rows when opened live, retrieving the same', async () => {
    const { file, inputs, ids } = await oldFile();
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare("SELECT count(*) FROM sqlite_schema WHERE name IN ('vec_memories', 'memory_vectors')").pluck().get()).toBe(1);
    raw.close();
    const [query] = await embedder.embed(['Bo is sleeping']);
    const o = {
      agentId: asAgentId('agent1'),
      query,
      nowGameMs: 500 * 60_000,
      k: 6,
      weights: { recency: 1, importance: 2, relevance: 3 },
      decayPerGameHour: 0.995,
    };
    const old = openWorldDb(file, EMBEDDING, { readonly: true });
    expect(old.schemaVersion).toBe(2);
    expect(old.memories.layout).toBe('vec0');
    expect(mismatches(old, ids, inputs)).toEqual([]);
    const before = old.memories.retrieve({ ...o, touch: false });
    const replayBefore = scoreMemoriesAt(old, o.agentId, query, o.nowGameMs, o.k, o.weights, o.decayPerGameHour);
    old.close();

    const live = openWorldDb(file, EMBEDDING);
    expect(live.memories.layout).toBe('shared');
    expect(mismatches(live, ids, inputs)).toEqual([]);
    expect(live.db.prepare('SELECT count(*) FROM memory_vectors').pluck().get()).toBe(distinctVectors(inputs));
    // Schema 4 (memoryTexts.ts) keeps the rows by agent in memory_rows' index; schema 5 adds one by agent, kind and time.
    const indexes = "SELECT name FROM sqlite_schema WHERE name LIKE 'vec_memories%' OR name LIKE 'memories_agent_%' OR name LIKE 'memory_rows_%'";
    expect(live.db.prepare(indexes).pluck().all()).toEqual(['memory_rows_agent', 'memory_rows_agent_kind']);
    expect(live.memories.retrieve({ ...o, touch: false })).toEqual(before);
    expect(scoreMemoriesAt(live, o.agentId, query, o.nowGameMs, o.k, o.weights, o.decayPerGameHour)).toEqual(replayBefore);
    // And it lives on: new memories share the moved rows.
    const more = await townMemories(6, 50);
    const moreIds = live.memories.add(more);
    expect(mismatches(live, moreIds, more)).toEqual([]);
    expect(live.db.prepare('SELECT count(*) FROM memory_vectors').pluck().get()).toBe(distinctVectors([...inputs, ...more]));
    live.close();
    expect(vectorOf(bytesOf(inputs[0].embedding))).toEqual(inputs[0].embedding);
  });
});

describe('a stored vector read back (vectorOf)', () => {
  const v = new Float32Array([0.5, -1.25, 3, 1e-7]);

  it('reads a row’s bytes in place, and copies bytes that share their memory', () => {
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (v BLOB)');
    db.prepare('INSERT INTO t VALUES (?)').run(bytesOf(v));
    // SQLite's rows come as buffers of their own: read in place (no second copy made outside V8's heap).
    const row = db.prepare('SELECT v FROM t').pluck().get() as Buffer;
    expect(row.byteOffset === 0 && row.byteLength === row.buffer.byteLength).toBe(true);
    const inPlace = vectorOf(row);
    expect(inPlace).toEqual(v);
    expect(inPlace.buffer).toBe(row.buffer);
    db.close();
    // A slice of a shared pool (Buffer.from of few bytes) is copied: the pool's next use must not change the vector.
    const pooled = Buffer.from(bytesOf(v));
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength);
    const copied = vectorOf(pooled);
    pooled.fill(0);
    expect(copied).toEqual(v);
    // The control: read in place, the same slice's vector would have changed.
    const slice = Buffer.from(bytesOf(v));
    const view = new Float32Array(slice.buffer, slice.byteOffset, slice.byteLength / 4);
    slice.fill(0);
    expect(view).not.toEqual(v);
  });
});

describe('the 48-bit hash that finds the rows to compare', () => {
  it('reads the bits a digest read with readIntBE(0, 6) did, so the hashes in files already written still match', () => {
    const before = (data: string | Uint8Array) => createHash('sha1').update(data).digest().readIntBE(0, 6);
    // Both signs: 'hello' has the top bit set, 'x' has not.
    expect(sha1Int48('hello')).toBe(-93506704122683);
    expect(sha1Int48('x')).toBe(19751171441962);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 800 }), (bytes) => sha1Int48(bytes) === before(bytes)),
      { seed: 13, numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => sha1Int48(text) === before(text)),
      { seed: 13, numRuns: 500 },
    );
    // The control: the same bits read unsigned differ from the digest's for half of all inputs.
    const unsigned = (data: string) => parseInt(createHash('sha1').update(data).digest('hex').slice(0, 12), 16);
    expect(unsigned('hello')).not.toBe(before('hello'));
  });
});
