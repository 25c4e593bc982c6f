// The day's plan at wake-up: memories about today (and, after the first day, yesterday's plans and
// thoughts) are retrieved, the mind plans and revises the agent's status in one judgement, the plan is
// saved and remembered, and goes back to the sim. With planning ablated, the persona's routine is the plan.
import type { AgentId } from '../../protocol/ids';
import type { Input } from '../../sim/types';
import type { CognitionContext } from '../context';
import { GAME_MS_PER_HOUR } from '../../protocol/time';
import type { AgentMemory } from '../memory';
import { planFromRoutine } from '../offlineMind';

export async function planDay(c: CognitionContext, memory: AgentMemory, agentId: AgentId, day: number, gameMs: number): Promise<Input> {
  const persona = c.persona(agentId);
  if (c.settings.ablation === 'no-planning') {
    const plan = planFromRoutine(persona, c.deps.map, c.deps.seed, day);
    c.deps.records.savePlan(agentId, plan);
    return { kind: 'plan', agentId, plan };
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
  const { plan, currently } = await c.mind.planDay(c.mindContext(agentId, gameMs), day, memories, memory.yesterday(agentId, gameMs));
  if (currently && currently.trim() && currently.trim() !== persona.currently) c.reviseStatus(agentId, currently.trim(), day, gameMs);
  c.deps.records.savePlan(agentId, plan);
  await memory.remember(agentId, [{ kind: 'plan', description: `${persona.name}'s plan for the day: ${plan.broadStrokes.join(', ')}`, importance: 5, gameMs }]);
  return { kind: 'plan', agentId, plan };
}
