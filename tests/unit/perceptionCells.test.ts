// Perception by place (sim/perception.ts): in a crowded arena a looker tries only the occupants of the cells around
// it, and the town's passes read per-step notes instead of every agent twice. What it takes must be exactly what the
// scan of every occupant took before: the same observations in the same order, the same agent state after. Random
// crowded towns (many on the same tiles, at equal distances, objects in use, world events, held and pending
// observations near their limits, agents renamed and leaving) are stepped with both, from copies of one state; the
// reference is the scan as it was, kept here (with the product's own take and holds). The controls: cells smaller
// than the vision radius, and a reference with ties the other way round, must each differ somewhere (so the cells
// are searched, and the order of ties is compared).
import { describe, expect, it } from 'vitest';
import { cellSearch, holds, perceive, take } from '../../server/src/sim/perception';
import { perceptionTurn } from '../../server/src/sim/stagger';
import * as C from '../../server/src/sim/constants';
import type { AgentSimState, Observation, WorldEventState } from '../../server/src/sim/types';
import type { Step } from '../../server/src/sim/state';
import { DueAgents } from '../../server/src/sim/dueAgents';
import { asAgentId } from '../../server/src/world/types';

const W = 90;
const H = 40;
const ARENAS = ['Main Street: street', 'Cafe: cafe', 'Park: park', 'Mill: floor', 'Ada House: kitchen'];
const OBJECTS = ['counter', 'table', 'bench', 'bench 2'];

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Town {
  map: { widthTiles: number; arenas: Array<{ address: string }> };
  agents: AgentSimState[];
  worldEvents: WorldEventState[];
}

/** A town of 150 to 500, most of them in one or two arenas, bunched on few tiles (so many tie), the rest spread out. */
function randomTown(seed: number): Town {
  const r = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const n = 150 + Math.floor(r() * 350);
  const agents: AgentSimState[] = [];
  for (let i = 0; i < n; i++) agents.push(randomAgent(r, i, pick));
  return { map: { widthTiles: W, arenas: ARENAS.map((address) => ({ address })) }, agents, worldEvents: [] };
}

function randomAgent(r: () => number, i: number, pick: <T>(xs: T[]) => T): AgentSimState {
  const arenaIndex = r() < 0.05 ? -1 : r() < 0.6 ? 0 : r() < 0.5 ? 1 : Math.floor(r() * ARENAS.length);
  const arena = ARENAS[Math.max(0, arenaIndex)];
  const bunched = r() < 0.5;
  const x = bunched ? 20 + Math.floor(r() * 6) * 3 : Math.floor(r() * W);
  const y = bunched ? 10 + Math.floor(r() * 4) * 4 : Math.floor(r() * H);
  const action = `doing thing ${Math.floor(r() * 4)}`;
  return {
    spec: { id: `a${i}`, name: `Person ${i}` },
    tile: y * W + x,
    movement: r() < 0.3 ? { path: [] } : null,
    current: { description: action, address: r() < 0.7 ? `${arena}: ${pick(OBJECTS)}` : r() < 0.5 ? arena : `${pick(ARENAS)}: table` },
    asleep: r() < 0.1,
    conversationId: r() < 0.1 ? 1 : null,
    arenaIndex,
    perceivedArena: r() < 0.7 ? arenaIndex : -1,
    lookDue: r() < 0.5,
    held: [],
    pendingObservations: [],
  } as unknown as AgentSimState;
}

