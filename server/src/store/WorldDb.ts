// One world, one SQLite file: better-sqlite3 in WAL mode, numbered migrations, sqlite-vec loaded.
// The file records the embedding model and dimension it was made with, and refuses any other.
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { AgentId } from '../protocol/ids';
import type { CallLog, LlmCallRecord, Purpose, ResponseCacheStore } from '../llm/types';
import type { EventInput, EventKind, LoggedEvent } from '../protocol/events';
import { clearCleanClose, closedCleanly, stampCleanClose } from './cleanClose';
import type { ConversationRecord, EventLog, EventQuery, Snapshot, SnapshotHeader, SnapshotStore } from './types';
import { MIGRATIONS, migrate } from './migrations';
import { systemClock, type WallClock } from '../core/wallClock';
import { SqliteMemoryStore } from './SqliteMemoryStore';
import { agentKeys, memoryLayoutOf } from './memoryTexts';
import { eventLayoutOf } from './eventRows';
import { MEMORY_KINDS } from './types';
import { packEvent, unpackEvent, type MemoryRowForm, type MemoryRowLookup } from './eventForms';
import type { DayPlan } from '../protocol/plan';

export class EmbedderMismatchError extends Error {
  constructor(file: string, recorded: { model: string; dimension: number }, wanted: { model: string; dimension: number }) {
    super(
      `${file} was made with the embedder '${recorded.model}' (${recorded.dimension} dimensions), but this run uses ` +
        `'${wanted.model}' (${wanted.dimension} dimensions). Its memories cannot be compared with new ones. ` +
        `Run with the same embedding settings (EMBEDDING_MODEL, or none for the offline embedder), or start a new world with another WORLD or DATA_DIR.`,
    );
    this.name = 'EmbedderMismatchError';
  }
}

export interface CallSummary {
  calls: number;
  cached: number;
  failed: number;
  promptTokens: number;
  completionTokens: number;
  costUsd: number;
  latencyMs: number;
  byPurpose: Record<string, { calls: number; tokens: number; costUsd: number }>;
}

export interface RelationshipRow {
  otherId: string;
  summary: string;
  interactions: number;
  lastGameMs: number;
}

export type OpenCheck = 'new' | 'quick_check' | 'clean close';

export class WorldDb {
  readonly memories: SqliteMemoryStore;
  readonly events: EventLog;
  private readonly eventLog: SqliteEventLog;
  readonly snapshots: SnapshotStore;
  readonly callLog: CallLog;
  readonly responseCache: ResponseCacheStore;

  readonly clock: WallClock;
  /** 1 for worlds recorded before events carried what replay needs (walk waypoints, plan steps, specs). */
  readonly eventFormat: number;
  /** The file's schema (PRAGMA user_version): older than the newest only for a file read as it is (read-only). */
  readonly schemaVersion: number;
  readonly readonly: boolean;
  /** How the open checked the file: made new, full PRAGMA quick_check, or trusted as cleanly closed and unchanged since. */
  readonly openCheck: OpenCheck;
  /** Statements asked for on every thought (a mind's context), prepared once: preparing them each time was 3% of an offline day. */
  private readonly hot = new Map<string, Database.Statement>();
  /** Each agent's relationships as relationshipsOf read them, until a write changes them. */
  private readonly relationships = new Map<AgentId, RelationshipRow[]>();

  constructor(
    readonly db: Database.Database,
    readonly file: string,
    readonly embedding: { model: string; dimension: number },
    options: { clock: WallClock; eventFormat: number; readonly: boolean; columnCacheBytes?: number; openCheck?: OpenCheck; schemaVersion?: number },
  ) {
    this.schemaVersion = options.schemaVersion ?? MIGRATIONS.length;
    this.openCheck = options.openCheck ?? 'new';
    this.clock = options.clock;
    this.eventFormat = options.eventFormat;
    this.readonly = options.readonly;
    this.memories = new SqliteMemoryStore(db, embedding.dimension, options.columnCacheBytes);
    this.events = this.eventLog = new SqliteEventLog(db);
    this.snapshots = new SqliteSnapshotStore(db, this.clock);
    // Prepared on the first call: a file read as it is (read-only, an older schema) may lack the endpoint column.
    let insertCall: Database.Statement | null = null;
    this.callLog = {
      record: (c: LlmCallRecord) =>
        void (insertCall ??= db.prepare(
          `INSERT INTO llm_calls (agent_id, purpose, model, prompt_tokens, completion_tokens, latency_ms, cost_usd, cached, outcome, game_ms, wall_ms, endpoint)
           VALUES (@agentId, @purpose, @model, @promptTokens, @completionTokens, @latencyMs, @costUsd, @cached, @outcome, @gameMs, @wallMs, @endpoint)`,
        )).run({ ...c, cached: c.cached ? 1 : 0, gameMs: c.gameMs === null ? null : Math.round(c.gameMs), endpoint: c.endpoint ?? null }),
    };
    const getCache = db.prepare('SELECT value FROM llm_cache WHERE key = ?').pluck();
    const putCache = db.prepare('INSERT OR REPLACE INTO llm_cache (key, value, wall_ms) VALUES (?, ?, ?)');
    const deleteCache = db.prepare('DELETE FROM llm_cache WHERE key = ?');
    const allCache = db.prepare('SELECT key, value FROM llm_cache').raw();
    this.responseCache = {
      get: (key) => getCache.get(key) as string | undefined,
      put: (key, value) => void putCache.run(key, value, this.clock.now()),
      delete: (key) => void deleteCache.run(key),
      entries: () => allCache.all() as Array<[string, string]>,
    };
  }

