// Retrieval from the quantised column cache returns exactly what brute force returns (same memories,
// same order, same numbers), on data built to make the bound work hard: exact and near ties in
// relevance, ties in score broken by creation time and id, zero and flat vectors. And the cache keeps
// to its one byte cap, evicting the least recently used agent and reloading it on demand.
import { describe, expect, it } from 'vitest';
import { openWorldDb } from '../../server/src/store/WorldDb';
import { SqliteMemoryStore } from '../../server/src/store/SqliteMemoryStore';
import { InMemoryMemoryStore } from '../../server/src/store/InMemoryMemoryStore';
import type { MemoryInput, MemoryKind, MemoryStore, RetrievalOptions, RetrievalWeights } from '../../server/src/store/types';
import { Rng } from '../../server/src/sim/rng';
import { asAgentId, type AgentId } from '../../server/src/world/types';
import { ColumnCache, type AgentColumns } from '../../server/src/store/ColumnCache';
import { relevanceBounds } from '../../server/src/store/quantisedRetrieval';
import { cosine } from '../../server/src/store/scoring';

const D = 64;
const HOUR = 3_600_000;
const KINDS: MemoryKind[] = ['observation', 'chat', 'thought', 'plan'];

/** v with component k moved one float32 step away from zero (or to the smallest subnormal). */
function nudged(v: Float32Array, k: number): Float32Array {
  const out = Float32Array.from(v);
  const bits = new Int32Array(out.buffer);
  bits[k] = out[k] === 0 ? 1 : bits[k] + 1;
  return out;
}

/** Memories built to tie and nearly tie, so that only exact arithmetic orders them as brute force does. */
function adversarial(seed: number, agent: AgentId, n: number, zeros = true): { inputs: MemoryInput[]; queries: Float32Array[] } {
  const rng = new Rng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rng.next() + 1e-12)) * Math.cos(2 * Math.PI * rng.next());
  const unit = (v: Float32Array) => {
    const norm = Math.hypot(...v);
    return norm === 0 ? v : v.map((x) => x / norm);
  };
  const centres = Array.from({ length: 4 }, () => Float32Array.from({ length: D }, gauss));
  const inputs: MemoryInput[] = [];
  for (let i = 0; i < n; i++) {
    const prev = inputs[inputs.length - 1];
    let embedding: Float32Array;
    const shape = rng.int(0, 19);
    if (prev && shape === 0)
      embedding = Float32Array.from(prev.embedding); // exact tie in relevance
    else if (prev && shape === 1)
      embedding = nudged(prev.embedding, rng.int(0, D - 1)); // one ulp away
    else if (shape === 2 && zeros)
      embedding = new Float32Array(D); // zero: relevance exactly 0
    else if (shape === 3)
      embedding = new Float32Array(D).fill(0.125); // flat
    else embedding = unit(centres[rng.int(0, 3)].map((x) => x + 0.15 * gauss()));
    inputs.push({
      agentId: agent,
      kind: KINDS[rng.int(0, 3)],
      description: `memory ${i}`,
      // few distinct times and importances: many ties in recency and importance, and in score
      createdGameMs: rng.int(0, 20) * HOUR,
      importance: rng.int(4, 6),
      embedding,
    });
  }
  const queries = [
    unit(centres[0].map((x) => x + 0.1 * gauss())),
    Float32Array.from(inputs[Math.min(7, n - 1)].embedding), // exactly a stored vector: relevance 1 ties with its duplicates
    new Float32Array(D), // zero query
    new Float32Array(D).fill(1), // flat
    unit(centres[2].map((x) => x + 0.5 * gauss())),
  ];
  return { inputs, queries };
}

const weightings: RetrievalWeights[] = [
  { recency: 1, importance: 1, relevance: 1 },
  { recency: 0.5, importance: 2, relevance: 3 },
  { recency: 0, importance: 0, relevance: 1 },
  { recency: 1, importance: 0, relevance: 0 },
  { recency: 0, importance: 1, relevance: 0 },
  { recency: 1, importance: 1, relevance: -1 },
];

function both(inputs: MemoryInput[], capBytes?: number): { store: SqliteMemoryStore; reference: InMemoryMemoryStore } {
  const world = openWorldDb(':memory:', { model: 'test', dimension: D });
  const store = new SqliteMemoryStore(world.db, D, capBytes);
  const reference = new InMemoryMemoryStore();
  store.add(inputs);
  reference.add(inputs);
  return { store, reference };
}

