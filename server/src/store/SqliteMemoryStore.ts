// The memory stream in SQLite: rows in `memories`, embeddings in a vec0 table partitioned by agent.
//
// Retrieval is exact: it returns the same top k as scoring every memory of the agent. Each term is
// normalised over ALL of the agent's memories, so the ranges come from the whole set: importance and
// last access by SQL aggregates, relevance from a KNN (the most similar) and a KNN on the negated
// query (the least similar). Candidates are the N most similar, the M most recently accessed and the
// I most important. A memory outside them scores at most
//     w_rec·rec(M-th) + w_imp·imp(I-th) + w_rel·rel(N-th)
// (normalised), because each of its terms is at most that of the last candidate in each list. When the
// k-th best candidate beats that bound, no outsider can enter the top k; otherwise the lists double,
// and past the KNN limit the agent's memories are scanned in full.
import type Database from 'better-sqlite3';
import type { AgentId } from '../world/types';
import type { Memory, MemoryId, MemoryInput, MemoryKind, MemoryStore, RetrievalOptions, ScoredMemory } from './types';
import { compareScored, cosine, normaliseIn, rankAll, recencyOf, scoreTerms, type RawTerms, type TermRange } from './scoring';

const KNN_LIMIT = 4096;
/** Agents whose vectors fit in this many bytes are scored from columns kept in memory. */
const COLUMN_CACHE_BYTES = 64 * 1024 * 1024;

/** One agent's memories as columns, for brute-force scoring without touching SQLite. */
interface AgentColumns {
  ids: number[];
  index: Map<number, number>;
  vectors: Float32Array[];
  norms: number[];
  importance: number[];
  lastAccessed: number[];
  created: number[];
}
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

function pushColumn(c: AgentColumns, id: number, v: Float32Array, importance: number, lastAccessed: number, created: number): void {
  let nn = 0;
  for (let i = 0; i < v.length; i++) nn += v[i] * v[i];
  c.index.set(id, c.ids.length);
  c.ids.push(id);
  c.vectors.push(Float32Array.from(v));
  c.norms.push(Math.sqrt(nn));
  c.importance.push(importance);
  c.lastAccessed.push(lastAccessed);
  c.created.push(created);
}

const vectorOf = (buf: Buffer): Float32Array => new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));

/** Counts of the work retrieval did, for tests and benchmarks. */
export interface RetrievalStats {
  rounds: number;
  fullScans: number;
  columnScans: number;
}

export class SqliteMemoryStore implements MemoryStore {
  readonly stats: RetrievalStats = { rounds: 0, fullScans: 0, columnScans: 0 };
  private readonly columns = new Map<string, AgentColumns>();
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
  private readonly touch;
  private readonly searchStmt;

