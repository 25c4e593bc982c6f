// The column cache keeps an agent's times as u32 offsets from a per-agent base (and an i8 high part only
// once they span more than 2^32 ms, 49.7 game days), importance as a u8, and creation times only for an agent
// whose memories were not created in id order: 14 bytes a memory (18 with creation times) instead of 29,
// every time read back exactly and every tie broken as compareScored breaks it, so retrieval stays exact. Checked against brute force over many
// queries, k values, kind filters, touches and reloads, with times over 120 game days (before the first
// memory too); the controls show that the high part and the base are what keep it exact.
import { describe, expect, it } from 'vitest';
import { openWorldDb } from '../../server/src/store/WorldDb';
import { SqliteMemoryStore } from '../../server/src/store/SqliteMemoryStore';
import { InMemoryMemoryStore } from '../../server/src/store/InMemoryMemoryStore';
import type { MemoryInput, MemoryKind, RetrievalOptions, RetrievalWeights } from '../../server/src/store/types';
import { Rng } from '../../server/src/sim/rng';
import { asAgentId } from '../../server/src/world/types';
import { ColumnCache, CREATED_BYTES_PER_MEMORY, HIGH_BYTES_PER_TIME, SCALAR_BYTES_PER_MEMORY } from '../../server/src/store/ColumnCache';
import type { AgentColumns, ColumnRow } from '../../server/src/store/ColumnCache';
import { rankColumns } from '../../server/src/store/quantisedRetrieval';
import { cosine, rankAll, recencyIntoOffsets, recencyOf } from '../../server/src/store/scoring';

const D = 32;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const KINDS: MemoryKind[] = ['observation', 'chat', 'thought', 'plan'];
const T0 = Date.UTC(2026, 1, 13); // game ms as the town counts them
const WEIGHTS: RetrievalWeights[] = [
  { recency: 1, importance: 1, relevance: 1 },
  { recency: 0.5, importance: 2, relevance: 3 },
  { recency: 3, importance: 0.2, relevance: 1 },
  { recency: 1, importance: 0, relevance: 0 },
];

/** Memories over `days` game days, some before the first one's time; vectors repeat, times and importances tie. */
function memories(seed: number, agent: string, n: number, days: number): MemoryInput[] {
  const rng = new Rng(seed);
  const centres = Array.from({ length: 6 }, () => Float32Array.from({ length: D }, () => rng.next() - 0.5));
  const out: MemoryInput[] = [];
  for (let i = 0; i < n; i++) {
    const prev = out[out.length - 1];
    const embedding = prev && rng.int(0, 4) === 0 ? Float32Array.from(prev.embedding) : centres[rng.int(0, 5)].map((x) => x + 0.2 * (rng.next() - 0.5));
    // The first memory is mid-range, so later ones fall before it, and far beyond it.
    const createdGameMs = i === 0 ? T0 + 10 * DAY : T0 + rng.int(0, days * 24) * HOUR + rng.int(0, 999);
    out.push({ agentId: asAgentId(agent), kind: KINDS[rng.int(0, 3)], description: `m${i}`, createdGameMs, importance: rng.int(1, 10), embedding });
  }
  return out;
}

function stores(inputs: MemoryInput[]) {
  const world = openWorldDb(':memory:', { model: 'test', dimension: D });
  const store = new SqliteMemoryStore(world.db, D);
  const reference = new InMemoryMemoryStore();
  store.add(inputs);
  reference.add(inputs);
  return { store, reference };
}

