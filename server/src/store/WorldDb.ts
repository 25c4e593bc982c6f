// One world, one SQLite file: better-sqlite3 in WAL mode, numbered migrations, sqlite-vec loaded.
// The file records the embedding model and dimension it was made with, and refuses any other.
import Database from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import type { AgentId } from '../world/types';
import type { CallLog, LlmCallRecord, Purpose, ResponseCacheStore } from '../llm/types';
import type { ConversationRecord, EventInput, EventKind, EventLog, LoggedEvent, Snapshot, SnapshotStore } from './types';
import { migrate } from './migrations';
import { SqliteMemoryStore } from './SqliteMemoryStore';
import type { DayPlan } from '../sim/types';

/** Rows per vec0 chunk; measured in bench/memory.ts (BENCHMARKS.md). */
export const VEC_CHUNK_SIZE = 256;

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

export class WorldDb {
  readonly memories: SqliteMemoryStore;
  readonly events: EventLog;
  readonly snapshots: SnapshotStore;
  readonly callLog: CallLog;
  readonly responseCache: ResponseCacheStore;

  constructor(
    readonly db: Database.Database,
    readonly file: string,
    readonly embedding: { model: string; dimension: number },
  ) {
    this.memories = new SqliteMemoryStore(db, embedding.dimension);
    this.events = new SqliteEventLog(db);
    this.snapshots = new SqliteSnapshotStore(db);
    const insertCall = db.prepare(
      `INSERT INTO llm_calls (agent_id, purpose, model, prompt_tokens, completion_tokens, latency_ms, cost_usd, cached, outcome, game_ms, wall_ms)
       VALUES (@agentId, @purpose, @model, @promptTokens, @completionTokens, @latencyMs, @costUsd, @cached, @outcome, @gameMs, @wallMs)`,
    );
    this.callLog = { record: (c: LlmCallRecord) => void insertCall.run({ ...c, cached: c.cached ? 1 : 0, gameMs: c.gameMs === null ? null : Math.round(c.gameMs) }) };
    const getCache = db.prepare('SELECT value FROM llm_cache WHERE key = ?').pluck();
    const putCache = db.prepare('INSERT OR REPLACE INTO llm_cache (key, value, wall_ms) VALUES (?, ?, ?)');
    this.responseCache = {
      get: (key) => getCache.get(key) as string | undefined,
      put: (key, value) => void putCache.run(key, value, Date.now()),
    };
  }

  // ---- meta --------------------------------------------------------------------------------------
  getMeta(key: string): string | undefined {
    return this.db.prepare('SELECT value FROM meta WHERE key = ?').pluck().get(key) as string | undefined;
  }
  setMeta(key: string, value: string): void {
    this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)').run(key, value);
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
  savePlan(agentId: AgentId, plan: DayPlan): void {
    this.db.prepare('INSERT OR REPLACE INTO plans (agent_id, day, data) VALUES (?, ?, ?)').run(agentId, plan.day, JSON.stringify(plan));
  }
  loadPlan(agentId: AgentId, day: number): DayPlan | undefined {
    const data = this.db.prepare('SELECT data FROM plans WHERE agent_id = ? AND day = ?').pluck().get(agentId, day) as string | undefined;
    return data ? (JSON.parse(data) as DayPlan) : undefined;
  }

