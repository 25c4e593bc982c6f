// The Mind port: every decision that needs judgement (an LLM's, or the offline mind's rules).
// A mind only decides; the AgentRuntime retrieves memories for it, writes what it decides, and
// turns results into sim Inputs. Both minds implement every method, so the whole system runs and is
// tested with no network.
import type { Haunt } from './outings';
import type { Memory, MemoryId } from '../store/types';
import type { Persona } from '../world/persona';
import type { TownMap } from '../world/types';
import type { Observation } from '../sim/types';
import type { DayPlan, PlanOfActions, PlannedAction } from '../protocol/plan';
import type { SocialDecision } from './socialModel';
import type { Pronouns } from './grammar';

/** A memory offered as news, with what the telling decision weighs beside it. */
export interface NewsMemory extends Memory {
  /** The agent's talks since it heard this in which it already came up. */
  timesDiscussed?: number;
  /** Game time it was heard, or a reflection last went over it (an insight citing it), whichever is later. */
  rehearsedGameMs?: number;
}

export interface MindAgent {
  /** The persona, its `currently` being the agent's status as last revised (each morning). */
  persona: Persona;
  /** What the agent is doing now, for prompts and templates. */
  currentAction: string;
  currentPlace: string;
  /** Today's plan, when it has one (its hour blocks are not kept: no mind reads them back). */
  plan: PlanOfActions | null;
}

export interface MindContext {
  agent: MindAgent;
  map: TownMap;
  gameMs: number;
  /** Seed of the world, for the offline mind's deterministic variety. */
  seed: number;
  /** Persona id -> display name, for every agent in town. */
  names: ReadonlyMap<string, string>;
  /** Full name -> pronouns, for the agents whose persona file says them (grammar.statedPronouns); others are guessed from first names. */
  pronouns?: ReadonlyMap<string, Pronouns>;
  /** Persona id -> what the agent thinks of them now: the relationship as revised by their talks, else the persona file's line. */
  relationships: ReadonlyMap<string, string>;
  /** The town's haunts (outings.ts): where residents go out in free time; absent or empty, nobody goes out. */
  haunts?: readonly Haunt[];
  /** Logs a social decision of the offline mind (as `agent.decided`); the same decision twice in one moment is logged once. */
  decide?(decision: SocialDecision): void;
}

/** Someone in view the agent could start a conversation with, and what it knows of them. */
export interface Acquaintance {
  persona: Persona;
  /** What the agent thinks of them (the revised relationship, else the persona file's line); null for a stranger. */
  relationship: string | null;
  /** How many conversations they have had, and when the last one was (null: never). */
  conversations: number;
  lastTalkedGameMs: number | null;
  /** News the agent could tell them: its important recent memories that did not come from them. */
  news: Memory[];
}

/** What the agent makes of a batch of observations, in the one call that rates them. */
export interface Appraisal {
  /** Importance 1..10 of each observation, in order. */
  ratings: number[];
  /** Whether what was perceived is reason to change what the agent is doing (then `react` is asked how). */
  react: boolean;
  /** Persona id of the one person in company to start a conversation with now, or null. */
  talkTo: string | null;
}

export interface DayPlanning {
  plan: DayPlan;
  /** The agent's status for today, revised from yesterday's plans and thoughts; null keeps it as it was. */
  currently: string | null;
  /**
   * The day's actions, still being decomposed from `plan`'s hour blocks when the plan is handed over: the agent
   * follows `plan.actions` (its routine) until they come, then re-plans from its minute then on. Never rejects
   * for a model's failure (the routine fills what fails); rejects with LlmAbortedError when the town closes.
   */
  refinement?: Promise<PlannedAction[]>;
}

/** One side of a conversation, as `converseWhole` sees it. */
export interface Speaker {
  ctx: MindContext;
  partner: Persona;
  relationship: string | null;
  memories: Memory[];
  news: NewsMemory[];
}

/**
 * What a line means, as data (the offline mind says it; the summary and the metrics read it, never the
 * phrases). Facts are standalone third-person sentences.
 */
export type SpeechAct =
  | { kind: 'tell'; fact: string }
  | { kind: 'invite'; fact: string; hostId: string }
  | { kind: 'accept'; fact: string; hostId: string }
  | { kind: 'decline'; fact: string; hostId: string; reason: string }
  | { kind: 'plan'; fact: string };

export interface ConversationLine {
  speaker: string;
  /** Display name of the speaker. */
  speakerName: string;
  text: string;
  /** What the line means, when the mind says so (the offline mind always does). */
  acts?: SpeechAct[];
}

