// One line of text for the town feed, from an event of the log; null for events the feed skips
// (movement, single memories), which would drown it.
import type { LoggedEvent } from '../protocol/events';
import type { Town } from './Town';

export function describeEvent(e: LoggedEvent, town: Pick<Town, 'personas'>): string | null {
  const name = (id: unknown) => (typeof id === 'string' ? town.personas.get(id)?.name ?? id : '?');
  const d = (e.data ?? {}) as Record<string, unknown>;
  switch (e.kind) {
    case 'conversation.start':
      return `${name(d.a)} and ${name(d.b)} started talking at ${String(d.arena)}`;
    case 'conversation.end':
      return `${name(d.a)} and ${name(d.b)} finished talking (${String(d.lines)} lines)`;
    case 'reflection.made': {
      const insights = (d.insights as Array<{ text: string }> | undefined) ?? [];
      return `${name(e.agentId)} reflected: ${insights.map((i) => i.text).join(' ')}`;
    }
    case 'plan.made':
      return d.reason ? `${name(e.agentId)} changed plans: ${String(d.reason)}` : `${name(e.agentId)} planned the day`;
    case 'world.event':
      return `Event${d.arena ? ` at ${String(d.arena)}` : ''}: ${String(d.description)}`;
    case 'operator.action':
      if (d.action === 'whisper') return `Whisper to ${name(d.agentId)}: "${String(d.text)}"`;
      if (d.action === 'interview') return `Interview with ${name(d.agentId)}: "${String(d.question)}"`;
      if (d.action === 'inject') return null; // the world.event line says it
      return `Operator: ${String(d.action)}${d.rate ? ` ${Number(d.rate) / 60}×` : ''}`;
    case 'run.started':
      return `The town wakes up (${String(d.agents)} agents, ${String(d.mind)} mind)`;
    case 'run.resumed':
      return `The town resumes (${String(d.mind)} mind)`;
    case 'budget.paused':
      return `Paused: ${String(d.message)}`;
    case 'llm.fallback':
      return `Fallback for ${name(e.agentId)} (${String(d.purpose)}): ${String(d.reason)}`;
    default:
      return null;
  }
}
