// The persona editor's preview: the day plan a persona would make, without bringing it into town.
// The offline mind answers at once and for nothing; the town's LLM mind (when it runs on one) answers
// through the town's own stack (cache, budget, scheduler, recorder), and the preview says what it cost.
// Nothing in the world changes: the plan is made from the persona's seed memories, held in memory
// only, and is not saved.
import type { AgentId } from '../protocol/ids';
import type { MemoryId, Memory } from '../store/types';
import type { PlanPreview } from '../protocol/personas';
import { formatGameDate, gameMsAt } from '../protocol/time';
import { minuteOfWakingDay, parseClock, planMomentAt } from '../world/clockText';
import type { Persona } from '../world/persona';
import type { MindContext } from '../agent/mind';
import { OfflineMind, rateImportanceHeuristically } from '../agent/offlineMind';
import { LlmMind } from '../agent/LlmMind';
import { MeteredChatModel } from '../llm/MeteredChatModel';
import type { Town } from './Town';
import { bedAddressOf } from './residents';

/** Why a preview could not be made with the mind asked for (the HTTP answer says it as a 409). */
export class PreviewUnavailable extends Error {}

const offline = new OfflineMind();

/**
 * The plan `persona` would make for its next day in `town`: the day in progress if it is still awake
 * in it (and, for an agent in town, has not planned it yet), else the next one.
 */
export async function previewDayPlan(town: Town, persona: Persona, mind: 'offline' | 'llm'): Promise<PlanPreview> {
  const gameMs = town.clock.gameMs;
  const wake = parseClock(persona.wakeAt);
  const sleep = parseClock(persona.sleepAt);
  const moment = planMomentAt(gameMs, wake, sleep);
  let day = moment.minute < minuteOfWakingDay(sleep, wake) ? moment.day : moment.day + 1;
  const planned = town.sim.agent(persona.id)?.plan?.day;
  if (planned !== undefined && planned >= day) day = planned + 1;
  const ctx: MindContext = {
    agent: { persona, currentAction: 'sleeping', currentPlace: bedAddressOf(persona), plan: null },
    map: town.map,
    gameMs: gameMsAt(day, wake),
    seed: town.config.seed,
    names: new Map([...town.personas.values(), persona].map((p) => [p.id as string, p.name])),
    relationships: new Map(Object.entries(persona.relationships)),
  };
  const memories = seedMemoriesOf(persona, ctx.gameMs);
  const date = formatGameDate(gameMsAt(day, wake));
  // A first day: there is no yesterday to revise the status from.
  if (mind === 'offline') return { mind, label: 'offline', day, date, plan: (await offline.planDay(ctx, day, memories, null)).plan, cost: null };

  const stack = town.stack;
  if (town.mind.kind !== 'llm' || !stack) throw new PreviewUnavailable('this town runs on the offline mind: set OPENAI_BASE_URL to preview with an LLM');
  if (stack.budget.paused) throw new PreviewUnavailable(`the LLM budget is spent (${stack.budget.describe()}): raise it to preview with the LLM`);
  const metered = new MeteredChatModel(stack.model, stack.pricing, `preview:${persona.id}`);
  let fallbacks = 0;
  const llm = new LlmMind({ model: metered, label: town.mind.label, onFallback: () => fallbacks++ });
  const { plan, refinement } = await llm.planDay(ctx, day, memories, null);
  // The preview shows the whole day as the model decomposes it: the actions that follow the plan are awaited here.
  const actions = refinement ? await refinement : plan.actions;
  return { mind, label: town.mind.label, day, date, plan: { ...plan, actions }, cost: { ...metered.meter, fallbacks } };
}

/** What a new agent's memory stream starts with (what `seed` writes), as memories held only here. */
function seedMemoriesOf(persona: Persona, gameMs: number): Memory[] {
  return [persona.currently, ...persona.seedMemories].map((description, i) => ({
    id: -(i + 1) as MemoryId,
    agentId: persona.id as AgentId,
    kind: 'observation' as const,
    description,
    createdGameMs: gameMs,
    lastAccessedGameMs: gameMs,
    importance: rateImportanceHeuristically(description, persona),
    triple: null,
    evidenceIds: [],
  }));
}