/** Moves some agents about, changes some actions, and makes a step's reasons to look. */
function stir(town: Town, r: () => number, now: number): Pick<Step, 'dirtyArenas' | 'forcePerception'> {
  for (const a of town.agents) {
    if (r() < 0.2) a.tile = Math.floor(r() * H) * W + Math.floor(r() * W);
    if (r() < 0.05) a.arenaIndex = Math.floor(r() * ARENAS.length);
    if (r() < 0.1) a.current = { ...a.current, description: `doing thing ${Math.floor(r() * 4)}` };
    if (r() < 0.1) a.movement = a.movement ? null : ({ path: [] } as unknown as AgentSimState['movement']);
    // Cognition takes some agents' observations (so the pending ones do not only pile up).
    if (r() < 0.3) a.pendingObservations = [];
    // Renamed (a new id: another lateness, so other perception turns).
    if (r() < 0.02) a.spec = { ...a.spec, id: asAgentId(`${a.spec.id}r`) };
  }
  // One leaves the town: those after it move up in the town's order.
  if (r() < 0.5) town.agents.splice(Math.floor(r() * town.agents.length), 1);
  town.worldEvents = town.worldEvents.filter((e) => e.untilGameMs > now);
  if (r() < 0.3) {
    const arena = r() < 0.3 ? null : r() < 0.5 ? ARENAS[Math.floor(r() * ARENAS.length)] : ARENAS[Math.floor(r() * ARENAS.length)].split(':')[0];
    town.worldEvents.push({ description: `event at ${now}`, arena, untilGameMs: now + 20_000 });
  }
  const dirtyArenas = new Set<number>();
  for (let a = 0; a < ARENAS.length; a++) if (r() < 0.4) dirtyArenas.add(a);
  return { dirtyArenas, forcePerception: r() < 0.1 };
}

function stepOf(town: Town, now: number, previousGameMs: number, reasons: Pick<Step, 'dirtyArenas' | 'forcePerception'>): Step {
  return {
    world: { map: town.map },
    state: { agents: town.agents, worldEvents: town.worldEvents },
    now,
    previousGameMs,
    ...reasons,
    dirtyArenas: new Set(reasons.dirtyArenas),
    // Nobody's first turn still to come (a budgeted step's: dueAgents.ts).
    due: new DueAgents(),
  } as unknown as Step;
}

/** Runs `steps` steps of a random town with `look`, from the same seed: the agents' states after each step. */
function run(seed: number, steps: number, look: (step: Step) => void): string[] {
  const town = randomTown(seed);
  const r = rng(seed * 7919 + 1);
  const states: string[] = [];
  let now = 9 * 3_600_000;
  for (let s = 0; s < steps; s++) {
    const previous = now;
    now += 2_000 + Math.floor(r() * 20_000);
    look(stepOf(town, now, previous, stir(town, r, now)));
    states.push(JSON.stringify(town.agents));
  }
  return states;
}

