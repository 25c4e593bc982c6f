// How a system changes what viewers see: the event is applied through the one reducer and reported.
import { makeEvent, type EventData, type EventKind } from '../protocol/events';
import type { AgentId } from '../protocol/ids';
import { applyEvent } from './apply';
import type { Step } from './state';

export function emit<K extends EventKind>(step: Step, kind: K, agentId: AgentId | null, data: EventData[K]): void {
  const event = makeEvent(step.now, kind, agentId, data);
  applyEvent(step.state, step.index, step.world.map, event);
  step.out.events.push(event);
}
