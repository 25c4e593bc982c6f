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
// - Through SQL, for an agent that does not fit the cap on its own (or a cap of 0): a scan of the agent's rows
//   and vectors, scored as the reference scores them (`fullScan`). An older file's vec0 adds a KNN index, and
//   there the bounded path below answers instead: the ranges of importance and last
//   access by SQL aggregates, of relevance from a KNN (the most similar) and a KNN on the negated query
//   (the least similar). Candidates are the N most similar, the M most recently accessed and the I most
//   important. A memory outside them scores at most
//       w_rec·rec(M-th) + w_imp·imp(I-th) + w_rel·rel(N-th)
//   (normalised), because each of its terms is at most that of the last candidate in each list. When
//   the k-th best candidate beats that bound, no outsider can enter the top k; otherwise the lists
//   double, and past the KNN limit the agent's memories are scanned in full. vec0 ranks by float32
//   distance, so its error is allowed for. It assumes no zero vector (embeddings are unit length):
//   vec0 gives one a NaN distance, which scrambles its KNN (sqlite-vec 0.1.9); the cache has no such
//   limit.
import type Database from 'better-sqlite3';
import type { AgentId } from '../world/types';
import type { Memory, MemoryId, MemoryInput, MemoryKind, MemoryStore, RetrievalOptions, ScoredMemory } from './types';
import { compareScored, cosine, normaliseIn, rankAll, recencyOf, scoreTerms, type RawTerms, type TermRange } from './scoring';
import { ColumnCache, type AgentColumns, type CacheStats, type ColumnRow } from './ColumnCache';
import { rankColumns } from './quantisedRetrieval';
import { vectorLayoutOf, vectorOf, vectorQueries, VectorRows, type VectorLayout } from './memoryVectors';
import { memoryLayoutOf, MemoryRowWriter } from './memoryTexts';

const KNN_LIMIT = 4096;
/**
 * Default cap of the column cache, all agents together. A memory whose vector no other cached memory has
 * takes ~2.4 kB at 1,536 dimensions (int8 vector, int4 residual, factors, its agent's columns), so this
 * holds ~225k such; at 100 dimensions (the offline embedder, padded to 128) ~285 B. Memories that share a
 * vector (the pool keeps one row per `memory_vectors` row for all agents) take their agent's columns only,
 * 14 B (29 before round 7): the town of 1,000 after three days holds 1.5M memories (80k distinct vectors among them)
 * in 34 B each (round 7's soak, with 18-byte columns).
 */
export const COLUMN_CACHE_BYTES = 512 * 1024 * 1024;
const START_CANDIDATES = 64;

interface MemoryRow {
  id: number;
  agent_id: string;
  kind: MemoryKind;
  description: string;
  created_ms: number;
  last_accessed_ms: number;
  importance: number;
  subject: string | null;
  predicate: string | null;
  object: string | null;
  evidence: string;
}

/**
 * The most of an agent's newest memories held for `recent` (enough for the 150 of three kinds the news
 * asks for on every talk turn; a larger ask reads the file), and in all: 1,000 agents' worth (~50 MB). A
 * town of a thousand talks among all of them: at 200 agents' worth (40,000 rows) its agents were read
 * back from the file on most turns, 11 % of the server's busy CPU (a profile of the soak at 13:00).
 */
const RECENT_ROWS = 200;
const RECENT_ROWS_TOTAL = 200_000;

function toMemory(r: MemoryRow): Memory {
  return {
    id: r.id,
    agentId: r.agent_id as AgentId,
    kind: r.kind,
    description: r.description,
    createdGameMs: r.created_ms,
    lastAccessedGameMs: r.last_accessed_ms,
    importance: r.importance,
    triple: r.subject !== null && r.predicate !== null && r.object !== null ? { subject: r.subject, predicate: r.predicate, object: r.object } : null,
    evidenceIds: JSON.parse(r.evidence) as number[],
  };
}

