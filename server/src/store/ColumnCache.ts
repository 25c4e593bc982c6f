// Every cached agent's memories as columns, under ONE byte cap for the whole store: the vectors
// quantised to int8 plus an int4 residual (1.5 bytes a dimension instead of 4) in a single
// WebAssembly memory, and the scalar columns retrieval needs (id, access and creation times,
// importance, kind, quantisation factors) in typed arrays. Agents are evicted least recently used
// first; an evicted agent is reloaded from SQLite the next time it is retrieved from.
//
// The vectors live in fixed-size blocks of BLOCK_ROWS rows, so agents grow and leave without
// fragmenting the memory (WebAssembly memory never shrinks; freed blocks are reused). A store never
// holds more than its cap, counted as blocks plus the capacity of every column array.
//
// Quantisation of a vector v (float32, norm ‖v‖), in double:
// - stage 1: s = max|v_i| / 127, a_i = round(v_i / s) ∈ [−127, 127], v̂ = s·a (int8, scanned for every memory);
// - stage 2: e = v − v̂, t = max|e_i| / 7, b_i = round(e_i / t) ∈ [−7, 7], w = v̂ + t·b (int4, read only for
//   the few memories stage 1 cannot place).
// Stored per vector: factor = s/‖v‖, errorNorm = ‖v − v̂‖/‖v‖, approxNorm = ‖v̂‖/‖v‖, and factor4 = t/‖v‖,
// errorNorm4 = ‖v − w‖/‖v‖, approxNorm4 = ‖w‖/‖v‖. quantisedRetrieval.ts turns them into proven bounds.
import { QUERY_ABS_SUM_LIMIT, ROW_ALIGN_BYTES, simdDotsOn, type DotsKernel } from './simdDots';
import { MEMORY_KINDS, type MemoryKind } from './types';

/** Rows per block of the vector memory. Small enough that an agent with few memories wastes little. */
export const BLOCK_ROWS = 64;
const PAGE_BYTES = 65536;
/** Bytes of the scalar columns per memory: ids, times, importance, six factors (f64), kind and flags (u8). */
export const SCALAR_BYTES_PER_MEMORY = 10 * 8 + 2;
/** A flag: the vector is all zeros, so cosine() gives exactly 0 whatever the query. */
export const ZERO_VECTOR = 1;

export const kindIndex = (kind: MemoryKind): number => MEMORY_KINDS.indexOf(kind);

/** One agent's memories, in id order. Positions index every column; the vector of position p is row p. */
export class AgentColumns {
  n = 0;
  capacity = 0;
  ids = new Float64Array(0);
  lastAccessed = new Float64Array(0);
  created = new Float64Array(0);
  importance = new Float64Array(0);
  kind = new Uint8Array(0);
  flags = new Uint8Array(0);
  factor = new Float64Array(0);
  errorNorm = new Float64Array(0);
  approxNorm = new Float64Array(0);
  factor4 = new Float64Array(0);
  errorNorm4 = new Float64Array(0);
  approxNorm4 = new Float64Array(0);
  /** Block numbers in the vector memory, in row order. */
  readonly blocks: number[] = [];

  get bytes(): number {
    return this.capacity * SCALAR_BYTES_PER_MEMORY;
  }

