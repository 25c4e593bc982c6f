// The rows `recent` holds (each agent's newest memories, for the news told on every talk turn) are capped in all,
// least recently asked agent dropped first, and writes keep the cap as loads do. A town of a thousand asked every
// agent early in the day, when each had few memories, and its writes then grew every agent's rows to 200: ~195,000
// rows (~50 MB of heap) by the evening against a cap of 40,000 (now 200,000: a thousand agents talk among all of them,
// and a ten thousand town would hold 2,000,000). Whatever is dropped, `recent` answers as the file does.
import { describe, expect, it } from 'vitest';
import { openWorldDb } from '../../server/src/store/WorldDb';
import { SqliteMemoryStore } from '../../server/src/store/SqliteMemoryStore';
import type { MemoryInput } from '../../server/src/store/types';
import { asAgentId } from '../../server/src/world/types';

const D = 8;
const AGENTS = 12;
const TOTAL = 100;

function memory(agent: number, i: number): MemoryInput {
  const embedding = Float32Array.from({ length: D }, (_, d) => (d === (agent + i) % D ? 1 : 0));
  return { agentId: asAgentId(`a${agent}`), kind: 'observation', description: `a${agent} saw ${i}`, createdGameMs: i * 60_000, importance: 3, embedding };
}

/** A store with a cap of `total` rows, every agent asked once while it had one memory, then `perAgent` more written to each. */
function grown(total: number, perAgent: number) {
  const world = openWorldDb(':memory:', { model: 'test', dimension: D });
  const store = new SqliteMemoryStore(world.db, D, undefined, total);
  for (let a = 0; a < AGENTS; a++) store.add([memory(a, 0)]);
  for (let a = 0; a < AGENTS; a++) store.recent(asAgentId(`a${a}`), 5);
  for (let i = 1; i <= perAgent; i++) for (let a = 0; a < AGENTS; a++) store.add([memory(a, i)]);
  return { world, store };
}

describe('the rows held for recent', () => {
  it('stay within their cap while agents asked when young write on', () => {
    const { store } = grown(TOTAL, 30);
    // 12 agents × 31 rows would be 372 held without the cap on writes.
    expect(store.columnCache().recentRows).toBeLessThanOrEqual(TOTAL);
    expect(store.columnCache().recentRows).toBeGreaterThan(0);
  });

  it('are what the file holds, for agents kept and agents dropped', () => {
    const { world, store } = grown(TOTAL, 30);
    const reference = new SqliteMemoryStore(world.db, D, 0, 0);
    for (let a = 0; a < AGENTS; a++) {
      const id = asAgentId(`a${a}`);
      expect(store.recent(id, 20).map((m) => m.description)).toEqual(reference.recent(id, 20).map((m) => m.description));
    }
    expect(store.columnCache().recentRows).toBeLessThanOrEqual(TOTAL);
  });

  it('control: a cap above what the town writes holds every agent whole (the count is the rows, not a constant)', () => {
    const { store } = grown(10_000, 30);
    expect(store.columnCache().recentRows).toBe(AGENTS * 31);
  });
});
