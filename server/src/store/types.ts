// Records kept in a world's SQLite file, and the ports through which the rest of the server reaches them.
import type { AgentId } from '../protocol/ids';
import type { EventInput, EventKind, LoggedEvent } from '../protocol/events';

export const MEMORY_KINDS = ['observation', 'chat', 'thought', 'plan'] as const;
export type MemoryKind = (typeof MEMORY_KINDS)[number];

/** A memory id: the SQLite rowid, unique across all agents of a world. */
export type MemoryId = number;

export interface Triple {
  subject: string;
  predicate: string;
  object: string;
}

export interface MemoryInput {
  agentId: AgentId;
  kind: MemoryKind;
  description: string;
  /** Game time, ms since the world's epoch. */
  createdGameMs: number;
  /** 1..10, the paper's poignancy. */
  importance: number;
  triple?: Triple | null;
  /** For thoughts: the memories this insight rests on. */
  evidenceIds?: MemoryId[];
  /** Unit-length, of the world's embedding dimension. */
  embedding: Float32Array;
}

export interface Memory {
  id: MemoryId;
  agentId: AgentId;
  kind: MemoryKind;
  description: string;
  createdGameMs: number;
  lastAccessedGameMs: number;
  importance: number;
  triple: Triple | null;
  evidenceIds: MemoryId[];
}

export interface RetrievalWeights {
  recency: number;
  importance: number;
  relevance: number;
}

export interface RetrievalOptions {
  agentId: AgentId;
  /** Query embedding, unit length. */
  query: Float32Array;
  /** Game time now: recency is measured from it, and the returned memories get it as lastAccessed. */
  nowGameMs: number;
  k: number;
  weights: RetrievalWeights;
  /** Recency decay per game hour since lastAccessed (0.995 in the paper). */
  decayPerGameHour: number;
  /** Only these kinds, when given. */
  kinds?: readonly MemoryKind[];
  /** When false, lastAccessed is left alone (for the inspector, which must not change the world). */
  touch?: boolean;
}

export interface ScoredMemory {
  memory: Memory;
  /** Each term min-max normalised over the candidates, in [0,1]; 0.5 when all candidates tie. */
  recency: number;
  importance: number;
  relevance: number;
  /** Weighted sum of the three terms. */
  score: number;
}

/** The memory stream of every agent in a world. Implemented in SQLite and in memory; one contract suite tests both. */
export interface MemoryStore {
  /** Inserts in one transaction; returns the ids in order. */
  add(memories: MemoryInput[]): MemoryId[];
  get(id: MemoryId): Memory | undefined;
  /** Newest first. */
  recent(agentId: AgentId, limit: number, kinds?: readonly MemoryKind[]): Memory[];
  /** The agent's memories of these kinds made at or after a game time (and rated at least `minImportance`), newest first. */
  since(agentId: AgentId, sinceGameMs: number, kinds: readonly MemoryKind[], minImportance?: number): Memory[];
  count(agentId?: AgentId): number;
  /** Exact: the same top k as scoring every memory of the agent. */
  retrieve(options: RetrievalOptions): ScoredMemory[];
  /** Memories whose description contains the text (case-insensitive), newest first. */
  search(agentId: AgentId, text: string, limit: number): Memory[];
}

export interface EventLog {
  /**
   * Appends in one transaction; returns the seq of the last one (or the current last seq when empty).
   * With `clockGameMs`, the same transaction commits how far the town's clock has run (`markClock`).
   */
  append(events: EventInput[], clockGameMs?: number): number;
  /**
   * Commits the game time the town's clock has reached, logged or not: a resume goes on from it (never
   * before a time a viewer was shown), and the log's game time never goes back across a restart.
   */
  markClock(gameMs: number): void;
  /** The game time last committed by `markClock`, or null (a world from before it was kept). */
  clockMark(): number | null;
  /** Events with fromSeq < seq <= toSeq, in order, at most `limit`. */
  read(fromSeq: number, toSeq: number, limit: number): LoggedEvent[];
  /** Events matching the query, in seq order, read lazily (a long log streams in constant memory). */
  scan(query?: EventQuery): IterableIterator<LoggedEvent>;
  lastSeq(): number;
  /** Game times of the first and last event, or null for an empty log. */
  span(): { firstGameMs: number; lastGameMs: number } | null;
}

export interface EventQuery {
  /** Only seq > afterSeq. */
  afterSeq?: number;
  /** Only seq <= toSeq. */
  toSeq?: number;
  /** Only game_ms >= fromGameMs. */
  fromGameMs?: number;
  /** Only game_ms <= untilGameMs. */
  untilGameMs?: number;
  kinds?: readonly EventKind[];
  agentId?: string;
  /** Newest first (with `limit`: the last ones). */
  descending?: boolean;
  limit?: number;
}

export interface Snapshot {
  seq: number;
  gameMs: number;
  /** JSON-serialisable world state (sim + runtime). */
  state: unknown;
}

export interface SnapshotHeader {
  seq: number;
  gameMs: number;
  /** Order of saving (SQLite rowid). */
  order: number;
}

export interface SnapshotStore {
  /** Stores the snapshot as it is now: its state is serialised before this returns (it may be the live state). */
  save(snapshot: Snapshot): void;
  /** Stores a snapshot already serialised: its state as zlib-deflated JSON (town/snapshots.ts makes it in slices). */
  saveDeflated(at: { seq: number; gameMs: number }, deflatedJson: Buffer): void;
  latest(): Snapshot | undefined;
  /** The newest snapshot at or before the game time, for seeking. */
  atOrBefore(gameMs: number): Snapshot | undefined;
  /** Every snapshot's position in the log and in game time, in the order they were saved. */
  headers(): SnapshotHeader[];
  /**
   * Deletes the snapshots older than `beforeGameMs` but the first saved in each `everyGameMs` of game time
   * (replay seeks from those and folds the log forward); returns how many went.
   */
  thin(beforeGameMs: number, everyGameMs: number): number;
}

/** A finished conversation, as kept in `conversations` and `utterances`. */
export interface ConversationRecord {
  id: number;
  a: AgentId;
  b: AgentId;
  startGameMs: number;
  endGameMs: number;
  summary: string;
  lines: Array<{ speaker: AgentId; text: string; gameMs: number }>;
}
