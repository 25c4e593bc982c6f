// The day's plan at wake-up: memories about today are retrieved, the mind plans, the plan is saved and
// remembered, and goes back to the sim.
import type { AgentId } from '../../protocol/ids';
import type { Input } from '../../sim/types';
import type { CognitionContext } from '../context';
import type { AgentMemory } from '../memory';

export async function planDay(c: CognitionContext, memory: AgentMemory, agentId: AgentId, day: number, gameMs: number): Promise<Input> {
  const persona = c.persona(agentId);
  const memories = await memory.retrieve(agentId, `${persona.name}'s plans, appointments and events for today`, gameMs, 12);
  const plan = await c.mind.planDay(c.mindContext(agentId, gameMs), day, memories);
  c.deps.records.savePlan(agentId, plan);
  await memory.remember(agentId, [{ kind: 'plan', description: `${persona.name}'s plan for the day: ${plan.broadStrokes.join(', ')}`, importance: 5, gameMs }]);
  return { kind: 'plan', agentId, plan };
}
