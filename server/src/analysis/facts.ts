// What a world file says happened, read once from its log: who lived there (and whom their persona
// files said they knew), the conversations, reflections, fallbacks, interviews and the scenario. The
// metrics (metrics.ts) are computed from these facts and from the memories table.
import type { AgentId } from '../protocol/ids';
import type { WorldDb } from '../store/WorldDb';
import { abandonedRanges, historyEvents } from '../history/log';

export interface AgentFact {
  id: AgentId;
  name: string;
  addedGameMs: number;
  removedGameMs: number | null;
}

export interface ConversationFact {
  /** The sim's id (unique within a run; the log's order makes `seq` unique always). */
  id: number;
  seq: number;
  a: AgentId;
  b: AgentId;
  arena: string;
  startGameMs: number;
  endGameMs: number | null;
  lines: number;
}

export interface InterviewFact {
  gameMs: number;
  agentId: string;
  by: string;
  question: string;
  answer: string;
}

export interface WorldFacts {
  startGameMs: number;
  endGameMs: number;
  lastSeq: number;
  mind: string | null;
  agents: AgentFact[];
  byName: Map<string, AgentId>;
  /** Persona relationships per agent, from `persona.set` events; null when the world records none (older worlds). */
  relationships: Map<string, string[]> | null;
  /** Each agent's workplace (an arena address, or null), from `persona.set` events; null in older worlds. */
  workplaces: Map<string, string | null> | null;
  conversations: ConversationFact[];
  reflections: Array<{ gameMs: number; agentId: string }>;
  fallbacks: Array<{ gameMs: number; agentId: string | null; purpose: string; reason: string }>;
  /** LLM replies that needed help: a repair turn, a mend of their content, a longer budget (llm.mend). */
  mends: Array<{ gameMs: number; purpose: string; how: 'repair' | 'mend' | 'longer' }>;
  /** LLM endpoints taken out and back in (with several). */
  endpointChanges: Array<{ gameMs: number; name: string; state: 'out' | 'back' }>;
  interviews: InterviewFact[];
  scenario: { name: string; file: string; scenario: unknown; gameMs: number } | null;
}

const KINDS = [
  'run.started',
  'run.resumed',
  'agent.added',
  'agent.removed',
  'persona.set',
  'conversation.start',
  'conversation.end',
  'reflection.made',
  'llm.fallback',
  'llm.mend',
  'llm.endpoint',
  'operator.action',
  'scenario.started',
] as const;

export function readWorldFacts(db: Pick<WorldDb, 'events' | 'snapshots'>): WorldFacts {
  const span = db.events.span();
  const facts: WorldFacts = {
    startGameMs: span?.firstGameMs ?? 0,
    endGameMs: span?.lastGameMs ?? 0,
    lastSeq: db.events.lastSeq(),
    mind: null,
    agents: [],
    byName: new Map(),
    relationships: null,
    workplaces: null,
    conversations: [],
    reflections: [],
    fallbacks: [],
    mends: [],
    endpointChanges: [],
    interviews: [],
    scenario: null,
  };
  const agents = new Map<string, AgentFact>();
  const open = new Map<number, ConversationFact>();
  let started = false;
  for (const e of historyEvents(db, { kinds: [...KINDS] }, abandonedRanges(db))) {
    switch (e.kind) {
      case 'run.started':
        if (!started) facts.startGameMs = e.gameMs;
        started = true;
        facts.mind = e.data.mind;
        break;
      case 'run.resumed':
        facts.mind = e.data.mind;
        break;
      case 'agent.added': {
        const id = e.data.spec.id;
        agents.set(id, { id, name: e.data.spec.name, addedGameMs: agents.get(id)?.addedGameMs ?? e.gameMs, removedGameMs: null });
        facts.byName.set(e.data.spec.name, id);
        break;
      }
      case 'agent.removed': {
        const a = e.agentId ? agents.get(e.agentId) : undefined;
        if (a) a.removedGameMs = e.gameMs;
        break;
      }
      case 'persona.set':
        if (e.agentId) (facts.workplaces ??= new Map()).set(e.agentId, e.data.workplace ?? null);
        if (!e.agentId || !e.data.relationships) break;
        facts.relationships ??= new Map();
        facts.relationships.set(e.agentId, Object.keys(e.data.relationships));
        break;
      case 'conversation.start': {
        const c: ConversationFact = {
          id: e.data.conversationId,
          seq: e.seq,
          a: e.data.a,
          b: e.data.b,
          arena: e.data.arena,
          startGameMs: e.gameMs,
          endGameMs: null,
          lines: 0,
        };
        open.set(c.id, c);
        facts.conversations.push(c);
        break;
      }
      case 'conversation.end': {
        const c = open.get(e.data.conversationId);
        if (c) {
          c.endGameMs = e.gameMs;
          c.lines = e.data.lines;
          open.delete(c.id);
        }
        break;
      }
      case 'reflection.made':
        if (e.agentId) facts.reflections.push({ gameMs: e.gameMs, agentId: e.agentId });
        break;
      case 'llm.fallback':
        facts.fallbacks.push({ gameMs: e.gameMs, agentId: e.agentId, purpose: e.data.purpose, reason: e.data.reason });
        break;
      case 'llm.mend':
        facts.mends.push({ gameMs: e.gameMs, purpose: e.data.purpose, how: e.data.how });
        break;
      case 'llm.endpoint':
        facts.endpointChanges.push({ gameMs: e.gameMs, name: e.data.name, state: e.data.state });
        break;
      case 'operator.action':
        if (e.data.action === 'interview' && e.data.agentId && e.data.question !== undefined)
          facts.interviews.push({ gameMs: e.gameMs, agentId: e.data.agentId, by: e.data.by, question: e.data.question, answer: e.data.answer ?? '' });
        break;
      case 'scenario.started':
        facts.scenario ??= { ...e.data, gameMs: e.gameMs };
        break;
      default:
        break;
    }
  }
  facts.agents = [...agents.values()];
  return facts;
}

/** Agents in the world at game time t. */
export function agentsAt(facts: WorldFacts, gameMs: number): AgentFact[] {
  return facts.agents.filter((a) => a.addedGameMs <= gameMs && (a.removedGameMs === null || a.removedGameMs > gameMs));
}

/** "a|b" with the ids in order: one key per unordered pair. */
export function pairKey(a: string, b: string): string {
  return a < b ? `${a}|${b}` : `${b}|${a}`;
}