  saveConversation(c: ConversationRecord): void {
    this.db.transaction(() => {
      // A conversation id is the sim's; after a resume the sim may reuse one, so the newest wins.
      this.db.prepare('DELETE FROM utterances WHERE conversation_id = ?').run(c.id);
      this.db.prepare('INSERT OR REPLACE INTO conversations (id, agent_a, agent_b, start_ms, end_ms, summary) VALUES (?, ?, ?, ?, ?, ?)').run(c.id, c.a, c.b, Math.round(c.startGameMs), Math.round(c.endGameMs), c.summary);
      const line = this.db.prepare('INSERT INTO utterances (conversation_id, seq, speaker, text, game_ms) VALUES (?, ?, ?, ?, ?)');
      c.lines.forEach((l, i) => line.run(c.id, i + 1, l.speaker, l.text, Math.round(l.gameMs)));
    })();
  }
  conversationsOf(agentId: AgentId, limit: number): Array<{ id: number; a: string; b: string; startGameMs: number; summary: string }> {
    return this.db
      .prepare('SELECT id, agent_a AS a, agent_b AS b, start_ms AS startGameMs, summary FROM conversations WHERE agent_a = ? OR agent_b = ? ORDER BY start_ms DESC LIMIT ?')
      .all(agentId, agentId, limit) as Array<{ id: number; a: string; b: string; startGameMs: number; summary: string }>;
  }

  touchRelationship(agentId: AgentId, otherId: AgentId, summary: string, gameMs: number): void {
    this.db
      .prepare(
        `INSERT INTO relationships (agent_id, other_id, summary, interactions, last_ms) VALUES (?, ?, ?, 1, ?)
         ON CONFLICT (agent_id, other_id) DO UPDATE SET summary = excluded.summary, interactions = interactions + 1, last_ms = excluded.last_ms`,
      )
      .run(agentId, otherId, summary, Math.round(gameMs));
  }
  relationshipsOf(agentId: AgentId): RelationshipRow[] {
    return this.db
      .prepare('SELECT other_id AS otherId, summary, interactions, last_ms AS lastGameMs FROM relationships WHERE agent_id = ? ORDER BY interactions DESC, other_id')
      .all(agentId) as RelationshipRow[];
  }

  lastThoughtId(agentId: AgentId): number {
    return (this.db.prepare("SELECT coalesce(max(id), 0) FROM memories WHERE agent_id = ? AND kind = 'thought'").pluck().get(agentId) as number) ?? 0;
  }

  // ---- LLM calls -----------------------------------------------------------------------------------
  summariseCalls(filter: { agentId?: string } = {}): CallSummary {
    const where = filter.agentId ? 'WHERE agent_id = ?' : '';
    const args = filter.agentId ? [filter.agentId] : [];
    const totals = this.db
      .prepare(
        `SELECT count(*) AS calls, coalesce(sum(cached),0) AS cached, coalesce(sum(outcome != 'ok'),0) AS failed,
                coalesce(sum(prompt_tokens),0) AS promptTokens, coalesce(sum(completion_tokens),0) AS completionTokens,
                coalesce(sum(cost_usd),0) AS costUsd, coalesce(sum(latency_ms),0) AS latencyMs FROM llm_calls ${where}`,
      )
      .get(...args) as Omit<CallSummary, 'byPurpose'>;
    const byPurpose: CallSummary['byPurpose'] = {};
    for (const row of this.db
      .prepare(`SELECT purpose, count(*) AS calls, coalesce(sum(prompt_tokens + completion_tokens),0) AS tokens, coalesce(sum(cost_usd),0) AS costUsd FROM llm_calls ${where} GROUP BY purpose`)
      .all(...args) as Array<{ purpose: Purpose; calls: number; tokens: number; costUsd: number }>)
      byPurpose[row.purpose] = { calls: row.calls, tokens: row.tokens, costUsd: row.costUsd };
    return { ...totals, byPurpose };
  }

  // ---- maintenance ---------------------------------------------------------------------------------
  /** Online backup (SQLite's backup API): safe while the town runs; the copy opens as a world. */
  async backupTo(destFile: string): Promise<void> {
    await this.db.backup(destFile);
  }

