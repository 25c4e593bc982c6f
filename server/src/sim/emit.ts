// How a system changes what viewers see: the event is applied through the one reducer and reported.
import { makeEvent, type EventData, type EventKind } from '../protocol/events';
import type { AgentId } from '../protocol/ids';
import { applyEvent } from './apply';
import type { Step } from './state';

export function emit<K extends EventKind>(step: Step, kind: K, agentId: AgentId | null, data: EventData[K]): void {
  const event = makeEvent(step.now, kind, agentId, data);
  applyEvent(step.state, step.index, step.world.map, event);
  // What the event changed may be read by the schedule of its agent (and of both people of a conversation).
  if (agentId !== null) step.due.touch(step.index.agents.get(agentId));
  if (event.kind === 'conversation.start' || event.kind === 'conversation.end') {
    const { a, b } = event.data as EventData['conversation.start'];
    step.due.touch(step.index.agents.get(a));
    step.due.touch(step.index.agents.get(b));
  }
  step.out.events.push(event);
}
