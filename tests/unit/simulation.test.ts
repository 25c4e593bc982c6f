import { describe, expect, it } from 'vitest';
import { buildTinyTown } from '../fixtures/tinyTown';
import { Simulation } from '../../server/src/sim/Simulation';
import { splicePlan, findActionIndex } from '../../server/src/protocol/plan';
import { dayIndex, GAME_MS_PER_DAY } from '../../server/src/protocol/time';
import { asAgentId } from '../../server/src/world/types';
import type { AgentSimState, Input, OperationRequest, ResidentSpec, StepResult } from '../../server/src/sim/types';
import { setCooldown } from '../../server/src/sim/apply';
import type { DayPlan, PlannedAction } from '../../server/src/protocol/plan';
import * as C from '../../server/src/sim/constants';
import { latenessGameMs } from '../../server/src/sim/stagger';

const map = buildTinyTown();
const W = map.widthTiles;
const tile = (x: number, y: number) => y * W + x;
const DAY0 = Date.UTC(2026, 1, 13);
const at = (hh: number, mm = 0) => DAY0 + (hh * 60 + mm) * 60_000;
const look = { skin: '#e0ac69', hair: '#222222', shirt: '#3366cc', pants: '#333333' };

function resident(id: string, bed: string, spawn: number): ResidentSpec {
  return {
    id: asAgentId(id),
    name: `${id[0].toUpperCase()}${id.slice(1)} Tester`,
    bedAddress: bed,
    wakeMinute: 7 * 60,
    sleepMinute: 22 * 60,
    spawnTile: spawn,
    look,
  };
}

const ada = resident('ada', 'Ada House: bedroom: bed', tile(1, 1));
const bo = resident('bo', 'Bo House: bedroom: bed', tile(6, 1));

function plan(day: number, actions: Array<[number, number, string, string]>): DayPlan {
  const list: PlannedAction[] = actions.map(([start, dur, description, address]) => ({
    startMinute: start,
    durationMinutes: dur,
    description,
    emoji: '•',
    address,
  }));
  return { day, broadStrokes: [], hourBlocks: [], actions: list };
}

/** A stand-in for cognition: plans from a table, no thoughts; chooses to talk to company only when `talks`; conversations get two lines. */
function answer(request: OperationRequest, plans: Record<string, (day: number) => DayPlan>, talks = false): Input[] {
  switch (request.kind) {
    case 'plan':
      return [
        { kind: 'plan', agentId: request.agentId, plan: plans[request.agentId](request.day) },
        { kind: 'done', agentId: request.agentId },
      ];
    case 'observe':
      return [
        ...(talks && request.company.length
          ? [{ kind: 'talk' as const, agentId: request.agentId, partnerId: request.company[0], basis: 'acquainted' as const }]
          : []),
        { kind: 'done', agentId: request.agentId },
      ];
    case 'converse':
      return [
        { kind: 'utterance', conversationId: request.conversationId, speaker: request.initiator, text: 'Hello!' },
        { kind: 'utterance', conversationId: request.conversationId, speaker: request.partner, text: 'Hi there.' },
        { kind: 'conversationEnd', conversationId: request.conversationId },
      ];
  }
}

const dailyPlans: Record<string, (day: number) => DayPlan> = {
  ada: (day) =>
    plan(day, [
      [420, 60, 'writing', 'Ada House: bedroom: desk'],
      [480, 240, 'serving coffee', 'Cafe: cafe: counter'],
      [720, 600, 'reading', 'Ada House: bedroom: desk'],
    ]),
  bo: (day) =>
    plan(day, [
      [420, 120, 'stretching', 'Bo House: bedroom'],
      [540, 120, 'having a coffee', 'Cafe: cafe: table'],
      [660, 660, 'napping', 'Bo House: bedroom: bed'],
    ]),
};

/** Steps a sim and answers its requests in the next step, as a lockstep runtime would. */
class Driver {
  pending: Input[] = [];
  constructor(
    readonly sim: Simulation,
    readonly plans = dailyPlans,
    readonly talks = false,
  ) {}
  step(t: number, extra: Input[] = []): StepResult {
    const r = this.sim.step(t, [...this.pending, ...extra]);
    this.pending = r.requests.flatMap((q) => answer(q, this.plans, this.talks));
    return r;
  }
  run(fromMs: number, toMs: number, stepMs = 10_000): StepResult[] {
    const all: StepResult[] = [];
    for (let t = fromMs; t <= toMs; t += stepMs) all.push(this.step(t));
    return all;
  }
}