  // ---- embeddings cache ----------------------------------------------------------------------------
  getEmbeddings(model: string, hashes: string[]): Map<string, Float32Array> {
    const out = new Map<string, Float32Array>();
    const stmt = this.db.prepare('SELECT vector FROM embedding_cache WHERE model = ? AND text_hash = ?').pluck();
    for (const h of hashes) {
      const buf = stmt.get(model, h) as Buffer | undefined;
      if (buf) out.set(h, new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength)));
    }
    return out;
  }
  putEmbeddings(model: string, entries: Array<[string, Float32Array]>): void {
    const stmt = this.db.prepare('INSERT OR REPLACE INTO embedding_cache (model, text_hash, vector) VALUES (?, ?, ?)');
    this.db.transaction(() => entries.forEach(([h, v]) => stmt.run(model, h, Buffer.from(v.buffer, v.byteOffset, v.byteLength))))();
  }

  // ---- plans, conversations, relationships ------------------------------------------------------
  /** The agent's plan for its day; only its newest day is kept (the log's `plan.made` holds every plan, for replay). */
  savePlan(agentId: AgentId, plan: DayPlan): void {
    this.db.transaction(() => {
      this.prepared('DELETE FROM plans WHERE agent_id = ? AND day < ?').run(agentId, plan.day);
      this.prepared('INSERT OR REPLACE INTO plans (agent_id, day, data) VALUES (?, ?, ?)').run(agentId, plan.day, JSON.stringify(plan));
    })();
  }

  saveConversation(c: ConversationRecord): void {
    this.db.transaction(() => {
      // A conversation id is the sim's; after a resume the sim may reuse one, so the newest wins.
      this.prepared('DELETE FROM utterances WHERE conversation_id = ?').run(c.id);
      this.prepared('INSERT OR REPLACE INTO conversations (id, agent_a, agent_b, start_ms, end_ms, summary) VALUES (?, ?, ?, ?, ?, ?)').run(
        c.id,
        c.a,
        c.b,
        Math.round(c.startGameMs),
        Math.round(c.endGameMs),
        c.summary,
      );
      const line = this.prepared('INSERT INTO utterances (conversation_id, seq, speaker, text, game_ms) VALUES (?, ?, ?, ?, ?)');
      c.lines.forEach((l, i) => line.run(c.id, i + 1, l.speaker, l.text, Math.round(l.gameMs)));
    })();
  }
  /** The agent's latest conversations (started up to `untilGameMs`, when given), newest first. */
  conversationsOf(
    agentId: AgentId,
    limit: number,
    untilGameMs = Number.MAX_SAFE_INTEGER,
  ): Array<{ id: number; a: string; b: string; startGameMs: number; summary: string }> {
    return this.db
      .prepare(
        'SELECT id, agent_a AS a, agent_b AS b, start_ms AS startGameMs, summary FROM conversations WHERE (agent_a = ' +
          '? OR agent_b = ?) AND start_ms <= ? ORDER BY start_ms DESC LIMIT ?',
      )
      .all(agentId, agentId, untilGameMs, limit) as Array<{ id: number; a: string; b: string; startGameMs: number; summary: string }>;
  }

  /** What `agentId` thinks of `otherId` after one more conversation: the summary replaced, the count raised. */
  reviseRelationship(agentId: AgentId, otherId: AgentId, summary: string, gameMs: number): RelationshipRow {
    this.relationships.delete(agentId);
    return this.prepared(
      `INSERT INTO relationships (agent_id, other_id, summary, interactions, last_ms) VALUES (?, ?, ?, 1, ?)
         ON CONFLICT (agent_id, other_id) DO UPDATE SET summary = excluded.summary, interactions = interactions + 1, last_ms = excluded.last_ms
         RETURNING other_id AS otherId, summary, interactions, last_ms AS lastGameMs`,
    ).get(agentId, otherId, summary, Math.round(gameMs)) as RelationshipRow;
  }
  /** Asked on every thought (a mind's context): held per agent until a write changes them (7% of an offline day, read each time). */
  relationshipsOf(agentId: AgentId): RelationshipRow[] {
    let rows = this.relationships.get(agentId);
    if (!rows) {
      rows = this.prepared(
        'SELECT other_id AS otherId, summary, interactions, last_ms AS lastGameMs FROM relationships WHERE agent_id = ? ORDER BY interactions DESC, other_id',
      ).all(agentId) as RelationshipRow[];
      // Not inside a caller's transaction (its writes may yet roll back), and not past a bound on the agents held.
      if (!this.db.inTransaction || this.batchOpen) {
        if (this.relationships.size >= RELATIONSHIPS_HELD) this.relationships.clear();
        this.relationships.set(agentId, rows);
      }
    }
    return rows.map((r) => ({ ...r }));
  }

  /** Drops what relationshipsOf holds (a rename rewrote the rows, a batch rolled back). */
  forgetRelationships(): void {
    this.relationships.clear();
  }

  private prepared(sql: string): Database.Statement {
    let statement = this.hot.get(sql);
    if (!statement) this.hot.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  /** Id of the agent's newest reflection insight (0 when none): a thought citing evidence that is not a planning thought. */
  lastReflectionId(agentId: AgentId): number {
    return (
      (this.prepared(
        "SELECT coalesce(max(id), 0) FROM memories WHERE agent_id = ? AND kind = 'thought' AND evidence != '[]' AND coalesce(predicate, '') != 'plans'",
      )
        .pluck()
        .get(agentId) as number) ?? 0
    );
  }

  /** The agent's status as last revised (`status.revised` in the log) at or before a game time, or null. */
  statusOf(agentId: AgentId, untilGameMs?: number): string | null {
    const [last] = [...this.events.scan({ kinds: ['status.revised'], agentId, untilGameMs, descending: true, limit: 1 })];
    return last && last.kind === 'status.revised' ? last.data.currently : null;
  }

  /** Every agent's status as last revised, in one pass over the log (statusOf per agent was a scan each: 10,000 at a start). */
  statuses(): Map<string, string> {
    const out = new Map<string, string>();
    for (const e of this.events.scan({ kinds: ['status.revised'] })) if (e.kind === 'status.revised' && e.agentId) out.set(e.agentId, e.data.currently);
    return out;
  }

  // ---- LLM calls -----------------------------------------------------------------------------------
  /** An agent's LLM replies that needed help, from the event log: fallbacks, repair turns, mends, longer budgets. */
  llmHelpOf(agentId: string, untilGameMs = Number.MAX_SAFE_INTEGER): { fallbacks: number; repairs: number; mends: number; longer: number } {
    const rows = this.db
      .prepare(
        `SELECT kind, json_extract(data, '$.how') AS how, count(*) AS n FROM events
         WHERE agent_id = ? AND kind IN ('llm.fallback', 'llm.mend') AND game_ms <= ? GROUP BY kind, how`,
      )
      .all(agentId, Math.floor(untilGameMs)) as Array<{ kind: string; how: string | null; n: number }>;
    const n = (kind: string, how: string | null) => rows.find((r) => r.kind === kind && r.how === how)?.n ?? 0;
    return { fallbacks: n('llm.fallback', null), repairs: n('llm.mend', 'repair'), mends: n('llm.mend', 'mend'), longer: n('llm.mend', 'longer') };
  }

  summariseCalls(filter: { agentId?: string; untilGameMs?: number; afterCallId?: number } = {}): CallSummary {
    const conditions: string[] = [];
    const args: Array<string | number> = [];
    if (filter.afterCallId !== undefined) (conditions.push('id > ?'), args.push(filter.afterCallId));
    if (filter.agentId) (conditions.push('agent_id = ?'), args.push(filter.agentId));
    if (filter.untilGameMs !== undefined) (conditions.push('game_ms <= ?'), args.push(Math.floor(filter.untilGameMs)));
    const where = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
    const totals = this.prepared(
      `SELECT count(*) AS calls, coalesce(sum(cached),0) AS cached, coalesce(sum(outcome != 'ok'),0) AS failed,
                coalesce(sum(prompt_tokens),0) AS promptTokens, coalesce(sum(completion_tokens),0) AS completionTokens,
                coalesce(sum(cost_usd),0) AS costUsd, coalesce(sum(latency_ms),0) AS latencyMs FROM llm_calls ${where}`,
    ).get(...args) as Omit<CallSummary, 'byPurpose'>;
    const byPurpose: CallSummary['byPurpose'] = {};
    for (const row of this.prepared(
      `SELECT purpose, count(*) AS calls, coalesce(sum(prompt_tokens + completion_tokens),0) AS tokens, ` +
        `coalesce(sum(cost_usd),0) AS costUsd FROM llm_calls ${where} GROUP BY purpose`,
    ).all(...args) as Array<{ purpose: Purpose; calls: number; tokens: number; costUsd: number }>)
      byPurpose[row.purpose] = { calls: row.calls, tokens: row.tokens, costUsd: row.costUsd };
    return { ...totals, byPurpose };
  }

  // ---- maintenance ---------------------------------------------------------------------------------
  /**
   * What a first start left when it died before the world's first snapshot (kill -9 while it seeded its
   * residents' memories). Its seeding commits a slice of residents at a time, each resident's seed
   * memories with their `memory.created` events, so the residents it finished are kept when each holds
   * exactly the seeds its persona has now (`seeds`: persona id → its seed texts, in order) and nothing
   * else of a start was written: the start then seeds the rest. Otherwise (a persona edited or gone
   * since, the run already logged, a file whose memories have no events) everything it wrote is cleared
   * and the world starts anew, as it would otherwise hold those rows twice. The LLM call log and the
   * reply and embedding caches stay either way: those calls were made (and paid for), and asking again
   * is answered from the cache. Call before anything reads memories.
   */
  unfinishedStart(seeds: ReadonlyMap<string, readonly string[]>): { kept: string[] } | { discarded: { memories: number; events: number } } {
    if (this.snapshots.latest()) throw new Error(`${this.file}: has a snapshot, so its start finished; nothing to discard`);
    // A first start writes only these before its snapshot; anything else is a town's history, never cleared.
    const kinds = FIRST_START_EVENTS.map(() => '?').join(', ');
    const lived = this.db
      .prepare(`SELECT count(*) FROM events WHERE kind NOT IN (${kinds})`)
      .pluck()
      .get(...FIRST_START_EVENTS) as number;
    if (lived > 0) {
      throw new WorldFileError(this.file, `holds ${lived} events of a running town but no snapshot to resume them from; move it away to start a new world`);
    }
    const kept = this.seededResidents(seeds);
    if (kept) return { kept };
    return { discarded: this.discardUnfinishedStart() };
  }

  /** The residents a cut-short start finished seeding, when all it wrote can be kept (unfinishedStart); else null. */
  private seededResidents(seeds: ReadonlyMap<string, readonly string[]>): string[] | null {
    const count = (sql: string) => this.db.prepare(sql).pluck().get() as number;
    // The run was logged (its snapshot then failed), or the rows of a running town: start anew.
    if (count("SELECT count(*) FROM events WHERE kind IN ('persona.set', 'run.started')") > 0) return null;
    if (count('SELECT (SELECT count(*) FROM conversations) + (SELECT count(*) FROM plans) + (SELECT count(*) FROM relationships)') > 0) return null;
    const texts = new Map<string, string[]>();
    for (const row of this.db.prepare('SELECT agent_id AS agentId, description FROM memories ORDER BY id').iterate() as IterableIterator<{
      agentId: string;
      description: string;
    }>) {
      let list = texts.get(row.agentId);
      if (!list) texts.set(row.agentId, (list = []));
      list.push(row.description);
    }
    if (texts.size === 0) return null;
    const logged = new Map(
      (
        this.db.prepare("SELECT agent_id, count(*) FROM events WHERE kind = 'memory.created' GROUP BY agent_id").raw().all() as Array<[string | null, number]>
      ).map(([id, n]) => [id ?? '', n]),
    );
    for (const [agentId, list] of texts) {
      const wanted = seeds.get(agentId);
      if (!wanted || wanted.length !== list.length || wanted.some((t, i) => t !== list[i]) || logged.get(agentId) !== list.length) return null;
    }
    // Every logged memory belongs to a kept resident (a memory.created event without its row: start anew).
    for (const agentId of logged.keys()) if (!texts.has(agentId)) return null;
    return [...texts.keys()];
  }

  /** Clears everything a first start wrote (see unfinishedStart). */
  private discardUnfinishedStart(): { memories: number; events: number } {
    return this.db.transaction(() => {
      const rows = memoryLayoutOf(this.db) === 'rows';
      const memories = this.db.prepare(`DELETE FROM ${rows ? 'memory_rows' : 'memories'}`).run().changes;
      this.db.prepare('DELETE FROM memory_vectors').run();
      const events = this.db.prepare(`DELETE FROM ${rows ? 'event_rows' : 'events'}`).run().changes;
      if (rows) this.db.exec('DELETE FROM memory_texts; DELETE FROM agents');
      for (const table of ['utterances', 'conversations', 'plans', 'relationships']) this.db.prepare(`DELETE FROM ${table}`).run();
      this.memories.forgetAllColumns();
      this.forgetRelationships();
      return { memories, events };
    })();
  }

  /** Online backup (SQLite's backup API): safe while the town runs; the copy opens as a world. */
  async backupTo(destFile: string): Promise<void> {
    await this.db.backup(destFile);
  }

  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /** The WAL pages after which a commit checkpoints the log itself (SQLite's wal_autocheckpoint); 0: only when asked. */
  private walAutocheckpointPages = DEFAULT_WAL_AUTOCHECKPOINT_PAGES;

  /**
   * Commits no longer checkpoint the WAL themselves (a checkpoint copies ~4 MB into the file and syncs both: the
   * commit that crossed SQLite's 1,000 pages paid it, a fifth of the log's time in the served town's ticks); the
   * live loop calls `checkpointPassive` between its ticks instead.
   */
  checkpointOnlyWhenAsked(): void {
    this.walAutocheckpointPages = 0;
    if (!this.batchOpen) this.db.exec('PRAGMA wal_autocheckpoint = 0');
  }

  /** A passive checkpoint (what a commit past wal_autocheckpoint runs): copies the log's frames no reader needs into the file, never waiting. */
  checkpointPassive(): void {
    this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  /** Whether a batch (`batch`) holds the writes in one open transaction. */
  get batching(): boolean {
    return this.batchOpen;
  }
  private batchOpen = false;

  /**
   * Runs `work` with every write in one transaction, committed when it ends: a headless run's stretch
   * of steps commits once instead of several times a step (each memory, each step's events, the clock),
   * which was most of the SQLite cost of an offline day. Thrown or not, what was written is committed,
   * as it would have been write by write. Only where nothing waits on I/O meanwhile: a kill loses the
   * uncommitted stretch, and the file stays at its last commit, a step's end. A write SQLite refuses
   * inside the batch (a full disk) may take the whole transaction back with it: the memory store's
   * columns are dropped and the batch throws, so the run stops there and resumes from the last commit.
   */
  async batch<T>(work: () => Promise<T>): Promise<T> {
    if (this.db.inTransaction) throw new Error(`${this.file}: a batch cannot start inside another transaction`);
    this.db.exec('BEGIN');
    this.batchOpen = this.memories.batchOpen = this.eventLog.deferMarks = true;
    // A checkpoint syncs the file: in a batched run, one every ~40 MB of log instead of every 4 MB (the
    // default), which halved the time an offline day waits on the disk. The log is truncated at close.
    this.db.exec(`PRAGMA wal_autocheckpoint = ${BATCH_WAL_AUTOCHECKPOINT_PAGES}`);
    let result: T;
    try {
      result = await work();
    } catch (error) {
      this.endBatch();
      throw error;
    }
    if (!this.endBatch()) throw new Error(`${this.file}: SQLite took back a batch of writes (a full disk or an I/O error?); the run stops at its last commit`);
    return result;
  }

  /** Commits the batch; false when SQLite had already taken it back (its columns are dropped then). A failed commit rolls back and throws. */
  private endBatch(): boolean {
    this.batchOpen = this.memories.batchOpen = false;
    try {
      this.eventLog.endDeferredMarks(this.db.inTransaction);
      if (this.db.inTransaction) {
        this.db.exec('COMMIT');
        return true;
      }
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      this.memories.forgetAllColumns();
      this.forgetRelationships();
      throw error;
    } finally {
      this.db.exec(`PRAGMA wal_autocheckpoint = ${this.walAutocheckpointPages}`);
    }
    this.memories.forgetAllColumns();
    this.forgetRelationships();
    return false;
  }

  /** Drops LLM call logs and cached replies older than the wall time; returns the rows removed. */
  prune(olderThanWallMs: number): number {
    const a = this.db.prepare('DELETE FROM llm_calls WHERE wall_ms < ?').run(olderThanWallMs).changes;
    const b = this.db.prepare('DELETE FROM llm_cache WHERE wall_ms < ?').run(olderThanWallMs).changes;
    return a + b;
  }

  /**
   * Checkpoints and closes. `stamp: false` (a start that failed, a file found damaged) leaves no clean-close
   * stamp, so the next open runs the full check: only a world that opened and ran may be trusted unchecked.
   */
  close(options: { stamp?: boolean } = {}): void {
    if (this.db.open) {
      let checkpointed = true;
      if (!this.readonly) {
        try {
          this.checkpoint();
        } catch (error) {
          // A full disk at shutdown: the WAL keeps what is committed (the next open replays it); the file still closes.
          const code = String((error as { code?: unknown }).code ?? '');
          if (!/^SQLITE_(FULL|IOERR)/.test(code)) throw error;
          checkpointed = false;
        }
      }
      this.db.close();
      // Closed cleanly: the next open may skip PRAGMA quick_check while the file stays as it is now. A stamp the disk
      // will not take (full) is left out: the next open checks the whole file, and the stop still succeeds.
      if (!this.readonly && this.file !== ':memory:' && options.stamp !== false && checkpointed) {
        try {
          stampCleanClose(this.file);
        } catch {
          clearCleanClose(this.file);
        }
      }
    }
  }
}

/** SQLite's default log size (pages) that triggers a checkpoint, and the larger one of a batched run (WorldDb.batch). */
const DEFAULT_WAL_AUTOCHECKPOINT_PAGES = 1_000;
const BATCH_WAL_AUTOCHECKPOINT_PAGES = 10_000;

/** The most agents whose relationships are held at once (a town of ten thousand holds them a thousand at a time). */
const RELATIONSHIPS_HELD = 2_000;

/** The meta key of the committed clock (EventLog.markClock). */
const CLOCK_MARK_KEY = 'clock_game_ms';

class SqliteEventLog implements EventLog {
  private setMark: Database.Statement | null = null;
  private readonly insert: InsertEvent;
  private readonly range;
  private readonly last;
  private readonly bounds;
  private readonly memoryRow: MemoryRowLookup;
  constructor(private readonly db: Database.Database) {
    this.memoryRow = memoryRowLookup(db);
    this.insert =
      eventLayoutOf(db) === 'rows' ? keyedInsert(db) : rowOf(db.prepare('INSERT INTO events (seq, game_ms, kind, agent_id, data) VALUES (?, ?, ?, ?, ?)'));
    this.range = db.prepare('SELECT seq, game_ms AS gameMs, kind, agent_id AS agentId, data FROM events WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?');
    this.last = db.prepare('SELECT coalesce(max(seq), 0) FROM events').pluck();
    // Two lookups in the index by game time (min and max in one SELECT read every row: 0.7 s at a day of 1,000 agents).
    this.bounds = db.prepare('SELECT (SELECT min(game_ms) FROM events) AS firstGameMs, (SELECT max(game_ms) FROM events) AS lastGameMs');
  }
  append(events: EventInput[], clockGameMs?: number): number {
    return this.db.transaction((items: EventInput[]) => {
      // Gap-free: each seq is the last one plus one, inside the same transaction.
      let seq = this.last.get() as number;
      for (const e of items) this.insert(++seq, Math.round(e.gameMs), e.kind, e.agentId, packEvent(e.kind, e.agentId, e.data, this.memoryRow));
      if (clockGameMs !== undefined) this.markClock(clockGameMs);
      return seq;
    })(events);
  }
  /**
   * Inside a batch (WorldDb.batch) only the mark at its commit counts, as nothing outside sees the file
   * before: the step's mark is kept here and written once, just before the commit (each step's write of
   * it was 3% of an offline day).
   */
  deferMarks = false;
  private pendingMark: number | null = null;
  markClock(gameMs: number): void {
    if (this.deferMarks) {
      this.pendingMark = gameMs;
      return;
    }
    this.setMark ??= this.db.prepare(`INSERT INTO meta (key, value) VALUES ('${CLOCK_MARK_KEY}', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`);
    this.setMark.run(String(Math.round(gameMs)));
  }
  /** Writes the mark a batch kept (before its commit), or drops it (the batch was taken back). */
  endDeferredMarks(write: boolean): void {
    const mark = this.pendingMark;
    this.deferMarks = false;
    this.pendingMark = null;
    if (write && mark !== null) this.markClock(mark);
  }
  clockMark(): number | null {
    if (this.pendingMark !== null) return Math.round(this.pendingMark);
    const value = this.db.prepare(`SELECT value FROM meta WHERE key = '${CLOCK_MARK_KEY}'`).pluck().get() as string | undefined;
    return value === undefined ? null : Number(value);
  }
  read(fromSeq: number, toSeq: number, limit: number): LoggedEvent[] {
    return (this.range.all(fromSeq, toSeq, limit) as EventRow[]).map((r) => this.toLoggedEvent(r));
  }
  *scan(query: EventQuery = {}): IterableIterator<LoggedEvent> {
    const where: string[] = [];
    const args: Array<string | number> = [];
    if (query.afterSeq !== undefined) (where.push('seq > ?'), args.push(query.afterSeq));
    if (query.toSeq !== undefined) (where.push('seq <= ?'), args.push(query.toSeq));
    if (query.fromGameMs !== undefined) (where.push('game_ms >= ?'), args.push(Math.floor(query.fromGameMs)));
    if (query.untilGameMs !== undefined) (where.push('game_ms <= ?'), args.push(Math.floor(query.untilGameMs)));
    if (query.agentId !== undefined) (where.push('agent_id = ?'), args.push(query.agentId));
    if (query.kinds) (where.push(`kind IN (${query.kinds.map(() => '?').join(',') || "''"})`), args.push(...query.kinds));
    const order = query.descending ? 'DESC' : 'ASC';
    const limit = query.limit !== undefined ? ` LIMIT ${Math.max(0, Math.floor(query.limit))}` : '';
    const sql =
      `SELECT seq, game_ms AS gameMs, kind, agent_id AS agentId, data FROM ` +
      `events ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq ${order}${limit}`;
    for (const row of this.db.prepare(sql).iterate(...args) as IterableIterator<EventRow>) yield this.toLoggedEvent(row);
  }
  lastSeq(): number {
    return this.last.get() as number;
  }
  span(): { firstGameMs: number; lastGameMs: number } | null {
    const r = this.bounds.get() as { firstGameMs: number | null; lastGameMs: number | null };
    return r.firstGameMs === null || r.lastGameMs === null ? null : { firstGameMs: r.firstGameMs, lastGameMs: r.lastGameMs };
  }
  private toLoggedEvent(r: EventRow): LoggedEvent {
    // The payload's shape is the writer's (protocol/events.ts), unpacked where the file keeps it packed (eventForms.ts);
    // readers of old worlds check it (history/legacy.ts).
    const data = unpackEvent(r.kind, JSON.parse(r.data), this.memoryRow, r.seq);
    return { seq: r.seq, gameMs: r.gameMs, kind: r.kind, agentId: r.agentId as AgentId | null, data } as LoggedEvent;
  }
}

type InsertEvent = (seq: number, gameMs: number, kind: string, agentId: string | null, data: string) => void;

const rowOf =
  (statement: Database.Statement): InsertEvent =>
  (...row) =>
    void statement.run(...row);

/**
 * Appends into `event_rows` (schema 4 on) with the kind's and the agent's keys looked up here, not by the
 * `events` view's INSTEAD OF trigger (its four subqueries a row were 40 % of the log's insert). The same rows:
 * a kind or agent not yet keyed is added as the trigger adds it. The kinds keyed when the file was opened are
 * held (a kind's row is never changed or removed); any other kind, and every agent (a rename or a cleared start
 * changes their rows), is read each time: a key added inside a transaction that rolls back is gone again.
 */
function keyedInsert(db: Database.Database): InsertEvent {
  const kinds = new Map((db.prepare('SELECT name, key FROM event_kinds').raw().all() as Array<[string, number]>).map(([name, key]) => [name, key]));
  const kindKey = db.prepare('SELECT key FROM event_kinds WHERE name = ?').pluck();
  const addKind = db.prepare('INSERT INTO event_kinds (name) VALUES (?)');
  const agentKey = agentKeys(db);
  const insert = db.prepare('INSERT INTO event_rows (seq, game_ms, kind, agent, data) VALUES (?, ?, ?, ?, ?)');
  const keyOfKind = (kind: string): number => kinds.get(kind) ?? (kindKey.get(kind) as number | undefined) ?? Number(addKind.run(kind).lastInsertRowid);
  return (seq, gameMs, kind, agentId, data) => {
    insert.run(seq, gameMs, keyOfKind(kind), agentId === null ? null : agentKey(agentId), data);
  };
}

/**
 * A memory's row by id, for packing and unpacking `memory.created`: from `memory_rows`, its agent's and its
 * text's rows by key (schema 4 on; as three lookups: the `memories` view took ~45–80 µs a row in the served town,
 * a join of the three tables ~30, each table alone 3–6), or the `memories` table before.
 */
function memoryRowLookup(db: Database.Database): MemoryRowLookup {
  if (memoryLayoutOf(db) === 'table') {
    const row = db.prepare('SELECT agent_id AS agentId, kind, description, importance, evidence FROM memories WHERE id = ?');
    return (id) => row.get(id) as MemoryRowForm | undefined;
  }
  const rowOf = db.prepare("SELECT agent, kind, text_id, importance, coalesce(evidence, '[]') FROM memory_rows WHERE id = ?").raw();
  const agentOf = db.prepare('SELECT id FROM agents WHERE key = ?').pluck();
  const textOf = db.prepare('SELECT description FROM memory_texts WHERE id = ?').pluck();
  return (id) => {
    const r = rowOf.get(id) as [number, number, number, number, string] | undefined;
    if (!r) return undefined;
    const [agent, kind, textId, importance, evidence] = r;
    return { agentId: agentOf.get(agent) as string, kind: MEMORY_KINDS[kind], description: textOf.get(textId) as string, importance, evidence };
  };
}

interface EventRow {
  seq: number;
  gameMs: number;
  kind: EventKind;
  agentId: string | null;
  data: string;
}

class SqliteSnapshotStore implements SnapshotStore {
  constructor(
    private readonly db: Database.Database,
    private readonly clock: WallClock,
  ) {}
  save(s: Snapshot): void {
    // Deflated JSON: a town's state repeats itself (plans, perceptions), so it shrinks about tenfold. The
    // fastest level: a town of a thousand is ~10 MB of JSON, which level 6 takes ~4x longer to squeeze
    // for a file a quarter smaller, and a snapshot holds the room's ticks while it is written.
    this.saveDeflated({ seq: s.seq, gameMs: s.gameMs }, deflateSync(JSON.stringify(s.state), { level: 1 }));
  }
  saveDeflated(at: { seq: number; gameMs: number }, deflatedJson: Buffer): void {
    this.db
      .prepare('INSERT INTO snapshots (seq, game_ms, state, wall_ms) VALUES (?, ?, ?, ?)')
      .run(at.seq, Math.round(at.gameMs), deflatedJson, this.clock.now());
  }
  latest(): Snapshot | undefined {
    return toSnapshot(this.db.prepare('SELECT seq, game_ms AS gameMs, state FROM snapshots ORDER BY rowid DESC LIMIT 1').get());
  }
  atOrBefore(gameMs: number): Snapshot | undefined {
    return toSnapshot(
      this.db
        .prepare('SELECT seq, game_ms AS gameMs, state FROM snapshots WHERE game_ms <= ? ORDER BY game_ms DESC, rowid DESC LIMIT 1')
        .get(Math.round(gameMs)),
    );
  }
  headers(): SnapshotHeader[] {
    return this.db.prepare('SELECT seq, game_ms AS gameMs, rowid AS "order" FROM snapshots ORDER BY rowid').all() as SnapshotHeader[];
  }
  thin(beforeGameMs: number, everyGameMs: number): number {
    const before = Math.round(beforeGameMs);
    const every = Math.max(1, Math.round(everyGameMs));
    // Integer division (a JS number binds as a REAL): the game-time bucket of each snapshot; the first saved in each stays.
    return this.db
      .prepare(
        'DELETE FROM snapshots WHERE game_ms < ? AND rowid NOT IN (SELECT min(rowid) FROM snapshots WHERE game_ms < ? GROUP BY game_ms / CAST(? AS INTEGER))',
      )
      .run(before, before, every).changes;
  }
}

function toSnapshot(row: unknown): Snapshot | undefined {
  const r = row as { seq: number; gameMs: number; state: string | Buffer } | undefined;
  if (!r) return undefined;
  // Worlds written before snapshots were deflated hold plain JSON text.
  const json = typeof r.state === 'string' ? r.state : inflateSync(r.state).toString('utf8');
  return { seq: r.seq, gameMs: r.gameMs, state: JSON.parse(json) as unknown };
}

/** What a world's first start logs before its first snapshot (seeding its residents). */
const FIRST_START_EVENTS: readonly EventKind[] = ['memory.created', 'persona.set', 'llm.fallback', 'budget.paused', 'run.started'];

/** The format of the event log a world was written with: 2 since events carry what replay needs. */
export const EVENT_FORMAT = 2;

export interface OpenOptions {
  /** Open an existing file without writing to it (replay, analysis). */
  readonly?: boolean;
  clock?: WallClock;
  /** The memory store's column cache cap, bytes (512 MiB when not given; 0 turns it off). */
  columnCacheBytes?: number;
}

export class WorldFileError extends Error {
  constructor(
    readonly file: string,
    what: string,
  ) {
    super(`${file}: ${what}`);
    this.name = 'WorldFileError';
  }
}

/** Whether an error is SQLite finding the file damaged (SQLITE_CORRUPT…, SQLITE_NOTADB): a disk or an outside write, never ours. */
export function isDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/** What to do with a damaged world file: restore the newest backup the town keeps beside it (jobs.ts names them), or move it away. */
export function restoreAdvice(file: string): string {
  const dir = path.join(path.dirname(file), 'backups');
  const world = path.basename(file).replace(/\.sqlite$/, '');
  let newest: string | undefined;
  try {
    newest = fs
      .readdirSync(dir)
      .filter((f) => f.startsWith(`${world}-`) && f.endsWith('.sqlite'))
      .sort()
      .pop();
  } catch {
    newest = undefined;
  }
  return newest
    ? `move it away and restore the newest backup the town keeps: ${path.join(dir, newest)} (copy it to ${file})`
    : `no backup of it in ${dir}: move the file away to start the world anew`;
}

/** PRAGMA application_id of every world file: "SmTw". Set when a file is made, checked on every open. */
export const WORLD_APPLICATION_ID = 0x536d5477;

/**
 * Whether an existing file may be opened as a world, decided on a read-only connection before anything
 * writes to it: it must be one of ours (our application id; or, made before the id was set, our schema
 * version with our `meta` table and nothing foreign) and, when `quickCheck`, pass PRAGMA quick_check.
 * Throws a WorldFileError with the reason; the file is left as it was.
 */
export function checkWorldFile(file: string, options: { quickCheck: boolean }): void {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new WorldFileError(file, `cannot open: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    checkOwnership(db, file);
    if (options.quickCheck) {
      const problems = db.pragma('quick_check(5)', { simple: false }) as Array<{ quick_check: string }>;
      const said = problems.map((p) => p.quick_check);
      if (said.length !== 1 || said[0] !== 'ok') throw new WorldFileError(file, `is damaged (PRAGMA quick_check: ${said.join('; ')}); ${restoreAdvice(file)}`);
    }
  } catch (error) {
    if (error instanceof WorldFileError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new WorldFileError(file, `is not a readable SQLite file (${message}); ${restoreAdvice(file)}`);
  } finally {
    db.close();
  }
}

/** Refuses a file that is not ours: another application's id, or tables of a schema we did not make. */
function checkOwnership(db: Database.Database, file: string): void {
  const applicationId = db.pragma('application_id', { simple: true }) as number;
  if (applicationId === WORLD_APPLICATION_ID) return;
  if (applicationId !== 0) throw new WorldFileError(file, `belongs to another application (application_id ${applicationId}); left untouched`);
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
  if (tables.length === 0) return;
  const version = db.pragma('user_version', { simple: true }) as number;
  // A world made before the application id was set: our schema version and our meta table.
  if (version >= 1 && version <= MIGRATIONS.length && tables.includes('meta') && tables.includes('events')) return;
  const shown = tables.slice(0, 5).join(', ') + (tables.length > 5 ? `, … (${tables.length} tables)` : '');
  throw new WorldFileError(file, `is not a Smalltown world file (it has the tables ${shown}); left untouched: choose another WORLD or DATA_DIR`);
}

/**
 * Opens (or creates) a world file. `file` may be ':memory:'. `embedding` null (read-only only) accepts
 * whatever embedder the file records, for listing and reading events.
 */
export function openWorldDb(file: string, embedding: { model: string; dimension: number } | null, options: OpenOptions = {}): WorldDb {
  if (embedding === null && !options.readonly) throw new Error('openWorldDb: a writable world needs its embedder');
  const clock = options.clock ?? systemClock;
  // An existing file is checked before a writable connection touches it (WAL mode, migrations).
  // PRAGMA quick_check reads every page: it is skipped only for a file closed cleanly and not changed since (cleanClose.ts).
  let openCheck: OpenCheck = 'new';
  if (!options.readonly && file !== ':memory:' && fs.existsSync(file) && fs.statSync(file).size > 0) {
    openCheck = closedCleanly(file) ? 'clean close' : 'quick_check';
    checkWorldFile(file, { quickCheck: openCheck === 'quick_check' });
  }
  if (!options.readonly && file !== ':memory:') clearCleanClose(file);
  let db: Database.Database;
  try {
    db = options.readonly ? new Database(file, { readonly: true, fileMustExist: true }) : new Database(file);
  } catch (error) {
    throw new WorldFileError(file, `cannot open: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
    }
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    sqliteVec.load(db);
    let version: number;
    try {
      if (options.readonly) checkOwnership(db, file);
      else if ((db.pragma('application_id', { simple: true }) as number) === 0) db.pragma(`application_id = ${WORLD_APPLICATION_ID}`);
      version = options.readonly ? (db.pragma('user_version', { simple: true }) as number) : migrate(db);
    } catch (error) {
      if (error instanceof WorldFileError) throw error;
      throw new WorldFileError(file, `not a readable world file (${error instanceof Error ? error.message : String(error)})`);
    }
    if (version === 0) throw new WorldFileError(file, 'not a Smalltown world file (no schema)');
    if (version > MIGRATIONS.length)
      throw new WorldFileError(file, `written by a newer Smalltown (schema ${version}; this one reads up to ${MIGRATIONS.length})`);
    // Read-only, an older file is read as it is when every migration it lacks leaves it readable.
    if (options.readonly && MIGRATIONS.some((m) => m.version > version && !m.readersCope))
      throw new WorldFileError(file, `written by an older Smalltown (schema ${version}); open it once as a live world (WORLD=...) to upgrade it`);
    const meta = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    const model = meta.get('embedding_model') as string | undefined;
    const dimension = Number(meta.get('embedding_dimension'));
    if (model === undefined) {
      if (options.readonly || !embedding) throw new WorldFileError(file, 'has no embedder recorded: not a finished world file');
      db.transaction(() => {
        const set = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
        set.run('embedding_model', embedding.model);
        set.run('embedding_dimension', String(embedding.dimension));
        set.run('created_wall_ms', String(clock.now()));
        set.run('event_format', String(EVENT_FORMAT));
      })();
    } else if (embedding && (model !== embedding.model || dimension !== embedding.dimension)) {
      throw new EmbedderMismatchError(file, { model, dimension }, embedding);
    }
    const eventFormat = Number(meta.get('event_format') ?? 1);
    return new WorldDb(db, file, embedding ?? { model: model!, dimension }, {
      clock,
      eventFormat,
      readonly: options.readonly ?? false,
      columnCacheBytes: options.columnCacheBytes,
      openCheck,
      schemaVersion: version,
    });
  } catch (error) {
    db.close();
    if (error instanceof WorldFileError || error instanceof EmbedderMismatchError) throw error;
    throw new WorldFileError(file, `cannot be read as a world (${error instanceof Error ? error.message : String(error)})`);
  }
}
