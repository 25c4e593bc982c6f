// The sim's state as plain data, the indexes and caches derived from it, and the context one step
// works in. Caches (distance fields, arena tiles) depend only on the map; indexes only on the state.
import type { TownMap } from '../world/types';
import { DistanceFields } from '../world/distanceFields';
import type { Rng } from './rng';
import type { DueAgents } from './dueAgents';
import { keepPlan, type DayPlan } from '../protocol/plan';
import { NEVER_GAME_MS, type AgentSimState, type ConversationState, type SimState, type StepResult } from './types';

/** What the sim derives from the map once: shared by every state over that map (live, replay, tests). */
export interface SimWorld {
  map: TownMap;
  /** Cached breadth-first distance fields per destination: a walk is a descent on one. */
  fields: DistanceFields;
  /** Walkable tiles of each arena, by arena index, filled on first use. */
  arenaTiles: Map<number, number[]>;
}

export function createSimWorld(map: TownMap): SimWorld {
  return { map, fields: new DistanceFields(map.widthTiles, map.heightTiles, map.collision), arenaTiles: new Map() };
}

/** Lookups over a state, kept in step with it by the reducer (apply.ts). */
export interface SimIndex {
  agents: Map<string, AgentSimState>;
  conversations: Map<number, ConversationState>;
}

export function indexState(state: SimState): SimIndex {
  return {
    agents: new Map(state.agents.map((a) => [a.spec.id as string, a])),
    conversations: new Map(state.conversations.map((c) => [c.id, c])),
  };
}

/** What rooms and the inspector read of a sim state: live (a Simulation) or replayed (a folded state). */
export interface SimReadView {
  readonly map: TownMap;
  /** The game time the state is at. */
  readonly gameMs: number;
  agents(): readonly Readonly<AgentSimState>[];
  agent(id: string): Readonly<AgentSimState> | undefined;
  conversation(id: number): Readonly<ConversationState> | undefined;
}

/** A read view over a state and its index (kept in step by whoever changes the state). */
export function readView(map: TownMap, state: SimState, index: SimIndex): SimReadView {
  return {
    map,
    get gameMs() {
      return state.gameMs;
    },
    agents: () => state.agents,
    agent: (id) => index.agents.get(id),
    conversation: (id) => index.conversations.get(id),
  };
}

export function emptyState(seed: number, gameMs: number, rngState: number): SimState {
  return { version: 3, seed, gameMs, rngState, nextConversationId: 1, agents: [], conversations: [], worldEvents: [] };
}

/**
 * A copy of the state that later steps do not change, made cheaply: what the sim changes in place (the
 * state's lists, each agent's and conversation's own fields, the lists of perceptions held, observations
 * waiting and lines queued, each pair cooldown) is copied; the rest (specs, plans, walks, actions,
 * intents, world events, held entries) the sim only ever replaces, so it is shared. A snapshot of a big town is serialised
 * from it in slices while the town steps on (town/snapshots.ts); tests/unit/captureState.test.ts checks
 * over a day that nothing captured changes afterwards.
 */
export function captureState(state: Readonly<SimState>): SimState {
  return {
    ...state,
    agents: state.agents.map((a) => ({
      ...a,
      held: a.held.slice(),
      pendingObservations: a.pendingObservations.slice(),
      pairCooldowns: a.pairCooldowns.map(([k, t]) => [k, t]),
    })),
    conversations: state.conversations.map((c) => ({ ...c, queued: c.queued.slice() })),
    worldEvents: state.worldEvents.slice(),
  };
}

/** Reads a saved state of any version this build understands. */
export function upgradeState(saved: unknown): SimState {
  const s = saved as { version?: number };
  if (s.version === 3) return structuredClone(saved as SimState);
  if (s.version === 1 || s.version === 2) {
    // Versions 1 and 2 kept each plan's actions as objects, and its hour blocks.
    const old = structuredClone(saved) as Omit<SimState, 'version' | 'agents'> & { agents: Array<Omit<AgentSimState, 'plan'> & { plan: DayPlan | null }> };
    const agents = old.agents.map((a): AgentSimState => {
      // Saved before perception took turns: nothing is due.
      a.lookDue ??= false;
      if (s.version === 1) {
        // Version 1 kept "never" as -Infinity (null after JSON) and the last perceived arena outside the state.
        a.lastConversationEndGameMs ??= NEVER_GAME_MS;
        a.perceivedArena ??= -1;
      }
      return { ...a, plan: a.plan && keepPlan(a.plan) };
    });
    return { ...old, version: 3, agents };
  }
  throw new Error(`unsupported sim state version ${String(s.version)}`);
}

export function emptyResult(): StepResult {
  return { events: [], requests: [], changed: new Set(), added: [], removed: [] };
}

/** A walk's two ends (tiles), whose path a served town searches between ticks (walksAhead.ts). */
export interface WalkAhead {
  from: number;
  to: number;
}

/**
 * What a live step starts at most, so that a wave (a commute at 8:00 in a town of 10,000: ~300 walks in one step, each
 * a path search, logged and sent to viewers) is spread over the next steps instead of holding one: `walks` new walks,
 * and path searches up to `searchTiles` tiles (a search that would go past them is given up there, and its walk
 * searched between ticks). An agent whose new action would walk past either waits for the next step, as if that much
 * later (schedule.ts setAction); an action taken up where the agent stands never waits. And `firstTurns`: when
 * everyone is due (a new or resumed world: 10,000 first actions and plan requests in one step), the schedules of that
 * many a step, in the town's order (walkers at once); the rest have their turn at the next steps, and look around only
 * after it (dueAgents.ts). Lockstep runs (scenarios, batches) have no budget and step exactly as ever.
 */
export interface StepBudget {
  firstTurns: number;
  walks: number;
  searchTiles: number;
}

/** Everything one step works with. Systems are functions of it. */
export interface Step {
  world: SimWorld;
  state: SimState;
  index: SimIndex;
  now: number;
  /** The game time of the step before (the start time, for the first). */
  previousGameMs: number;
  rng: Rng;
  out: StepResult;
  /** Arenas where something visible changed in this step: only their occupants look again. */
  dirtyArenas: Set<number>;
  /** Everyone looks again this step (a world event arrived). */
  forcePerception: boolean;
  /** Whose schedule may need to run: every change to an agent that its schedule reads touches it here (dueAgents.ts). */
  due: DueAgents;
  /**
   * A live step's budget (Simulation.step's StepBudget), with what is left of it and the walks whose searches it gave up
   * (to search between ticks: Simulation.searchLater); null in lockstep runs.
   */
  budget: (StepBudget & { fromTiles: number; searchLater: WalkAhead[] }) | null;
}
