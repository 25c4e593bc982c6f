// The timeline's markers: conversations (as spans), reflections, plans, world events and operator
// actions, read from the log's one history.
import type { TimelineMarker } from '../protocol/replay';
import type { LoggedEvent } from '../protocol/events';
import { describeEvent, type NameOf } from '../protocol/feedText';
import type { WorldDb } from '../store/WorldDb';
import { abandonedRanges, historyEvents } from '../history/log';

const MARKED = ['conversation.start', 'conversation.end', 'reflection.made', 'plan.made', 'world.event', 'operator.action'] as const;

export function timelineMarkers(db: WorldDb, nameOf: NameOf): TimelineMarker[] {
  const markers: TimelineMarker[] = [];
  const open = new Map<number, TimelineMarker>();
  for (const e of historyEvents(db, { kinds: MARKED }, abandonedRanges(db))) {
    const marker = toMarker(e, nameOf);
    if (e.kind === 'conversation.end') {
      const started = open.get(e.data.conversationId);
      if (started) {
        started.endGameMs = e.gameMs;
        started.label = `${started.label.replace(/ started talking at /, ' talked at ')} (${e.data.lines} lines)`;
        open.delete(e.data.conversationId);
      }
      continue;
    }
    if (!marker) continue;
    if (e.kind === 'conversation.start') open.set(e.data.conversationId, marker);
    markers.push(marker);
  }
  return markers;
}

function toMarker(e: LoggedEvent, nameOf: NameOf): TimelineMarker | null {
  const label = describeEvent(e, nameOf);
  const base = { gameMs: e.gameMs, agentId: e.agentId, label: label ?? e.kind };
  switch (e.kind) {
    case 'conversation.start':
      return { ...base, kind: 'conversation' };
    case 'reflection.made':
      return { ...base, kind: 'reflection' };
    case 'plan.made':
      return { ...base, kind: 'plan' };
    case 'world.event':
      return { ...base, kind: 'world' };
    case 'operator.action':
      // A clock change or an interview changes nothing in the world worth a marker of its own.
      return ['whisper', 'inject', 'add agent', 'remove agent', 'edit persona', 'rename agent'].includes(e.data.action) && label
        ? { ...base, kind: 'operator' }
        : null;
    default:
      return null;
  }
}
