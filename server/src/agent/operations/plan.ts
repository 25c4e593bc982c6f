// The day's plan at wake-up: memories about today (and, after the first day, yesterday's plans and
// thoughts) are retrieved, the mind plans and revises the agent's status in one judgement, the plan is
// saved and remembered, and goes back to the sim. With planning ablated, the persona's routine is the plan.
// A plan whose actions the mind is still decomposing (an LLM's) goes back at once with the routine's actions,
// and the sim waits no more; the decomposed actions follow as a re-plan of that day from the agent's minute then.
import type { AgentId } from '../../protocol/ids';
import type { Input } from '../../sim/types';
import type { CognitionContext } from '../context';
import { GAME_MS_PER_HOUR } from '../../protocol/time';
import type { AgentMemory } from '../memory';
import { planFromRoutine } from '../offlineMind';
import { LlmAbortedError } from '../../llm/errors';

/** The reason a day's decomposed actions are logged with, as they replace the routine's from the agent's minute on. */
export const ACTIONS_DECOMPOSED = "its day's actions, decomposed from its hour blocks";

export async function planDay(
  c: CognitionContext,
  memory: AgentMemory,
  agentId: AgentId,
  day: number,
  gameMs: number,
  send: (input: Input) => void,
  free: () => void,
): Promise<void> {
  const persona = c.persona(agentId);
  if (c.settings.ablation === 'no-planning') {
    const plan = planFromRoutine(persona, c.deps.map, c.deps.seed, day);
    c.deps.records.savePlan(agentId, plan);
    send({ kind: 'plan', agentId, plan });
    return;
  }
  const retrieved = await memory.retrieve(agentId, `${persona.name}'s plans, appointments and events for today`, gameMs, 12);
  // The offline mind's commitments (accepted or declined invitations, its own gatherings) and recent insights are
  // always at hand, whatever retrieval ranked first; an LLM plans from what retrieval gives it, as in the paper.
  const horizon = gameMs - 48 * GAME_MS_PER_HOUR;
  const thoughts =
    c.mind.kind === 'offline'
      ? c.deps.memories.recent(agentId, 200, ['thought']).filter((m) => m.createdGameMs >= horizon && !retrieved.some((r) => r.id === m.id))
      : [];
  const memories = [...retrieved, ...thoughts];
  const { plan, currently, refinement } = await c.mind.planDay(c.mindContext(agentId, gameMs), day, memories, memory.yesterday(agentId, gameMs));
  // Settled at once, so a failure while the plan is remembered is never an unhandled rejection.
  const refined = refinement?.then(
    (actions) => ({ actions, error: null }),
    (error: unknown) => ({ actions: null, error }),
  );
  if (currently && currently.trim() && currently.trim() !== persona.currently) c.reviseStatus(agentId, currently.trim(), day, gameMs);
  c.deps.records.savePlan(agentId, plan);
  await memory.remember(agentId, [{ kind: 'plan', description: `${persona.name}'s plan for the day: ${plan.broadStrokes.join(', ')}`, importance: 5, gameMs }]);
  send({ kind: 'plan', agentId, plan });
  if (!refined) return;
  free();
  const { actions, error } = await refined;
  if (error instanceof LlmAbortedError) return;
  if (error) throw error;
  c.deps.records.savePlan(agentId, { ...plan, actions: actions! });
  send({ kind: 'replan', agentId, fromMinute: 0, actions: actions!, reason: ACTIONS_DECOMPOSED, day });
}
