// The memory stream in SQLite: rows in `memories`, each naming its vector in `memory_vectors`, where equal
// vectors are one row (memoryVectors.ts; a file older than schema 3, read as it is, has vec0's per-memory rows).
//
// Retrieval is exact: it returns the same top k as scoring every memory of the agent, each term
// min-max normalised over ALL of the agent's memories. Two ways:
// - From the column cache (ColumnCache.ts), the usual way: every cached agent's memories as columns,
//   vectors quantised to int8 plus an int4 residual once per distinct vector (a pool shared by all agents,
//   keyed by the `memory_vectors` row), under one byte cap for the whole store (least
//   recently used agents are evicted and reloaded on demand). A SIMD scan bounds every memory's
//   relevance, and only the memories the bounds cannot place are scored from their stored float32
//   vectors (quantisedRetrieval.ts has the proof). The columns follow every write made here; a write
//   inside a caller's transaction (which may yet roll back) evicts the agent instead, except in a
//   batch (WorldDb.batch), which commits or else drops every agent's columns itself.
// - Through SQL (sqlRetrieval.ts), for an agent that does not fit the cap on its own (or a cap of 0): a scan
//   of the agent's rows and vectors, or in an older file with vec0's KNN index, a bounded search over candidates.
// The newest rows of each agent are held for `recent` (recentRows.ts).
import type Database from 'better-sqlite3';
import type { AgentId } from '../world/types';
import type { Memory, MemoryId, MemoryInput, MemoryKind, MemoryStore, RetrievalOptions, ScoredMemory } from './types';
import { cosine, scoreTerms } from './scoring';
import { ColumnCache, type AgentColumns, type CacheStats, type ColumnRow } from './ColumnCache';
import { rankColumns } from './quantisedRetrieval';
import { vectorLayoutOf, vectorOf, vectorQueries, VectorRows, type VectorLayout } from './memoryVectors';
import { kindCode, memoryLayoutOf, MemoryRowWriter } from './memoryTexts';
import { toMemory, type MemoryRow, type RetrievalStats } from './memoryRows';
import { RECENT_ROWS, RECENT_ROWS_TOTAL, RecentRows } from './recentRows';
import { SqlRetrieval } from './sqlRetrieval';

export type { RetrievalStats } from './memoryRows';

/**
 * Default cap of the column cache, all agents together. A memory whose vector no other cached memory has
 * takes ~2.4 kB at 1,536 dimensions (int8 vector, int4 residual, factors, its agent's columns), so this
 * holds ~225k such; at 100 dimensions (the offline embedder, padded to 128) ~285 B. Memories that share a
 * vector (the pool keeps one row per `memory_vectors` row for all agents) take their agent's columns only,
 * 14 B (29 before round 7): the town of 1,000 after three days holds 1.5M memories (80k distinct vectors among them)
 * in 34 B each (round 7's soak, with 18-byte columns).
 */
export const COLUMN_CACHE_BYTES = 512 * 1024 * 1024;

export class SqliteMemoryStore implements MemoryStore {
  readonly stats: RetrievalStats = { rounds: 0, fullScans: 0, columnScans: 0, exactReads: 0, candidates: 0, refined: 0 };
  private readonly cache: ColumnCache;
  /** Where the vectors are: shared rows (schema 3 on), or vec0 in an older file read as it is (memoryVectors.ts). */
  readonly layout: VectorLayout;
  private readonly vectorRows: VectorRows | null;
  /** Writes rows in the compact layout (schema 4 on: memoryTexts.ts); null for an older file read as it is. */
  private readonly rowWriter: MemoryRowWriter | null;
  private readonly agentMeta;
  private readonly insertMemory;
  private readonly insertVector;
  private readonly byId;
  private readonly recentAll;
  private readonly countAgent;
  private readonly countAll;
  private readonly agentVectors;
  private readonly vectorById;
  private readonly vectorByKey;
  private readonly byIds;
  private readonly touch;
  private readonly searchStmt;
  private readonly recentByKinds = new Map<string, Database.Statement>();
  private readonly sinceByKinds = new Map<string, Database.Statement>();
  private readonly rowsLayout: boolean;
  /** Each agent's newest memories, for `recent` (recentRows.ts). */
  private readonly recentRows: RecentRows;
  /** Retrieval through SQL, for an agent that does not fit the cache (sqlRetrieval.ts). */
  private readonly sql: SqlRetrieval;

