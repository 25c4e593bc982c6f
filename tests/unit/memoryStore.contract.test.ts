// One contract, every MemoryStore: the SQLite store and the in-memory reference.
import { describe, expect, it } from 'vitest';
import { InMemoryMemoryStore } from '../../server/src/store/InMemoryMemoryStore';
import { openWorldDb } from '../../server/src/store/WorldDb';
import type { MemoryInput, MemoryStore, RetrievalOptions } from '../../server/src/store/types';
import { asAgentId } from '../../server/src/world/types';

const D = 8;
const ada = asAgentId('ada');
const bo = asAgentId('bo');
const HOUR = 3_600_000;

function unit(...values: number[]): Float32Array {
  const v = new Float32Array(D);
  values.forEach((x, i) => (v[i] = x));
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function memory(over: Partial<MemoryInput> = {}): MemoryInput {
  return { agentId: ada, kind: 'observation', description: 'something happened', createdGameMs: 0, importance: 5, embedding: unit(1), ...over };
}

const weights = { recency: 1, importance: 1, relevance: 1 };
const opts = (over: Partial<RetrievalOptions> = {}): RetrievalOptions => ({
  agentId: ada,
  query: unit(1),
  nowGameMs: 10 * HOUR,
  k: 3,
  weights,
  decayPerGameHour: 0.995,
  ...over,
});

const stores: Array<[string, () => MemoryStore]> = [
  ['InMemoryMemoryStore', () => new InMemoryMemoryStore()],
  ['SqliteMemoryStore', () => openWorldDb(':memory:', { model: 'test', dimension: D }).memories],
];

describe.each(stores)('%s', (_name, make) => {
  it('adds, gets, counts and lists newest first', () => {
    const s = make();
    const ids = s.add([memory({ description: 'first' }), memory({ description: 'second', createdGameMs: 1 }), memory({ agentId: bo, description: 'other' })]);
    expect(ids).toHaveLength(3);
    expect(s.get(ids[1])).toMatchObject({ id: ids[1], agentId: 'ada', description: 'second', importance: 5, lastAccessedGameMs: 1 });
    expect(s.count(ada)).toBe(2);
    expect(s.count()).toBe(3);
    expect(s.recent(ada, 10).map((m) => m.description)).toEqual(['second', 'first']);
    expect(s.get(999_999)).toBeUndefined();
  });

  it('keeps triples, kinds and the evidence of thoughts', () => {
    const s = make();
    const [a] = s.add([memory({ triple: { subject: 'Ada', predicate: 'is', object: 'reading' } })]);
    const [t] = s.add([memory({ kind: 'thought', description: 'Ada loves books', evidenceIds: [a] })]);
    expect(s.get(a)!.triple).toEqual({ subject: 'Ada', predicate: 'is', object: 'reading' });
    expect(s.get(t)).toMatchObject({ kind: 'thought', evidenceIds: [a] });
    expect(s.recent(ada, 10, ['thought']).map((m) => m.id)).toEqual([t]);
  });

  it('retrieves the top k, sorted, and marks them accessed now (unless asked not to)', () => {
    const s = make();
    s.add([1, 2, 3, 4, 5].map((i) => memory({ description: `m${i}`, importance: i, createdGameMs: i * HOUR })));
    const peek = s.retrieve(opts({ touch: false }));
    expect(peek).toHaveLength(3);
    expect(peek.map((x) => x.score)).toEqual([...peek.map((x) => x.score)].sort((a, b) => b - a));
    expect(s.get(peek[0].memory.id)!.lastAccessedGameMs).toBe(peek[0].memory.createdGameMs);
    const top = s.retrieve(opts());
    expect(top.map((x) => x.memory.id)).toEqual(peek.map((x) => x.memory.id));
    for (const x of top) expect(s.get(x.memory.id)!.lastAccessedGameMs).toBe(10 * HOUR);
  });

  it('favours the most recently accessed memory, not the oldest (the reference code had this backwards)', () => {
    const s = make();
    const [old, recent] = s.add([memory({ description: 'old', createdGameMs: 0 }), memory({ description: 'recent', createdGameMs: 9 * HOUR })]);
    const out = s.retrieve(opts({ k: 2, weights: { recency: 1, importance: 0, relevance: 0 } }));
    expect(out[0].memory.id).toBe(recent);
    expect(out[0].recency).toBe(1);
    expect(out.find((x) => x.memory.id === old)!.recency).toBe(0);
  });

  it('scores tied or single candidates 0.5, never NaN', () => {
    const s = make();
    s.add([memory()]);
    const [single] = s.retrieve(opts({ k: 5 }));
    expect([single.recency, single.importance, single.relevance]).toEqual([0.5, 0.5, 0.5]);
    expect(single.score).toBe(1.5);
    s.add([memory()]);
    for (const x of s.retrieve(opts({ k: 5 }))) expect(Number.isNaN(x.score)).toBe(false);
  });

  it('ranks by relevance when only relevance counts', () => {
    const s = make();
    const [near, far] = s.add([memory({ description: 'near', embedding: unit(1, 0.1) }), memory({ description: 'far', embedding: unit(0, 1) })]);
    const out = s.retrieve(opts({ k: 2, weights: { recency: 0, importance: 0, relevance: 1 } }));
    expect(out.map((x) => x.memory.id)).toEqual([near, far]);
  });

  it('keeps agents apart', () => {
    const s = make();
    s.add([memory({ agentId: bo, description: 'bo only' })]);
    expect(s.retrieve(opts())).toEqual([]);
    expect(s.search(ada, 'bo only', 5)).toEqual([]);
    expect(s.search(bo, 'BO ONLY', 5)).toHaveLength(1);
  });

  it("lists an agent's memories of some kinds since a game time, newest first, past any number of other kinds", () => {
    const s = make();
    s.add([memory({ kind: 'chat', description: 'old news', createdGameMs: HOUR })]);
    s.add([memory({ kind: 'thought', description: 'a whisper', createdGameMs: 2 * HOUR })]);
    s.add(Array.from({ length: 300 }, (_, i) => memory({ description: `noticed ${i}`, createdGameMs: 3 * HOUR })));
    s.add([memory({ kind: 'chat', description: 'fresh news', createdGameMs: 4 * HOUR }), memory({ agentId: bo, kind: 'chat', createdGameMs: 4 * HOUR })]);
    s.add([memory({ kind: 'plan', description: 'a plan', createdGameMs: 4 * HOUR })]);
    expect(s.since(ada, 2 * HOUR, ['chat', 'thought']).map((m) => m.description)).toEqual(['fresh news', 'a whisper']);
    expect(s.since(ada, 0, ['chat']).map((m) => m.description)).toEqual(['fresh news', 'old news']);
    expect(s.since(ada, 5 * HOUR, ['chat', 'thought'])).toEqual([]);
    expect(s.recent(ada, 150, ['chat', 'thought', 'observation']).some((m) => m.description === 'a whisper')).toBe(false);
  });

  it("lists an agent's memories since a game time rated at least an importance, past any number rated lower", () => {
    const s = make();
    s.add([memory({ description: 'a seed: planning a party', importance: 9, createdGameMs: HOUR })]);
    s.add(Array.from({ length: 300 }, (_, i) => memory({ description: `noticed ${i}`, importance: 2, createdGameMs: 3 * HOUR })));
    s.add([memory({ description: 'an alarm', importance: 6, createdGameMs: 4 * HOUR }), memory({ agentId: bo, importance: 9, createdGameMs: 4 * HOUR })]);
    expect(s.since(ada, 0, ['observation'], 6).map((m) => m.description)).toEqual(['an alarm', 'a seed: planning a party']);
    expect(s.since(ada, 2 * HOUR, ['observation'], 6).map((m) => m.description)).toEqual(['an alarm']);
    expect(s.since(ada, 0, ['observation'], 10)).toEqual([]);
    expect(s.since(ada, 0, ['observation'])).toHaveLength(302);
  });

  it('filters by kind', () => {
    const s = make();
    s.add([memory({ kind: 'chat', description: 'a chat' }), memory({ kind: 'plan', description: 'a plan' })]);
    expect(s.retrieve(opts({ kinds: ['plan'] })).map((x) => x.memory.description)).toEqual(['a plan']);
  });
});