/** The scan of every occupant as it was before cells (server/src/sim/perception.ts of round 8), ties reversed on request. */
function reference(tiesReversed: boolean): (step: Step) => void {
  return (step) => {
    const { map } = step.world;
    const agents = step.state.agents;
    const lookers: AgentSimState[] = [];
    const looked = new Set<number>();
    for (const viewer of agents) {
      const arenaIndex = viewer.arenaIndex;
      if (arenaIndex < 0 || viewer.asleep || viewer.conversationId !== null) continue;
      const moved = viewer.perceivedArena !== arenaIndex;
      if (step.forcePerception || step.dirtyArenas.has(arenaIndex)) viewer.lookDue = true;
      if (!moved && !step.forcePerception && !(viewer.lookDue && perceptionTurn(step, viewer.spec.id))) continue;
      lookers.push(viewer);
      looked.add(arenaIndex);
    }
    const byArena = new Map<number, AgentSimState[]>();
    for (const a of agents) {
      if (!looked.has(a.arenaIndex)) continue;
      if (!byArena.has(a.arenaIndex)) byArena.set(a.arenaIndex, []);
      byArena.get(a.arenaIndex)!.push(a);
    }
    const w = map.widthTiles;
    const sentence = (a: AgentSimState) => `${a.spec.name} is ${a.current.description}`;
    for (const viewer of lookers) {
      const arena = map.arenas[viewer.arenaIndex];
      const occupants = byArena.get(viewer.arenaIndex)!;
      viewer.lookDue = false;
      viewer.perceivedArena = viewer.arenaIndex;
      const vx = viewer.tile % w;
      const vy = Math.floor(viewer.tile / w);
      const own = sentence(viewer);
      const ownObs = { description: own, subject: viewer.spec.name, predicate: 'is', object: viewer.current.description, arena: arena.address };
      if (!holds(viewer, own, step.now)) take(viewer, { ...ownObs, actorId: viewer.spec.id }, step.now);
      const found: Array<{ d: number; n: number; obs: Observation }> = [];
      for (const other of occupants) {
        if (other === viewer) continue;
        const d = Math.hypot((other.tile % w) - vx, Math.floor(other.tile / w) - vy);
        if (d > C.VISION_RADIUS_TILES) continue;
        const description = sentence(other);
        const obs = { description, subject: other.spec.name, predicate: 'is', object: other.current.description, arena: arena.address };
        found.push({ d, n: found.length, obs: { ...obs, actorId: other.spec.id } });
        const address = other.current.address;
        if (!other.movement && address.startsWith(`${arena.address}: `) && address.length > arena.address.length + 2) {
          const subject = address.slice(arena.address.length + 2);
          const inUse = { description: `the ${subject} is in use: ${description}`, subject, predicate: 'is in use by', object: other.spec.name };
          found.push({ d: d + 0.5, n: found.length, obs: { ...inUse, arena: arena.address } });
        }
      }
      for (const e of step.state.worldEvents) {
        if (e.arena !== null && e.arena !== arena.address && !arena.address.startsWith(`${e.arena}:`)) continue;
        const obs = { description: e.description, subject: 'the town', predicate: 'event', object: e.description, arena: arena.address, place: e.arena };
        found.push({ d: -1, n: found.length, obs });
      }
      found.sort((p, q) => p.d - q.d || (tiesReversed ? q.n - p.n : p.n - q.n));
      let taken = 0;
      for (const { obs } of found) {
        if (taken >= C.ATTENTION_BANDWIDTH || viewer.conversationId !== null) break;
        if (holds(viewer, obs.description, step.now)) continue;
        take(viewer, obs, step.now);
        taken++;
      }
    }
  };
}

/** Runs `f` with the cell search set to `settings`, then puts it back. */
function withCells<T>(settings: Partial<typeof cellSearch>, f: () => T): T {
  const saved = { ...cellSearch };
  Object.assign(cellSearch, settings);
  try {
    return f();
  } finally {
    Object.assign(cellSearch, saved);
  }
}

const SEEDS = Array.from({ length: 12 }, (_, i) => i + 1);
const STEPS = 12;

describe('perception by place', () => {
  it('takes exactly what the scan of every occupant takes, in its order, with cells or without', () => {
    let observations = 0;
    for (const seed of SEEDS) {
      const want = run(seed, STEPS, reference(false));
      observations += want.reduce((sum, s) => sum + (JSON.parse(s) as AgentSimState[]).reduce((k, a) => k + a.pendingObservations.length, 0), 0);
      // As shipped (cells where the arena is crowded), cells everywhere, and never cells.
      expect(run(seed, STEPS, perceive)).toEqual(want);
      expect(withCells({ minOccupants: 0, minLookers: 0 }, () => run(seed, STEPS, perceive))).toEqual(want);
      expect(withCells({ minOccupants: Infinity }, () => run(seed, STEPS, perceive))).toEqual(want);
    }
    // Enough was seen for the comparison to mean something.
    expect(observations).toBeGreaterThan(5_000);
  });

  it('differs when the cells are smaller than the vision radius, or ties go the other way (the controls)', () => {
    const differs = (look: (step: Step) => void) =>
      SEEDS.some((seed) => JSON.stringify(run(seed, STEPS, look)) !== JSON.stringify(run(seed, STEPS, reference(false))));
    expect(withCells({ cellTiles: cellSearch.cellTiles - 2 }, () => differs(perceive))).toBe(true);
    expect(differs(reference(true))).toBe(true);
    // And the reference agrees with itself (the comparison is not always "different").
    expect(differs(reference(false))).toBe(false);
  });
});