  constructor(
    private readonly db: Database.Database,
    readonly dimension: number,
    /** The column cache's cap in bytes, all agents together; 0 always uses the SQL path. */
    columnCacheBytes = COLUMN_CACHE_BYTES,
    /** The most rows `recent` holds, all agents together. */
    recentRowsTotal = RECENT_ROWS_TOTAL,
  ) {
    this.cache = new ColumnCache(dimension, columnCacheBytes);
    this.layout = vectorLayoutOf(db);
    const shared = this.layout === 'shared';
    const vectorSql = vectorQueries(this.layout);
    this.vectorRows = shared && !db.readonly ? new VectorRows(db) : null;
    const rows = memoryLayoutOf(db) === 'rows';
    this.rowsLayout = rows;
    this.rowWriter = rows && !db.readonly ? new MemoryRowWriter(db) : null;
    // The view of the compact layout takes no INSERT: its rows are written by rowWriter.
    this.insertMemory = rows
      ? null
      : db.prepare(
          `INSERT INTO memories (agent_id, kind, description, created_ms, last_accessed_ms, importance, subject, predicate, object, evidence` +
            `${shared ? ', vector_id' : ''}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?${shared ? ', ?' : ''})`,
        );
    this.insertVector = shared ? null : db.prepare('INSERT INTO vec_memories (rowid, agent_id, embedding) VALUES (?, ?, ?)');
    this.byId = db.prepare('SELECT * FROM memories WHERE id = ?');
    this.recentAll = db.prepare('SELECT * FROM memories WHERE agent_id = ? ORDER BY id DESC LIMIT ?');
    // Counted on the rows where there are rows: the view would join every row's agent and text (a second at a week's size).
    this.countAgent = db
      .prepare(
        rows ? 'SELECT count(*) FROM memory_rows WHERE agent = (SELECT key FROM agents WHERE id = ?)' : 'SELECT count(*) FROM memories WHERE agent_id = ?',
      )
      .pluck();
    this.countAll = db.prepare(`SELECT count(*) AS n FROM ${rows ? 'memory_rows' : 'memories'}`).pluck();
    this.agentVectors = db.prepare(vectorSql.ofAgent);
    this.touch = db.prepare(`UPDATE ${rows ? 'memory_rows' : 'memories'} SET last_accessed_ms = ? WHERE id = ?`);
    this.vectorById = db.prepare(vectorSql.ofMemory);
    // By the pool's key: a shared row read by its primary key (through the memories view, a one-row read took ~5×
    // as long on a 72-hour world), or vec0's row, whose key is the memory's id.
    this.vectorByKey = shared ? db.prepare('SELECT embedding FROM memory_vectors WHERE id = ?') : null;
    // The top k's rows in one read: each statement through the view costs ~50 µs however few rows it reads.
    this.byIds = db.prepare('SELECT * FROM memories WHERE id IN (SELECT value FROM json_each(?))');
    // The cache's pool keys a vector by its shared row; vec0's rows are per memory, so there by the memory.
    this.agentMeta = db.prepare(
      `SELECT id, importance, last_accessed_ms AS lastAccessed, created_ms AS created, kind, ${shared ? 'vector_id' : 'id'} AS vector ` +
        'FROM memories WHERE agent_id = ? ORDER BY id',
    );
    this.searchStmt = db.prepare('SELECT * FROM memories WHERE agent_id = ? AND instr(lower(description), lower(?)) > 0 ORDER BY id DESC LIMIT ?');
    this.recentRows = new RecentRows((agentId, limit) => (this.recentAll.all(agentId, limit) as MemoryRow[]).map(toMemory), recentRowsTotal);
    const statements = { byId: this.byId, agentVectors: this.agentVectors, agentMeta: this.agentMeta };
    this.sql = new SqlRetrieval(db, this.layout, dimension, statements, this.stats);
  }

  /** Set by WorldDb.batch: the open transaction is a batch, which commits or drops every column itself. */
  batchOpen = false;

  /** Whether rows written now may yet roll back behind the cache's back: inside a caller's transaction, not a batch. */
  private get mayRollBack(): boolean {
    return this.db.inTransaction && !this.batchOpen;
  }