function runDay(sim: Simulation, fromMs: number, toMs: number, stepMs = 10_000) {
  return new Driver(sim).run(fromMs, toMs, stepMs);
}

describe('Simulation', () => {
  it('sleeps at night, asks for the plan three hours before waking, then follows it to real places', () => {
    const sim = new Simulation(map, [ada, bo], { seed: 1, startGameMs: at(3, 0) });
    const driver = new Driver(sim);
    const early = driver.step(at(3, 0));
    expect(sim.agent('ada')!.asleep).toBe(true);
    expect(sim.agent('ada')!.current.description).toBe('sleeping');
    expect(early.requests).toEqual([]);
    // Each runs its own few seconds late (sim/stagger.ts): both ask within the minute from 4:00, not before.
    expect(driver.run(at(3, 0) + 10_000, at(4, 0) - 1).flatMap((r) => r.requests)).toEqual([]);
    const asked = driver.run(at(4, 0), at(4, 0) + C.SCHEDULE_STAGGER_GAME_MS).flatMap((r) => r.requests);
    expect(
      asked
        .filter((q) => q.kind === 'plan')
        .map((q) => q.agentId)
        .sort(),
    ).toEqual(['ada', 'bo']);

    driver.run(at(4, 1) + 10_000, at(8, 30));
    const a = sim.agent('ada')!;
    expect(a.asleep).toBe(false);
    expect(a.current.description).toBe('serving coffee');
    // Walking 6 tiles a game minute, she reaches the counter well within half an hour.
    expect(a.movement).toBeNull();
    expect(a.tile).toBe(tile(12, 2));
  });

  it('describes each walk once, as a path with a start time and a speed', () => {
    const sim = new Simulation(map, [ada], { seed: 1, startGameMs: at(6, 0) });
    runDay(sim, at(6, 0), at(7, 59));
    // Her 8:00 is her own lateness after the clock's (sim/stagger.ts).
    const own8 = at(8, 0) + latenessGameMs('ada');
    expect(sim.step(own8 - 1).events.filter((e) => e.kind === 'agent.move')).toEqual([]);
    const r = sim.step(own8);
    const move = r.events.find((e) => e.kind === 'agent.move' && e.agentId === 'ada')!;
    const data = move.data as { path: number[]; startGameMs: number; tilesPerGameMinute: number };
    expect(data.startGameMs).toBe(own8);
    expect(data.tilesPerGameMinute).toBe(C.WALK_TILES_PER_GAME_MINUTE);
    expect(data.path[0]).toBe(tile(4, 4));
    expect(data.path[data.path.length - 1]).toBe(tile(12, 2));
    // No further move events while she walks.
    const next = sim.step(own8 + 60_000);
    expect(next.events.filter((e) => e.kind === 'agent.move')).toEqual([]);
  });

  it('runs a whole day the same way twice', () => {
    const run = () => {
      const sim = new Simulation(map, [ada, bo], { seed: 7, startGameMs: at(0, 0) });
      return runDay(sim, at(0, 0), at(0, 0) + GAME_MS_PER_DAY).flatMap((r) => r.events);
    };
    const first = run();
    expect(first.length).toBeGreaterThan(20);
    expect(run()).toEqual(first);
  });

  it('perceives agents in its own arena and within sight, and not the same event twice', () => {
    const sim = new Simulation(map, [ada, bo], { seed: 1, startGameMs: at(6, 0) });
    // Ada serves at the cafe counter from 8:00; Bo has a coffee at a table there from 9:00.
    const steps = runDay(sim, at(6, 0), at(9, 40));
    const saw = (id: string) =>
      steps.flatMap((r) => r.requests).flatMap((q) => (q.kind === 'observe' && q.agentId === id ? q.observations.map((o) => o.description) : []));
    expect(saw('bo')).toContain('Ada Tester is serving coffee');
    expect(saw('bo').every((d) => !d.includes('Ada Tester is writing'))).toBe(true); // Ada wrote at home, out of Bo's arena
    expect(new Set(saw('bo')).size).toBe(saw('bo').length);
    expect(new Set(saw('ada')).size).toBe(saw('ada').length);
  });

  it('caps perception at the attention bandwidth', () => {
    const crowd = Array.from({ length: 8 }, (_, i) => ({ ...resident(`p${i}`, 'Ada House: bedroom: bed', tile(12 + i, 3)), wakeMinute: 0, sleepMinute: 1439 }));
    const stay = (day: number) => plan(day, [[0, 1439, 'chatting', 'Cafe: cafe']]);
    const sim = new Simulation(map, crowd, { seed: 3, startGameMs: at(9, 0) });
    // Plans arrive with the first step, so nobody is busy and all perceive in this one step.
    const r = sim.step(
      at(9, 0),
      crowd.map((c): Input => ({ kind: 'plan', agentId: c.id, plan: stay(dayIndex(at(9, 0))) })),
    );
    const observe = r.requests.filter((q): q is Extract<OperationRequest, { kind: 'observe' }> => q.kind === 'observe');
    expect(observe.length).toBeGreaterThan(0);
    // Its own action comes on top: the bandwidth is for the surroundings.
    for (const q of observe) expect(q.observations.filter((o) => o.actorId !== q.agentId).length).toBeLessThanOrEqual(C.ATTENTION_BANDWIDTH);
  });

  it('notes its own actions in its stream, outside the attention bandwidth', () => {
    const sim = new Simulation(map, [ada, bo], { seed: 1, startGameMs: at(6, 0) });
    const steps = runDay(sim, at(6, 0), at(9, 40));
    const own = (id: string, name: string) =>
      steps
        .flatMap((r) => r.requests)
        .flatMap((q) =>
          q.kind === 'observe' && q.agentId === id ? q.observations.filter((o) => o.actorId === id && o.subject === name).map((o) => o.description) : [],
        );
    expect(own('ada', 'Ada Tester')).toEqual(expect.arrayContaining(['Ada Tester is writing', 'Ada Tester is serving coffee']));
    expect(own('bo', 'Bo Tester')).toEqual(expect.arrayContaining(['Bo Tester is stretching', 'Bo Tester is having a coffee']));
  });

  it('starts no conversation on sight alone: it offers the company to cognition, and one starts when cognition decides to talk', () => {
    const a = { ...resident('ada', 'Ada House: bedroom: bed', tile(14, 2)), wakeMinute: 0, sleepMinute: 1439 };
    const b = { ...resident('bo', 'Bo House: bedroom: bed', tile(15, 2)), wakeMinute: 0, sleepMinute: 1439 };
    const stay = (where: string) => (day: number) => plan(day, [[0, 1439, 'having coffee', where]]);
    const plans = { ada: stay('Cafe: cafe: table 2'), bo: stay('Cafe: cafe: table 2') };
    // Every seed: meeting alone never starts a conversation (it used to be a coin toss).
    for (let seed = 1; seed < 20; seed++) {
      const quiet = new Simulation(map, [a, b], { seed, startGameMs: at(9, 0) });
      const results = new Driver(quiet, plans).run(at(9, 0) - 2000, at(9, 30), 1000);
      expect(results.flatMap((r) => r.requests).filter((q) => q.kind === 'converse')).toEqual([]);
      const offered = results.flatMap((r) => r.requests).filter((q) => q.kind === 'observe' && q.company.length > 0);
      expect(offered.length).toBeGreaterThan(0);
    }
    const sim = new Simulation(map, [a, b], { seed: 1, startGameMs: at(9, 0) });
    const driver = new Driver(sim, plans, true);
    driver.step(at(9, 0) - 2000);
    const seen = driver.step(at(9, 0) - 1000);
    expect(seen.requests.find((q) => q.kind === 'observe' && q.agentId === 'ada')).toMatchObject({ company: ['bo'] });
    const r0 = driver.step(at(9, 0));
    const conversation = r0.requests.find((q): q is Extract<OperationRequest, { kind: 'converse' }> => q.kind === 'converse')!;
    expect(conversation).toBeDefined();
    expect(r0.events.find((e) => e.kind === 'conversation.start')?.data).toMatchObject({ basis: 'acquainted' });
    expect(sim.agent('ada')!.current.description).toMatch(/^talking with /);
    const lines = answer(conversation, {});
    const r1 = sim.step(at(9, 0) + 1000, lines);
    expect(r1.events.filter((e) => e.kind === 'conversation.utterance')).toHaveLength(1);
    expect(sim.agent(conversation.initiator)!.speech).toBe('Hello!');
    const r2 = sim.step(at(9, 0) + 1000 + C.LINE_GAME_MS);
    expect(r2.events.filter((e) => e.kind === 'conversation.utterance').map((e) => (e.data as { text: string }).text)).toEqual(['Hi there.']);
    const r3 = sim.step(at(9, 0) + 1000 + 2 * C.LINE_GAME_MS);
    expect(r3.events.map((e) => e.kind)).toContain('conversation.end');
    expect(sim.agent('ada')!.conversationId).toBeNull();
    // Free again: busy only with what this step asked of her (her perception turn may come at once).
    expect(sim.agent('ada')!.busy).toBe(r3.requests.some((q) => 'agentId' in q && q.agentId === 'ada'));
    // The pair does not talk again right away, even if one of them wants to.
    const r4 = sim.step(at(9, 0) + 3 * C.LINE_GAME_MS, [{ kind: 'talk', agentId: asAgentId('ada'), partnerId: asAgentId('bo'), basis: 'acquainted' }]);
    expect(r4.requests.filter((q) => q.kind === 'converse')).toEqual([]);
  });

  it('keeps what the partner perceived but had not yet handed over when a conversation starts', () => {
    const a = { ...resident('ada', 'Ada House: bedroom: bed', tile(14, 2)), wakeMinute: 0, sleepMinute: 1439 };
    const b = { ...resident('bo', 'Bo House: bedroom: bed', tile(15, 2)), wakeMinute: 0, sleepMinute: 1439 };
    const stay = (day: number) => plan(day, [[0, 1439, 'having coffee', 'Cafe: cafe: table 2']]);
    const sim = new Simulation(map, [a, b], { seed: 1, startGameMs: at(9, 0) });
    const day = dayIndex(at(9, 0));
    sim.step(at(9, 0), [
      { kind: 'plan', agentId: a.id, plan: stay(day) },
      { kind: 'plan', agentId: b.id, plan: stay(day) },
    ]);
    // Both are busy thinking about what they first saw (the plans' step handed it over) when the world event happens:
    // what Bo sees waits for him.
    expect(sim.agent('bo')!.busy).toBe(true);
    sim.step(at(9, 2), [{ kind: 'worldEvent', description: 'The cafe is out of milk', arena: 'Cafe', durationGameMs: 3_600_000 }]);
    expect(sim.agent('bo')!.pendingObservations.map((o) => o.description)).toContain('The cafe is out of milk');
    // Both are freed and Ada's decision to talk arrives in the same step: the talk starts before he hands it over.
    const start = sim.step(at(9, 3), [
      { kind: 'done', agentId: a.id },
      { kind: 'done', agentId: b.id },
      { kind: 'talk', agentId: a.id, partnerId: b.id, basis: 'acquainted' },
    ]);
    const converse = start.requests.find((q): q is Extract<OperationRequest, { kind: 'converse' }> => q.kind === 'converse')!;
    expect(converse).toBeDefined();
    expect(sim.agent('bo')!.pendingObservations.map((o) => o.description)).toContain('The cafe is out of milk');
    // When it ends, what he saw goes to cognition after all (and it was rightly held, so not seen twice).
    const after = [sim.step(at(9, 4), [{ kind: 'conversationEnd', conversationId: converse.conversationId }]), sim.step(at(9, 5))];
    const handed = after.flatMap((r) => r.requests).find((q) => q.kind === 'observe' && q.agentId === 'bo');
    expect(handed && handed.kind === 'observe' && handed.observations.map((o) => o.description)).toContain('The cafe is out of milk');
  });

  it('unholds an observation dropped from a full queue, so it can be seen again', () => {
    const crowd = Array.from({ length: 9 }, (_, i) => ({
      ...resident(`p${i}`, 'Ada House: bedroom: bed', tile(12 + (i % 6), 2 + Math.floor(i / 6))),
      wakeMinute: 0,
      sleepMinute: 1439,
    }));
    const sim = new Simulation(map, crowd, { seed: 3, startGameMs: at(9, 0) });
    const day = dayIndex(at(9, 0));
    // Each has its own activity, changing every minute: far more to see than one busy agent can hold.
    const busyPlan = (k: number) =>
      plan(
        day,
        Array.from({ length: 60 }, (_, m): [number, number, string, string] => [540 + m, 1, `task ${k}-${m}`, 'Cafe: cafe']),
      );
    sim.step(
      at(9, 0),
      crowd.map((c, k): Input => ({ kind: 'plan', agentId: c.id, plan: busyPlan(k) })),
    );
    for (let m = 1; m < 30; m++) sim.step(at(9, m));
    const p0 = sim.agent('p0')!;
    expect(p0.pendingObservations.length).toBe(C.PENDING_OBSERVATIONS_LIMIT);
    const pending = new Set(p0.pendingObservations.map((o) => o.description));
    // Everything it holds that is not waiting was handed to cognition before it got busy; nothing dropped is held.
    const handedFirst = new Set<string>();
    for (const [description] of p0.held) if (!pending.has(description)) handedFirst.add(description);
    expect(handedFirst.size).toBeLessThanOrEqual(C.ATTENTION_BANDWIDTH + 1);
  });

  it('restores from its state and continues exactly as if it had never stopped', () => {
    const straight = new Simulation(map, [ada, bo], { seed: 5, startGameMs: at(6, 0) });
    runDay(straight, at(6, 0), at(10, 0));
    const saved = JSON.parse(JSON.stringify(straight.getState()));
    const restored = Simulation.fromState(map, saved);
    expect(restored.getState()).toEqual(saved);
    const after = (sim: Simulation) => runDay(sim, at(10, 0) + 10_000, at(14, 0)).flatMap((r) => r.events);
    const events = after(restored);
    expect(events.filter((e) => e.kind === 'agent.move').length).toBeGreaterThan(0);
    expect(events).toEqual(after(straight));
    expect(restored.getState()).toEqual(straight.getState());
  });

  it('after a restart, frees agents whose operations were lost and ends their conversations', () => {
    const a = { ...resident('ada', 'Ada House: bedroom: bed', tile(14, 2)), wakeMinute: 0, sleepMinute: 1439 };
    const b = { ...resident('bo', 'Bo House: bedroom: bed', tile(15, 2)), wakeMinute: 0, sleepMinute: 1439 };
    const stay = (day: number) => plan(day, [[0, 1439, 'having coffee', 'Cafe: cafe: table 2']]);
    const sim = new Simulation(map, [a, b], { seed: 1, startGameMs: at(9, 0) });
    const driver = new Driver(sim, { ada: stay, bo: stay }, true);
    driver.step(at(9, 0) - 2000);
    driver.step(at(9, 0) - 1000);
    const talking = driver.step(at(9, 0)).requests.some((q) => q.kind === 'converse');
    expect(talking).toBe(true);
    // The process stops here, with the conversation's lines never answered, and starts again.
    const restored = Simulation.fromState(map, JSON.parse(JSON.stringify(sim.getState())));
    expect(restored.agent('ada')!.conversationId).not.toBeNull();
    const r = restored.step(at(9, 0) + 1000, [{ kind: 'restarted' }]);
    const ends = r.events.filter((e) => e.kind === 'conversation.end');
    expect(ends).toHaveLength(1);
    expect(ends[0].kind === 'conversation.end' && ends[0].data.reason).toBe('interrupted');
    for (const agent of restored.agents()) {
      expect(agent.conversationId, agent.spec.id).toBeNull();
      expect(agent.speech).toBe('');
    }
  });

  it('breaks off a talk where a world event happens, and they perceive it with its place; an event elsewhere leaves the talk going', () => {
    const a = { ...resident('ada', 'Ada House: bedroom: bed', tile(14, 2)), wakeMinute: 0, sleepMinute: 1439 };
    const b = { ...resident('bo', 'Bo House: bedroom: bed', tile(15, 2)), wakeMinute: 0, sleepMinute: 1439 };
    const stay = (day: number) => plan(day, [[0, 1439, 'having coffee', 'Cafe: cafe: table 2']]);
    const talking = (where: string) => {
      const sim = new Simulation(map, [a, b], { seed: 1, startGameMs: at(9, 0) });
      const day = dayIndex(at(9, 0));
      sim.step(at(9, 0), [
        { kind: 'plan', agentId: a.id, plan: stay(day) },
        { kind: 'plan', agentId: b.id, plan: stay(day) },
      ]);
      const start = sim.step(at(9, 3), [
        { kind: 'done', agentId: a.id },
        { kind: 'done', agentId: b.id },
        { kind: 'talk', agentId: a.id, partnerId: b.id, basis: 'acquainted' },
      ]);
      expect(start.requests.some((q) => q.kind === 'converse')).toBe(true);
      const hit = sim.step(at(9, 4), [{ kind: 'worldEvent', description: 'The fire alarm is going off', arena: where, durationGameMs: 3_600_000 }]);
      return { sim, hit };
    };
    const here = talking('Cafe');
    expect(here.hit.events.find((e) => e.kind === 'conversation.end')?.data).toMatchObject({ reason: 'interrupted' });
    expect(here.sim.agent('ada')!.conversationId).toBeNull();
    const seen = here.hit.requests.find((q) => q.kind === 'observe' && q.agentId === 'ada');
    expect(seen && seen.kind === 'observe' && seen.observations.find((o) => o.subject === 'the town')).toMatchObject({ place: 'Cafe' });
    // The control: the same alarm at Ada's house does not reach the cafe.
    const there = talking('Ada House');
    expect(there.hit.events.filter((e) => e.kind === 'conversation.end')).toEqual([]);
    expect(there.sim.agent('ada')!.conversationId).not.toBeNull();
  });

  it('applies a world event to everyone in the arena and an operator can add and remove agents', () => {
    const sim = new Simulation(map, [ada], { seed: 1, startGameMs: at(6, 0) });
    const driver = new Driver(sim);
    driver.run(at(6, 0), at(9, 0));
    driver.step(at(9, 0) + 5000);
    const r = driver.step(at(9, 1), [
      { kind: 'worldEvent', description: 'The cafe is out of milk', arena: 'Cafe', durationGameMs: 3_600_000 },
      { kind: 'addAgent', resident: bo },
    ]);
    expect(r.events.map((e) => e.kind)).toEqual(expect.arrayContaining(['world.event', 'agent.added']));
    const observed = r.requests.find((q) => q.kind === 'observe' && q.agentId === 'ada');
    expect(observed && observed.kind === 'observe' && observed.observations.map((o) => o.description)).toContain('The cafe is out of milk');
    const removed = driver.step(at(9, 2), [{ kind: 'removeAgent', agentId: asAgentId('bo') }]);
    expect(removed.removed).toEqual(['bo']);
    expect(sim.agent('bo')).toBeUndefined();
  });
});

