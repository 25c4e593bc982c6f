// The sim keeps each plan's actions flat (protocol/plan.ts KeptPlan). Its readers must see the very plan that was
// made, and a world saved before (its plans as objects, with hour blocks) must resume as it would have.
import { describe, expect, it } from 'vitest';
import { buildTinyTown, tinyResidents } from '../fixtures/tinyTown';
import { Simulation } from '../../server/src/sim/Simulation';
import { Rng } from '../../server/src/sim/rng';
import {
  findActionIndex,
  findKeptIndex,
  keepPlan,
  keptAction,
  keptCount,
  planOfKept,
  spliceKept,
  splicePlan,
  type PlannedAction,
} from '../../server/src/protocol/plan';
import type { Input, SimState } from '../../server/src/sim/types';

const ADDRESSES = ['Cafe: cafe: table 2', 'Ada House: bedroom', 'Bo House: bedroom', 'Cafe: cafe'];
const EMOJI = ['☕', '🏠', '📚', '🎉'];

/** A day of back-to-back actions from `wake`, 5 to 60 minutes each, some with gaps between them. */
function randomActions(rng: Rng, wake = 360, sleep = 1500): PlannedAction[] {
  const out: PlannedAction[] = [];
  for (let m = wake; m < sleep;) {
    const duration = rng.int(5, 60);
    out.push({
      startMinute: m,
      durationMinutes: duration,
      description: `doing ${rng.int(0, 99)}`,
      emoji: EMOJI[rng.int(0, 3)],
      address: ADDRESSES[rng.int(0, 3)],
    });
    m += duration + (rng.chance(0.2) ? rng.int(1, 30) : 0);
  }
  return out;
}

describe('a kept plan', () => {
  it('gives back the actions it was made from, holds no object an action, and finds and splices as the objects do', () => {
    const rng = new Rng(7);
    for (let n = 0; n < 40; n++) {
      const actions = randomActions(rng);
      const plan = { day: 20, broadStrokes: ['1) wake up', '2) work'], actions };
      const kept = keepPlan(plan);
      expect(planOfKept(kept)).toEqual(plan);
      expect(keptCount(kept)).toBe(actions.length);
      expect(kept.cells.every((c) => typeof c === 'number' || typeof c === 'string')).toBe(true);
      for (let minute = 300; minute < 1560; minute++) {
        const i = findActionIndex(actions, minute);
        expect(findKeptIndex(kept, minute), `minute ${minute}`).toBe(i);
        if (i >= 0) expect(keptAction(kept, i)).toEqual(actions[i]);
      }
      const from = rng.int(400, 1400);
      const replacement = randomActions(rng, from, from + 120);
      const spliced = spliceKept(kept, from, replacement);
      expect(planOfKept(spliced).actions).toEqual(splicePlan(actions, from, replacement));
      // The plan it was made from is left as it was (captured snapshots share it).
      expect(planOfKept(kept)).toEqual(plan);
    }
  });

  it('is told apart from another plan (control): the same texts a minute later give other actions', () => {
    const actions = randomActions(new Rng(3));
    const later = keepPlan({ day: 1, broadStrokes: [], actions: actions.map((a) => ({ ...a, startMinute: a.startMinute + 1 })) });
    expect(planOfKept(later).actions).not.toEqual(actions);
    expect(findKeptIndex(later, actions[0].startMinute)).not.toBe(findActionIndex(actions, actions[0].startMinute));
  });
});

const map = buildTinyTown();
const DAY0 = Date.UTC(2026, 1, 13);
const residents = tinyResidents(map);

/** Steps the sim `steps` times from `first`, every plan asked for answered with a day that goes out and back. */
function run(sim: Simulation, first: number, steps: number): unknown[] {
  const pending: Input[] = [];
  const seen: unknown[] = [];
  for (let i = first; i < first + steps; i++) {
    const r = sim.step(DAY0 + 6 * 3_600_000 + i * 20_000, pending.splice(0));
    seen.push(r.events.map((e) => [e.kind, e.agentId, e.data]));
    for (const q of r.requests) {
      if (q.kind !== 'plan') {
        pending.push({ kind: 'done', agentId: 'agentId' in q ? q.agentId : q.initiator });
        continue;
      }
      const home = q.agentId === 'ada' ? 'Ada House: bedroom' : 'Bo House: bedroom';
      pending.push({
        kind: 'plan',
        agentId: q.agentId,
        plan: {
          day: q.day,
          broadStrokes: ['1) coffee', '2) home'],
          hourBlocks: [{ startMinute: 420, durationMinutes: 900, activity: 'the day' }],
          actions: [
            { startMinute: 420, durationMinutes: 60, description: 'coffee', emoji: '☕', address: 'Cafe: cafe: table 2' },
            { startMinute: 480, durationMinutes: 60, description: 'reading', emoji: '📚', address: home },
            { startMinute: 540, durationMinutes: 780, description: 'home', emoji: '🏠', address: 'Cafe: cafe' },
          ],
        },
      });
    }
  }
  return seen;
}

/** The state as versions 1 and 2 saved it: each plan's actions as objects, with its hour blocks. */
function savedAsVersion2(state: SimState): unknown {
  const copy = structuredClone(state) as unknown as { version: number; agents: Array<{ plan: unknown }> };
  copy.version = 2;
  for (const a of copy.agents) {
    const kept = a.plan as SimState['agents'][number]['plan'];
    a.plan = kept && { ...planOfKept(kept), hourBlocks: [{ startMinute: 420, durationMinutes: 900, activity: 'the day' }] };
  }
  return JSON.parse(JSON.stringify(copy));
}

describe('a world saved with plans as objects (state version 2)', () => {
  it('resumes with the same plans and goes on exactly as the world that saved it', () => {
    const original = new Simulation(map, residents, { seed: 9, startGameMs: DAY0 + 6 * 3_600_000 });
    // Up to 8:15: both have their plan and are on its second action.
    run(original, 0, 405);
    const state = original.getState();
    expect(state.agents.every((a) => a.plan !== null && a.actionIndex === 1)).toBe(true);
    const resumed = Simulation.fromState(map, savedAsVersion2(state));
    expect(resumed.getState()).toEqual(state);
    expect(run(resumed, 405, 400)).toEqual(run(Simulation.fromState(map, state), 405, 400));
  });

  it('would not, read as if its plans were kept ones (control)', () => {
    const original = new Simulation(map, residents, { seed: 9, startGameMs: DAY0 + 6 * 3_600_000 });
    run(original, 0, 405);
    const old = savedAsVersion2(original.getState()) as { version: number };
    old.version = 3;
    expect(() => run(Simulation.fromState(map, old), 405, 400)).toThrow();
  });
});