  add(memories: MemoryInput[]): MemoryId[] {
    // Inside a caller's transaction the rows may yet roll back: drop the agents' columns instead.
    if (this.mayRollBack)
      for (const m of memories) {
        this.cache.evict(m.agentId);
        this.recentRows.forget(m.agentId);
      }
    try {
      return this.db.transaction((items: MemoryInput[]) =>
        items.map((m) => {
          if (m.embedding.length !== this.dimension)
            throw new Error(`memory embedding has ${m.embedding.length} dimensions; this world uses ${this.dimension}`);
          const t = m.triple ?? null;
          const created = Math.round(m.createdGameMs);
          const text = { description: m.description, subject: t?.subject ?? null, predicate: t?.predicate ?? null, object: t?.object ?? null };
          const evidence = JSON.stringify(m.evidenceIds ?? []);
          const vectorId = this.vectorRows ? this.vectorRows.idOf(m.embedding) : null;
          let id: bigint;
          if (this.rowWriter) {
            id = BigInt(this.rowWriter.add({ ...text, agentId: m.agentId, kind: m.kind, createdMs: created, importance: m.importance, evidence, vectorId }));
          } else {
            // An older file's memories table (schema 3 and before): its row as the table has it.
            const row = [m.agentId, m.kind, text.description, created, created, m.importance, text.subject, text.predicate, text.object, evidence];
            if (vectorId !== null) row.push(vectorId);
            id = BigInt(this.insertMemory!.run(...row).lastInsertRowid);
          }
          // vec0 wants integer keys bound as BigInt: a JS number binds as FLOAT and is refused.
          this.insertVector?.run(id, m.agentId, m.embedding);
          const columns = { id: Number(id), lastAccessed: created, created, importance: m.importance, kind: m.kind, vector: Number(vectorId ?? id) };
          this.cache.add(m.agentId, columns, m.embedding);
          this.recentRows.added(m, Number(id), created, t);
          return Number(id);
        }),
      )(memories);
    } catch (error) {
      // The rows were rolled back; the columns of these agents may hold some of them.
      for (const m of memories) {
        this.cache.evict(m.agentId);
        this.recentRows.forget(m.agentId);
      }
      throw error;
    }
  }

  /** Drops every cached column and row (a batch rolled back); retrievals reload them. */
  forgetAllColumns(): void {
    for (const agentId of this.cache.cachedAgents()) this.cache.evict(agentId);
    this.recentRows.clear();
  }

  /**
   * Drops an agent's cached columns (its rows changed under the cache: a rename); the next retrieval
   * reloads them. Every agent's newest rows go too: a rename rewrites the names in others' memories.
   */
  forgetColumns(agentId: string): void {
    this.cache.evict(agentId);
    this.recentRows.clear();
  }

  get(id: MemoryId): Memory | undefined {
    const r = this.byId.get(id) as MemoryRow | undefined;
    return r ? toMemory(r) : undefined;
  }

  recent(agentId: AgentId, limit: number, kinds?: readonly MemoryKind[]): Memory[] {
    // Inside a caller's transaction the rows may yet roll back: read from the file.
    const held = limit <= RECENT_ROWS && !this.mayRollBack ? this.recentRows.of(agentId) : undefined;
    if (held) {
      const out: Memory[] = [];
      for (const m of held.rows) {
        if (out.length === limit) break;
        if (!kinds || kinds.includes(m.kind)) out.push({ ...m });
      }
      // Served when the rows held cover the answer: enough of them, or every memory the agent has.
      if (out.length === limit || held.complete) return out;
    }
    if (!kinds) return (this.recentAll.all(agentId, limit) as MemoryRow[]).map(toMemory);
    const key = kinds.join(',');
    let statement = this.recentByKinds.get(key);
    if (!statement) {
      const placeholders = kinds.map(() => '?').join(',');
      statement = this.db.prepare(`SELECT * FROM memories WHERE agent_id = ? AND kind IN (${placeholders}) ORDER BY id DESC LIMIT ?`);
      this.recentByKinds.set(key, statement);
    }
    return (statement.all(agentId, ...kinds, limit) as MemoryRow[]).map(toMemory);
  }

  count(agentId?: AgentId): number {
    return (agentId === undefined ? this.countAll.get() : this.countAgent.get(agentId)) as number;
  }

