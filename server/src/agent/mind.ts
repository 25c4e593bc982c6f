// The Mind port: every decision that needs judgement (an LLM's, or the offline mind's rules).
// A mind only decides; the AgentRuntime retrieves memories for it, writes what it decides, and
// turns results into sim Inputs. Both minds implement every method, so the whole system runs and is
// tested with no network.
import type { Memory, MemoryId } from '../store/types';
import type { Persona } from '../world/persona';
import type { TownMap } from '../world/types';
import type { Observation } from '../sim/types';
import type { DayPlan, PlannedAction } from '../protocol/plan';

export interface MindAgent {
  persona: Persona;
  /** What the agent is doing now, for prompts and templates. */
  currentAction: string;
  currentPlace: string;
  /** Today's plan, when it has one. */
  plan: DayPlan | null;
}

export interface MindContext {
  agent: MindAgent;
  map: TownMap;
  gameMs: number;
  /** Seed of the world, for the offline mind's deterministic variety. */
  seed: number;
  /** Persona id -> display name, for every agent in town. */
  names: ReadonlyMap<string, string>;
}

export interface ConversationLine {
  speaker: string;
  /** Display name of the speaker. */
  speakerName: string;
  text: string;
}

export interface TurnInput {
  partner: Persona;
  /** What the persona file says of the partner, if anything. */
  relationship: string | null;
  /** The speaker's memories retrieved about the partner and the topic, most relevant first. */
  memories: Memory[];
  /** Memories the speaker might share: important recent news, most important first. */
  news: Memory[];
  history: ConversationLine[];
  turn: number;
  maxTurns: number;
}

export interface TurnOutput {
  text: string;
  /** The speaker ends the conversation with this line. */
  end: boolean;
}

export interface ConversationSummary {
  /** One sentence each participant stores: "Isabella and Klaus talked about the party." */
  summary: string;
  /** What each participant (by persona id) learned from the other, as standalone sentences. */
  learned: Record<string, string[]>;
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
  /** The day's plan at wake-up: broad strokes, hour blocks, and 5-15 minute actions at real places. */
  planDay(ctx: MindContext, day: number, memories: Memory[]): Promise<DayPlan>;
  /** Whether to react to what was just perceived; null keeps the plan. Called only for observations worth it. */
  react(ctx: MindContext, observations: Observation[], memories: Memory[]): Promise<Reaction | null>;
  converseTurn(ctx: MindContext, input: TurnInput): Promise<TurnOutput>;
  summariseConversation(ctx: MindContext, participants: [Persona, Persona], lines: ConversationLine[]): Promise<ConversationSummary>;
  /** The 3 most salient high-level questions about recent memories. */
  reflectQuestions(ctx: MindContext, recent: Memory[]): Promise<string[]>;
  /** Insights that answer a question, each citing the ids of the memories it rests on. */
  reflectInsights(ctx: MindContext, question: string, memories: Memory[]): Promise<Insight[]>;
  /** An in-character answer from retrieved memories. Must not change the world. */
  interview(ctx: MindContext, question: string, memories: Memory[]): Promise<string>;
}
