// The sim's vocabulary: what it asks of cognition (OperationRequest), what comes back (Input), and the
// plain-data state that a snapshot saves and restores exactly.
import type { AgentId } from '../protocol/ids';
import type { DayPlan, KeptPlan, PlannedAction } from '../protocol/plan';
import type { CurrentAction, EventInput, Movement, ResidentSpec, TalkBasis } from '../protocol/events';

export type { CurrentAction, DayPlan, KeptPlan, Movement, PlannedAction, ResidentSpec, TalkBasis };

export interface Observation {
  description: string;
  subject: string;
  predicate: string;
  object: string;
  /** Arena address where it was perceived. */
  arena: string;
  /** The resident whose action it is (the viewer itself for its own actions); absent for objects and world events. */
  actorId?: AgentId;
  /** For a world event: the sector or arena it happens at (so where the viewer is), or null when it is everywhere. */
  place?: string | null;
}

export type OperationRequest =
  | { kind: 'plan'; agentId: AgentId; day: number; gameMs: number }
  /** `company`: people in view the agent could start a conversation with now; cognition may answer with a `talk` Input. */
  | { kind: 'observe'; agentId: AgentId; gameMs: number; observations: Observation[]; company: AgentId[] }
  | {
      kind: 'converse';
      conversationId: number;
      initiator: AgentId;
      partner: AgentId;
      gameMs: number;
      arena: string;
    };

export type Input =
  | { kind: 'plan'; agentId: AgentId; plan: DayPlan }
  /**
   * Replace the plan from `fromMinute` of today on (a reaction). With `day`: only if the agent's plan is that day's,
   * and never before the agent's own minute when it is applied (a day's actions that came while it lived on).
   */
  | { kind: 'replan'; agentId: AgentId; fromMinute: number; actions: PlannedAction[]; reason: string; day?: number }
  /** The agent decided to talk with `partnerId`: the sim starts the conversation once both are free and in sight (or forgets it after a while). */
  | { kind: 'talk'; agentId: AgentId; partnerId: AgentId; basis: TalkBasis }
  /** The agent's operation finished; it may be given another. */
  | { kind: 'done'; agentId: AgentId }
  | { kind: 'utterance'; conversationId: number; speaker: AgentId; text: string }
  /** No more lines will come; the sim ends the conversation once the queued lines have been shown. */
  | { kind: 'conversationEnd'; conversationId: number }
  /** An event every agent in the arena (or everyone, when null) perceives. */
  | { kind: 'worldEvent'; description: string; arena: string | null; durationGameMs: number }
  | { kind: 'addAgent'; resident: ResidentSpec }
  | { kind: 'removeAgent'; agentId: AgentId; left?: string }
  /** A resident's persona file changed: its new spec takes over when its next plan is asked for. */
  | { kind: 'updateResident'; resident: ResidentSpec }
  /** The process restarted: operations that were in flight are gone, so their agents are free and their conversations end. */
  | { kind: 'restarted' };

export interface StepResult {
  events: EventInput[];
  requests: OperationRequest[];
  /** Agents whose visible state changed in this step. */
  changed: Set<AgentId>;
  /** Agents added or removed in this step. */
  added: AgentId[];
  removed: AgentId[];
}

export interface ConversationState {
  id: number;
  a: AgentId;
  b: AgentId;
  arena: string;
  startedGameMs: number;
  queued: Array<{ speaker: AgentId; text: string }>;
  lines: number;
  nextLineGameMs: number;
  ended: boolean;
}

/** "Never" for game times kept in state: finite, so it survives JSON (which turns -Infinity into null). */
export const NEVER_GAME_MS = Number.MIN_SAFE_INTEGER;

export interface AgentSimState {
  spec: ResidentSpec;
  /** A changed spec waiting for the agent's next plan request (see Input `updateResident`). */
  nextSpec?: ResidentSpec;
  tile: number;
  movement: Movement | null;
  /** Today's plan (or the last one made), its actions flat (protocol/plan.ts KeptPlan). */
  plan: KeptPlan | null;
  planRequestedDay: number | null;
  current: CurrentAction;
  /** Index into the plan's actions of the action in force, -1 when none (asleep, waiting or talking), -2 to re-evaluate. */
  actionIndex: number;
  asleep: boolean;
  busy: boolean;
  conversationId: number | null;
  speech: string;
  arenaIndex: number;
  /** The arena this agent last perceived from (-1: none yet): entering another one is a reason to look. */
  perceivedArena: number;
  /** Something changed in its arena since it last looked: it looks on its next perception turn. */
  lookDue: boolean;
  /** Perceived event descriptions -> game ms, so the same event is not stored twice. */
  held: Array<[string, number]>;
  pendingObservations: Observation[];
  lastConversationEndGameMs: number;
  /** Partner id -> game ms their last conversation ended. */
  pairCooldowns: Array<[string, number]>;
  /** Whom cognition decided to talk with, until when (absent in states saved before it existed). */
  talkIntent?: { partnerId: AgentId; untilGameMs: number; basis: TalkBasis } | null;
}

export interface WorldEventState {
  description: string;
  arena: string | null;
  untilGameMs: number;
}

export interface SimState {
  version: 3;
  seed: number;
  gameMs: number;
  rngState: number;
  nextConversationId: number;
  agents: AgentSimState[];
  conversations: ConversationState[];
  worldEvents: WorldEventState[];
}