  since(agentId: AgentId, sinceGameMs: number, kinds: readonly MemoryKind[], minImportance = 0): Memory[] {
    const key = kinds.join(',');
    let statement = this.sinceByKinds.get(key);
    if (!statement) {
      const placeholders = kinds.map(() => '?').join(',');
      // The ids from memory_rows by its index on (agent, kind, created_ms), then their rows through the view in one read.
      statement = this.db.prepare(
        this.rowsLayout
          ? 'SELECT * FROM memories WHERE id IN (SELECT id FROM memory_rows WHERE agent = (SELECT key FROM agents WHERE id = ?) ' +
              `AND kind IN (${placeholders}) AND created_ms >= ? AND importance >= ?) ORDER BY id DESC`
          : `SELECT * FROM memories WHERE agent_id = ? AND kind IN (${placeholders}) AND created_ms >= ? AND importance >= ? ORDER BY id DESC`,
      );
      this.sinceByKinds.set(key, statement);
    }
    const codes = this.rowsLayout ? kinds.map(kindCode) : kinds;
    return (statement.all(agentId, ...codes, sinceGameMs, minImportance) as MemoryRow[]).map(toMemory);
  }

  search(agentId: AgentId, text: string, limit: number): Memory[] {
    return (this.searchStmt.all(agentId, text, limit) as MemoryRow[]).map(toMemory);
  }

  /** What the column cache holds and has done, and the rows held for `recent`. */
  columnCache(): { bytes: number; capBytes: number; agents: string[]; vectors: number; recentRows: number; stats: CacheStats } {
    const c = this.cache;
    return { bytes: c.bytes, capBytes: c.capBytes, agents: c.cachedAgents(), vectors: c.vectors, recentRows: this.recentRows.size, stats: c.stats };
  }

  retrieve(o: RetrievalOptions): ScoredMemory[] {
    // A query with NaN or infinite entries scores NaN everywhere: brute force, as the reference does.
    const cols = o.query.every(Number.isFinite) ? this.columnsOf(o.agentId) : null;
    const top = cols ? this.fromColumns(cols, o) : o.kinds || !this.sql.hasKnn ? this.sql.fullScan(o) : this.sql.bounded(o);
    if (o.touch !== false && top.length) {
      const now = Math.round(o.nowGameMs);
      this.db.transaction(() => top.forEach((s) => this.touch.run(now, s.memory.id)))();
      const c = this.cache.peek(o.agentId);
      if (c)
        for (const s of top) {
          const p = c.positionOf(s.memory.id);
          if (p >= 0 && !this.cache.touch(o.agentId, c, p, now)) break; // evicted: reloaded from the rows on its next retrieval
        }
      const ids = top.map((s) => s.memory.id);
      this.recentRows.touched(o.agentId, ids, now);
    }
    // Columns loaded or touched inside a caller's transaction may show rows that yet roll back.
    if (this.mayRollBack) {
      this.cache.evict(o.agentId);
      this.recentRows.forget(o.agentId);
    }
    return top;
  }

  /** The agent's columns, loaded on first use; null when the agent cannot fit the cache on its own. */
  private columnsOf(agentId: AgentId): AgentColumns | null {
    const cached = this.cache.get(agentId);
    if (cached) return cached;
    if (this.cache.capBytes === 0) return null;
    const n = this.count(agentId);
    if (this.cache.bytesFor(n) > this.cache.capBytes) return null;
    const rows = this.agentMeta.all(agentId) as ColumnRow[];
    const vectors = function* (stmt: Database.Statement): Iterable<{ id: number; vector: Float32Array }> {
      for (const v of stmt.iterate(agentId) as Iterable<{ id: number; embedding: Buffer }>) yield { id: v.id, vector: vectorOf(v.embedding) };
    };
    return this.cache.load(agentId, rows, rows.length, () => vectors(this.agentVectors)) ?? null;
  }

  /** Exact top k from the cached columns: a bounded int8 scan, then exact scores where needed. */
  private fromColumns(c: AgentColumns, o: RetrievalOptions): ScoredMemory[] {
    this.stats.columnScans++;
    const vectorOfPosition = this.vectorByKey
      ? (p: number) => this.vectorByKey!.get(this.cache.keyOf(c, p)) as { embedding: Buffer }
      : (p: number) => this.vectorById.get(BigInt(c.ids[p])) as { embedding: Buffer };
    const ranking = rankColumns(this.cache, c, o, (p) => cosine(o.query, vectorOf(vectorOfPosition(p).embedding)), this.stats);
    if (!ranking) return [];
    const rows = new Map((this.byIds.all(JSON.stringify(ranking.hits.map((h) => c.ids[h.position]))) as MemoryRow[]).map((r) => [r.id, r]));
    return ranking.hits.map((h) =>
      scoreTerms(
        { memory: toMemory(rows.get(c.ids[h.position])!), recency: h.recency, importance: h.importance, relevance: h.relevance },
        ranking.ranges,
        o.weights,
      ),
    );
  }
}