  checkpoint(): void {
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  /** Drops LLM call logs and cached replies older than the wall time; returns the rows removed. */
  prune(olderThanWallMs: number): number {
    const a = this.db.prepare('DELETE FROM llm_calls WHERE wall_ms < ?').run(olderThanWallMs).changes;
    const b = this.db.prepare('DELETE FROM llm_cache WHERE wall_ms < ?').run(olderThanWallMs).changes;
    return a + b;
  }

  close(): void {
    if (this.db.open) {
      this.checkpoint();
      this.db.close();
    }
  }
}

class SqliteEventLog implements EventLog {
  private readonly insert;
  private readonly range;
  private readonly last;
  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare('INSERT INTO events (seq, game_ms, kind, agent_id, data) VALUES (?, ?, ?, ?, ?)');
    this.range = db.prepare('SELECT seq, game_ms AS gameMs, kind, agent_id AS agentId, data FROM events WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?');
    this.last = db.prepare('SELECT coalesce(max(seq), 0) FROM events').pluck();
  }
  append(events: EventInput[]): number {
    return this.db.transaction((items: EventInput[]) => {
      // Gap-free: each seq is the last one plus one, inside the same transaction.
      let seq = this.last.get() as number;
      for (const e of items) this.insert.run(++seq, Math.round(e.gameMs), e.kind, e.agentId, JSON.stringify(e.data ?? null));
      return seq;
    })(events);
  }
  read(fromSeq: number, toSeq: number, limit: number): LoggedEvent[] {
    return (this.range.all(fromSeq, toSeq, limit) as Array<{ seq: number; gameMs: number; kind: EventKind; agentId: string | null; data: string }>).map((r) => ({
      seq: r.seq,
      gameMs: r.gameMs,
      kind: r.kind,
      agentId: r.agentId as AgentId | null,
      data: JSON.parse(r.data) as unknown,
    }));
  }
  lastSeq(): number {
    return this.last.get() as number;
  }
}

class SqliteSnapshotStore implements SnapshotStore {
  constructor(private readonly db: Database.Database) {}
  save(s: Snapshot): void {
    this.db.prepare('INSERT INTO snapshots (seq, game_ms, state, wall_ms) VALUES (?, ?, ?, ?)').run(s.seq, Math.round(s.gameMs), JSON.stringify(s.state), Date.now());
  }
  latest(): Snapshot | undefined {
    const r = this.db.prepare('SELECT seq, game_ms AS gameMs, state FROM snapshots ORDER BY rowid DESC LIMIT 1').get() as { seq: number; gameMs: number; state: string } | undefined;
    return r ? { seq: r.seq, gameMs: r.gameMs, state: JSON.parse(r.state) as unknown } : undefined;
  }
  atOrBefore(gameMs: number): Snapshot | undefined {
    const r = this.db.prepare('SELECT seq, game_ms AS gameMs, state FROM snapshots WHERE game_ms <= ? ORDER BY game_ms DESC, rowid DESC LIMIT 1').get(Math.round(gameMs)) as { seq: number; gameMs: number; state: string } | undefined;
    return r ? { seq: r.seq, gameMs: r.gameMs, state: JSON.parse(r.state) as unknown } : undefined;
  }
}

/** Opens (or creates) a world file. `file` may be ':memory:'. */
export function openWorldDb(file: string, embedding: { model: string; dimension: number }): WorldDb {
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    sqliteVec.load(db);
    migrate(db);
    const meta = db.prepare('SELECT value FROM meta WHERE key = ?').pluck();
    const model = meta.get('embedding_model') as string | undefined;
    const dimension = Number(meta.get('embedding_dimension'));
    if (model === undefined) {
      db.transaction(() => {
        const set = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
        set.run('embedding_model', embedding.model);
        set.run('embedding_dimension', String(embedding.dimension));
        set.run('created_wall_ms', String(Date.now()));
        db.exec(`CREATE VIRTUAL TABLE vec_memories USING vec0(agent_id TEXT PARTITION KEY, embedding float[${embedding.dimension}] distance_metric=cosine, chunk_size=${VEC_CHUNK_SIZE})`);
      })();
    } else if (model !== embedding.model || dimension !== embedding.dimension) {
      throw new EmbedderMismatchError(file, { model, dimension }, embedding);
    }
    const world = new WorldDb(db, file, embedding);
    return world;
  } catch (error) {
    db.close();
    throw error;
  }
}
