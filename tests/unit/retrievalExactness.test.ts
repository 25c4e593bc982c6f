// On randomised data, the SQLite store's retrieval returns exactly the brute-force top k over ALL of
// an agent's memories, for several weightings, while the bound lets it skip most memories.
import { describe, expect, it } from 'vitest';
import { openWorldDb } from '../../server/src/store/WorldDb';
import { SqliteMemoryStore } from '../../server/src/store/SqliteMemoryStore';
import { InMemoryMemoryStore } from '../../server/src/store/InMemoryMemoryStore';
import type { MemoryInput } from '../../server/src/store/types';
import { Rng } from '../../server/src/sim/rng';
import { asAgentId } from '../../server/src/world/types';
import { takeBackToVec0 } from '../fixtures/oldVectors';

const D = 16;
const HOUR = 3_600_000;

function dataset(seed: number, n: number): { inputs: MemoryInput[]; queries: Float32Array[] } {
  const rng = new Rng(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(rng.next() + 1e-12)) * Math.cos(2 * Math.PI * rng.next());
  const centres = Array.from({ length: 6 }, () => Float32Array.from({ length: D }, gauss));
  const unit = (v: Float32Array) => {
    const norm = Math.hypot(...v);
    return v.map((x) => x / norm);
  };
  const inputs: MemoryInput[] = [];
  for (let i = 0; i < n; i++) {
    const c = centres[rng.int(0, centres.length - 1)];
    inputs.push({
      agentId: asAgentId(`agent${rng.int(0, 2)}`),
      kind: 'observation',
      description: `memory ${i}`,
      // Old memories are often more relevant and important than recent ones: the lists disagree.
      createdGameMs: rng.int(0, 200) * HOUR + rng.int(0, 3599) * 1000,
      importance: rng.int(1, 10),
      embedding: unit(c.map((x) => x + 0.6 * gauss())),
    });
  }
  const queries = Array.from({ length: 8 }, () => unit(centres[rng.int(0, centres.length - 1)].map((x) => x + 0.3 * gauss())));
  return { inputs, queries };
}

// Three paths: agents small enough are scored from columns in memory; larger ones by SQL: a scan of the
// agent's rows and shared vectors, or in a file older than schema 3, the bounded path (vec0 KNN + recency
// + importance lists). All must equal brute force.
const paths = [
  ['the SQL scan of shared vectors', 0, 'shared'],
  ['the bounded SQL path of an older file (vec0)', 0, 'vec0'],
  ['the in-memory columns', undefined, 'shared'],
] as const;

function worldOf(layout: 'shared' | 'vec0') {
  const world = openWorldDb(':memory:', { model: 'test', dimension: D });
  if (layout === 'vec0') takeBackToVec0(world.db, D);
  return world;
}

describe.each(paths)('exact retrieval through %s', (_name, columnCacheBytes, layout) => {
  for (const seed of [1, 2, 3]) {
    it(`matches brute force over all memories (seed ${seed})`, () => {
      const { inputs, queries } = dataset(seed, 2000);
      const world = worldOf(layout);
      const store = new SqliteMemoryStore(world.db, D, columnCacheBytes);
      expect(store.layout).toBe(layout);
      const reference = new InMemoryMemoryStore();
      store.add(inputs);
      reference.add(inputs);
      const weightings = [
        { recency: 1, importance: 1, relevance: 1 },
        { recency: 0.5, importance: 2, relevance: 3 },
        { recency: 3, importance: 0.2, relevance: 1 },
      ];
      let checked = 0;
      for (const weights of weightings)
        for (const query of queries)
          for (const agent of ['agent0', 'agent1', 'agent2']) {
            const o = { agentId: asAgentId(agent), query, nowGameMs: 210 * HOUR, k: 10, weights, decayPerGameHour: 0.99, touch: false };
            const got = store.retrieve(o).map((s) => s.memory.id);
            const want = reference.retrieve(o).map((s) => s.memory.id);
            expect(got).toEqual(want);
            checked++;
          }
      expect(checked).toBe(72);
      if (columnCacheBytes === 0) {
        expect(store.stats.columnScans).toBe(0);
        // The bound does its job: most retrievals never scan the whole agent. Without a KNN index, every one does.
        if (layout === 'vec0') expect(store.stats.fullScans).toBeLessThan(checked / 2);
        else expect(store.stats.fullScans).toBe(checked);
      } else expect(store.stats.columnScans).toBe(checked);
    });
  }

  it('stays exact as retrievals touch memories and change recency', () => {
    const { inputs, queries } = dataset(9, 600);
    const world = worldOf(layout);
    const store = new SqliteMemoryStore(world.db, D, columnCacheBytes);
    const reference = new InMemoryMemoryStore();
    store.add(inputs);
    reference.add(inputs);
    queries.forEach((query, i) => {
      const o = {
        agentId: asAgentId('agent1'),
        query,
        nowGameMs: (201 + i) * HOUR,
        k: 5,
        weights: { recency: 1, importance: 1, relevance: 1 },
        decayPerGameHour: 0.995,
      };
      expect(store.retrieve(o).map((s) => s.memory.id)).toEqual(reference.retrieve(o).map((s) => s.memory.id));
      // Memories added after the columns were loaded are scored too.
      store.add([{ ...inputs[i], description: `late ${i}` }]);
      reference.add([{ ...inputs[i], description: `late ${i}` }]);
    });
  });
});
