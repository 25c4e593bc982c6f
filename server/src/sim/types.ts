// The sim's vocabulary: what it asks of cognition (OperationRequest), what comes back (Input), and the
// plain-data state it saves and restores.
import type { AgentId } from '../world/types';
import type { EventInput } from '../store/types';

/** One 5-15 minute action of a day's plan. */
export interface PlannedAction {
  /** Minute of the day, 0..1439. */
  startMinute: number;
  durationMinutes: number;
  /** What the agent does, e.g. "brewing coffee". */
  description: string;
  emoji: string;
  /** Place-tree address without the world: "Hobbs Cafe: cafe: counter" (object) or "Hobbs Cafe: cafe" (arena). */
  address: string;
}

export interface HourBlock {
  startMinute: number;
  durationMinutes: number;
  activity: string;
}

export interface DayPlan {
  day: number;
  /** The broad strokes: "1) wake up and get ready at 6:30am, 2) ...". */
  broadStrokes: string[];
  hourBlocks: HourBlock[];
  actions: PlannedAction[];
}

/** What the sim needs to know of a resident, derived from its persona and the map by the composition root. */
export interface ResidentSpec {
  id: AgentId;
  name: string;
  /** Object address of the bed: "Rivera House: bedroom: bed". */
  bedAddress: string;
  wakeMinute: number;
  sleepMinute: number;
  /** Where the agent first appears (a spawn pinned to it, else its bed). */
  spawnTile: number;
  look: { skin: string; hair: string; shirt: string; pants: string };
}

export interface Observation {
  description: string;
  subject: string;
  predicate: string;
  object: string;
  /** Arena address where it was perceived. */
  arena: string;
}

export type OperationRequest =
  | { kind: 'plan'; agentId: AgentId; day: number; gameMs: number }
  | { kind: 'observe'; agentId: AgentId; gameMs: number; observations: Observation[] }
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
  /** Replace the plan from `fromMinute` of today on (a reaction). */
  | { kind: 'replan'; agentId: AgentId; fromMinute: number; actions: PlannedAction[]; reason: string }
  /** The agent's operation finished; it may be given another. */
  | { kind: 'done'; agentId: AgentId }
  | { kind: 'utterance'; conversationId: number; speaker: AgentId; text: string }
  /** No more lines will come; the sim ends the conversation once the queued lines have been shown. */
  | { kind: 'conversationEnd'; conversationId: number }
  /** An event every agent in the arena (or everyone, when null) perceives. */
  | { kind: 'worldEvent'; description: string; arena: string | null; durationGameMs: number }
  | { kind: 'addAgent'; resident: ResidentSpec }
  | { kind: 'removeAgent'; agentId: AgentId };

export interface StepResult {
  events: EventInput[];
  requests: OperationRequest[];
  /** Agents whose visible state changed in this step. */
  changed: Set<AgentId>;
  /** Agents added or removed in this step. */
  added: AgentId[];
  removed: AgentId[];
}

export interface Movement {
  /** Waypoints as tile indices: the start, each turn, the end (see protocol/movement.ts). */
  path: number[];
  startGameMs: number;
  tilesPerGameMinute: number;
}

export interface CurrentAction {
  description: string;
  emoji: string;
  address: string;
  startGameMs: number;
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

export interface AgentSimState {
  spec: ResidentSpec;
  tile: number;
  movement: Movement | null;
  plan: DayPlan | null;
  planRequestedDay: number | null;
  current: CurrentAction;
  /** Index into plan.actions of the action in force, -1 when none (asleep, waiting or talking). */
  actionIndex: number;
  asleep: boolean;
  busy: boolean;
  conversationId: number | null;
  speech: string;
  arenaIndex: number;
  /** Perceived event descriptions -> game ms, so the same event is not stored twice. */
  held: Array<[string, number]>;
  pendingObservations: Observation[];
  lastConversationEndGameMs: number;
  /** Partner id -> game ms their last conversation ended. */
  pairCooldowns: Array<[string, number]>;
}

export interface WorldEventState {
  description: string;
  arena: string | null;
  untilGameMs: number;
}

export interface SimState {
  version: 1;
  seed: number;
  gameMs: number;
  rngState: number;
  nextConversationId: number;
  agents: AgentSimState[];
  conversations: ConversationState[];
  worldEvents: WorldEventState[];
}