function expectSame(store: MemoryStore, reference: MemoryStore, o: RetrievalOptions): void {
  const got = store.retrieve(o);
  const want = reference.retrieve(o);
  // Every number, not only the ids: exact means exact.
  expect(got.map((s) => ({ ...s, memory: { ...s.memory } }))).toEqual(want);
}

describe('retrieval from the quantised columns', () => {
  for (const seed of [1, 2]) {
    it(`equals brute force on ties and near-ties, for every weighting, k and kind filter (seed ${seed})`, () => {
      const ada = asAgentId('ada');
      const { inputs, queries } = adversarial(seed, ada, 3000);
      const { store, reference } = both([...inputs, ...adversarial(seed + 10, asAgentId('bo'), 500).inputs]);
      for (const weights of weightings)
        for (const query of queries)
          for (const k of [1, 10, 40])
            for (const kinds of [undefined, ['thought', 'plan'] as MemoryKind[]])
              expectSame(store, reference, { agentId: ada, query, nowGameMs: 21 * HOUR, k, weights, decayPerGameHour: 0.99, kinds, touch: false });
      expect(store.stats.columnScans).toBe(weightings.length * queries.length * 3 * 2);
      expect(store.stats.fullScans + store.stats.rounds).toBe(0);
      // The bounds do the work: a few exact reads per retrieval, not thousands.
      expect(store.stats.exactReads / store.stats.columnScans).toBeLessThan(60);
    });
  }

  it('stays exact as retrievals touch memories and new memories arrive', () => {
    const ada = asAgentId('ada');
    const { inputs, queries } = adversarial(5, ada, 1500);
    const { store, reference } = both(inputs);
    for (let i = 0; i < 40; i++) {
      const o = {
        agentId: ada,
        query: queries[i % queries.length],
        nowGameMs: (21 + i) * HOUR,
        k: 5,
        weights: weightings[i % weightings.length],
        decayPerGameHour: 0.995,
      };
      expectSame(store, reference, o);
      const late = { ...inputs[i * 7], description: `late ${i}`, createdGameMs: (21 + i) * HOUR };
      store.add([late]);
      reference.add([late]);
    }
  });

  it('returns nothing for an agent without memories, and everything when k exceeds them', () => {
    const ada = asAgentId('ada');
    const { inputs, queries } = adversarial(6, ada, 7);
    const { store, reference } = both(inputs);
    expect(store.retrieve({ agentId: asAgentId('nobody'), query: queries[0], nowGameMs: 0, k: 5, weights: weightings[0], decayPerGameHour: 0.99 })).toEqual([]);
    expectSame(store, reference, {
      agentId: ada,
      query: queries[0],
      nowGameMs: 21 * HOUR,
      k: 50,
      weights: weightings[1],
      decayPerGameHour: 0.99,
      touch: false,
    });
  });
});

