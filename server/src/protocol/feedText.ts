// One line of text for the town feed, from an event of the log; null for events the feed skips
// (movement, single memories), which would drown it. Live, replay and analysis say it the same way.
import type { LoggedEvent } from './events';
import type { FeedItem, UtteranceEvent } from './messages';

/** A display name for an agent id (the id itself when unknown). */
export type NameOf = (id: string) => string;

export function describeEvent(e: LoggedEvent, nameOf: NameOf): string | null {
  const name = (id: unknown) => (typeof id === 'string' ? nameOf(id) : '?');
  switch (e.kind) {
    case 'conversation.start':
      return `${name(e.data.a)} and ${name(e.data.b)} started talking at ${e.data.arena}`;
    case 'conversation.end':
      return `${name(e.data.a)} and ${name(e.data.b)} finished talking (${e.data.lines} lines)`;
    case 'reflection.made':
      return `${name(e.agentId)} reflected: ${e.data.insights.map((i) => i.text).join(' ')}`;
    case 'plan.made':
      return 'reason' in e.data ? `${name(e.agentId)} changed plans: ${e.data.reason}` : `${name(e.agentId)} planned the day`;
    case 'world.event':
      return `Event${e.data.arena ? ` at ${e.data.arena}` : ''}: ${e.data.description}`;
    case 'operator.action': {
      const d = e.data;
      if (d.action === 'whisper') return `Whisper to ${name(d.agentId)}: "${d.text ?? ''}"`;
      if (d.action === 'interview') return `Interview with ${name(d.agentId)}: "${d.question ?? ''}"`;
      if (d.action === 'inject') return null; // the world.event line says it
      if (d.action === 'add agent') return `Operator added ${d.name ?? name(d.agentId)} to the town`;
      if (d.action === 'remove agent') return `Operator removed ${d.name ?? name(d.agentId)} from the town`;
      if (d.action === 'rename agent')
        return `Operator renamed ${d.name ?? name(d.agentId)}'s id from '${d.from}' to '${d.agentId}' (their history goes with it)`;
      if (d.action === 'edit persona') return `Operator edited ${d.name ?? name(d.agentId)}'s persona (it applies from their next plan)`;
      return `Operator: ${d.action}${d.rate ? ` ${d.rate / 60}×` : ''}`;
    }
    case 'agent.removed':
      // An operator's removal is said by its action; a resident who left on its own (at a resume) here.
      return e.data.left ? `${e.data.name ?? name(e.agentId)} left the town (${e.data.left})` : null;
    case 'run.started':
      return `The town wakes up (${e.data.agents} agents, ${e.data.mind} mind)`;
    case 'run.resumed':
      return `The town resumes (${e.data.mind} mind)`;
    case 'budget.paused':
      return `Paused: ${e.data.message}`;
    case 'llm.endpoint':
      return e.data.state === 'out' ? `LLM endpoint ${e.data.name} taken out: ${e.data.error}` : `LLM endpoint ${e.data.name} back in`;
    case 'llm.fallback':
      return `Fallback for ${name(e.agentId)} (${e.data.purpose}): ${e.data.reason}`;
    default:
      return null;
  }
}

/** What a viewer is told of these events, in their order: the lines said, and the feed's items. */
export function toldOf(events: Iterable<LoggedEvent>, nameOf: NameOf): { utterances: UtteranceEvent[]; feed: FeedItem[] } {
  const utterances: UtteranceEvent[] = [];
  const feed: FeedItem[] = [];
  for (const e of events) {
    if (e.kind === 'conversation.utterance') utterances.push({ ...e.data, gameMs: e.gameMs });
    const text = describeEvent(e, nameOf);
    if (text) feed.push({ seq: e.seq, gameMs: e.gameMs, kind: e.kind, agentId: e.agentId, text });
  }
  return { utterances, feed };
}