/** Counts of the work retrieval did, for tests and benchmarks. */
export interface RetrievalStats {
  /** Candidate rounds of the SQL path. */
  rounds: number;
  fullScans: number;
  /** Retrievals answered from the column cache. */
  columnScans: number;
  /** Of those: exact relevances read from stored vectors, memories whose stage-1 bound reached the
   * top k, and memories whose int4 residual was read (quantisedRetrieval.ts). */
  exactReads: number;
  candidates: number;
  refined: number;
}

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
  private readonly ranges;
  private readonly knn;
  private readonly byAccess;
  private readonly byImportance;
  private readonly vectors;
  private readonly agentRows;
  private readonly agentVectors;
  private readonly vectorById;
  private readonly vectorByKey;
  private readonly byIds;
  private readonly touch;
  private readonly searchStmt;
  private readonly recentByKinds = new Map<string, Database.Statement>();
  /**
   * Each agent's newest memories, newest first (`recent` is asked on every conversation turn, for the news
   * worth telling, and reading 150 rows each time was 7% of an offline day): up to RECENT_ROWS an agent,
   * RECENT_ROWS_TOTAL in all, least recently asked dropped first. Kept true by every write made here and
   * dropped where the columns are (a rename, a rollback).
   */
  private readonly recentRows = new Map<AgentId, { rows: Memory[]; complete: boolean }>();
  private recentRowsHeld = 0;

  constructor(
    private readonly db: Database.Database,
    readonly dimension: number,
    /** The column cache's cap in bytes, all agents together; 0 always uses the SQL path. */
    columnCacheBytes = COLUMN_CACHE_BYTES,
    /** The most rows `recent` holds, all agents together. */
    private readonly recentRowsTotal = RECENT_ROWS_TOTAL,
  ) {
    this.cache = new ColumnCache(dimension, columnCacheBytes);
    this.layout = vectorLayoutOf(db);
    const shared = this.layout === 'shared';
    const vectorSql = vectorQueries(this.layout);
    this.vectorRows = shared && !db.readonly ? new VectorRows(db) : null;
    const rows = memoryLayoutOf(db) === 'rows';
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
    this.ranges = db.prepare(
      'SELECT count(*) AS n, min(last_accessed_ms) AS minAccess, max(last_accessed_ms) AS maxAccess, ' +
        'min(importance) AS minImp, max(importance) AS maxImp FROM memories WHERE agent_id = ?',
    );
    // vec0's KNN, for the bounded SQL path; a shared layout has no KNN index and scans the agent instead.
    this.knn = shared ? null : db.prepare('SELECT rowid AS id, distance FROM vec_memories WHERE embedding MATCH ? AND k = ? AND agent_id = ?');
    this.byAccess = db.prepare('SELECT * FROM memories WHERE agent_id = ? ORDER BY last_accessed_ms DESC, id DESC LIMIT ?');
    this.byImportance = db.prepare('SELECT * FROM memories WHERE agent_id = ? ORDER BY importance DESC, id DESC LIMIT ?');
    this.vectors = db.prepare(vectorSql.ofMemories);
    this.agentRows = db.prepare('SELECT * FROM memories WHERE agent_id = ?');
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
        this.forgetRecent(m.agentId);
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
          this.heldAdd(m, Number(id), created, t);
          return Number(id);
        }),
      )(memories);
    } catch (error) {
      // The rows were rolled back; the columns of these agents may hold some of them.
      for (const m of memories) {
        this.cache.evict(m.agentId);
        this.forgetRecent(m.agentId);
      }
      throw error;
    }
  }

  /** Drops every cached column and row (a batch rolled back); retrievals reload them. */
  forgetAllColumns(): void {
    for (const agentId of this.cache.cachedAgents()) this.cache.evict(agentId);
    this.recentRows.clear();
    this.recentRowsHeld = 0;
  }

  /**
   * Drops an agent's cached columns (its rows changed under the cache: a rename); the next retrieval
   * reloads them. Every agent's newest rows go too: a rename rewrites the names in others' memories.
   */
  forgetColumns(agentId: string): void {
    this.cache.evict(agentId);
    this.recentRows.clear();
    this.recentRowsHeld = 0;
  }

  /** A memory just written, at the front of its agent's newest rows when they are held. */
  private heldAdd(m: MemoryInput, id: number, created: number, triple: MemoryInput['triple']): void {
    const held = this.recentRows.get(m.agentId);
    if (!held) return;
    held.rows.unshift({
      id,
      agentId: m.agentId,
      kind: m.kind,
      description: m.description,
      createdGameMs: created,
      lastAccessedGameMs: created,
      importance: m.importance,
      triple: triple ? { subject: triple.subject, predicate: triple.predicate, object: triple.object } : null,
      evidenceIds: [...(m.evidenceIds ?? [])],
    });
    if (held.rows.length > RECENT_ROWS) {
      held.rows.pop();
      held.complete = false;
    } else {
      // A write grows the rows held as a load does: without this, agents held while their days were young grew to
      // RECENT_ROWS each, past the total (a town of a thousand held ~195,000 rows against 40,000 by the evening).
      this.recentRowsHeld++;
      this.keepRecentTotal(m.agentId);
    }
  }

  /** Drops the least recently asked agents' rows (never `keep`'s) until the rows held are within the total. */
  private keepRecentTotal(keep: AgentId): void {
    for (const [other, h] of this.recentRows) {
      if (this.recentRowsHeld <= this.recentRowsTotal) break;
      if (other !== keep) this.forgetRecent(other, h);
    }
  }

  get(id: MemoryId): Memory | undefined {
    const r = this.byId.get(id) as MemoryRow | undefined;
    return r ? toMemory(r) : undefined;
  }

  recent(agentId: AgentId, limit: number, kinds?: readonly MemoryKind[]): Memory[] {
    const held = limit <= RECENT_ROWS ? this.recentHeld(agentId) : undefined;
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

  /** The agent's newest rows, read on first use; undefined inside a caller's transaction (they may yet roll back). */
  private recentHeld(agentId: AgentId): { rows: Memory[]; complete: boolean } | undefined {
    if (this.mayRollBack) return undefined;
    let held = this.recentRows.get(agentId);
    if (held) {
      this.recentRows.delete(agentId);
      this.recentRows.set(agentId, held);
      return held;
    }
    const rows = (this.recentAll.all(agentId, RECENT_ROWS) as MemoryRow[]).map(toMemory);
    held = { rows, complete: rows.length < RECENT_ROWS };
    this.recentRows.set(agentId, held);
    this.recentRowsHeld += rows.length;
    this.keepRecentTotal(agentId);
    return held;
  }

  private forgetRecent(agentId: AgentId, held = this.recentRows.get(agentId)): void {
    if (!held) return;
    this.recentRows.delete(agentId);
    this.recentRowsHeld -= held.rows.length;
  }

  count(agentId?: AgentId): number {
    return (agentId === undefined ? this.countAll.get() : this.countAgent.get(agentId)) as number;
  }

  search(agentId: AgentId, text: string, limit: number): Memory[] {
    return (this.searchStmt.all(agentId, text, limit) as MemoryRow[]).map(toMemory);
  }

  /** What the column cache holds and has done, and the rows held for `recent`. */
  columnCache(): { bytes: number; capBytes: number; agents: string[]; vectors: number; recentRows: number; stats: CacheStats } {
    const c = this.cache;
    return { bytes: c.bytes, capBytes: c.capBytes, agents: c.cachedAgents(), vectors: c.vectors, recentRows: this.recentRowsHeld, stats: c.stats };
  }

  retrieve(o: RetrievalOptions): ScoredMemory[] {
    // A query with NaN or infinite entries scores NaN everywhere: brute force, as the reference does.
    const cols = o.query.every(Number.isFinite) ? this.columnsOf(o.agentId) : null;
    const top = cols ? this.fromColumns(cols, o) : o.kinds || !this.knn ? this.fullScan(o) : this.bounded(o);
    if (o.touch !== false && top.length) {
      const now = Math.round(o.nowGameMs);
      this.db.transaction(() => top.forEach((s) => this.touch.run(now, s.memory.id)))();
      const c = this.cache.peek(o.agentId);
      if (c)
        for (const s of top) {
          const p = c.positionOf(s.memory.id);
          if (p >= 0 && !this.cache.touch(o.agentId, c, p, now)) break; // evicted: reloaded from the rows on its next retrieval
        }
      const held = this.recentRows.get(o.agentId);
      if (held) {
        const touched = new Set(top.map((s) => s.memory.id));
        for (const m of held.rows) if (touched.has(m.id)) m.lastAccessedGameMs = now;
      }
    }
    // Columns loaded or touched inside a caller's transaction may show rows that yet roll back.
    if (this.mayRollBack) {
      this.cache.evict(o.agentId);
      this.forgetRecent(o.agentId);
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

  private bounded(o: RetrievalOptions): ScoredMemory[] {
    const r = this.ranges.get(o.agentId) as { n: number; minAccess: number; maxAccess: number; minImp: number; maxImp: number };
    if (r.n === 0) return [];
    const recencyRange: TermRange = {
      min: recencyOf(r.minAccess, o.nowGameMs, o.decayPerGameHour),
      max: recencyOf(r.maxAccess, o.nowGameMs, o.decayPerGameHour),
    };
    const importanceRange: TermRange = { min: r.minImp, max: r.maxImp };
    // The least similar memory is the nearest to the negated query. Relevance is always computed
    // here, in double precision, from the stored vectors, so that every path scores alike; vec0 ranks
    // by float32 distances, so the ends are searched within its error (see largestRelevance).
    const relevanceRange: TermRange = {
      min: -this.largestRelevance(
        o.query.map((v) => -v),
        o.agentId,
        r.n,
      ),
      max: this.largestRelevance(o.query, o.agentId, r.n),
    };
    const ranges = { recency: recencyRange, importance: importanceRange, relevance: relevanceRange };

    for (let size = Math.max(START_CANDIDATES, o.k * 4); ; size *= 2) {
      this.stats.rounds++;
      if (size >= r.n) return this.fullScan(o, ranges);
      if (size > KNN_LIMIT) return this.fullScan(o, ranges);
      const similar = this.knn!.all(o.query, size, o.agentId) as Array<{ id: number }>;
      const recent = this.byAccess.all(o.agentId, size) as MemoryRow[];
      const important = this.byImportance.all(o.agentId, size) as MemoryRow[];
      const rows = new Map<number, MemoryRow>();
      for (const row of [...recent, ...important]) rows.set(row.id, row);
      for (const s of similar) if (!rows.has(s.id)) rows.set(s.id, this.byId.get(s.id) as MemoryRow);
      const relevanceById = this.relevanceOf([...rows.keys()], o.query);
      const scored = [...rows.values()]
        .map((row) => {
          const memory = toMemory(row);
          return scoreTerms(
            {
              memory,
              recency: recencyOf(memory.lastAccessedGameMs, o.nowGameMs, o.decayPerGameHour),
              importance: memory.importance,
              relevance: relevanceById.get(memory.id)!,
            },
            ranges,
            o.weights,
          );
        })
        .sort(compareScored);
      const kth = scored[Math.min(o.k, scored.length) - 1];
      const bound =
        o.weights.recency * normaliseIn(recencyOf(recent[recent.length - 1].last_accessed_ms, o.nowGameMs, o.decayPerGameHour), recencyRange) +
        o.weights.importance * normaliseIn(important[important.length - 1].importance, importanceRange) +
        o.weights.relevance * normaliseIn(relevanceById.get(similar[similar.length - 1].id)! + 2 * this.knnError, relevanceRange);
      // Strictly greater: an outsider tying the k-th could still win the tie-break on age or id.
      if (scored.length >= o.k && kth.score > bound + 1e-9) return scored.slice(0, o.k);
    }
  }

  private fullScan(o: RetrievalOptions, ranges?: { recency: TermRange; importance: TermRange; relevance: TermRange }): ScoredMemory[] {
    this.stats.fullScans++;
    const vectors = new Map((this.agentVectors.all(o.agentId) as Array<{ id: number; embedding: Buffer }>).map((v) => [v.id, vectorOf(v.embedding)]));
    const raw: RawTerms[] = (this.agentRows.all(o.agentId) as MemoryRow[])
      .filter((row) => !o.kinds || o.kinds.includes(row.kind))
      .map((row) => {
        const memory = toMemory(row);
        return {
          memory,
          recency: recencyOf(memory.lastAccessedGameMs, o.nowGameMs, o.decayPerGameHour),
          importance: memory.importance,
          relevance: cosine(o.query, vectors.get(memory.id)!),
        };
      });
    if (!ranges) return rankAll(raw, o.weights, o.k);
    return raw
      .map((t) => scoreTerms(t, ranges, o.weights))
      .sort(compareScored)
      .slice(0, o.k);
  }

  private relevanceOf(ids: number[], query: Float32Array): Map<number, number> {
    const out = new Map<number, number>();
    for (const v of this.vectors.all(JSON.stringify(ids)) as Array<{ id: number; embedding: Buffer }>) out.set(v.id, cosine(query, vectorOf(v.embedding)));
    return out;
  }

  /**
   * A bound on |vec0's float32 cosine distance − (1 − cosine())|: float32 sums of d products err by
   * at most d·2^-24 of ‖a‖‖b‖ each (dot and both norms), a few roundings more for the division.
   */
  private get knnError(): number {
    return (2 * this.dimension + 16) * 2 ** -24;
  }

  /**
   * The largest cosine() between the query and the agent's memories. vec0 ranks by float32 distance,
   * which may misorder near ties, so every memory within 2·knnError of the nearest is scored exactly:
   * the true best has distance at most (its 1 − cos) + err ≤ (nearest's 1 − cos) + err ≤ nearest + 2·err.
   * A zero vector has no distance (NULL, ranked first) and relevance 0; it takes part like any other.
   */
  private largestRelevance(query: Float32Array, agentId: AgentId, n: number): number {
    for (let k = 8; ; k *= 2) {
      const rows = this.knn!.all(query, Math.min(k, n), agentId) as Array<{ id: number; distance: number | null }>;
      const distances = rows.map((r) => r.distance).filter((d): d is number => d !== null);
      const enough = rows.length >= n || (distances.length > 0 && distances[distances.length - 1] > distances[0] + 2 * this.knnError);
      if (enough || k >= KNN_LIMIT) {
        if (!enough) return Math.max(...this.relevanceOf(this.agentIds(agentId), query).values());
        return Math.max(
          ...this.relevanceOf(
            rows.map((r) => r.id),
            query,
          ).values(),
        );
      }
    }
  }

  private agentIds(agentId: AgentId): number[] {
    return (this.agentMeta.all(agentId) as Array<{ id: number }>).map((r) => r.id);
  }
}
