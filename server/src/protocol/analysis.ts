// What the analysis API (/api/analysis/*) answers, shared with the analysis page. The report is also
// the format of DATA_DIR/<world>.report.json (snake_case keys, for tools outside TypeScript).

export type FirstHeardSource = 'seed' | 'whisper' | 'conversation' | 'observation' | 'reflection' | 'plan';

export interface ReportTopic {
  name: string;
  phrase: string;
  /** How a memory was matched: all of `words` (null: half the phrase's content words) in one clause, and this relevance. */
  method: { words: string[] | null; min_relevance: number };
  aware_start: number;
  aware_end: number;
  /** Agents who said yes in the end-of-run interview, or null when none was held. */
  aware_interview: number | null;
  interviewed: number | null;
  /** Who knows it, in the order they first heard it: the who-told-whom tree (`from` is the parent). */
  agents: Array<{
    id: string;
    name: string;
    first_heard: string;
    first_heard_ms: number;
    source: FirstHeardSource;
    from: string | null;
    from_name: string | null;
    conversation_id: number | null;
    memory_id: number;
    memory: string;
  }>;
  interview: Array<{ id: string; name: string; aware: boolean; answer: string }> | null;
  series: Array<{ t: string; ms: number; aware: number }>;
}

export interface AnalysisReport {
  world: string;
  mind: string | null;
  scenario: { name: string; description: string | null } | null;
  last_seq: number;
  window: { from: string; to: string; from_ms: number; to_ms: number; days: number };
  agents: Array<{ id: string; name: string }>;
  topics: ReportTopic[];
  density: {
    start: number;
    end: number;
    known_pairs_start: number;
    known_pairs_end: number;
    pairs: number;
    /** Density counting every conversation begun, lines or not (beside `end`, which needs a line exchanged). */
    opened_end: number;
    series: Array<{ t: string; ms: number; density: number }>;
  };
  attendance: Array<{
    place: string;
    from: string;
    to: string;
    topic: string | null;
    min_minutes: number;
    present: number;
    /** Present, less the host and the place's staff. */
    present_guests: number;
    /** 'invitation': received an invitation act; 'aware': knew the topic before (worlds without invitation acts). */
    invited_by: 'invitation' | 'aware';
    invited: number;
    accepted: number | null;
    invited_present: number;
    /** Invitees present, less staff. */
    invited_present_guests: number;
    /** invited_present / invited (0 with no invitees). */
    attended_share_of_invited: number;
    /** Of those aware of the topic by the end, how many first heard before the window began, and how many after (null without a topic). */
    aware_before: number | null;
    aware_after: number | null;
    agents: Array<{ id: string; name: string; minutes: number; invited: boolean; host: boolean; staff: boolean }>;
  }>;
  conversations: {
    total: number;
    per_agent: Record<string, number>;
    per_pair: Array<{ a: string; b: string; count: number }>;
    series: Array<{ t: string; ms: number; count: number }>;
  };
  reflections: { total: number; per_agent: Record<string, number> };
  llm: {
    calls: number;
    cached: number;
    tokens: number;
    cost_usd: number;
    agent_days: number;
    calls_per_agent_day: number;
    tokens_per_agent_day: number;
    cost_per_agent_day: number;
    per_agent: Array<{ id: string; calls: number; tokens: number; cost_usd: number }>;
    per_purpose: Array<{ purpose: string; calls: number; tokens: number; cost_usd: number }>;
    hourly: Array<{ t: string; ms: number; by_purpose: Record<string, number>; by_agent: Record<string, number>; fallbacks: number }>;
    fallbacks: { total: number; by_purpose: Record<string, number> };
    /** LLM replies that needed help and got it (llm.mend events); absent in reports made before it existed. */
    mends?: { repair: number; mend: number; longer: number; by_purpose: Record<string, Record<string, number>> };
    /**
     * With several endpoints (LLM_ENDPOINTS): per endpoint, the requests it got (a call sent elsewhere after a failure
     * counts at each), those that failed, tokens, latency percentiles of the answered ones, and times taken out and back.
     */
    by_endpoint?: LlmEndpointUse[];
  };
}

export interface LlmEndpointUse {
  endpoint: string;
  calls: number;
  failed: number;
  prompt_tokens: number;
  completion_tokens: number;
  latency_p50_ms: number;
  latency_p99_ms: number;
  taken_out: number;
  back: number;
}

export interface GraphView {
  nodes: Array<{ id: string; name: string; conversations: number }>;
  edges: Array<{ a: string; b: string; conversations: number; acquainted: boolean; firstGameMs: number | null; lastGameMs: number | null }>;
}

export interface ConversationView {
  id: number;
  startGameMs: number;
  endGameMs: number | null;
  a: string;
  b: string;
  nameA: string;
  nameB: string;
  arena: string;
  summary: string | null;
  lines: Array<{ speaker: string; name: string; text: string; gameMs: number }>;
  /** What each participant took away, by agent id (chat memories "(heard from …)"). */
  learned: Record<string, string[]>;
}

export interface DayEntry {
  startGameMs: number;
  endGameMs: number;
  description: string;
  emoji: string;
  address: string;
  /** The sector of the address ("Hobbs Cafe"). */
  place: string;
  asleep: boolean;
}

export type { WorldListing } from './replay';

/** The replay at a moment: `/?world=<id>&t=<YYYY-MM-DDTHH:MM>&agent=<id>` (no `world` for the live one). */
export function replayLink(t: string, world: string | null, agent?: string | null): string {
  const q = new URLSearchParams();
  if (world) q.set('world', world);
  q.set('t', t);
  if (agent) q.set('agent', agent);
  return `/?${q.toString()}`;
}
