// What the inspector shows of one agent: sent by the server (`inspect` message, GET /api/agents/:id,
// and the replay room for a past moment) and drawn by the client.
import type { DayPlan } from './plan';
import type { PersonaProfile } from './persona';

export interface InspectedMemory {
  id: number;
  kind: string;
  description: string;
  createdGameMs: number;
  importance: number;
  evidenceIds: number[];
  /** Scored for the agent's current focus; null when the memory was not among the top scored. */
  scores: { recency: number; importance: number; relevance: number; total: number } | null;
}

export interface InspectedReflection extends InspectedMemory {
  evidence: Array<{ id: number; description: string }>;
}

/** What the agent thinks of someone: revised after each of their talks, else the persona file's line. */
export interface InspectedRelationship {
  otherId: string;
  summary: string;
  /** Conversations they have had (0: only the persona file's line). */
  interactions: number;
  /** When the last one was; null when they have not talked. */
  lastGameMs: number | null;
}

/** An agent now (or at a replayed moment); its profile's `currently` is its status as last revised (each morning). */
export interface AgentInspection extends PersonaProfile {
  id: string;
  /** The game time the inspection describes (now, or a replayed moment). */
  atGameMs: number;
  action: { description: string; emoji: string; place: string; since: number };
  asleep: boolean;
  plan: (Pick<DayPlan, 'day' | 'broadStrokes' | 'actions'> & { currentIndex: number }) | null;
  focus: string;
  relevant: InspectedMemory[];
  recent: InspectedMemory[];
  /** Thoughts that cite evidence: what the agent concluded by reflecting. */
  reflections: InspectedReflection[];
  /** Thoughts with no evidence: what an operator whispered (the paper's "inner voice"). */
  whispers: InspectedMemory[];
  relationships: InspectedRelationship[];
  conversations: Array<{ id: number; a: string; b: string; startGameMs: number; summary: string }>;
  llm: {
    calls: number;
    promptTokens: number;
    completionTokens: number;
    costUsd: number;
    /** Replies that needed help (llm.mend events by kind) and asks that fell back to the offline mind. */
    help?: { fallbacks: number; repairs: number; mends: number; longer: number };
    /** The town's LLM endpoints now, when it spreads calls over several (LLM_ENDPOINTS); the same figures as /healthz. */
    endpoints?: LlmEndpointLive[];
    /** The model in this process (LLM_MODEL_FILE); the same figures as /healthz. */
    model?: LlmModelLive;
  };
}

/** The embedded model (llm/embedded.ts): its file, how it runs, how fast, and its queue. */
export interface LlmModelLive {
  file: string;
  bytes: number;
  architecture: string;
  quantisation: string;
  contextSize: number;
  sequences: number;
  threads: number;
  gpuLayers: number;
  grammar: boolean;
  /** Prompt tokens evaluated per second, and tokens generated per second, over every ask so far (null before the first). */
  promptTokensPerS: number | null;
  generationTokensPerS: number | null;
  asks: number;
  /** Asks being generated now, and asks waiting for a free sequence. */
  running: number;
  waiting: number;
}

/** One endpoint's state and figures since the town started (llm/RoutingChatModel.ts keeps them). */
export interface LlmEndpointLive {
  name: string;
  state: 'up' | 'out' | 'trying';
  inFlight: number;
  concurrency: number;
  weight: number;
  calls: number;
  ok: number;
  failed: number;
  takenOut: number;
  broughtBack: number;
  meanLatencyMs: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  promptTokens: number;
  completionTokens: number;
  outUntilMs: number;
  lastError: string | null;
}

/** The reply to an `inspect` message: the inspection (or an error) tagged with the request it answers. */
export type InspectReply = { requestId: string } & (AgentInspection | { id: string; error: string });
