// Exact top-k retrieval from an agent's quantised columns (ColumnCache.ts: each memory's vector is a row
// of the pool shared by all agents, with its factors; the bounds below are per vector). An int8 scan bounds every
// memory's relevance; an int4 residual tightens the bound for the few memories that matter; exact
// relevance (cosine() in double, from the stored float32 vector) is computed only where even that
// cannot decide.
//
// The bound. For query q and memory vector v, with x an approximation of v (x = v̂ after stage 1,
// x = w after stage 2, see ColumnCache.ts) and q̂ = τ·q16 the int16 query (e_v = v − x, e_q = q − q̂):
//     q·v − q̂·x = q·e_v + e_q·x,   so   |q·v − q̂·x| ≤ ‖q‖·‖e_v‖ + ‖e_q‖·‖x‖        (Cauchy–Schwarz)
// and dividing by ‖q‖·‖v‖:
//     |cos(q,v) − approx| ≤ ‖e_v‖/‖v‖ + (‖e_q‖/‖q‖)·(‖x‖/‖v‖) = β
// where approx = q̂·x/(‖q‖‖v‖) = (τ/‖q‖)·(s/‖v‖)·dot8 [+ (τ/‖q‖)·(t/‖v‖)·dot4 at stage 2], and the dot
// products are exact integers (simdDots.ts). The ratios are stored per vector when it is quantised,
// and computed per query here.
// Rounding: every quantity is at most ~1 in size and is computed in double from float32 inputs with
// at most d+10 roundings, so the computed approx and β, and the reference cosine() itself, each sit
// within (d+10)·2^-53 (< 1e-12 for d ≤ 10^4) of their real values; RELEVANCE_SLACK = 1e-9 covers that
// a thousand times over. So lo = approx − β − slack ≤ cosine(q, v) ≤ hi = approx + β + slack, at both
// stages; the two intervals are intersected.
//
// Exactness, step by step, with every term min-max normalised over ALL of the agent's memories:
// 1. Recency and importance are exact for every memory (cheap columns), so their ranges are exact.
// 2. The relevance maximum is the largest exact relevance among memories with hi ≥ max(lo): any other
//    memory is below the one that has max(lo). Stage 1 gives that set, stage 2 shrinks it, and its
//    members are read in order of falling hi until the next hi cannot beat the best exact value.
//    The minimum, mirrored.
// 3. With exact ranges, each memory's score lies in [L, U]: its exact recency and importance terms
//    plus the relevance term at lo and at hi. Rounding is monotone and scoreTerms adds in the same
//    order, so the score computed from the exact relevance also lies in [L, U].
// 4. Let T be the k-th largest L. A memory with U < T is beaten by k memories, so it cannot be in the
//    top k. That is applied with stage-1 bounds over all memories, then with stage-2 bounds over the
//    survivors. The rest are scored exactly in order of falling U, until the k-th exact score is
//    strictly above the next U (an equal U could still win the tie-break on creation time or id).
import type { RetrievalOptions } from './types';
import type { AgentColumns, ColumnCache } from './ColumnCache';
import { APPROX_NORM, APPROX_NORM4, ERROR_NORM, ERROR_NORM4, FACTOR, FACTOR4, FLAGS, kindIndex, quantiseQuery, SLOT_FIELDS, ZERO_VECTOR } from './ColumnCache';
import { normaliseIn, recencyIntoOffsets, type TermRange } from './scoring';

// Bound once: a call through the import binding costs a getter call per use under tsx's CommonJS
// output, and the loops below call it hundreds of thousands of times.
const normalise = normaliseIn;

/** Absolute slack on every relevance bound, for floating-point rounding (see the header). */
export const RELEVANCE_SLACK = 1e-9;

export interface ColumnHit {
  position: number;
  recency: number;
  importance: number;
  relevance: number;
  score: number;
}

export interface ColumnRanking {
  /** The top k, best first, in compareScored order. */
  hits: ColumnHit[];
  ranges: { recency: TermRange; importance: TermRange; relevance: TermRange };
}

