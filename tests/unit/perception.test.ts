// Perception in a crowded arena (sim/perception.ts): each looker takes its own action, then the nearest within sight
// first (people, objects in use half a tile behind their user), ties in the town's order, up to the attention
// bandwidth. The sentences are made lazily, for those reached in that order only; what is taken must be what
// a sort of every candidate would give. The expected lists here are worked out from the agents' tiles and actions.
import { describe, expect, it } from 'vitest';
import { buildTinyTown } from '../fixtures/tinyTown';
import { Simulation } from '../../server/src/sim/Simulation';
import { dayIndex } from '../../server/src/protocol/time';
import { asAgentId, type AgentId } from '../../server/src/world/types';
import type { Input, Observation, OperationRequest, ResidentSpec } from '../../server/src/sim/types';
import type { DayPlan } from '../../server/src/protocol/plan';
import * as C from '../../server/src/sim/constants';

const map = buildTinyTown();
const W = map.widthTiles;
const DAY0 = Date.UTC(2026, 1, 13);
const NINE = DAY0 + 9 * 3_600_000;
const look = { skin: '#e0ac69', hair: '#222222', shirt: '#3366cc', pants: '#333333' };
const places = ['Cafe: cafe', 'Cafe: cafe: counter', 'Cafe: cafe: table', 'Cafe: cafe: table 2'];

/** 40 people spread over the cafe's 13 x 4 tiles (so many at equal distances), each at one of its places. */
function crowd(): ResidentSpec[] {
  return Array.from({ length: 40 }, (_, i) => ({
    id: asAgentId(`p${String(i).padStart(2, '0')}`),
    name: `Person ${i}`,
    bedAddress: 'Ada House: bedroom: bed',
    wakeMinute: 0,
    sleepMinute: 1439,
    spawnTile: (1 + (i % 4)) * W + 11 + ((i * 5) % 13),
    look,
  }));
}

const planFor = (i: number): DayPlan => ({
  day: dayIndex(NINE),
  broadStrokes: [],
  hourBlocks: [],
  actions: [{ startMinute: 0, durationMinutes: 1439, description: `doing thing ${i % 3}`, emoji: '•', address: places[i % places.length] }],
});

/** What each looker should have taken: its own action, then the first ATTENTION_BANDWIDTH of all candidates sorted by distance. */
function expected(sim: Simulation, viewerId: string, tiesReversed: boolean, held = new Set<string>(), events: string[] = []): string[] {
  const agents = sim.agents();
  const viewer = agents.find((a) => a.spec.id === viewerId)!;
  const arena = map.arenas[viewer.arenaIndex].address;
  const [vx, vy] = [viewer.tile % W, Math.floor(viewer.tile / W)];
  const candidates: Array<{ d: number; n: number; text: string }> = [];
  for (const other of agents) {
    if (other === viewer || other.arenaIndex !== viewer.arenaIndex) continue;
    const d = Math.hypot((other.tile % W) - vx, Math.floor(other.tile / W) - vy);
    if (d > C.VISION_RADIUS_TILES) continue;
    const sentence = `${other.spec.name} is ${other.current.description}`;
    candidates.push({ d, n: candidates.length, text: sentence });
    const address = other.current.address;
    if (!other.movement && address.startsWith(`${arena}: `) && address.length > arena.length + 2)
      candidates.push({ d: d + 0.5, n: candidates.length, text: `the ${address.slice(arena.length + 2)} is in use: ${sentence}` });
  }
  for (const text of events) candidates.push({ d: -1, n: candidates.length, text });
  candidates.sort((p, q) => p.d - q.d || (tiesReversed ? q.n - p.n : p.n - q.n));
  const own = `${viewer.spec.name} is ${viewer.current.description}`;
  const fresh = candidates.filter((c) => !held.has(c.text) && c.text !== own);
  return [...(held.has(own) ? [] : [own]), ...fresh.slice(0, C.ATTENTION_BANDWIDTH).map((c) => c.text)];
}

