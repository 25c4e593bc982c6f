// The news an agent might tell (AgentMemory.news) covers the last two days whatever else it noticed since: a
// shopkeeper who hears of a sale at 06:00 and notices the shop's shelves and fridge all day still has the sale to
// tell at 18:00, and still knows whom it told; so has a host whose party is in its persona file (a seed memory).
import { describe, expect, it } from 'vitest';
import { AgentMemory } from '../../server/src/agent/memory';
import type { CognitionContext } from '../../server/src/agent/context';
import { openWorldDb } from '../../server/src/store/WorldDb';
import type { MemoryInput, MemoryStore } from '../../server/src/store/types';
import { asAgentId } from '../../server/src/world/types';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';

const omar = asAgentId('omar');
const MORNING = Date.UTC(2026, 1, 13, 6, 0);
const SALE = 'Omar Haddad is holding a spring sale at the Corner Shop tomorrow at 10am, and all are welcome.';

function row(over: Partial<MemoryInput>): MemoryInput {
  const embedding = new Float32Array(4).fill(0.5);
  return { agentId: omar, kind: 'observation', description: 'shelf is full', createdGameMs: MORNING, importance: 2, embedding, ...over };
}

/** Omar hears of his sale at 06:00, tells Samira of it at once, then notices his shop every five minutes until `hours` later. */
function busyDay(hours: number): { memory: AgentMemory; store: MemoryStore } {
  const store = openWorldDb(':memory:', { model: 'test', dimension: 4 }).memories;
  const memory = new AgentMemory({ deps: { memories: store, personas: new Map() } } as unknown as CognitionContext);
  store.add([row({ kind: 'thought', description: SALE, importance: 9, triple: { subject: 'Omar Haddad', predicate: 'was told', object: SALE } })]);
  store.add([
    row({
      kind: 'chat',
      description: `Omar Haddad and Samira Haddad had a conversation. They talked about: ${SALE}`,
      importance: 3,
      createdGameMs: MORNING + 60_000,
      triple: { subject: 'Omar Haddad', predicate: 'talked with', object: 'Samira Haddad' },
    }),
  ]);
  for (let t = 5; t <= hours * 60; t += 5) {
    const at = MORNING + t * 60_000;
    store.add([
      row({ description: 'shelf is stocked', createdGameMs: at, triple: { subject: 'shelf', predicate: 'is', object: 'stocked' } }),
      row({
        description: 'fridge is in use by Omar Haddad',
        createdGameMs: at,
        triple: { subject: 'fridge', predicate: 'is in use by', object: 'Omar Haddad' },
      }),
    ]);
  }
  return { memory, store };
}

describe('the news an agent might tell', () => {
  it('keeps a whisper heard at 06:00 after twelve busy hours (288 observations since), and how often it came up', () => {
    const { memory, store } = busyDay(12);
    expect(store.count(omar)).toBeGreaterThan(280);
    const evening = MORNING + 12 * GAME_MS_PER_HOUR;
    const toGrace = memory.news(omar, evening, { name: 'Grace Kim' });
    expect(toGrace.map((m) => m.description)).toEqual([SALE]);
    expect(toGrace[0].timesDiscussed).toBe(1);
    // Samira was told of it this morning: not news to her.
    expect(memory.news(omar, evening, { name: 'Samira Haddad' })).toEqual([]);
  });

  it('lets it go after two days', () => {
    const { memory } = busyDay(1);
    expect(memory.news(omar, MORNING + 49 * GAME_MS_PER_HOUR, { name: 'Grace Kim' })).toEqual([]);
  });

  it("keeps the persona's own seed memory (an observation with no triple) after twelve busy hours, and not the shelves", () => {
    const { memory, store } = busyDay(0);
    const PARTY = "Omar Haddad is planning a Valentine's Day party at the Corner Shop on February 14 at 5pm, and is telling everyone to come.";
    store.add([row({ description: PARTY, importance: 9, createdGameMs: MORNING })]);
    for (let t = 1; t <= 12 * 60; t += 2)
      store.add([
        row({ description: 'shelf is stocked', createdGameMs: MORNING + t * 60_000, triple: { subject: 'shelf', predicate: 'is', object: 'stocked' } }),
      ]);
    expect(store.count(omar)).toBeGreaterThan(300);
    const told = memory.news(omar, MORNING + 12 * GAME_MS_PER_HOUR, { name: 'Grace Kim' }).map((m) => m.description);
    expect(told).toContain(PARTY);
    expect(told.every((d) => d !== 'shelf is stocked')).toBe(true);
  });
});