/** Counts of the work done, for tests and benchmarks. */
export interface ColumnRankingStats {
  /** Exact relevances computed (each reads one stored vector). */
  exactReads: number;
  /** Memories whose stage-1 score bound reached the stage-1 threshold. */
  candidates: number;
  /** Memories whose int4 residual was read. */
  refined: number;
}

/** Scratch columns, reused from one retrieval to the next (retrieval is synchronous). */
let scratch = {
  dots: new Int32Array(0),
  approx: new Float64Array(0),
  bound: new Float64Array(0),
  recency: new Float64Array(0),
  lower: new Float64Array(0),
  upper: new Float64Array(0),
};
function scratchFor(n: number): typeof scratch {
  if (scratch.dots.length < n) {
    const size = Math.max(n, Math.ceil(scratch.dots.length * 1.5));
    scratch = {
      dots: new Int32Array(size),
      approx: new Float64Array(size),
      bound: new Float64Array(size),
      recency: new Float64Array(size),
      lower: new Float64Array(size),
      upper: new Float64Array(size),
    };
  }
  return scratch;
}

/**
 * Relevance intervals of every memory of the agent, stage 1 and stage 2 (tests check that they hold
 * the exact cosine). Stage 2 is computed for every memory here; retrieval computes it for few.
 */
export function relevanceBounds(cache: ColumnCache, c: AgentColumns, query: Float32Array): Array<{ stage1: [number, number]; stage2: [number, number] }> {
  const q = quantiseQuery(query, cache.stride);
  const dots = new Int32Array(c.n);
  if (q.norm > 0) {
    cache.setQuery(q.query16);
    cache.scan(c, dots);
  }
  const out: Array<{ stage1: [number, number]; stage2: [number, number] }> = [];
  const meta = cache.pool.meta;
  for (let p = 0; p < c.n; p++) {
    if (q.norm === 0) {
      out.push({ stage1: [0, 0], stage2: [0, 0] });
      continue;
    }
    const s = c.slot[p] * SLOT_FIELDS;
    const a1 = dots[p] * q.factor * meta[s + FACTOR];
    const b1 = meta[s + ERROR_NORM] + q.errorNorm * meta[s + APPROX_NORM] + RELEVANCE_SLACK;
    const a2 = a1 + cache.residualDot(c, p) * q.factor * meta[s + FACTOR4];
    const b2 = meta[s + ERROR_NORM4] + q.errorNorm * meta[s + APPROX_NORM4] + RELEVANCE_SLACK;
    out.push({ stage1: [a1 - b1, a1 + b1], stage2: [a2 - b2, a2 + b2] });
  }
  return out;
}

/**
 * The exact top k of the agent's memories (those of the given kinds, when given), scored as rankAll
 * would score them. `exactRelevance(position)` computes cosine() from the stored vector; it is called once
 * per pool slot (memories under one slot share their vector).
 */