describe('the column cache keeps times and importance narrow, and exact', () => {
  for (const [seed, ordered] of [
    [1, false],
    [2, false],
    [3, false],
    [4, true],
    [5, true],
  ] as const)
    it(`is exact with times over 120 game days, through touches and reloads (seed ${seed}${ordered ? ', created in id order' : ''})`, () => {
      const made = memories(seed, 'ada', 1500, 120);
      // In creation order, the columns hold no creation times and break ties by position.
      const inputs = ordered ? made.sort((a, b) => a.createdGameMs - b.createdGameMs) : made;
      const { store, reference } = stores([...inputs, ...memories(seed + 50, 'bo', 300, 3)]);
      const rng = new Rng(seed + 100);
      let retrievals = 0;
      for (let i = 0; i < 120; i++) {
        const o: RetrievalOptions = {
          agentId: asAgentId(rng.int(0, 3) === 0 ? 'bo' : 'ada'),
          query: inputs[rng.int(0, inputs.length - 1)].embedding.map((x) => x + 0.05 * (rng.next() - 0.5)),
          // now moves on past 2^32 ms from the first memory; at times the agent is looked at from before some memories
          nowGameMs: T0 + rng.int(0, 200) * DAY + rng.int(0, DAY),
          k: [1, 3, 5, 12, 40][rng.int(0, 4)],
          weights: WEIGHTS[rng.int(0, WEIGHTS.length - 1)],
          decayPerGameHour: [0.995, 0.99, 0.9999][rng.int(0, 2)],
          kinds: rng.int(0, 2) === 0 ? [KINDS[rng.int(0, 3)], KINDS[rng.int(0, 3)]] : undefined,
          touch: rng.int(0, 1) === 0,
        };
        const got = store.retrieve(o);
        expect(got.map((s) => ({ ...s, memory: { ...s.memory } }))).toEqual(reference.retrieve(o));
        retrievals++;
        if (i % 40 === 39) store.forgetAllColumns(); // a restart's reload: the columns rebuilt from the rows
        if (i % 9 === 0) {
          const late = { ...inputs[i], description: `late ${i}`, createdGameMs: o.nowGameMs };
          store.add([late]);
          reference.add([late]);
        }
      }
      expect(store.stats.columnScans).toBe(retrievals);
      expect(store.stats.fullScans + store.stats.rounds).toBe(0);
    });
});

/** Loads rows into a fresh cache: vectors[i] is row i's vector (its own pool key). */
function loaded(rows: ColumnRow[], vectors: Float32Array[]): { cache: ColumnCache; c: AgentColumns } {
  const cache = new ColumnCache(D, 1 << 24);
  const c = cache.load('a', rows, rows.length, function* () {
    for (let i = 0; i < rows.length; i++) yield { id: rows[i].id, vector: vectors[i] };
  });
  return { cache, c: c! };
}

/** The exact top k from the columns and from brute force over the rows' true values. */
function rankBoth(cache: ColumnCache, c: AgentColumns, rows: ColumnRow[], vectors: Float32Array[], o: RetrievalOptions) {
  const ranking = rankColumns(cache, c, o, (p) => cosine(o.query, vectors[p]), { exactReads: 0, candidates: 0, refined: 0 })!;
  const raw = rows.map((r, i) => ({
    memory: { id: r.id, createdGameMs: r.created } as never,
    recency: recencyOf(r.lastAccessed, o.nowGameMs, o.decayPerGameHour),
    importance: r.importance,
    relevance: cosine(o.query, vectors[i]),
  }));
  const want = rankAll(raw, o.weights, o.k);
  return { got: ranking.hits.map((h) => [c.ids[h.position], h.score]), want: want.map((s) => [s.memory.id, s.score]) };
}

