// Retrieval scoring: the paper's score = w_rec·recency + w_imp·importance + w_rel·relevance, each term
// min-max normalised over the scored set (0.5 for all when they tie, as the reference code does; never
// NaN), with recency = decay^(game hours since last access), so the most recently accessed memory scores
// highest. The weights are the caller's: the paper weighs the three terms equally (all 1); the defaults
// (agent/context.ts: 0.5, 2, 3) are the reference code's. Both memory stores use these functions, so
// they cannot disagree.
import type { Memory, RetrievalWeights, ScoredMemory } from './types';

import { GAME_MS_PER_HOUR } from '../protocol/time';

// decay^hours, computed as exp(hours·ln decay): the same function, within a few ulps of `**`, and
// four times cheaper, which matters when 100k memories are scored per retrieval. 0 hours is exactly 1.
export function recencyOf(lastAccessedGameMs: number, nowGameMs: number, decayPerGameHour: number): number {
  const hours = Math.max(0, nowGameMs - lastAccessedGameMs) / GAME_MS_PER_HOUR;
  return hours === 0 ? 1 : Math.exp(Math.log(decayPerGameHour) * hours);
}

/** 2^32: a time column's high part counts these (ColumnCache.ts). */
export const TIME_HIGH_UNIT = 4294967296;

/**
 * recencyOf over a column, out[p] for p < n, of integer times kept as offsets (ColumnCache.ts): time p is
 * base + high[p]·2^32 + low[p] (high all 0 when null), a sum of integers below 2^53, so exactly the time
 * itself; then the same operations as recencyOf, so the same values bit for bit.
 */
export function recencyIntoOffsets(
  base: number,
  low: Uint32Array,
  high: Int8Array | null,
  n: number,
  nowGameMs: number,
  decayPerGameHour: number,
  out: Float64Array,
): void {
  const msPerHour = GAME_MS_PER_HOUR;
  const logDecay = Math.log(decayPerGameHour);
  if (high === null)
    for (let p = 0; p < n; p++) {
      const hours = Math.max(0, nowGameMs - (base + low[p])) / msPerHour;
      out[p] = hours === 0 ? 1 : Math.exp(logDecay * hours);
    }
  else
    for (let p = 0; p < n; p++) {
      const hours = Math.max(0, nowGameMs - (base + high[p] * TIME_HIGH_UNIT + low[p])) / msPerHour;
      out[p] = hours === 0 ? 1 : Math.exp(logDecay * hours);
    }
}

export function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  const d = Math.sqrt(na) * Math.sqrt(nb);
  return d === 0 ? 0 : dot / d;
}

/** Range of a term over the scored set. */
export interface TermRange {
  min: number;
  max: number;
}

export function rangeOf(values: Iterable<number>): TermRange {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max };
}

/** Min-max normalisation into [0,1]; a flat range gives 0.5, the middle of the range, as the reference code's `normalize_dict_floats` does. */
export function normaliseIn(value: number, range: TermRange): number {
  const span = range.max - range.min;
  if (!(span > 1e-12)) return 0.5;
  return Math.min(1, Math.max(0, (value - range.min) / span));
}

export function normalise(values: number[]): number[] {
  const r = rangeOf(values);
  return values.map((v) => normaliseIn(v, r));
}

export interface RawTerms {
  memory: Memory;
  recency: number;
  importance: number;
  relevance: number;
}

/** Scores raw terms against the given ranges (those of the whole set for exact retrieval). */
export function scoreTerms(
  raw: RawTerms,
  ranges: { recency: TermRange; importance: TermRange; relevance: TermRange },
  weights: RetrievalWeights,
): ScoredMemory {
  const recency = normaliseIn(raw.recency, ranges.recency);
  const importance = normaliseIn(raw.importance, ranges.importance);
  const relevance = normaliseIn(raw.relevance, ranges.relevance);
  return {
    memory: raw.memory,
    recency,
    importance,
    relevance,
    score: weights.recency * recency + weights.importance * importance + weights.relevance * relevance,
  };
}

/** Higher score first; ties by newer creation, then higher id: the same order in every store. */
export function compareScored(a: ScoredMemory, b: ScoredMemory): number {
  return b.score - a.score || b.memory.createdGameMs - a.memory.createdGameMs || b.memory.id - a.memory.id;
}

/** Brute force: scores every memory given, normalised over all of them. The reference for exactness. */
export function rankAll(raw: RawTerms[], weights: RetrievalWeights, k: number): ScoredMemory[] {
  const ranges = {
    recency: rangeOf(raw.map((r) => r.recency)),
    importance: rangeOf(raw.map((r) => r.importance)),
    relevance: rangeOf(raw.map((r) => r.relevance)),
  };
  return raw
    .map((r) => scoreTerms(r, ranges, weights))
    .sort(compareScored)
    .slice(0, k);
}
