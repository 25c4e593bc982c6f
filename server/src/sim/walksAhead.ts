// The walks the next steps are about to start, worked out between a served town's ticks so that their paths
// are searched there (DistanceFields.searchAhead) and not in the step that starts them: a commute across the
// town of 10,000 is a search of ~25,000–80,000 tiles, and a morning's minute starts hundreds. A path is a pure
// function of its two ends and the map, so a path searched ahead is the very path the step would have searched;
// a guess that turns out wrong (a conversation stopped the agent, its plan changed, a tick fell past the hour)
// only leaves an unused path behind. Nothing here changes the state.
import { dayIndex, GAME_MS_PER_MINUTE, minuteOfDay } from '../protocol/time';
import { findKeptIndex, isAwake, keepPlan, keptAddress, keptCount, keptStart, type KeptPlan } from '../protocol/plan';
import { positionOnPath } from '../protocol/movement';
import { latenessGameMs } from '../protocol/lateness';
import { MINUTES_PER_DAY, wakingDayAt } from '../world/clockText';
import type { AgentSimState, Input } from './types';
import type { SimIndex, SimWorld, WalkAhead } from './state';
import { tileOfAddress } from './walking';

export type { WalkAhead } from './state';

/**
 * The walk `followSchedule` would start for the agent in a step at `atGameMs` if its plan were `plan` (a plan
 * about to be applied, or its own), or null: talking, asleep, no change of action, still walking then, going nowhere.
 * `planIsNew`: the plan is applied in that step, so the action is taken up whatever the agent did before.
 */
function walkAt(world: SimWorld, seed: number, agent: AgentSimState, plan: KeptPlan | null, atGameMs: number, planIsNew: boolean): WalkAhead | null {
  if (agent.conversationId !== null) return null;
  const { spec } = agent;
  const own = atGameMs - latenessGameMs(spec.id);
  const { day, minute } = wakingDayAt(dayIndex(own), minuteOfDay(own), spec.wakeMinute, spec.sleepMinute);
  if (!isAwake(minute % MINUTES_PER_DAY, spec.wakeMinute, spec.sleepMinute)) return null;
  const today = plan && plan.day === day ? plan : null;
  const index = today ? findKeptIndex(today, minute) : -1;
  if (!today || index < 0 || (!planIsNew && index === agent.actionIndex)) return null;
  let from = agent.tile;
  const m = agent.movement;
  if (m) {
    const w = world.map.widthTiles;
    const at = positionOnPath(m.path, w, m.startGameMs, m.tilesPerGameMinute, atGameMs);
    if (at.moving) return null;
    from = at.tileY * w + at.tileX;
  }
  const to = tileOfAddress(world, seed, atGameMs, keptAddress(today, index), spec.id);
  return to === null || to === from ? null : { from, to };
}

/**
 * The walks that plans waiting to be applied will start in the next step (at about `nextStepGameMs`): a plan
 * made between ticks is applied by the next, and its agent sets off at once.
 */
export function walksOfPlans(world: SimWorld, seed: number, index: SimIndex, inputs: readonly Input[], nextStepGameMs: number): WalkAhead[] {
  const walks: WalkAhead[] = [];
  for (const input of inputs) {
    if (input.kind !== 'plan') continue;
    const agent = index.agents.get(input.agentId);
    const walk = agent && walkAt(world, seed, agent, keepPlan(input.plan), nextStepGameMs, true);
    if (walk) walks.push(walk);
  }
  return walks;
}

/**
 * The walks that the next action of the agents `agents[first]`, `agents[first + every]`, … will start, for those whose
 * next action begins on their own clock after `nowGameMs` and by `nowGameMs + horizonGameMs` (a slice of the town a
 * call: every agent is looked at once in `every` calls).
 */
export function walksOfNextActions(
  world: SimWorld,
  seed: number,
  agents: readonly AgentSimState[],
  nowGameMs: number,
  horizonGameMs: number,
  first = 0,
  every = 1,
): WalkAhead[] {
  const walks: WalkAhead[] = [];
  for (let i = first; i < agents.length; i += every) {
    const agent = agents[i];
    const plan = agent.plan;
    if (!plan || agent.conversationId !== null) continue;
    // The minute of its waking day at which its next action begins: the one after the action in force, or its first
    // one at waking for an agent asleep with the day's plan.
    const next = agent.actionIndex + 1;
    const count = keptCount(plan);
    const nextMinute =
      agent.actionIndex >= 0 ? (next < count ? keptStart(plan, next) : undefined) : agent.asleep && count > 0 ? agent.spec.wakeMinute : undefined;
    if (nextMinute === undefined) continue;
    // The step at or after the moment the agent's own clock reaches it.
    const startsGameMs = (plan.day * MINUTES_PER_DAY + nextMinute) * GAME_MS_PER_MINUTE + latenessGameMs(agent.spec.id);
    if (startsGameMs <= nowGameMs || startsGameMs > nowGameMs + horizonGameMs) continue;
    const walk = walkAt(world, seed, agent, plan, startsGameMs, false);
    if (walk) walks.push(walk);
  }
  return walks;
}
