// Folding the log: a saved sim state plus the events after it gives the state at a later game time.
// It uses the sim's own reducer (sim/apply.ts) and walking (sim/walking.ts), so the folded state is
// the state the live sim had. What no event records (perceptions held, observations waiting, the RNG)
// stays as the snapshot had it: it changes nothing a viewer sees.
import type { LoggedEvent } from '../protocol/events';
import type { SimState } from '../sim/types';
import { applyEvent } from '../sim/apply';
import { advanceWalk } from '../sim/walking';
import { indexState, type SimWorld } from '../sim/state';
import { upgradeEvent } from './legacy';

export interface FoldResult {
  state: SimState;
  /** Events applied. */
  applied: number;
  /** Events skipped because they lack what the fold needs (worlds of an older event format). */
  skipped: number;
  /** Seq of the last event read, or the starting seq when none. */
  lastSeq: number;
  /** Game time of the last sim event applied, or null. */
  lastGameMs: number | null;
}

/** Applies `events` (in seq order) to a copy of `from`. */
export function foldEvents(world: SimWorld, from: SimState, events: Iterable<LoggedEvent>, startSeq = 0): FoldResult {
  const state = structuredClone(from);
  const index = indexState(state);
  let applied = 0;
  let skipped = 0;
  let lastSeq = startSeq;
  let lastGameMs: number | null = null;
  for (const raw of events) {
    lastSeq = raw.seq;
    const e = upgradeEvent(raw);
    if (!e) {
      skipped++;
      continue;
    }
    applyEvent(state, index, world.map, e);
    applied++;
    if (isSimEvent(e)) lastGameMs = e.gameMs;
  }
  return { state, applied, skipped, lastSeq, lastGameMs };
}

/** Moves the folded state to game time `gameMs`: walks advance, ended world events go. */
export function settleAt(world: SimWorld, state: SimState, gameMs: number): SimState {
  state.gameMs = Math.max(state.gameMs, gameMs);
  for (const agent of state.agents) advanceWalk(world, agent, state.gameMs);
  state.worldEvents = state.worldEvents.filter((e) => e.untilGameMs > state.gameMs);
  return state;
}

const SIM_EVENT_KINDS = new Set([
  'agent.added',
  'agent.removed',
  'agent.updated',
  'agent.action',
  'agent.move',
  'conversation.start',
  'conversation.utterance',
  'conversation.end',
  'plan.made',
  'world.event',
]);

/** Whether the event is one the sim emits (its game time is the sim's step time). */
export function isSimEvent(e: LoggedEvent): boolean {
  return SIM_EVENT_KINDS.has(e.kind);
}