// long: the hot loop of every retrieval: its stages share typed-array views, bounds and counters held in locals across
// the scans of up to a million memories, which split into functions would pass back and forth on every call.
export function rankColumns(
  cache: ColumnCache,
  c: AgentColumns,
  o: RetrievalOptions,
  exactRelevance: (position: number) => number,
  stats: ColumnRankingStats,
): ColumnRanking | undefined {
  const n = c.n;
  const k = Math.max(0, Math.floor(o.k));
  let mask = 0;
  for (const kind of o.kinds ?? []) mask |= 1 << kindIndex(kind);
  const kinds = c.kind;

  // Stage 1 for every memory, with exact recency and importance.
  const { dots, approx, bound, recency, lower, upper } = scratchFor(n);
  const q = quantiseQuery(o.query, cache.stride);
  const zeroQuery = q.norm === 0; // cosine() is then exactly 0 for every memory
  if (!zeroQuery) {
    cache.setQuery(q.query16);
    cache.scan(c, dots);
  }
  recencyIntoOffsets(c.base, c.accessLow, c.accessHigh, n, o.nowGameMs, o.decayPerGameHour, recency);
  // Each memory's vector factors are its pool slot's (read after the scan: nothing is added meanwhile).
  const meta = cache.pool.meta;
  const { importance, slot } = c;
  const qFactor = zeroQuery ? 0 : q.factor;
  const qError = q.errorNorm;
  const slack = zeroQuery ? 0 : RELEVANCE_SLACK;
  let count = 0;
  let recMin = Infinity,
    recMax = -Infinity,
    impMin = Infinity,
    impMax = -Infinity;
  let maxLo = -Infinity,
    minHi = Infinity;
  // Memories that may hold the largest (smallest) relevance: hi ≥ max lo (lo ≤ min hi). Gathered
  // against the running max lo (min hi), which only tightens, then filtered: one pass, not two.
  let nearMax: number[] = [];
  let nearMin: number[] = [];
  for (let p = 0; p < n; p++) {
    if (mask !== 0 && (mask & (1 << kinds[p])) === 0) continue;
    count++;
    const r = recency[p];
    if (r < recMin) recMin = r;
    if (r > recMax) recMax = r;
    const imp = importance[p];
    if (imp < impMin) impMin = imp;
    if (imp > impMax) impMax = imp;
    const s = slot[p] * SLOT_FIELDS;
    const a = dots[p] * qFactor * meta[s + FACTOR];
    const b = zeroQuery ? 0 : meta[s + ERROR_NORM] + qError * meta[s + APPROX_NORM] + slack;
    approx[p] = a;
    bound[p] = b;
    if (a - b > maxLo) maxLo = a - b;
    if (a + b < minHi) minHi = a + b;
    if (a + b >= maxLo) nearMax.push(p);
    if (a - b <= minHi) nearMin.push(p);
  }
  if (count === 0) return undefined;
  nearMax = nearMax.filter((p) => approx[p] + bound[p] >= maxLo);
  nearMin = nearMin.filter((p) => approx[p] - bound[p] <= minHi);

  // Stage 2 and exact relevance, on demand, each computed once.
  const tight = new Map<number, { lo: number; hi: number }>();
  const tightOf = (p: number) => {
    let t = tight.get(p);
    if (!t) {
      if (zeroQuery) t = { lo: 0, hi: 0 };
      else {
        stats.refined++;
        const s = slot[p] * SLOT_FIELDS;
        const a = approx[p] + cache.residualDot(c, p) * q.factor * meta[s + FACTOR4];
        const b = meta[s + ERROR_NORM4] + q.errorNorm * meta[s + APPROX_NORM4] + RELEVANCE_SLACK;
        t = { lo: Math.max(approx[p] - bound[p], a - b), hi: Math.min(approx[p] + bound[p], a + b) };
      }
      tight.set(p, t);
    }
    return t;
  };
  // Exact relevance by pool slot: memories under one slot have the same vector, so the same cosine(), read once.
  const exact = new Map<number, number>();
  const exactOf = (p: number): number => {
    const s = slot[p];
    let v = exact.get(s);
    if (v === undefined) {
      if (zeroQuery || meta[s * SLOT_FIELDS + FLAGS] & ZERO_VECTOR)
        v = 0; // cosine() of a zero vector is 0
      else {
        v = exactRelevance(p);
        stats.exactReads++;
      }
      exact.set(s, v);
    }
    return v;
  };

  // 2. The exact relevance range.
  const relMax = extremeOf(nearMax, tightOf, exactOf);
  const relMin = -extremeOf(
    nearMin,
    (p) => ({ lo: -tightOf(p).hi, hi: -tightOf(p).lo }),
    (p) => -exactOf(p),
  );
  const ranges = { recency: { min: recMin, max: recMax }, importance: { min: impMin, max: impMax }, relevance: { min: relMin, max: relMax } };
  if (k === 0) return { hits: [], ranges };

  // 3. Score bounds. base is the exact recency and importance part, added first as in scoreTerms.
  const w = o.weights;
  const { recency: recRange, importance: impRange, relevance: relRange } = ranges;
  const baseOf = (p: number) => w.recency * normalise(recency[p], recRange) + w.importance * normalise(importance[p], impRange);
  const setScoreRange = (p: number, lo: number, hi: number) => {
    const base = baseOf(p);
    const a = w.relevance * normalise(lo, relRange);
    const b = w.relevance * normalise(hi, relRange);
    lower[p] = base + Math.min(a, b);
    upper[p] = base + Math.max(a, b);
  };
  // 4. Stage 1 over all memories (survivors gathered against the running k-th lower bound, which
  // only rises, then filtered), then stage 2 over the survivors.
  const top = new KthLargest(k);
  let survivors: number[] = [];
  for (let p = 0; p < n; p++) {
    if (mask !== 0 && (mask & (1 << kinds[p])) === 0) continue;
    setScoreRange(p, approx[p] - bound[p], approx[p] + bound[p]);
    top.offer(lower[p]);
    if (upper[p] >= top.kth()) survivors.push(p);
  }
  const threshold1 = count <= k ? -Infinity : top.kth();
  survivors = survivors.filter((p) => upper[p] >= threshold1);
  stats.candidates += survivors.length;
  const top2 = new KthLargest(k);
  for (const p of survivors) {
    const t = tightOf(p);
    setScoreRange(p, t.lo, t.hi);
    top2.offer(lower[p]);
  }
  const threshold2 = survivors.length <= k ? -Infinity : top2.kth();
  const candidates = survivors.filter((p) => upper[p] >= threshold2).sort((a, b) => upper[b] - upper[a]);

  // A score whose bounds meet needs no exact relevance (rounding is monotone); the relevance of the
  // k kept is read at the end, for the caller.
  const hits: ColumnHit[] = [];
  const before = (x: ColumnHit, y: ColumnHit) => (x.score !== y.score ? x.score > y.score : c.newer(x.position, y.position));
  for (const p of candidates) {
    if (hits.length === k && hits[k - 1].score > upper[p]) break;
    const known = lower[p] === upper[p];
    const relevance = known ? NaN : exactOf(p);
    const score = known ? lower[p] : baseOf(p) + w.relevance * normalise(relevance, relRange);
    const hit: ColumnHit = { position: p, recency: recency[p], importance: importance[p], relevance, score };
    if (hits.length === k && !before(hit, hits[k - 1])) continue;
    let at = hits.length;
    while (at > 0 && before(hit, hits[at - 1])) at--;
    hits.splice(at, 0, hit);
    if (hits.length > k) hits.pop();
  }
  for (const h of hits) if (Number.isNaN(h.relevance)) h.relevance = exactOf(h.position);
  return { hits, ranges };
}