  /** Position of a memory id, or -1: ids are ascending, so a binary search. */
  positionOf(id: number): number {
    let lo = 0;
    let hi = this.n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const v = this.ids[mid];
      if (v === id) return mid;
      if (v < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  resize(capacity: number): void {
    const grow = <T extends Float64Array | Uint8Array>(a: T, make: (n: number) => T): T => {
      const b = make(capacity);
      b.set(a.subarray(0, this.n));
      return b;
    };
    const f64 = (n: number) => new Float64Array(n);
    this.ids = grow(this.ids, f64);
    this.lastAccessed = grow(this.lastAccessed, f64);
    this.created = grow(this.created, f64);
    this.importance = grow(this.importance, f64);
    this.kind = grow(this.kind, (n) => new Uint8Array(n));
    this.flags = grow(this.flags, (n) => new Uint8Array(n));
    this.factor = grow(this.factor, f64);
    this.errorNorm = grow(this.errorNorm, f64);
    this.approxNorm = grow(this.approxNorm, f64);
    this.factor4 = grow(this.factor4, f64);
    this.errorNorm4 = grow(this.errorNorm4, f64);
    this.approxNorm4 = grow(this.approxNorm4, f64);
    this.capacity = capacity;
  }
}

/** A memory's scalar fields, as they are in its row. */
export interface ColumnRow {
  id: number;
  lastAccessed: number;
  created: number;
  importance: number;
  kind: MemoryKind;
}

/** Counts of what the cache did, for tests and benchmarks. */
export interface CacheStats {
  loads: number;
  evictions: number;
}

export class ColumnCache {
  /** Padded row length: the dimension rounded up to the kernels' step (bytes of an int8 row). */
  readonly stride: number;
  /** A block: BLOCK_ROWS int8 rows, then BLOCK_ROWS int4 rows of stride/2 bytes. */
  readonly blockBytes: number;
  readonly stats: CacheStats = { loads: 0, evictions: 0 };
  private readonly agents = new Map<string, AgentColumns>();
  private memory: WebAssembly.Memory | undefined;
  private maximumPages = 0;
  private kernels: { dots8: DotsKernel; dots4: DotsKernel } | undefined;
  private view = new Int8Array(0);
  /** Bytes before the first block: the int16 query, then BLOCK_ROWS int32 results. */
  private readonly header: number;
  private blocksMade = 0;
  private readonly freeBlocks: number[] = [];
  private usedBytes = 0;

  constructor(
    readonly dimension: number,
    /** The most bytes the cache holds, all agents together; 0 disables it. */
    readonly capBytes: number,
  ) {
    this.stride = Math.ceil(Math.max(1, dimension) / ROW_ALIGN_BYTES) * ROW_ALIGN_BYTES;
    this.blockBytes = BLOCK_ROWS * this.stride + BLOCK_ROWS * (this.stride / 2);
    this.header = this.stride * 2 + BLOCK_ROWS * 4;
  }

  /** Bytes held now: vector blocks in use plus every cached agent's columns. */
  get bytes(): number {
    return this.usedBytes;
  }

  /** Bytes an agent of n memories takes, with room in its columns for `capacity`. */
  bytesFor(n: number, capacity = n): number {
    return Math.ceil(n / BLOCK_ROWS) * this.blockBytes + capacity * SCALAR_BYTES_PER_MEMORY;
  }

  cachedAgents(): string[] {
    return [...this.agents.keys()];
  }

  /** The agent's columns when cached, marked most recently used. */
  get(agentId: string): AgentColumns | undefined {
    const c = this.agents.get(agentId);
    if (c) {
      this.agents.delete(agentId);
      this.agents.set(agentId, c);
    }
    return c;
  }

  /** Without touching the LRU order. */
  peek(agentId: string): AgentColumns | undefined {
    return this.agents.get(agentId);
  }

  evict(agentId: string): void {
    const c = this.agents.get(agentId);
    if (!c) return;
    this.agents.delete(agentId);
    this.freeBlocks.push(...c.blocks);
    this.usedBytes -= c.blocks.length * this.blockBytes + c.bytes;
    this.stats.evictions++;
  }

  /**
   * Loads an agent of n memories (rows in id order, vectors in any order), evicting others as needed.
   * Returns undefined, caching nothing, when it cannot fit even alone.
   */
  load(agentId: string, rows: Iterable<ColumnRow>, n: number, vectors: () => Iterable<{ id: number; vector: Float32Array }>): AgentColumns | undefined {
    this.evict(agentId);
    const capacity = n + Math.max(BLOCK_ROWS, n >>> 4);
    if (!this.makeRoom(this.bytesFor(n, capacity), agentId)) return undefined;
    const c = new AgentColumns();
    c.resize(capacity);
    this.usedBytes += c.bytes;
    this.agents.set(agentId, c);
    for (const r of rows) if (!this.append(agentId, c, r)) return undefined;
    for (const { id, vector } of vectors()) {
      const p = c.positionOf(id);
      if (p >= 0) this.quantiseInto(c, p, vector);
    }
    this.stats.loads++;
    return c;
  }

  /** Adds a new memory (its id above every cached one) to a cached agent; false when it was dropped instead. */
  add(agentId: string, row: ColumnRow, vector: Float32Array): boolean {
    const c = this.agents.get(agentId);
    if (!c) return false;
    if ((c.n > 0 && row.id <= c.ids[c.n - 1]) || !this.append(agentId, c, row)) {
      this.evict(agentId);
      return false;
    }
    this.quantiseInto(c, c.n - 1, vector);
    return true;
  }

  /** Puts the int16 query where the kernels read it; scan and residualDot use the last one set. */
  setQuery(query16: Int16Array): void {
    if (this.memory) new Int16Array(this.viewOf().buffer, 0, this.stride).set(query16);
  }

  /** Stage 1 for every row of the agent, into out[0..n): out[p] = Σ_i query16[i]·a_p[i], exact. */
  scan(c: AgentColumns, out: Int32Array): void {
    if (c.n === 0) return;
    const view = this.viewOf();
    const outOffset = this.stride * 2;
    const results = new Int32Array(view.buffer, outOffset, BLOCK_ROWS);
    for (let b = 0; b * BLOCK_ROWS < c.n; b++) {
      const count = Math.min(BLOCK_ROWS, c.n - b * BLOCK_ROWS);
      this.kernels!.dots8(0, this.rowOffset(c.blocks[b], 0), outOffset, count, this.stride);
      out.set(count === BLOCK_ROWS ? results : results.subarray(0, count), b * BLOCK_ROWS);
    }
  }

  /** Stage 2 for one row: Σ_i query16[i]·b_p[i], exact. */
  residualDot(c: AgentColumns, p: number): number {
    const view = this.viewOf();
    const outOffset = this.stride * 2;
    this.kernels!.dots4(0, this.residualOffset(c.blocks[Math.floor(p / BLOCK_ROWS)], p % BLOCK_ROWS), outOffset, 1, this.stride / 2);
    return new Int32Array(view.buffer, outOffset, 1)[0];
  }

  /** The int8 row of position p (a view; for tests). */
  row(c: AgentColumns, p: number): Int8Array {
    const off = this.rowOffset(c.blocks[Math.floor(p / BLOCK_ROWS)], p % BLOCK_ROWS);
    return this.viewOf().subarray(off, off + this.stride);
  }

  private residualOffset(block: number, slot: number): number {
    return this.header + block * this.blockBytes + BLOCK_ROWS * this.stride + slot * (this.stride / 2);
  }

  private rowOffset(block: number, slot: number): number {
    return this.header + block * this.blockBytes + slot * this.stride;
  }

  private viewOf(): Int8Array {
    if (this.view.buffer !== this.memory!.buffer) this.view = new Int8Array(this.memory!.buffer);
    return this.view;
  }

  private append(agentId: string, c: AgentColumns, r: ColumnRow): boolean {
    if (c.n === c.capacity) {
      const capacity = c.capacity + Math.max(BLOCK_ROWS, c.capacity >>> 2);
      const extra = (capacity - c.capacity) * SCALAR_BYTES_PER_MEMORY;
      if (!this.makeRoom(extra, agentId)) return this.drop(agentId);
      c.resize(capacity);
      this.usedBytes += extra;
    }
    if (c.n === c.blocks.length * BLOCK_ROWS) {
      const block = this.allocateBlock(agentId);
      if (block === undefined) return this.drop(agentId);
      c.blocks.push(block);
    }
    const p = c.n++;
    c.ids[p] = r.id;
    c.lastAccessed[p] = r.lastAccessed;
    c.created[p] = r.created;
    c.importance[p] = r.importance;
    c.kind[p] = kindIndex(r.kind);
    c.flags[p] = 0;
    c.factor[p] = 0;
    c.errorNorm[p] = 0;
    c.approxNorm[p] = 0;
    return true;
  }

  private drop(agentId: string): false {
    this.evict(agentId);
    return false;
  }

  /** Evicts least recently used agents (never `keep`) until `bytes` more fit under the cap. */
  private makeRoom(bytes: number, keep: string): boolean {
    for (const other of this.agents.keys()) {
      if (this.usedBytes + bytes <= this.capBytes) break;
      if (other !== keep) this.evict(other);
    }
    return this.usedBytes + bytes <= this.capBytes;
  }

  private allocateBlock(agentId: string): number | undefined {
    if (!this.makeRoom(this.blockBytes, agentId)) return undefined;
    let block = this.freeBlocks.pop();
    if (block === undefined) {
      const needed = this.header + (this.blocksMade + 1) * this.blockBytes;
      try {
        if (!this.memory) {
          this.maximumPages = Math.min(65536, Math.ceil((this.header + this.capBytes + this.blockBytes) / PAGE_BYTES));
          this.memory = new WebAssembly.Memory({ initial: Math.ceil(needed / PAGE_BYTES), maximum: this.maximumPages });
          this.kernels = simdDotsOn(this.memory);
        } else if (this.memory.buffer.byteLength < needed) {
          // Grow by a quarter at least, so that growing is rare (untouched pages cost no RSS), never past the maximum.
          const have = this.memory.buffer.byteLength / PAGE_BYTES;
          const least = Math.ceil(needed / PAGE_BYTES) - have;
          this.memory.grow(Math.max(least, Math.min(Math.ceil(have / 4), this.maximumPages - have)));
        }
      } catch {
        return undefined; // out of address space or over the wasm limit: callers fall back to SQL
      }
      block = this.blocksMade++;
    }
    this.usedBytes += this.blockBytes;
    return block;
  }

  private quantiseInto(c: AgentColumns, p: number, v: Float32Array): void {
    const block = c.blocks[Math.floor(p / BLOCK_ROWS)];
    const view = this.viewOf();
    const rowAt = this.rowOffset(block, p % BLOCK_ROWS);
    const packedAt = this.residualOffset(block, p % BLOCK_ROWS);
    view.fill(0, rowAt, rowAt + this.stride);
    view.fill(0, packedAt, packedAt + this.stride / 2);
    c.factor[p] = c.errorNorm[p] = c.approxNorm[p] = c.factor4[p] = c.errorNorm4[p] = c.approxNorm4[p] = 0;
    const d = v.length;
    let max = 0;
    let norm2 = 0;
    for (let i = 0; i < d; i++) {
      const x = v[i];
      norm2 += x * x;
      const a = x < 0 ? -x : x;
      if (a > max) max = a;
    }
    const norm = Math.sqrt(norm2);
    c.flags[p] = norm2 === 0 ? ZERO_VECTOR : 0; // cosine() sums the squares in the same order
    if (max === 0 || norm === 0 || !Number.isFinite(norm)) return; // a zero vector: approx 0, bound 0 (plus the slack)
    // Stage 1. Any integers would do: the errors below are measured, not assumed.
    const s = max / 127;
    const toSteps = 127 / max;
    let err2 = 0;
    let approx2 = 0;
    let maxResidual = 0;
    for (let i = 0; i < d; i++) {
      // Round half up, as Math.round, for |x| ≤ 127.5; several times faster than Math.round in V8.
      let a = ((v[i] * toSteps + 128.5) | 0) - 128;
      if (a > 127) a = 127;
      else if (a < -127) a = -127;
      view[rowAt + i] = a;
      const r = s * a;
      const e = v[i] - r;
      err2 += e * e;
      approx2 += r * r;
      const m = e < 0 ? -e : e;
      if (m > maxResidual) maxResidual = m;
    }
    c.factor[p] = s / norm;
    c.errorNorm[p] = Math.sqrt(err2) / norm;
    c.approxNorm[p] = Math.sqrt(approx2) / norm;
    // Stage 2: the residual in [-7, 7], packed as packInt4 lays it out (value j low, j + 8 high).
    const t = maxResidual / 7;
    const toSteps4 = t === 0 ? 0 : 7 / maxResidual;
    let err4 = 0;
    let approx4 = 0;
    for (let g = 0; g < d; g += 16)
      for (let j = 0; j < 8; j++) {
        let byte = 0;
        for (let half = 0; half < 2; half++) {
          const i = g + j + 8 * half;
          if (i >= d) break;
          const r = s * view[rowAt + i];
          let b = (((v[i] - r) * toSteps4 + 8.5) | 0) - 8;
          if (b > 7) b = 7;
          else if (b < -7) b = -7;
          const w = r + t * b;
          const e = v[i] - w;
          err4 += e * e;
          approx4 += w * w;
          byte |= (b & 0x0f) << (4 * half);
        }
        view[packedAt + g / 2 + j] = byte;
      }
    c.factor4[p] = t / norm;
    c.errorNorm4[p] = Math.sqrt(err4) / norm;
    c.approxNorm4[p] = Math.sqrt(approx4) / norm;
  }
}

/** The query quantised to int16 for the kernel: q ≈ scale·query16, with the relative error of that. */
export interface QuantisedQuery {
  query16: Int16Array;
  /** scale/‖q‖: turns an integer dot product into cosine units (with the row's factor). */
  factor: number;
  /** ‖q − scale·query16‖ / ‖q‖. */
  errorNorm: number;
  /** ‖q‖; 0 means every relevance is exactly 0. */
  norm: number;
}

export function quantiseQuery(q: Float32Array, stride: number): QuantisedQuery {
  const query16 = new Int16Array(stride);
  let norm2 = 0;
  let max = 0;
  let sumAbs = 0;
  for (let i = 0; i < q.length; i++) {
    norm2 += q[i] * q[i];
    const a = Math.abs(q[i]);
    sumAbs += a;
    if (a > max) max = a;
  }
  const norm = Math.sqrt(norm2);
  if (max === 0 || norm === 0 || !Number.isFinite(norm)) return { query16, factor: 0, errorNorm: 0, norm: 0 };
  // Σ|round(x_i)| ≤ Σ|x_i| + d/2, so this scale keeps Σ|query16| within the kernel's limit.
  const scale = Math.max(max / 32767, sumAbs / (QUERY_ABS_SUM_LIMIT - q.length));
  let err2 = 0;
  for (let i = 0; i < q.length; i++) {
    const x = Math.max(-32767, Math.min(32767, ((q[i] / scale + 32768.5) | 0) - 32768));
    query16[i] = x;
    const e = q[i] - scale * x;
    err2 += e * e;
  }
  return { query16, factor: scale / norm, errorNorm: Math.sqrt(err2) / norm, norm };
}
