// What the headless run's speed rests on (WorldDb.batch, the held newest rows of `recent`, the held
// relationships) must read exactly what the file holds: each check compares against a second connection
// to the same file, which holds nothing, after random writes, touches and reads over many seeds.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorldDb, type WorldDb } from '../../server/src/store/WorldDb';
import type Database from 'better-sqlite3';
import { SqliteMemoryStore } from '../../server/src/store/SqliteMemoryStore';
import type { MemoryKind, MemoryStore } from '../../server/src/store/types';
import { asAgentId, type AgentId } from '../../server/src/world/types';
import { Rng } from '../../server/src/sim/rng';

const mulberry32 = (seed: number): (() => number) => {
  const rng = new Rng(seed);
  return () => rng.next();
};

const D = 8;
const EMBEDDING = { model: 'test', dimension: D };
const agents: AgentId[] = ['ada', 'bo', 'cy'].map(asAgentId);
const kinds: MemoryKind[] = ['observation', 'chat', 'thought', 'plan'];
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function worldFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-batch-'));
  dirs.push(dir);
  return path.join(dir, 'w.sqlite');
}

function vector(random: () => number): Float32Array {
  const v = Float32Array.from({ length: D }, () => random() - 0.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

/** Reads from what the file holds now, with nothing held: a new store (and query) on the connection given. */
interface Truth {
  recent: MemoryStore['recent'];
  relationshipsOf(agentId: AgentId): unknown[];
  close(): void;
}
const fromConnection = (db: Database.Database): Truth => {
  const store = new SqliteMemoryStore(db, D, 0);
  const rows = db.prepare(
    'SELECT other_id AS otherId, summary, interactions, last_ms AS lastGameMs FROM relationships WHERE agent_id = ? ORDER BY interactions DESC, other_id',
  );
  return { recent: (...a) => store.recent(...a), relationshipsOf: (agentId) => rows.all(agentId), close: () => undefined };
};
const fromFile = (file: string) => (): Truth => {
  const db = openWorldDb(file, EMBEDDING, { readonly: true });
  return { ...fromConnection(db.db), close: () => db.close() };
};

/** Random writes, touches and reads on `db`; every read checked against `fresh` (nothing held). */
function exercise(db: WorldDb, fresh: () => Truth, seed: number, steps: number): void {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
  let gameMs = 0;
  for (let i = 0; i < steps; i++) {
    gameMs += 60_000;
    const roll = random();
    const agentId = pick(agents);
    if (roll < 0.5) {
      const n = 1 + Math.floor(random() * 3);
      db.memories.add(
        Array.from({ length: n }, (_, j) => ({
          agentId,
          kind: pick(kinds),
          description: `memory ${i}.${j}`,
          createdGameMs: gameMs,
          importance: 1 + Math.floor(random() * 10),
          triple: random() < 0.5 ? { subject: agentId, predicate: 'talked with', object: pick(agents) } : null,
          evidenceIds: random() < 0.3 ? [1, 2] : [],
          embedding: vector(random),
        })),
      );
    } else if (roll < 0.7) {
      db.memories.retrieve({
        agentId,
        query: vector(random),
        nowGameMs: gameMs,
        k: 3,
        weights: { recency: 1, importance: 1, relevance: 1 },
        decayPerGameHour: 0.99,
      });
    } else if (roll < 0.8) {
      db.reviseRelationship(agentId, pick(agents.filter((a) => a !== agentId)), `summary ${i}`, gameMs);
    } else {
      const limit = 1 + Math.floor(random() * 20);
      const only = random() < 0.5 ? undefined : kinds.filter(() => random() < 0.5);
      const truth = fresh();
      try {
        expect(db.memories.recent(agentId, limit, only?.length ? only : undefined)).toEqual(truth.recent(agentId, limit, only?.length ? only : undefined));
        expect(db.relationshipsOf(agentId)).toEqual(truth.relationshipsOf(agentId));
      } finally {
        truth.close();
      }
    }
  }
}

describe('a world file read through what it holds', () => {
  it('answers recent() and relationshipsOf() as the file does, write by write, over 8 seeds', () => {
    for (let seed = 1; seed <= 8; seed++) {
      const file = worldFile();
      const db = openWorldDb(file, EMBEDDING);
      try {
        exercise(db, fromFile(file), seed, 300);
      } finally {
        db.close();
      }
    }
  });

  it('holds at most 200 rows an agent: asked for more, it reads them from the file', () => {
    const file = worldFile();
    const db = openWorldDb(file, EMBEDDING);
    const random = mulberry32(3);
    for (let i = 0; i < 250; i++)
      db.memories.add([{ agentId: agents[0], kind: 'observation', description: `m${i}`, createdGameMs: i, importance: 3, embedding: vector(random) }]);
    expect(db.memories.recent(agents[0], 200).map((m) => m.description)[199]).toBe('m50');
    expect(db.memories.recent(agents[0], 250)).toHaveLength(250);
    // Only plans asked: the held 200 hold none, and there are more rows than held, so the file answers.
    expect(db.memories.recent(agents[0], 5, ['plan'])).toEqual([]);
    db.close();
  });

  it('a batch commits its writes once, and what it held reads as the file does', async () => {
    const file = worldFile();
    const db = openWorldDb(file, EMBEDDING);
    db.events.markClock(500);
    await db.batch(async () => {
      exercise(db, () => fromConnection(db.db), 5, 200);
      // The clock's mark: the step's last one counts, written once before the commit, and read back meanwhile.
      db.events.markClock(1_000);
      db.events.markClock(2_000);
      expect(db.events.clockMark()).toBe(2_000);
      const outside = openWorldDb(file, EMBEDDING, { readonly: true });
      // Another connection sees nothing of the batch until it commits.
      expect(outside.memories.count()).toBe(0);
      expect(outside.events.clockMark()).toBe(500);
      outside.close();
    });
    expect(db.db.inTransaction).toBe(false);
    const after = openWorldDb(file, EMBEDDING, { readonly: true });
    expect(after.events.clockMark()).toBe(2_000);
    after.close();
    exercise(db, fromFile(file), 6, 200);
    db.close();
  });

  it('commits what was written when the work throws, as write-by-write would have', async () => {
    const file = worldFile();
    const db = openWorldDb(file, EMBEDDING);
    const random = mulberry32(9);
    await expect(
      db.batch(async () => {
        db.memories.add([{ agentId: agents[0], kind: 'chat', description: 'kept', createdGameMs: 1, importance: 4, embedding: vector(random) }]);
        throw new Error('a bug in a step');
      }),
    ).rejects.toThrow('a bug in a step');
    const outside = openWorldDb(file, EMBEDDING, { readonly: true });
    expect(outside.memories.recent(agents[0], 5).map((m) => m.description)).toEqual(['kept']);
    outside.close();
    db.close();
  });

  it('a batch SQLite took back (a full disk) throws and drops what it held, so reads match the file again', async () => {
    const file = worldFile();
    const db = openWorldDb(file, EMBEDDING);
    const random = mulberry32(11);
    const add = (description: string) =>
      db.memories.add([{ agentId: agents[0], kind: 'chat', description, createdGameMs: 1, importance: 4, embedding: vector(random) }]);
    add('before');
    db.reviseRelationship(agents[0], agents[1], 'before', 1);
    expect(db.memories.recent(agents[0], 5)).toHaveLength(1);
    await expect(
      db.batch(async () => {
        add('lost');
        db.reviseRelationship(agents[0], agents[1], 'lost', 2);
        db.events.markClock(9_000);
        expect(db.memories.recent(agents[0], 5).map((m) => m.description)).toEqual(['lost', 'before']);
        expect(db.relationshipsOf(agents[0])[0].summary).toBe('lost');
        // What SQLite does to a transaction on SQLITE_FULL or an I/O error: takes it back whole.
        db.db.exec('ROLLBACK');
      }),
    ).rejects.toThrow(/SQLite took back a batch of writes/);
    expect(db.memories.recent(agents[0], 5).map((m) => m.description)).toEqual(['before']);
    expect(db.relationshipsOf(agents[0])[0].summary).toBe('before');
    expect(db.events.clockMark()).toBe(null);
    const [top] = db.memories.retrieve({
      agentId: agents[0],
      query: vector(random),
      nowGameMs: 5,
      k: 5,
      weights: { recency: 1, importance: 1, relevance: 1 },
      decayPerGameHour: 0.99,
    });
    expect(top.memory.description).toBe('before');
    db.close();
  });

  it('refuses a batch inside another transaction', async () => {
    const db = openWorldDb(':memory:', EMBEDDING);
    db.db.exec('BEGIN');
    await expect(db.batch(async () => 1)).rejects.toThrow(/cannot start inside another transaction/);
    db.db.exec('ROLLBACK');
    db.close();
  });
});