/**
 * The largest exact value among the positions given (a superset of where it can be, by stage 1):
 * narrowed with stage-2 intervals, then exact values in order of falling hi until none can beat it.
 */
function extremeOf(positions: number[], tightOf: (p: number) => { lo: number; hi: number }, exactOf: (p: number) => number): number {
  let maxLo = -Infinity;
  for (const p of positions) maxLo = Math.max(maxLo, tightOf(p).lo);
  const left = positions.filter((p) => tightOf(p).hi >= maxLo).sort((a, b) => tightOf(b).hi - tightOf(a).hi);
  let best = -Infinity;
  for (const p of left) {
    if (tightOf(p).hi <= best) break;
    best = Math.max(best, exactOf(p));
  }
  return best;
}

/** The k-th largest of the values offered, in O(k) space. */
class KthLargest {
  private readonly values: Float64Array; // ascending; values[0] is the k-th largest so far
  constructor(k: number) {
    this.values = new Float64Array(Math.max(1, k)).fill(-Infinity);
  }
  offer(v: number): void {
    const a = this.values;
    if (!(v > a[0])) return;
    let i = 0;
    while (i + 1 < a.length && a[i + 1] < v) {
      a[i] = a[i + 1];
      i++;
    }
    a[i] = v;
  }
  kth(): number {
    return this.values[0];
  }
}