describe('perception in a crowded arena', () => {
  it('takes the nearest within sight first, ties in the town order, objects in use behind their users', () => {
    const people = crowd();
    const sim = new Simulation(map, people, { seed: 5, startGameMs: NINE });
    // Plans come with the first step: nobody is busy, and everyone in the cafe looks in this one step.
    const r = sim.step(
      NINE,
      people.map((p, i): Input => ({ kind: 'plan', agentId: p.id, plan: planFor(i) })),
    );
    const observe = r.requests.filter((q): q is Extract<OperationRequest, { kind: 'observe' }> => q.kind === 'observe');
    expect(observe.length).toBeGreaterThan(30);
    const got = observe.map((q) => [q.agentId, q.observations.map((o) => o.description)]);
    expect(got).toEqual(observe.map((q) => [q.agentId, expected(sim, q.agentId, false)]));
    // Objects in use were seen, and each observation names what it is (a person's action, or an object and its user).
    // The control: with ties the other way round the lists differ, so the order of ties is what is checked.
    expect(got).not.toEqual(observe.map((q) => [q.agentId, expected(sim, q.agentId, true)]));

    // Two game minutes later all have sat down at their places; a world event there makes everyone look again.
    let t = NINE;
    const seenOnTheWay: Observation[] = [];
    let answers: Input[] = people.map((p): Input => ({ kind: 'done', agentId: p.id }));
    for (; t < NINE + 120_000; t += 6_000) {
      const step = sim.step(t, answers);
      for (const q of step.requests) if (q.kind === 'observe') seenOnTheWay.push(...q.observations);
      answers = step.requests.flatMap((q): Input[] => (q.kind === 'observe' ? [{ kind: 'done', agentId: q.agentId }] : []));
    }
    expect(sim.agents().every((a) => !a.movement)).toBe(true);
    // World events there make everyone look again, each time at what it does not hold yet: nearer people first, then
    // farther ones and the objects in use.
    const all = [...seenOnTheWay];
    for (const event of ['The cafe is out of milk', 'The lights flicker', 'A band starts to play', 'It is raining outside', 'The radio is loud']) {
      const before = new Map(
        sim.agents().map((a) => [a.spec.id, { held: new Set(a.held.map(([k]) => k)), pending: a.pendingObservations.map((o) => o.description) }]),
      );
      const want = (id: AgentId, tiesReversed: boolean) => [...before.get(id)!.pending, ...expected(sim, id, tiesReversed, before.get(id)!.held, [event])];
      const hit = sim.step((t += 6_000), [...answers, { kind: 'worldEvent', description: event, arena: 'Cafe', durationGameMs: 6_000 }]);
      answers = hit.requests.flatMap((q): Input[] => (q.kind === 'observe' ? [{ kind: 'done', agentId: q.agentId }] : []));
      const looked = hit.requests.filter((q): q is Extract<OperationRequest, { kind: 'observe' }> => q.kind === 'observe');
      expect(looked.length).toBeGreaterThan(30);
      const taken = looked.map((q) => [q.agentId, q.observations.map((o) => o.description)]);
      expect(taken).toEqual(looked.map((q) => [q.agentId, want(q.agentId, false)]));
      expect(taken).not.toEqual(looked.map((q) => [q.agentId, want(q.agentId, true)]));
      expect(looked.every((q) => q.observations.some((o) => o.description === event))).toBe(true);
      all.push(...looked.flatMap((q) => q.observations));
    }
    expect(all.filter((o) => o.predicate === 'is in use by').length).toBeGreaterThan(10);
    for (const o of all)
      if (o.predicate === 'is in use by')
        expect(o.description).toBe(`the ${o.subject} is in use: ${o.object} is ${sim.agents().find((a) => a.spec.name === o.object)!.current.description}`);
      else if (o.predicate === 'is') expect(o).toMatchObject({ predicate: 'is', object: sim.agent(o.actorId!)!.current.description, arena: 'Cafe: cafe' });
  });
});
