// Everything with state round-trips through its saved form: save, restore, go on, and the copy does
// exactly what the original does. One parameterised test over every stateful component.
import { describe, expect, it } from 'vitest';
import { buildTinyTown, tinyResidents } from '../fixtures/tinyTown';
import { Simulation } from '../../server/src/sim/Simulation';
import { SimClock } from '../../server/src/sim/clock';
import { Rng } from '../../server/src/sim/rng';
import { ClockHolds } from '../../server/src/town/holds';
import type { Input } from '../../server/src/sim/types';

const map = buildTinyTown();
const DAY0 = Date.UTC(2026, 1, 13);
const residents = tinyResidents(map);

interface Component<T, S> {
  name: string;
  make(): T;
  /** One unit of activity; returns what it did, to compare. */
  advance(thing: T, i: number): unknown;
  save(thing: T): S;
  restore(saved: S): T;
}

/** A stand-in mind for the sim: every plan sends both to the cafe and back; conversations get one line. */
function answers(sim: Simulation, pending: Input[], i: number) {
  const r = sim.step(DAY0 + 6 * 3_600_000 + i * 20_000, pending.splice(0));
  for (const q of r.requests) {
    if (q.kind === 'plan')
      pending.push(
        {
          kind: 'plan',
          agentId: q.agentId,
          plan: {
            day: q.day,
            broadStrokes: [],
            hourBlocks: [],
            actions: [
              { startMinute: 420, durationMinutes: 120, description: 'coffee', emoji: '☕', address: 'Cafe: cafe: table 2' },
              {
                startMinute: 540,
                durationMinutes: 600,
                description: 'home',
                emoji: '🏠',
                address: q.agentId === 'ada' ? 'Ada House: bedroom' : 'Bo House: bedroom',
              },
            ],
          },
        },
        { kind: 'done', agentId: q.agentId },
      );
    else if (q.kind === 'observe') pending.push({ kind: 'done', agentId: q.agentId });
    else
      pending.push(
        { kind: 'utterance', conversationId: q.conversationId, speaker: q.initiator, text: 'Morning!' },
        { kind: 'conversationEnd', conversationId: q.conversationId },
      );
  }
  return r.events;
}

const simPending = new WeakMap<Simulation, Input[]>();
const components: Array<Component<any, any>> = [
  {
    name: 'Simulation',
    make: () => new Simulation(map, residents, { seed: 9, startGameMs: DAY0 + 6 * 3_600_000 }),
    advance: (sim: Simulation, i) => {
      if (!simPending.has(sim)) simPending.set(sim, []);
      return answers(sim, simPending.get(sim)!, i);
    },
    save: (sim: Simulation) => ({ state: sim.getState(), pending: simPending.get(sim) ?? [] }),
    restore: (saved: { state: unknown; pending: Input[] }) => {
      const sim = Simulation.fromState(map, saved.state);
      simPending.set(sim, structuredClone(saved.pending));
      return sim;
    },
  } satisfies Component<Simulation, { state: unknown; pending: Input[] }>,
  {
    name: 'SimClock',
    make: () => new SimClock({ gameMs: DAY0, rate: 60, paused: false }),
    advance: (c: SimClock, i) => {
      if (i % 7 === 3) c.setRate(60 * ((i % 5) + 1));
      if (i % 11 === 5) c.paused ? c.resume() : c.pause();
      return c.advance(100 + i);
    },
    save: (c: SimClock) => c.getState(),
    restore: (s) => new SimClock(s),
  },
  {
    name: 'Rng',
    make: () => new Rng(42),
    advance: (r: Rng) => [r.next(), r.int(0, 9), r.chance(0.3)],
    save: (r: Rng) => r.getState(),
    restore: (s: number) => new Rng(s),
  },
  {
    name: 'ClockHolds',
    make: () => new ClockHolds(0),
    advance: (h: ClockHolds, i) => {
      h.watchers(i % 3, i * 60_000);
      h.checkIdle(i * 60_000, 2);
      h.mindsWaiting(i % 4 === 0);
      return h.list();
    },
    save: (h: ClockHolds) => h.getState(),
    restore: (s) => ClockHolds.fromState(s),
  },
];

describe.each(components)('$name', (c) => {
  it('saves, restores through JSON, and goes on exactly as the original', () => {
    const original = c.make();
    for (let i = 0; i < 200; i++) c.advance(original, i);
    const copy = c.restore(JSON.parse(JSON.stringify(c.save(original))));
    expect(JSON.parse(JSON.stringify(c.save(copy)))).toEqual(JSON.parse(JSON.stringify(c.save(original))));
    for (let i = 200; i < 800; i++) expect(c.advance(copy, i), `step ${i}`).toEqual(c.advance(original, i));
    expect(c.save(copy)).toEqual(c.save(original));
  });
});
