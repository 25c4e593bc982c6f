// Retrieval through SQL, for an agent that does not fit the column cache on its own (or a cap of 0): a scan of the
// agent's rows and vectors, scored as the reference scores them (`fullScan`). An older file's vec0 adds a KNN index,
// and there the bounded path answers instead: the ranges of importance and last access by SQL aggregates, of
// relevance from a KNN (the most similar) and a KNN on the negated query (the least similar). Candidates are the N
// most similar, the M most recently accessed and the I most important. A memory outside them scores at most
//     w_rec·rec(M-th) + w_imp·imp(I-th) + w_rel·rel(N-th)
// (normalised), because each of its terms is at most that of the last candidate in each list. When the k-th best
// candidate beats that bound, no outsider can enter the top k; otherwise the lists double, and past the KNN limit the
// agent's memories are scanned in full. vec0 ranks by float32 distance, so its error is allowed for. It assumes no
// zero vector (embeddings are unit length): vec0 gives one a NaN distance, which scrambles its KNN (sqlite-vec 0.1.9);
// the column cache has no such limit.
import type Database from 'better-sqlite3';
import type { AgentId } from '../world/types';
import type { RetrievalOptions, ScoredMemory } from './types';
import { compareScored, cosine, normaliseIn, rankAll, recencyOf, scoreTerms, type RawTerms, type TermRange } from './scoring';
import { vectorOf, vectorQueries, type VectorLayout } from './memoryVectors';
import { toMemory, type MemoryRow, type RetrievalStats } from './memoryRows';

const KNN_LIMIT = 4096;
const START_CANDIDATES = 64;

/** Statements the store prepares for itself too. */
export interface SharedStatements {
  /** A memory's row by id. */
  byId: Database.Statement;
  /** An agent's vectors, keyed by memory id. */
  agentVectors: Database.Statement;
  /** An agent's memories' ids (and columns), in id order. */
  agentMeta: Database.Statement;
}

export class SqlRetrieval {
  private readonly ranges;
  private readonly knn;
  private readonly byAccess;
  private readonly byImportance;
  private readonly vectors;
  private readonly agentRows;

  constructor(
    db: Database.Database,
    layout: VectorLayout,
    private readonly dimension: number,
    private readonly shared: SharedStatements,
    private readonly stats: RetrievalStats,
  ) {
    this.ranges = db.prepare(
      'SELECT count(*) AS n, min(last_accessed_ms) AS minAccess, max(last_accessed_ms) AS maxAccess, ' +
        'min(importance) AS minImp, max(importance) AS maxImp FROM memories WHERE agent_id = ?',
    );
    // vec0's KNN, for the bounded SQL path; a shared layout has no KNN index and scans the agent instead.
    this.knn = layout === 'shared' ? null : db.prepare('SELECT rowid AS id, distance FROM vec_memories WHERE embedding MATCH ? AND k = ? AND agent_id = ?');
    this.byAccess = db.prepare('SELECT * FROM memories WHERE agent_id = ? ORDER BY last_accessed_ms DESC, id DESC LIMIT ?');
    this.byImportance = db.prepare('SELECT * FROM memories WHERE agent_id = ? ORDER BY importance DESC, id DESC LIMIT ?');
    this.vectors = db.prepare(vectorQueries(layout).ofMemories);
    this.agentRows = db.prepare('SELECT * FROM memories WHERE agent_id = ?');
  }

  /** Whether the file has vec0's KNN index (the bounded path). */
  get hasKnn(): boolean {
    return this.knn !== null;
  }

  /** The bounded path over vec0's KNN index (an older file); see the head of this file. */
  bounded(o: RetrievalOptions): ScoredMemory[] {
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
      for (const s of similar) if (!rows.has(s.id)) rows.set(s.id, this.shared.byId.get(s.id) as MemoryRow);
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

  /** Every memory of the agent scored, as the reference scores them (within `ranges` when given). */
  fullScan(o: RetrievalOptions, ranges?: { recency: TermRange; importance: TermRange; relevance: TermRange }): ScoredMemory[] {
    this.stats.fullScans++;
    const vectors = new Map((this.shared.agentVectors.all(o.agentId) as Array<{ id: number; embedding: Buffer }>).map((v) => [v.id, vectorOf(v.embedding)]));
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
    return (this.shared.agentMeta.all(agentId) as Array<{ id: number }>).map((r) => r.id);
  }
}
