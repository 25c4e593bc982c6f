// Staggering (sim/stagger.ts): work a big town would do all in one step is spread over steps, and
// still done in time.
import { describe, expect, it } from 'vitest';
import { buildTinyTown } from '../fixtures/tinyTown';
import { Simulation } from '../../server/src/sim/Simulation';
import { dayIndex } from '../../server/src/protocol/time';
import { asAgentId } from '../../server/src/world/types';
import type { Input, ResidentSpec, StepResult } from '../../server/src/sim/types';
import type { DayPlan } from '../../server/src/protocol/plan';
import * as C from '../../server/src/sim/constants';
import { latenessGameMs } from '../../server/src/sim/stagger';

const map = buildTinyTown();
const W = map.widthTiles;
const DAY0 = Date.UTC(2026, 1, 13);
const at = (hh: number, mm = 0) => DAY0 + (hh * 60 + mm) * 60_000;
const look = { skin: '#e0ac69', hair: '#222222', shirt: '#3366cc', pants: '#333333' };
/** One step at the default speed: 100 ms of real time at 60 game ms per real ms. */
const STEP_1X = 6_000;

function resident(i: number): ResidentSpec {
  return {
    id: asAgentId(`p${i}`),
    name: `P${i} Tester`,
    bedAddress: 'Ada House: bedroom: bed',
    wakeMinute: 0,
    sleepMinute: 1439,
    spawnTile: (1 + (i % 4)) * W + 11 + Math.floor(i / 4),
    look,
  };
}

function plan(actions: Array<[number, number, string, string]>): DayPlan {
  return {
    day: dayIndex(at(8)),
    broadStrokes: [],
    hourBlocks: [],
    actions: actions.map(([s, d, description, address]) => ({ startMinute: s, durationMinutes: d, description, emoji: '•', address })),
  };
}

/** Steps at 1× from `from` to `to`, answering every request at once (no thoughts). */
function run(sim: Simulation, from: number, to: number, first: Input[] = []): Array<{ t: number; r: StepResult }> {
  const out: Array<{ t: number; r: StepResult }> = [];
  let pending = first;
  for (let t = from; t <= to; t += STEP_1X) {
    const r = sim.step(t, pending);
    pending = r.requests.map((q): Input =>
      q.kind === 'converse' ? { kind: 'conversationEnd', conversationId: q.conversationId } : { kind: 'done', agentId: q.agentId },
    );
    out.push({ t, r });
  }
  return out;
}

describe('staggering', () => {
  it('gives each agent its own lateness, under a game minute, the same every time', () => {
    const ids = Array.from({ length: 400 }, (_, i) => `agent-${i}`);
    const late = ids.map(latenessGameMs);
    expect(ids.map(latenessGameMs)).toEqual(late);
    expect(Math.min(...late)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...late)).toBeLessThan(C.SCHEDULE_STAGGER_GAME_MS);
    // Spread over the whole minute: every tenth of it has some.
    const tenths = new Set(late.map((l) => Math.floor((10 * l) / C.SCHEDULE_STAGGER_GAME_MS)));
    expect(tenths.size).toBe(10);
  });

  it('starts the walks of a crowd whose plans change at the same minute over that minute, not in one step', () => {
    const crowd = Array.from({ length: 40 }, (_, i) => resident(i));
    const sim = new Simulation(map, crowd, { seed: 1, startGameMs: at(8, 50) });
    // Everyone at the cafe until 9:00, then home.
    const plans = crowd.map((c): Input => ({
      kind: 'plan',
      agentId: c.id,
      plan: plan([
        [0, 540, 'having coffee', 'Cafe: cafe'],
        [540, 899, 'going home', 'Bo House: bedroom'],
      ]),
    }));
    run(sim, at(8, 50), at(9, 0) - 1, plans);
    const steps = run(sim, at(9, 0), at(9, 2));
    const walksPerStep = steps.map(
      ({ r }) => r.events.filter((e) => e.kind === 'agent.action' && (e.data as { description: string }).description === 'going home').length,
    );
    expect(walksPerStep.reduce((a, b) => a + b, 0)).toBe(crowd.length);
    // Ten steps of a game minute share them: none takes more than a fifth of the crowd.
    expect(Math.max(...walksPerStep)).toBeLessThanOrEqual(crowd.length / 5);
    // Everyone is on the way within the minute, each at its own lateness.
    for (const c of crowd) {
      const t = steps.find(({ r }) => r.events.some((e) => e.kind === 'agent.action' && e.agentId === c.id))!.t;
      expect(t - at(9, 0)).toBeGreaterThanOrEqual(latenessGameMs(c.id) - STEP_1X);
      expect(t - at(9, 0)).toBeLessThan(latenessGameMs(c.id) + STEP_1X);
    }
  });

  it('lets the occupants of a busy arena look at a change on their own turns, all within one turn', () => {
    const crowd = Array.from({ length: 24 }, (_, i) => resident(i));
    const sim = new Simulation(map, crowd, { seed: 2, startGameMs: at(8, 0) });
    const stay = plan([[0, 1439, 'having coffee', 'Cafe: cafe']]);
    // p0 does something new every five minutes (so that by 9:00 everyone has seen everyone), and serves
    // at the counter from 9:00: a change the others in the cafe can see.
    const p0: Array<[number, number, string, string]> = [[0, 485, 'having coffee', 'Cafe: cafe']];
    for (let m = 485; m < 540; m += 5) p0.push([m, 5, `doing thing ${m}`, 'Cafe: cafe']);
    p0.push([540, 899, 'serving at the counter', 'Cafe: cafe: counter']);
    const plans = crowd.map((c, i): Input => ({ kind: 'plan', agentId: c.id, plan: i === 0 ? plan(p0) : stay }));
    // Their thoughts come back with nothing to do (no reaction, nobody to talk to), so they go on
    // perceiving and their queues of observations drain.
    let pending: Input[] = [];
    const stepAndAnswer = (t: number, inputs: Input[] = []) => {
      const r = sim.step(t, [...pending, ...inputs]);
      pending = r.requests.flatMap((q): Input[] => (q.kind === 'observe' ? [{ kind: 'done', agentId: q.agentId }] : []));
      return r;
    };
    stepAndAnswer(at(8, 0), plans);
    for (let t = at(8, 0) + STEP_1X; t < at(9, 0); t += STEP_1X) stepAndAnswer(t);
    const sawAt = new Map<string, number>();
    let changedAt = -1;
    for (let t = at(9, 0); t <= at(9, 3); t += STEP_1X) {
      const r = stepAndAnswer(t);
      if (r.events.some((e) => e.kind === 'agent.action' && e.agentId === 'p0')) changedAt = t;
      for (const a of sim.agents()) if (a.held.some(([d]) => d === 'P0 Tester is serving at the counter') && !sawAt.has(a.spec.id)) sawAt.set(a.spec.id, t);
    }
    // Those in sight saw it (the cafe is wider than the vision radius, so not quite everyone)…
    expect(sawAt.size).toBeGreaterThan(crowd.length / 2);
    const delays = [...sawAt.values()].map((t) => t - changedAt);
    // …each within one perception turn of the change, and not all in the same step.
    expect(Math.max(...delays)).toBeLessThanOrEqual(C.PERCEPTION_TURN_GAME_MS + STEP_1X);
    expect(new Set(delays).size).toBeGreaterThan(2);
    expect(delays.filter((d) => d === 0).length).toBeLessThan(sawAt.size / 2);
  });
});