export interface TurnInput {
  partner: Persona;
  /** What the persona file says of the partner, if anything. */
  relationship: string | null;
  /** The speaker's memories retrieved about the partner and the topic, most relevant first. */
  memories: Memory[];
  /** Memories the speaker might share: important recent news, most important first (with how often it came up, when last rehearsed). */
  news: NewsMemory[];
  history: ConversationLine[];
  turn: number;
  maxTurns: number;
}

export interface TurnOutput {
  text: string;
  /** What the line means, as data (the offline mind's lines). */
  acts?: SpeechAct[];
  /** The speaker ends the conversation with this line. */
  end: boolean;
}

export interface SummaryInput {
  /** Both participants as they are now, the initiator first. */
  contexts: [MindContext, MindContext];
  lines: ConversationLine[];
  /** What each thought of the other before the talk (null: strangers). */
  relationships: [string | null, string | null];
}

/** What a participant makes of the talk for its day: a planning thought, and an appointment it accepted for today. */
export interface PlanningThought {
  thought: string;
  /** An action to fit into today's plan (an accepted invitation), or null. */
  appointment: PlannedAction | null;
  /** 'decline': a declined invitation, remembered as such (predicate 'declined'); absent: a plan. */
  commitment?: 'accept' | 'decline';
}

/** An invitation made in a conversation, as its summary records it (the offline mind: from its acts; an LLM: from its reply). */
export interface InvitationRecord {
  /** Persona id of the host, or null when the host is not a resident; `host` is the name as said. */
  hostId: string | null;
  host: string;
  /** Persona id of the guest: one of the two who talked. */
  guestId: string;
  /** The gathering and its place, e.g. "the party at Hobbs Cafe". */
  about: string;
  /** When, as said ("February 14 at 5pm"), or null. */
  when: string | null;
  answer: 'accepted' | 'declined' | 'undecided';
}

export interface ConversationSummary {
  /** One sentence each participant stores: "Isabella and Klaus talked about the party." */
  summary: string;
  /** What each participant (by persona id) learned from the other, as standalone sentences. */
  learned: Record<string, string[]>;
  /** How each participant (by persona id) now sees the other: the relationship, revised by this talk. */
  relationships: Record<string, string>;
  /** Each participant's planning thought after the talk (by persona id), or null when it has none. */
  plans: Record<string, PlanningThought | null>;
  /** Invitations made in the talk (absent: none recorded). */
  invitations?: InvitationRecord[];
}

export interface Reaction {
  /** Why, stored with the new plan. */
  reason: string;
  /** Replacement actions from now on; they take over the plan from their first start minute. */
  actions: PlannedAction[];
}

export interface Insight {
  text: string;
  evidence: MemoryId[];
}

export interface Mind {
  /** 'offline' or 'llm'. */
  readonly kind: 'offline' | 'llm';
  /** What the UI and logs show, e.g. "offline" or "llm: gpt-4o-mini @ localhost:8000". */
  readonly label: string;

  /** Importance 1..10 of each description, in order. One call for a batch. */
  rateImportance(ctx: MindContext, descriptions: string[]): Promise<number[]>;
  /**
   * Observations, in the one call that rates them: their importance, whether to react, and whom of
   * `company` (people in view, free to talk) to start a conversation with.
   */
  appraise(ctx: MindContext, observations: Observation[], company: Acquaintance[]): Promise<Appraisal>;
  /**
   * The day's plan at wake-up: broad strokes, hour blocks, and 5-15 minute actions at real places. With
   * `yesterday` (the previous day's plans, thoughts and important memories), also the revised status.
   */
  planDay(ctx: MindContext, day: number, memories: Memory[], yesterday: Memory[] | null): Promise<DayPlanning>;
  /** How to change the plan for what was just perceived; null keeps it. Asked only when the appraisal said so. */
  react(ctx: MindContext, observations: Observation[], memories: Memory[]): Promise<Reaction | null>;
  converseTurn(ctx: MindContext, input: TurnInput): Promise<TurnOutput>;
  /** A whole conversation at once (CONVERSATION_MODE=whole), the first speaker first, at most `maxTurns` lines. */
  converseWhole(speakers: [Speaker, Speaker], maxTurns: number): Promise<ConversationLine[]>;
  /** The summary, what each learned, the revised relationships and each one's planning thought, in one judgement. */
  summariseConversation(input: SummaryInput): Promise<ConversationSummary>;
  /** The 3 most salient high-level questions about recent memories. */
  reflectQuestions(ctx: MindContext, recent: Memory[]): Promise<string[]>;
  /** Insights that answer a question, each citing the ids of the memories it rests on. */
  reflectInsights(ctx: MindContext, question: string, memories: Memory[]): Promise<Insight[]>;
  /** An in-character answer from retrieved memories. Must not change the world. */
  interview(ctx: MindContext, question: string, memories: Memory[]): Promise<string>;
}