describe('the column cache', () => {
  const query = (seed: number) => adversarial(seed, asAgentId('x'), 8).queries[0];
  const o = (agent: string, q: Float32Array): RetrievalOptions => ({
    agentId: asAgentId(agent),
    query: q,
    nowGameMs: 30 * HOUR,
    k: 5,
    weights: weightings[1],
    decayPerGameHour: 0.995,
    touch: false,
  });
  const town = (sizes: Record<string, number>) => Object.entries(sizes).flatMap(([agent, n], i) => adversarial(100 + i, asAgentId(agent), n).inputs);
  /** Bytes the cache takes for one agent of n memories, measured. */
  const sizeOf = (n: number) => {
    const { store } = both(town({ a: n }));
    store.retrieve(o('a', query(0)));
    return store.columnCache().bytes;
  };

  it('keeps to its cap: a second agent that does not fit with the first evicts it, and it reloads on demand', () => {
    const cap = Math.round(sizeOf(1000) * 1.5);
    const { store, reference } = both(town({ a: 1000, b: 1000 }), cap);
    const q = query(1);
    expectSame(store, reference, o('a', q));
    expect(store.columnCache().agents).toEqual(['a']);
    expectSame(store, reference, o('b', q));
    expect(store.columnCache().agents).toEqual(['b']);
    expect(store.columnCache().stats).toMatchObject({ loads: 2, evictions: 1 });
    expect(store.columnCache().bytes).toBeLessThanOrEqual(cap);
    expectSame(store, reference, o('a', q));
    expect(store.columnCache().agents).toEqual(['a']);
    expect(store.columnCache().stats).toMatchObject({ loads: 3, evictions: 2 });
    expect(store.stats.columnScans).toBe(3);
  });

  it('evicts the least recently used agent', () => {
    const cap = Math.round(sizeOf(500) * 2.5);
    const { store, reference } = both(town({ a: 500, b: 500, c: 500 }), cap);
    const q = query(2);
    for (const agent of ['a', 'b', 'a', 'c']) expectSame(store, reference, o(agent, q));
    expect(store.columnCache().agents.sort()).toEqual(['a', 'c']);
    expect(store.columnCache().bytes).toBeLessThanOrEqual(cap);
  });

  it('makes room for a growing agent by evicting another, and stays within the cap', () => {
    const cap = sizeOf(900) + sizeOf(300) + 1000;
    const { store, reference } = both(town({ a: 900, b: 300 }), cap);
    const q = query(3);
    expectSame(store, reference, o('a', q));
    expectSame(store, reference, o('b', q));
    expect(store.columnCache().agents.sort()).toEqual(['a', 'b']);
    const more = adversarial(9, asAgentId('b'), 700).inputs;
    for (let i = 0; i < more.length; i += 50) {
      store.add(more.slice(i, i + 50));
      reference.add(more.slice(i, i + 50));
      expect(store.columnCache().bytes).toBeLessThanOrEqual(cap);
    }
    expect(store.columnCache().agents).toEqual(['b']);
    expectSame(store, reference, o('b', q));
    expectSame(store, reference, o('a', q));
  });

  it('keeps a vector that several agents share once, until the last of them leaves', () => {
    // b noted most of what a noted (the same vectors, as a town's residents note the same sights), and more.
    const a = adversarial(21, asAgentId('a'), 600).inputs;
    const own = adversarial(22, asAgentId('b'), 200).inputs;
    const b = [...a.slice(0, 400).map((m, i) => ({ ...m, agentId: asAgentId('b'), description: `b saw ${i}` })), ...own];
    const { store, reference } = both([...a, ...b]);
    const distinct = (ms: MemoryInput[]) => new Set(ms.map((m) => Array.from(m.embedding).join())).size;
    const q = query(7);
    expectSame(store, reference, o('a', q));
    const alone = store.columnCache().bytes;
    expect(store.columnCache().vectors).toBe(distinct(a));
    expectSame(store, reference, o('b', q));
    expect(store.columnCache().vectors).toBe(distinct([...a, ...b]));
    // b's shared memories cost their columns only: far less than b alone would.
    expect(store.columnCache().bytes - alone).toBeLessThan(alone * 0.6);
    expect(store.columnCache().stats.quantised).toBe(distinct([...a, ...b]));
    for (const weights of weightings) for (const agent of ['a', 'b']) expectSame(store, reference, { ...o(agent, q), weights, k: 12 });
    // a leaves: the vectors only a had go, those b shares stay, and b is still exact.
    store.forgetColumns(asAgentId('a'));
    expect(store.columnCache().vectors).toBe(distinct(b));
    expectSame(store, reference, o('b', query(8)));
    // a comes back: only the vectors b does not hold are quantised again.
    const before = store.columnCache().stats.quantised;
    expectSame(store, reference, o('a', query(8)));
    expect(store.columnCache().stats.quantised - before).toBe(distinct([...a, ...b]) - distinct(b));
    store.forgetAllColumns();
    expect(store.columnCache()).toMatchObject({ bytes: 0, vectors: 0 });
  });

  it('keeps importance as a u8: an agent with one that is not an integer 0–255 is answered through SQL, still exactly', () => {
    const inputs = town({ a: 300, b: 300 }).map((m, i) => (m.agentId === 'b' && i === 450 ? { ...m, importance: 5.1 } : m));
    const { store, reference } = both(inputs);
    const q = query(9);
    expectSame(store, reference, o('a', q));
    expect(store.stats.columnScans).toBe(1);
    expectSame(store, reference, o('b', q));
    expect(store.stats.columnScans).toBe(1);
    expect(store.columnCache().agents).toEqual(['a']);
  });

  it('trusts its keys: two different vectors under one key break the bound (the control)', () => {
    const cache = new ColumnCache(D, 1 << 24);
    const { inputs, queries } = adversarial(23, asAgentId('a'), 50, false);
    const rows = inputs.map((m, i) => ({ id: i + 1, lastAccessed: 0, created: 0, importance: 5, kind: m.kind, vector: i + 1 }));
    const load = (agent: string, keys: (i: number) => number, vectors: Float32Array[]) =>
      cache.load(
        agent,
        rows.map((r, i) => ({ ...r, vector: keys(i) })),
        rows.length,
        function* () {
          for (let i = 0; i < vectors.length; i++) yield { id: i + 1, vector: vectors[i] };
        },
      )!;
    const held = (c: AgentColumns, vectors: Float32Array[], q: Float32Array) =>
      relevanceBounds(cache, c, q).every(({ stage1, stage2 }, p) => {
        const exact = cosine(q, vectors[p]);
        return stage1[0] <= exact && exact <= stage1[1] && stage2[0] <= exact && exact <= stage2[1];
      });
    const mine = inputs.map((m) => m.embedding);
    const a = load('a', (i) => i + 1, mine);
    expect(held(a, mine, queries[0])).toBe(true);
    // b's vectors differ from a's but claim a's keys: the pool hands b a's rows, and the bound misses.
    const others = mine.map((v) => v.map((x) => -x));
    const b = load('b', (i) => i + 1, others);
    expect(held(b, others, queries[0])).toBe(false);
    // under keys of its own, b is bounded again
    const honest = load('b', (i) => 1000 + i, others);
    expect(held(honest, others, queries[0])).toBe(true);
  });

  it('answers an agent too large for the cap alone through SQL, still exactly', () => {
    // Without zero vectors: vec0 (sqlite-vec 0.1.9) gives them a NaN distance that scrambles its KNN.
    const { store, reference } = both(adversarial(7, asAgentId('big'), 2000, false).inputs, sizeOf(1000));
    expectSame(store, reference, o('big', query(4)));
    expect(store.stats.columnScans).toBe(0);
    expect(store.columnCache().agents).toEqual([]);
    expect(store.columnCache().bytes).toBe(0);
  });

  it('drops an agent whose insert failed half-way, so no rolled-back memory lingers in it', () => {
    const { store, reference } = both(town({ a: 300 }));
    const q = query(5);
    expectSame(store, reference, o('a', q));
    const good = adversarial(11, asAgentId('a'), 2).inputs;
    expect(() => store.add([good[0], { ...good[1], embedding: new Float32Array(D + 1) }])).toThrow(/dimensions/);
    expect(store.columnCache().agents).toEqual([]);
    expectSame(store, reference, o('a', q));
    expect(store.count(asAgentId('a'))).toBe(300);
  });

  it('drops the columns an outer transaction may roll back', () => {
    const world = openWorldDb(':memory:', { model: 'test', dimension: D });
    const store = new SqliteMemoryStore(world.db, D);
    const reference = new InMemoryMemoryStore();
    const inputs = town({ a: 200 });
    store.add(inputs);
    reference.add(inputs);
    const q = query(6);
    expectSame(store, reference, o('a', q));
    expect(() =>
      world.db.transaction(() => {
        store.add(adversarial(12, asAgentId('a'), 5).inputs);
        store.retrieve(o('a', q));
        store.retrieve({ ...o('a', q), touch: true });
        throw new Error('changed my mind');
      })(),
    ).toThrow('changed my mind');
    expect(store.count(asAgentId('a'))).toBe(200);
    expectSame(store, reference, o('a', q));
  });

  it('holds an int8 copy plus an int4 residual: under 2.6 kB a memory at 1,536 dimensions, against 6 kB of float32', () => {
    const world = openWorldDb(':memory:', { model: 'test', dimension: 1536 });
    const store = world.memories;
    const rng = new Rng(3);
    const n = 2000;
    store.add(
      Array.from({ length: n }, (_, i) => ({
        agentId: asAgentId('a'),
        kind: 'observation' as const,
        description: `m${i}`,
        createdGameMs: i,
        importance: 5,
        embedding: Float32Array.from({ length: 1536 }, () => rng.next() - 0.5),
      })),
    );
    store.retrieve({
      ...o(
        'a',
        Float32Array.from({ length: 1536 }, () => rng.next() - 0.5),
      ),
      k: 3,
    });
    expect(store.columnCache().bytes / n).toBeLessThan(2600);
  });
});
