// The event log's vocabulary: every state change a viewer or an analyst needs, one kind each, with a
// fixed payload. The sim applies its own events through one reducer (sim/apply.ts), so the log
// replays into exactly the state the live town had; replay, analysis and resume all read it.
import type { AgentId } from './ids';
import type { PersonaProfile } from './persona';
import type { DayPlan, HourBlock, PlannedAction } from './plan';

export interface AgentLook {
  skin: string;
  hair: string;
  shirt: string;
  pants: string;
}

/** What the sim knows of a resident, derived from its persona and the map. */
export interface ResidentSpec {
  id: AgentId;
  name: string;
  /** Object address of the bed: "Rivera House: bedroom: bed". */
  bedAddress: string;
  wakeMinute: number;
  sleepMinute: number;
  /** Where the agent first appears (a spawn pinned to it, else its bed). */
  spawnTile: number;
  look: AgentLook;
}

export interface CurrentAction {
  description: string;
  emoji: string;
  address: string;
  startGameMs: number;
}

/** A walk: waypoints as tile indices (start, each turn, end; see movement.ts), a start time and a speed. */
export interface Movement {
  path: number[];
  startGameMs: number;
  tilesPerGameMinute: number;
}

/** What a persona file says of a resident, as recorded when it arrives or is edited (replay shows it as of then). */
export interface PersonaRecord extends PersonaProfile {
  /** Whom the persona file says they know (persona id → what they think), so a world file alone says who knew whom; absent in older worlds. */
  relationships?: Record<string, string>;
}

/** What the initiator had with the partner when it chose to talk: it knew them, had news for them, or neither. */
export type TalkBasis = 'acquainted' | 'news' | 'stranger';

export type InvitationAnswer = 'accepted' | 'declined' | 'undecided';

export type ConversationEndReason = 'finished' | 'timeout' | 'removed' | 'interrupted';

export type OperatorActionName =
  'pause' | 'resume' | 'speed' | 'step' | 'whisper' | 'interview' | 'inject' | 'add agent' | 'remove agent' | 'edit persona' | 'rename agent';

