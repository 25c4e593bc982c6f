// How believable a recorded run's cognition was, read from its event log: whether each agent's stream
// holds its own actions, what the people who talked had with each other (they knew each other, had
// news, or were strangers), which invitations accepted in a talk changed a plan, how each agent's
// status changed from day to day, and how varied the talk was. Used by tests, the cognition benchmark
// and anyone comparing runs (ablations, conversation modes).
import type { TalkBasis } from '../protocol/events';
import type { WorldDb } from '../store/WorldDb';
import { dayIndex } from '../protocol/time';

export interface CognitionMeasure {
  agents: Array<{
    id: string;
    name: string;
    /** Memories of its own actions ("Isabella Rivera is serving customers"). */
    ownActions: number;
    /** Its status by game day, as revised that morning (the persona's own until the first revision). */
    statusByDay: Record<number, string>;
  }>;
  conversations: Record<TalkBasis | 'unknown', number>;
  /** Re-plans made by a planning thought after a talk: an invitation accepted for later the same day. */
  invitationReplans: Array<{ agentId: string; gameMs: number; reason: string }>;
  /** Planning thoughts stored after talks. */
  planningThoughts: number;
  lines: number;
  distinctLines: number;
}

export function measureCognition(db: Pick<WorldDb, 'events'>, untilGameMs?: number): CognitionMeasure {
  const agents = new Map<string, CognitionMeasure['agents'][number]>();
  const byName = new Map<string, string>();
  const conversations: CognitionMeasure['conversations'] = { acquainted: 0, news: 0, stranger: 0, unknown: 0 };
  const invitationReplans: CognitionMeasure['invitationReplans'] = [];
  // Thoughts citing evidence are reflections' insights or planning thoughts; the insights are named by reflection.made.
  const derived = new Map<number, string>();
  const insights = new Set<number>();
  const lines: string[] = [];
  for (const e of db.events.scan({ untilGameMs })) {
    switch (e.kind) {
      case 'persona.set': {
        if (!e.agentId) break;
        const a = agents.get(e.agentId) ?? { id: e.agentId, name: e.data.name, ownActions: 0, statusByDay: {} };
        a.statusByDay[dayIndex(e.gameMs)] ??= e.data.currently;
        agents.set(e.agentId, a);
        byName.set(e.data.name, e.agentId);
        break;
      }
      case 'status.revised': {
        const a = e.agentId ? agents.get(e.agentId) : undefined;
        if (a) a.statusByDay[e.data.day] = e.data.currently;
        break;
      }
      case 'memory.created': {
        const a = e.agentId ? agents.get(e.agentId) : undefined;
        if (a && e.data.kind === 'observation' && e.data.description.startsWith(`${a.name} is `)) a.ownActions++;
        if (e.data.kind === 'thought' && e.data.evidence.length > 0) derived.set(e.data.id, e.data.description);
        break;
      }
      case 'reflection.made': {
        for (const i of e.data.insights) insights.add(i.id);
        break;
      }
      case 'conversation.start':
        conversations[e.data.basis ?? 'unknown']++;
        break;
      case 'conversation.utterance':
        lines.push(e.data.text);
        break;
      case 'plan.made':
        if (e.agentId && 'reason' in e.data && [...derived.values()].includes(e.data.reason))
          invitationReplans.push({ agentId: e.agentId, gameMs: e.gameMs, reason: e.data.reason });
        break;
      default:
        break;
    }
  }
  const planningThoughts = [...derived.keys()].filter((id) => !insights.has(id)).length;
  return { agents: [...agents.values()], conversations, invitationReplans, planningThoughts, lines: lines.length, distinctLines: new Set(lines).size };
}