describe('the time columns', () => {
  const rng = new Rng(7);
  const vectors = Array.from({ length: 400 }, () => Float32Array.from({ length: D }, () => rng.next() - 0.5));
  const rowsOver = (days: number): ColumnRow[] =>
    vectors.map((_, i) => {
      // Some before the first memory (by up to 12 hours: within the agent's base, which is a day before it).
      const created = T0 + (i === 0 ? 0 : rng.int(0, days) * DAY + rng.int(0, DAY) - 12 * HOUR);
      return { id: i + 1, created, lastAccessed: created + rng.int(0, 3) * HOUR, importance: rng.int(1, 10), kind: 'observation' };
    });
  const o = (nowGameMs: number): RetrievalOptions => ({
    agentId: asAgentId('a'),
    query: vectors[3],
    nowGameMs,
    k: 12,
    weights: { recency: 3, importance: 1, relevance: 1 },
    decayPerGameHour: 0.99,
  });

  it('holds 18 bytes a memory (creation out of id order) while the times span under 2^32 ms, and reads every time back exactly', () => {
    const rows = rowsOver(40);
    const { cache, c } = loaded(rows, vectors);
    expect(SCALAR_BYTES_PER_MEMORY + CREATED_BYTES_PER_MEMORY).toBe(18);
    expect(c.createdLow).not.toBeNull();
    expect(c.accessHigh).toBeNull();
    expect(c.bytes).toBe(c.capacity * 18);
    rows.forEach((r, p) => expect([c.createdAt(p), c.lastAccessedAt(p)]).toEqual([r.created, r.lastAccessed]));
    const { got, want } = rankBoth(cache, c, rows, vectors, o(T0 + 41 * DAY));
    expect(got).toEqual(want);
  });

  it('adds a high part once they span more: exact again, and without it (the control) the ranking is wrong', () => {
    const rows = rowsOver(120);
    const { cache, c } = loaded(rows, vectors);
    expect(c.accessHigh).not.toBeNull();
    expect(c.bytes).toBe(c.capacity * (SCALAR_BYTES_PER_MEMORY + CREATED_BYTES_PER_MEMORY + 2 * HIGH_BYTES_PER_TIME));
    expect(cache.bytes).toBeGreaterThanOrEqual(c.bytes);
    rows.forEach((r, p) => expect([c.createdAt(p), c.lastAccessedAt(p)]).toEqual([r.created, r.lastAccessed]));
    const now = T0 + 121 * DAY;
    const { got, want } = rankBoth(cache, c, rows, vectors, o(now));
    expect(got).toEqual(want);
    // The control: low parts alone wrap at 2^32 ms, so old memories look recent.
    const recency = new Float64Array(c.n);
    recencyIntoOffsets(c.base, c.accessLow, null, c.n, now, 0.99, recency);
    expect(rows.some((r, p) => recency[p] !== recencyOf(r.lastAccessed, now, 0.99))).toBe(true);
    c.accessHigh = null;
    c.createdHigh = null;
    expect(rankBoth(cache, c, rows, vectors, o(now)).got).not.toEqual(want);
  });

  it('widens on a touch far from the base, counting the bytes, and keeps the ranking exact', () => {
    const rows = rowsOver(5);
    const { cache, c } = loaded(rows, vectors);
    const before = cache.bytes;
    const later = T0 + 80 * DAY + 17;
    expect(cache.touch('a', c, 5, later)).toBe(true);
    rows[5] = { ...rows[5], lastAccessed: later };
    expect(c.accessHigh).not.toBeNull();
    expect(cache.bytes - before).toBe(c.capacity * 2 * HIGH_BYTES_PER_TIME);
    expect(c.lastAccessedAt(5)).toBe(later);
    const { got, want } = rankBoth(cache, c, rows, vectors, o(later + HOUR));
    expect(got).toEqual(want);
    expect(got.map(([id]) => id)).toContain(6); // the touched memory is the most recent, so it ranks
  });

  it('refuses what it cannot hold exactly, so that SQL answers: a fractional time or importance, a time 2^39 ms away', () => {
    const rows = rowsOver(3);
    const refused = (change: Partial<ColumnRow>) => loaded([...rows.slice(0, 10), { ...rows[10], ...change }], vectors).c;
    expect(refused({})).toBeDefined();
    expect(refused({ created: rows[10].created + 0.5 })).toBeUndefined();
    expect(refused({ lastAccessed: rows[10].lastAccessed + 0.25 })).toBeUndefined();
    expect(refused({ importance: 5.5 })).toBeUndefined();
    expect(refused({ importance: 256 })).toBeUndefined();
    expect(refused({ lastAccessed: T0 + 2 ** 40 })).toBeUndefined();
    // A fraction too small to survive the offset from base (near 0, where a base a day back is negative) is caught too.
    const near0 = (t: number): ColumnRow[] => [0, t].map((x, i) => ({ id: i + 1, created: x, lastAccessed: x, importance: 3, kind: 'chat' }));
    expect(loaded(near0(5), vectors).c).toBeDefined();
    expect(loaded(near0(1e-10), vectors).c).toBeUndefined();
    const { cache, c } = loaded(rows, vectors);
    expect(cache.touch('a', c, 0, T0 + 0.5)).toBe(false);
    expect(cache.cachedAgents()).toEqual([]);
    expect(cache.bytes).toBe(0);
  });

  it('holds no creation times while memories come in creation order: 14 bytes, ties broken by position, exactly', () => {
    // Few distinct times and importances, and weights that make scores tie: the tie-break decides the top k.
    const inOrder: ColumnRow[] = vectors.map((_, i) => {
      const created = T0 + Math.floor(i / 7) * HOUR;
      return { id: 3 * i + 1, created, lastAccessed: created + (i % 3) * HOUR, importance: 1 + (i % 4), kind: 'observation' };
    });
    const { cache, c } = loaded(inOrder, vectors);
    expect(c.createdLow).toBeNull();
    expect(c.bytes).toBe(c.capacity * SCALAR_BYTES_PER_MEMORY);
    expect(SCALAR_BYTES_PER_MEMORY).toBe(14);
    for (const weights of [
      { recency: 0, importance: 1, relevance: 0 },
      { recency: 1, importance: 1, relevance: 0 },
      { recency: 3, importance: 1, relevance: 1 },
    ])
      for (const k of [1, 5, 12, 40]) {
        const { got, want } = rankBoth(cache, c, inOrder, vectors, { ...o(T0 + 60 * HOUR), weights, k });
        expect(got).toEqual(want);
      }
    // The control: the same columns over memories created out of id order break ties wrongly.
    const shuffled = inOrder.map((r, i) => ({ ...r, created: inOrder[(i * 37) % inOrder.length].created }));
    const wrong = rankBoth(cache, c, shuffled, vectors, { ...o(T0 + 60 * HOUR), weights: { recency: 0, importance: 1, relevance: 0 }, k: 12 });
    expect(wrong.got).not.toEqual(wrong.want);
    // Loaded as they are, they get creation times, and rank exactly.
    const held = loaded(shuffled, vectors);
    expect(held.c.createdLow).not.toBeNull();
    const right = rankBoth(held.cache, held.c, shuffled, vectors, { ...o(T0 + 60 * HOUR), weights: { recency: 0, importance: 1, relevance: 0 }, k: 12 });
    expect(right.got).toEqual(right.want);
  });

  it('drops an agent when a memory arrives created before the last, so that its reload holds creation times', () => {
    const { inputs } = { inputs: memories(4, 'ada', 300, 2).sort((a, b) => a.createdGameMs - b.createdGameMs) };
    const { store, reference } = stores(inputs);
    const query = inputs[5].embedding;
    const o2 = (nowGameMs: number): RetrievalOptions => ({ agentId: asAgentId('ada'), query, nowGameMs, k: 12, weights: WEIGHTS[3], decayPerGameHour: 0.99 });
    const same = (at: number) => expect(store.retrieve(o2(at)).map((s) => ({ ...s, memory: { ...s.memory } }))).toEqual(reference.retrieve(o2(at)));
    same(T0 + 3 * DAY);
    expect(store.columnCache().agents).toEqual(['ada']);
    const bytesInOrder = store.columnCache().bytes;
    const early = { ...inputs[9], description: 'remembered late', createdGameMs: T0 + HOUR };
    store.add([early]);
    reference.add([early]);
    expect(store.columnCache().agents).toEqual([]);
    same(T0 + 3 * DAY + HOUR);
    expect(store.columnCache().agents).toEqual(['ada']);
    expect(store.columnCache().bytes).toBeGreaterThan(bytesInOrder);
  });
});