export interface EventData {
  'agent.added': { spec: ResidentSpec; tile: number; current: CurrentAction };
  /** `left`: why a resident left on its own (its persona file gone at a resume); an operator's removal has its own action. */
  'agent.removed': { left?: string; name?: string };
  /**
   * A resident's spec (name, look, bed, waking hours) changed with its persona file: `next plan` holds
   * it until the agent's next plan is asked for, `now` is the moment it takes over.
   */
  'agent.updated': { spec: ResidentSpec; at: 'next plan' | 'now' };
  /**
   * The agent's id changed from `from` (the event's agentId is the new one). The world file was rewritten
   * in the same transaction, so every record before this one already reads with the new id.
   */
  'agent.renamed': { from: string; to: string; name: string };
  'agent.action': { description: string; emoji: string; address: string; asleep: boolean };
  /** A walk starts (speed > 0) or the agent stands still on path[0] (speed 0). */
  'agent.move': { path: number[]; startGameMs: number; tilesPerGameMinute: number; arriveGameMs?: number };
  /** Something the sim could not do (a place missing from the map, no path); the agent stays put. */
  'agent.warning': { warning: string; address?: string; from?: number; to?: number };
  /** `basis`: what the initiator had with the partner (absent in older worlds). */
  'conversation.start': { conversationId: number; a: AgentId; b: AgentId; arena: string; basis?: TalkBasis };
  'conversation.utterance': { conversationId: number; speaker: AgentId; listener: AgentId; text: string };
  'conversation.end': { conversationId: number; a: AgentId; b: AgentId; lines: number; reason?: ConversationEndReason };
  /**
   * A conversation's summary is in: the invitations it records (either mind; none is an empty list), so
   * "invited" means the same on an LLM run as on an offline one. `about` is the gathering and its place.
   */
  'conversation.summarised': {
    conversationId: number;
    invitations: Array<{ hostId: AgentId | null; host: string; guestId: AgentId; about: string; when: string | null; answer: InvitationAnswer }>;
  };
  /** A day's plan (with its broad strokes and hour blocks), or a re-plan from `fromMinute` on. */
  'plan.made':
    | { day: number; broadStrokes: string[]; hourBlocks: HourBlock[]; actions: PlannedAction[] }
    | { day: number; reason: string; fromMinute: number; actions: PlannedAction[] };
  'world.event': { description: string; arena: string | null; durationGameMs: number };
  /** The persona of a resident, when it arrives or its file changes. */
  'persona.set': PersonaRecord;
  'memory.created': { id: number; kind: string; description: string; importance: number; evidence: number[]; by: string };
  'reflection.made': { question: string; insights: Array<{ id: number; text: string; evidence: number[] }>; by: string };
  /** What the agent now thinks of `otherId`, revised by their conversation (`interactions`: conversations so far). */
  'relationship.revised': { otherId: AgentId; summary: string; interactions: number };
  /** The agent's status (its `currently`), revised in the morning from yesterday's plans and thoughts. */
  'status.revised': { day: number; currently: string };
  /**
   * A social decision of the offline mind (agent/socialModel.ts): tell news, invite, accept an invitation,
   * keep a commitment, leave a place where something is wrong. `inputs` are what the probability `p` was computed from; yes when `draw` < `p`.
   */
  'agent.decided': {
    decision: 'tell' | 'invite' | 'accept' | 'attend' | 'react' | 'outing';
    about: string;
    otherId: AgentId | null;
    inputs: Record<string, number | boolean | string>;
    p: number;
    draw: number;
    chose: boolean;
  };
  'operator.action': {
    by: string;
    action: OperatorActionName;
    agentId?: string;
    /** The agent's display name, for add, remove and rename. */
    name?: string;
    /** The id before a rename. */
    from?: string;
    text?: string;
    question?: string;
    answer?: string;
    arena?: string | null;
    rate?: number;
    gameMinutes?: number;
    memoryId?: number;
  };
  /** `ablation` and `conversationMode`: the cognition settings of the run (absent in older worlds: 'none', 'turns'). */
  'run.started': { mind: string; agents: number; seed: number; map: string; ablation?: string; conversationMode?: string };
  /** `folded`: events logged after the last snapshot that the resumed state was rebuilt from. */
  'run.resumed': { mind: string; agents: number; folded?: number };
  'llm.fallback': { purpose: string; reason: string };
  /** A reply that needed help and got it: a repair turn, a mend of its content, a retry with a bigger token budget. */
  'llm.mend': { purpose: string; how: 'repair' | 'mend' | 'longer'; note: string };
  'budget.paused': { message: string };
  /** With several LLM endpoints: one taken out after a failure (for `outMs`), or back in once a trial call answered. */
  'llm.endpoint': { name: string; state: 'out'; error: string; outMs: number } | { name: string; state: 'back' };
  /** A headless run's scenario (scenarios/*.yaml): what analysis tracks in this world. */
  'scenario.started': { name: string; file: string; scenario: unknown };
}

export type EventKind = keyof EventData;

export const EVENT_KINDS = [
  'agent.added',
  'agent.removed',
  'agent.updated',
  'agent.renamed',
  'agent.action',
  'agent.move',
  'agent.warning',
  'conversation.start',
  'conversation.utterance',
  'conversation.end',
  'conversation.summarised',
  'plan.made',
  'world.event',
  'persona.set',
  'memory.created',
  'reflection.made',
  'relationship.revised',
  'status.revised',
  'agent.decided',
  'operator.action',
  'run.started',
  'run.resumed',
  'llm.fallback',
  'llm.mend',
  'budget.paused',
  'llm.endpoint',
  'scenario.started',
] as const satisfies readonly EventKind[];

/** An event before it is logged: one variant per kind, its payload typed by the kind. */
export type EventInput = { [K in EventKind]: { gameMs: number; kind: K; agentId: AgentId | null; data: EventData[K] } }[EventKind];

/** An event in the log. */
export type LoggedEvent = EventInput & {
  /** Monotonic, gap-free within a world, starting at 1. */
  seq: number;
};

export type EventOf<K extends EventKind> = Extract<EventInput, { kind: K }>;

// Every kind is listed above: this line stops compiling when one is missing.
export const EVENT_KINDS_COMPLETE: [Exclude<EventKind, (typeof EVENT_KINDS)[number]>] extends [never] ? true : never = true;

/** Builds an event of one kind, its payload checked against that kind. */
export function makeEvent<K extends EventKind>(gameMs: number, kind: K, agentId: AgentId | null, data: EventData[K]): EventOf<K> {
  return { gameMs, kind, agentId, data } as EventOf<K>;
}
