// What one live tick takes on: the inputs it applies (PLAN_INPUTS_PER_TICK plans at most, each agent's inputs in
// order) and the walks, path search and first turns it may start (tickBudget). A lockstep run has neither limit.
import { GAME_MS_PER_MINUTE } from '../protocol/time';
import type { Input } from '../sim/types';
import type { StepBudget } from '../sim/state';

/**
 * Plans (made or routine) a live tick applies at most; the plans past it, and the later inputs of their agents, wait
 * in order for the next tick (tickInputsOf). Each plan is logged with the walk it starts (~0.3–1 ms of the tick's
 * commit at 10,000): a new world of 10,000 at 6:30 handed a tick hundreds of routines at once (ticks of 100–230 ms in
 * the commit alone). A town of 25 or 1,000 never has this many in one tick; a lockstep run (scenarios, batches)
 * applies all.
 */
export const PLAN_INPUTS_PER_TICK = 32;
/**
 * What a live tick starts at most (sim/state.ts StepBudget), for each game minute it advances the clock: a tick at 1×
 * (6 game seconds) starts 80 walks and searches 100,000 tiles at most, and gives 500 agents their first turn in a new
 * or resumed world (the town of 10,000's first tick took 110–170 ms for all; now 34–42, and its next 19 ticks ~5 ms
 * more than the ticks after them); no tick less (a held clock's included), and
 * none more than a tick of 100 ms at the clock's rate (a late tick's budget grew with its lateness). The town of
 * 10,000 searched ~32,000 tiles in a mean tick of its morning, but a commute wave started ~300 walks and searched
 * 690,000 tiles (~25 ms) in one; spread over the next ticks, its last walkers start up to 2.5 game minutes late.
 * A search that would pass the tiles left is given up where it passes them and searched between ticks (one
 * commute's search reached up to 400,000 tiles). A town of 1,000 rarely reaches the budget; a lockstep run
 * (scenarios, batches) has none.
 */
export const TICK_BUDGET_PER_GAME_MINUTE: StepBudget = { firstTurns: 5_000, walks: 800, searchTiles: 1_000_000 };
/** The game time a tick at 1× advances (at 10 Hz): the least a tick's budget is worked out for. */
const ONE_X_TICK_GAME_MS = 6_000;
/** The most wall time a tick's budget is worked out for, at the clock's rate: a tick at 10 Hz. */
export const BUDGET_TICK_WALL_MS = 100;

/** The budget of a live tick that advances the clock by `advancedGameMs` (TICK_BUDGET_PER_GAME_MINUTE). */
export function tickBudget(advancedGameMs: number): StepBudget {
  const minutes = Math.max(advancedGameMs, ONE_X_TICK_GAME_MS) / GAME_MS_PER_MINUTE;
  const { firstTurns, walks, searchTiles } = TICK_BUDGET_PER_GAME_MINUTE;
  const times = (n: number) => Math.round(n * minutes);
  return { firstTurns: times(firstTurns), walks: times(walks), searchTiles: times(searchTiles) };
}

/**
 * The inputs a live tick takes of those that came, in order: all, but `maxPlans` plans at most. The plans past it wait
 * for the next tick, and so does every later input about an agent or a conversation that has one waiting, so that
 * each agent's inputs keep their order (a restart waits for all before it, and all after it for it); the others' go
 * on. When everything after the last plan taken waited, a big town's morning of queued plans held back the ends of the
 * operations behind them (their agents busy meanwhile) and the talks decided: the town of 10,000 started 596
 * conversations in one tick when its plans ran out at 7:13 (39–128 ms).
 */
export function tickInputsOf(inputs: Input[], maxPlans: number): { taken: Input[]; waiting: Input[] } {
  let plans = 0;
  for (const input of inputs) if (input.kind === 'plan') plans++;
  if (plans <= maxPlans) return { taken: inputs, waiting: [] };
  plans = 0;
  const taken: Input[] = [];
  const waiting: Input[] = [];
  const agents = new Set<string>();
  const talks = new Set<number>();
  let restartWaits = false;
  for (const input of inputs) {
    const [who, other] = agentsOf(input);
    const talk = input.kind === 'utterance' || input.kind === 'conversationEnd' ? input.conversationId : null;
    if (input.kind === 'restarted' && waiting.length > 0) restartWaits = true;
    const waits =
      restartWaits ||
      (input.kind === 'plan' && plans >= maxPlans) ||
      (who !== null && agents.has(who)) ||
      (other !== null && agents.has(other)) ||
      (talk !== null && talks.has(talk));
    if (!waits) {
      if (input.kind === 'plan') plans++;
      taken.push(input);
      continue;
    }
    waiting.push(input);
    if (who !== null) agents.add(who);
    if (other !== null) agents.add(other);
    if (talk !== null) talks.add(talk);
  }
  return { taken, waiting };
}

/** The agents an input is about (none for a world event, a conversation's end, a restart). */
function agentsOf(input: Input): [string | null, string | null] {
  switch (input.kind) {
    case 'talk':
      return [input.agentId, input.partnerId];
    case 'utterance':
      return [input.speaker, null];
    case 'addAgent':
    case 'updateResident':
      return [input.resident.id, null];
    case 'worldEvent':
    case 'conversationEnd':
    case 'restarted':
      return [null, null];
    default:
      return [input.agentId, null];
  }
}