describe('plan helpers', () => {
  const actions: PlannedAction[] = [
    { startMinute: 420, durationMinutes: 60, description: 'a', emoji: '', address: 'x' },
    { startMinute: 480, durationMinutes: 60, description: 'b', emoji: '', address: 'x' },
  ];
  it('holds an edited resident\u2019s spec until its next plan is asked for, then takes it over; a snapshot keeps both', () => {
    const sim = new Simulation(map, [ada, bo], { seed: 1, startGameMs: at(5, 0) });
    const driver = new Driver(sim);
    driver.run(at(5, 0), at(10, 0));
    const edited: ResidentSpec = {
      ...ada,
      name: 'Ada Renamed',
      wakeMinute: 8 * 60,
      sleepMinute: 23 * 60,
      look: { ...look, shirt: '#00ff00' },
      spawnTile: tile(20, 5),
    };
    const events = driver.step(at(10, 0) + 10_000, [{ kind: 'updateResident', resident: edited }]).events;
    expect(events.filter((e) => e.kind === 'agent.updated')).toEqual([
      expect.objectContaining({ agentId: 'ada', data: { spec: { ...edited, spawnTile: ada.spawnTile }, at: 'next plan' } }),
    ]);
    // Today goes on as planned, under the old spec.
    driver.run(at(10, 0) + 20_000, at(22, 30));
    const a = sim.agent('ada')!;
    expect(a.spec.name).toBe('Ada Tester');
    expect(a.nextSpec?.name).toBe('Ada Renamed');
    expect(a.asleep).toBe(true);
    // When the next plan would be asked for (PLAN_LEAD_MINUTES, three hours, before the old 7:00 wake), the
    // new spec takes over, and the plan is asked for by the new hours (three hours before 8:00).
    const night = driver.run(at(22, 30) + 10_000, at(7, 30) + GAME_MS_PER_DAY);
    const swaps = night.filter((r) => r.events.some((e) => e.kind === 'agent.updated'));
    expect(swaps).toHaveLength(1);
    expect(swaps[0].events.find((e) => e.kind === 'agent.updated')!.data).toMatchObject({ at: 'now', spec: { name: 'Ada Renamed' } });
    // On her own clock (she runs a few seconds late, sim/stagger.ts): the first 10-second step at or past the moment.
    const onHerClock = (t: number) => t + Math.ceil(latenessGameMs('ada') / 10_000) * 10_000;
    expect(swaps[0].events[0].gameMs).toBe(onHerClock(at(4, 0) + GAME_MS_PER_DAY));
    const asked = night.find((r) => r.requests.some((q) => q.kind === 'plan' && q.agentId === 'ada'))!;
    expect(asked.requests.find((q) => q.kind === 'plan' && q.agentId === 'ada')).toMatchObject({
      day: dayIndex(at(0, 0)) + 1,
      gameMs: onHerClock(at(5, 0) + GAME_MS_PER_DAY),
    });
    expect(sim.agent('ada')!.spec).toEqual({ ...edited, spawnTile: ada.spawnTile });
    expect(sim.agent('ada')!.nextSpec).toBeUndefined();
    // The same state from the snapshot round trip.
    const copy = Simulation.fromState(map, sim.getState());
    expect(copy.getState()).toEqual(sim.getState());
  });

  it('finds the action in force, or none', () => {
    expect(findActionIndex(actions, 419)).toBe(-1);
    expect(findActionIndex(actions, 420)).toBe(0);
    expect(findActionIndex(actions, 539)).toBe(1);
    expect(findActionIndex(actions, 540)).toBe(-1);
  });
  it('splices a reaction into a plan, cutting the action it interrupts', () => {
    const out = splicePlan(actions, 450, [{ startMinute: 450, durationMinutes: 20, description: 'react', emoji: '', address: 'y' }]);
    expect(out.map((a) => [a.startMinute, a.durationMinutes, a.description])).toEqual([
      [420, 30, 'a'],
      [450, 20, 'react'],
    ]);
  });
  it('counts days from game midnight', () => {
    expect(dayIndex(at(23, 59))).toBe(dayIndex(at(0, 0)));
    expect(dayIndex(at(0, 0) + GAME_MS_PER_DAY)).toBe(dayIndex(at(0, 0)) + 1);
  });
});

describe('pair cooldowns', () => {
  it('keep only the partners whose cooldown can still decide something', () => {
    const agent = { pairCooldowns: [] as Array<[string, number]> } as unknown as AgentSimState;
    const H = 3_600_000;
    setCooldown(agent, 'a', 0);
    setCooldown(agent, 'b', 2 * H);
    // At 5 h, a's cooldown (4 h) has run out: it goes when someone new is added; b's still counts.
    setCooldown(agent, 'c', 5 * H);
    expect(agent.pairCooldowns).toEqual([
      ['b', 2 * H],
      ['c', 5 * H],
    ]);
    // Updating a partner already listed changes its time only.
    setCooldown(agent, 'b', 6 * H);
    expect(agent.pairCooldowns).toEqual([
      ['b', 6 * H],
      ['c', 5 * H],
    ]);
    expect(C.PAIR_CONVERSATION_COOLDOWN_GAME_MS).toBe(4 * H);
  });
});