  constructor(
    private readonly db: Database.Database,
    readonly dimension: number,
    /** Agents whose vectors fit in this many bytes are scored from memory; 0 always uses the bounded SQL path. */
    private readonly columnCacheBytes = COLUMN_CACHE_BYTES,
  ) {
    this.insertMemory = db.prepare(
      `INSERT INTO memories (agent_id, kind, description, created_ms, last_accessed_ms, importance, subject, predicate, object, evidence)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertVector = db.prepare('INSERT INTO vec_memories (rowid, agent_id, embedding) VALUES (?, ?, ?)');
    this.byId = db.prepare('SELECT * FROM memories WHERE id = ?');
    this.recentAll = db.prepare('SELECT * FROM memories WHERE agent_id = ? ORDER BY id DESC LIMIT ?');
    this.countAgent = db.prepare('SELECT count(*) AS n FROM memories WHERE agent_id = ?').pluck();
    this.countAll = db.prepare('SELECT count(*) AS n FROM memories').pluck();
    this.ranges = db.prepare('SELECT count(*) AS n, min(last_accessed_ms) AS minAccess, max(last_accessed_ms) AS maxAccess, min(importance) AS minImp, max(importance) AS maxImp FROM memories WHERE agent_id = ?');
    this.knn = db.prepare('SELECT rowid AS id, distance FROM vec_memories WHERE embedding MATCH ? AND k = ? AND agent_id = ?');
    this.byAccess = db.prepare('SELECT * FROM memories WHERE agent_id = ? ORDER BY last_accessed_ms DESC, id DESC LIMIT ?');
    this.byImportance = db.prepare('SELECT * FROM memories WHERE agent_id = ? ORDER BY importance DESC, id DESC LIMIT ?');
    this.vectors = db.prepare('SELECT rowid AS id, embedding FROM vec_memories WHERE rowid IN (SELECT value FROM json_each(?))');
    this.agentRows = db.prepare('SELECT * FROM memories WHERE agent_id = ?');
    this.agentVectors = db.prepare('SELECT rowid AS id, embedding FROM vec_memories WHERE agent_id = ?');
    this.touch = db.prepare('UPDATE memories SET last_accessed_ms = ? WHERE id = ?');
    this.agentMeta = db.prepare('SELECT id, importance, last_accessed_ms AS lastAccessed, created_ms AS created FROM memories WHERE agent_id = ? ORDER BY id');
    this.searchStmt = db.prepare("SELECT * FROM memories WHERE agent_id = ? AND instr(lower(description), lower(?)) > 0 ORDER BY id DESC LIMIT ?");
  }

  add(memories: MemoryInput[]): MemoryId[] {
    return this.db.transaction((items: MemoryInput[]) =>
      items.map((m) => {
        if (m.embedding.length !== this.dimension) throw new Error(`memory embedding has ${m.embedding.length} dimensions; this world uses ${this.dimension}`);
        const t = m.triple ?? null;
        const info = this.insertMemory.run(m.agentId, m.kind, m.description, Math.round(m.createdGameMs), Math.round(m.createdGameMs), m.importance, t?.subject ?? null, t?.predicate ?? null, t?.object ?? null, JSON.stringify(m.evidenceIds ?? []));
        const id = BigInt(info.lastInsertRowid);
        // vec0 wants integer keys bound as BigInt: a JS number binds as FLOAT and is refused.
        this.insertVector.run(id, m.agentId, m.embedding);
        const cols = this.columns.get(m.agentId);
        if (cols) pushColumn(cols, Number(id), m.embedding, m.importance, Math.round(m.createdGameMs), Math.round(m.createdGameMs));
        return Number(id);
      }),
    )(memories);
  }

  get(id: MemoryId): Memory | undefined {
    const r = this.byId.get(id) as MemoryRow | undefined;
    return r ? toMemory(r) : undefined;
  }

  recent(agentId: AgentId, limit: number, kinds?: readonly MemoryKind[]): Memory[] {
    if (!kinds) return (this.recentAll.all(agentId, limit) as MemoryRow[]).map(toMemory);
    const placeholders = kinds.map(() => '?').join(',');
    return (this.db.prepare(`SELECT * FROM memories WHERE agent_id = ? AND kind IN (${placeholders}) ORDER BY id DESC LIMIT ?`).all(agentId, ...kinds, limit) as MemoryRow[]).map(toMemory);
  }

  count(agentId?: AgentId): number {
    return (agentId === undefined ? this.countAll.get() : this.countAgent.get(agentId)) as number;
  }

  search(agentId: AgentId, text: string, limit: number): Memory[] {
    return (this.searchStmt.all(agentId, text, limit) as MemoryRow[]).map(toMemory);
  }

  retrieve(o: RetrievalOptions): ScoredMemory[] {
    const cols = o.kinds ? null : this.columnsOf(o.agentId);
    const top = o.kinds ? this.fullScan(o) : cols ? this.scanColumns(cols, o) : this.bounded(o);
    if (o.touch !== false && top.length) {
      const now = Math.round(o.nowGameMs);
      this.db.transaction(() => top.forEach((s) => this.touch.run(now, s.memory.id)))();
      const c = this.columns.get(o.agentId);
      if (c) for (const s of top) c.lastAccessed[c.index.get(s.memory.id)!] = now;
    }
    return top;
  }

  /** The agent's columns, loaded once; null when they would not fit the cache. */
  private columnsOf(agentId: AgentId): AgentColumns | null {
    const cached = this.columns.get(agentId);
    if (cached) return cached;
    const n = this.count(agentId);
    if (n * this.dimension * 4 > this.columnCacheBytes) return null;
    const cols: AgentColumns = { ids: [], index: new Map(), vectors: [], norms: [], importance: [], lastAccessed: [], created: [] };
    const vectors = new Map((this.agentVectors.all(agentId) as Array<{ id: number; embedding: Buffer }>).map((v) => [v.id, vectorOf(v.embedding)]));
    for (const r of this.agentMeta.all(agentId) as Array<{ id: number; importance: number; lastAccessed: number; created: number }>) pushColumn(cols, r.id, vectors.get(r.id)!, r.importance, r.lastAccessed, r.created);
    this.columns.set(agentId, cols);
    return cols;
  }

  /** Brute force over every memory of the agent, from memory: exact by construction. */
  private scanColumns(c: AgentColumns, o: RetrievalOptions): ScoredMemory[] {
    this.stats.columnScans++;
    const n = c.ids.length;
    if (n === 0) return [];
    const q = o.query;
    let qq = 0;
    for (let i = 0; i < q.length; i++) qq += q[i] * q[i];
    const qn = Math.sqrt(qq);
    const rel = new Float64Array(n);
    const rec = new Float64Array(n);
    let relMin = Infinity, relMax = -Infinity, recMin = Infinity, recMax = -Infinity, impMin = Infinity, impMax = -Infinity;
    for (let j = 0; j < n; j++) {
      const v = c.vectors[j];
      let dot = 0;
      for (let i = 0; i < v.length; i++) dot += q[i] * v[i];
      const d = qn * c.norms[j];
      const r = d === 0 ? 0 : dot / d;
      rel[j] = r;
      const t = recencyOf(c.lastAccessed[j], o.nowGameMs, o.decayPerGameHour);
      rec[j] = t;
      if (r < relMin) relMin = r;
      if (r > relMax) relMax = r;
      if (t < recMin) recMin = t;
      if (t > recMax) recMax = t;
      if (c.importance[j] < impMin) impMin = c.importance[j];
      if (c.importance[j] > impMax) impMax = c.importance[j];
    }
    const ranges = { recency: { min: recMin, max: recMax }, importance: { min: impMin, max: impMax }, relevance: { min: relMin, max: relMax } };
    const scoreOf = (j: number) => scoreTerms({ memory: null as unknown as Memory, recency: rec[j], importance: c.importance[j], relevance: rel[j] }, ranges, o.weights).score;
    // The best k, in the order every store uses: score, then newer, then higher id.
    const before = (j: number, sj: number, i: number, si: number) => sj > si || (sj === si && (c.created[j] > c.created[i] || (c.created[j] === c.created[i] && c.ids[j] > c.ids[i])));
    const best: Array<{ j: number; s: number }> = [];
    for (let j = 0; j < n; j++) {
      const sj = scoreOf(j);
      if (best.length === o.k && !before(j, sj, best[best.length - 1].j, best[best.length - 1].s)) continue;
      let at = best.length;
      while (at > 0 && before(j, sj, best[at - 1].j, best[at - 1].s)) at--;
      best.splice(at, 0, { j, s: sj });
      if (best.length > o.k) best.pop();
    }
    return best.map(({ j }) => scoreTerms({ memory: toMemory(this.byId.get(c.ids[j]) as MemoryRow), recency: rec[j], importance: c.importance[j], relevance: rel[j] }, ranges, o.weights));
  }

  private bounded(o: RetrievalOptions): ScoredMemory[] {
    const r = this.ranges.get(o.agentId) as { n: number; minAccess: number; maxAccess: number; minImp: number; maxImp: number };
    if (r.n === 0) return [];
    const recencyRange: TermRange = { min: recencyOf(r.minAccess, o.nowGameMs, o.decayPerGameHour), max: recencyOf(r.maxAccess, o.nowGameMs, o.decayPerGameHour) };
    const importanceRange: TermRange = { min: r.minImp, max: r.maxImp };
    // The least similar memory is the nearest to the negated query. Relevance is always computed
    // here, in double precision, from the stored vectors, so that every path scores alike.
    const negated = o.query.map((v) => -v);
    const farthest = this.knn.get(negated, 1, o.agentId) as { id: number };
    const nearest = this.knn.get(o.query, 1, o.agentId) as { id: number };
    const ends = this.relevanceOf([farthest.id, nearest.id], o.query);
    const relevanceRange: TermRange = { min: ends.get(farthest.id)!, max: ends.get(nearest.id)! };
    const ranges = { recency: recencyRange, importance: importanceRange, relevance: relevanceRange };

    for (let size = Math.max(START_CANDIDATES, o.k * 4); ; size *= 2) {
      this.stats.rounds++;
      if (size >= r.n) return this.fullScan(o, ranges);
      if (size > KNN_LIMIT) return this.fullScan(o, ranges);
      const similar = this.knn.all(o.query, size, o.agentId) as Array<{ id: number }>;
      const recent = this.byAccess.all(o.agentId, size) as MemoryRow[];
      const important = this.byImportance.all(o.agentId, size) as MemoryRow[];
      const rows = new Map<number, MemoryRow>();
      for (const row of [...recent, ...important]) rows.set(row.id, row);
      for (const s of similar) if (!rows.has(s.id)) rows.set(s.id, this.byId.get(s.id) as MemoryRow);
      const relevanceById = this.relevanceOf([...rows.keys()], o.query);
      const scored = [...rows.values()]
        .map((row) => {
          const memory = toMemory(row);
          return scoreTerms({ memory, recency: recencyOf(memory.lastAccessedGameMs, o.nowGameMs, o.decayPerGameHour), importance: memory.importance, relevance: relevanceById.get(memory.id)! }, ranges, o.weights);
        })
        .sort(compareScored);
      const kth = scored[Math.min(o.k, scored.length) - 1];
      const bound =
        o.weights.recency * normaliseIn(recencyOf(recent[recent.length - 1].last_accessed_ms, o.nowGameMs, o.decayPerGameHour), recencyRange) +
        o.weights.importance * normaliseIn(important[important.length - 1].importance, importanceRange) +
        o.weights.relevance * normaliseIn(relevanceById.get(similar[similar.length - 1].id)!, relevanceRange);
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
        return { memory, recency: recencyOf(memory.lastAccessedGameMs, o.nowGameMs, o.decayPerGameHour), importance: memory.importance, relevance: cosine(o.query, vectors.get(memory.id)!) };
      });
    if (!ranges) return rankAll(raw, o.weights, o.k);
    return raw.map((t) => scoreTerms(t, ranges, o.weights)).sort(compareScored).slice(0, o.k);
  }

  private relevanceOf(ids: number[], query: Float32Array): Map<number, number> {
    const out = new Map<number, number>();
    for (const v of this.vectors.all(JSON.stringify(ids)) as Array<{ id: number; embedding: Buffer }>) out.set(v.id, cosine(query, vectorOf(v.embedding)));
    return out;
  }
}
