// Every cached agent's memories as columns, under ONE byte cap for the whole store. The vectors are
// quantised to int8 plus an int4 residual (1.5 bytes a dimension instead of 4) in a single WebAssembly
// memory, ONE row per distinct vector for all agents together (the pool): most of a town's memories
// share their vector with another memory, of the same agent or another (the same words, noted by
// everyone who saw it), and SQLite already keeps them as one `memory_vectors` row, whose id is the
// pool's key. An agent's columns (id, last access, importance, kind; creation time where needed) hold, for each
// memory, the pool slot of its vector; the scan gathers the rows from the pool (simdDots.ts's
// gather8). Agents are evicted least recently used first; a slot goes when its last agent does. An
// evicted agent is reloaded from SQLite the next time it is retrieved from, quantising only the
// vectors the pool lacks.
//
// The columns are as narrow as exactness allows (14 bytes a memory; 29 before round 7): times are whole
// game ms, kept as u32 offsets from a per-agent base (AgentColumns), which read back as the same doubles;
// importance is an integer 0–255; creation time, which retrieval reads only to break ties, is held only
// where creation order differs from id order (AgentColumns.newer). Anything else (a fractional time or
// importance, an id over 2^32) evicts the agent, and SQL answers for it, exactly.
// Round 7 also measured dropping, exactly, the memories that can never reach a top k ≤ K (K memories of the
// same agent, kind and vector at least as recent and important, winning the tie-break): at K = 12 only
// 6.2 % of a 72-hour town's memories would go, so it is not built (BENCHMARKS.md, round 7).
//
// A store never holds more than its cap, counted as the slots in use (row and residual, and their
// factors) plus the capacity of every agent's columns. WebAssembly memory never shrinks; freed slots
// are reused.
//
// Quantisation of a vector v (float32, norm ‖v‖), in double:
// - stage 1: s = max|v_i| / 127, a_i = round(v_i / s) ∈ [−127, 127], v̂ = s·a (int8, scanned for every memory);
// - stage 2: e = v − v̂, t = max|e_i| / 7, b_i = round(e_i / t) ∈ [−7, 7], w = v̂ + t·b (int4, read only for
//   the few memories stage 1 cannot place).
// Stored per vector: factor = s/‖v‖, errorNorm = ‖v − v̂‖/‖v‖, approxNorm = ‖v̂‖/‖v‖, and factor4 = t/‖v‖,
// errorNorm4 = ‖v − w‖/‖v‖, approxNorm4 = ‖w‖/‖v‖. quantisedRetrieval.ts turns them into proven bounds.
import { QUERY_ABS_SUM_LIMIT, ROW_ALIGN_BYTES, simdDotsOn, type DotsKernel } from './simdDots';
import { MEMORY_KINDS, type MemoryKind } from './types';
import { TIME_HIGH_UNIT } from './scoring';

/** Rows a scan hands the kernel at a time (its results and its list of row addresses are this long). */
export const BLOCK_ROWS = 64;
const BLOCK_SHIFT = 6; // log2(BLOCK_ROWS)
const PAGE_BYTES = 65536;
/**
 * Bytes of an agent's columns per memory: id (u32), last access (u32: game ms from the agent's base, below),
 * importance (u8), kind (u8), pool slot (u32). Game times are whole milliseconds (the store rounds them when
 * it writes a memory or touches one), so a u32 offset holds them exactly.
 */
export const SCALAR_BYTES_PER_MEMORY = 4 + 4 + 1 + 1 + 4;
/**
 * Bytes more per memory for the creation times (u32 offsets), held only for an agent whose memories were not
 * created in id order. Retrieval reads creation time only to break ties (newer first, then the higher id), and
 * where creation times do not fall as ids rise, position order (id order) is that order: every agent of the
 * 72-hour soak's 1.5M memories is so.
 */
export const CREATED_BYTES_PER_MEMORY = 4;
/** Bytes more per memory and time column once an agent's times span more than 2^32 ms (49.7 game days): its i8 high part. */
export const HIGH_BYTES_PER_TIME = 1;
/** Bytes of the pool's columns per slot: six factors, its key and flags (f64, one cache line), references (u32). */
export const SLOT_SCALAR_BYTES = 8 * 8 + 4;
/** A flag: the vector is all zeros, so cosine() gives exactly 0 whatever the query. */
export const ZERO_VECTOR = 1;
/** A position whose vector is not placed yet (while loading). */
const NO_SLOT = 0xffffffff;
/**
 * Memory ids are kept as u32 and importances as u8 (the minds give integers 1–10; schema 4 keeps integers
 * 1–10): an agent with a larger id, or an importance that is not an integer 0–255, is served by SQL instead.
 */
const MAX_ID = 0xffffffff;
const MAX_IMPORTANCE = 255;
/** An agent's base is this far before its first memory's time, so that a memory a little older than it needs no high part. */
const BASE_BEFORE_MS = 24 * 3_600_000;

export const kindIndex = (kind: MemoryKind): number => MEMORY_KINDS.indexOf(kind);

/**
 * One agent's memories, in id order. Positions index every column; the vector of position p is pool slot slot[p].
 * A time t (last access, creation) is kept as base + high·2^32 + low: low a u32, high an i8 that is 0 (and its
 * column absent) until a time of the agent falls outside [base, base + 2^32). All three are integers and the sum
 * stays below 2^53, so it is t exactly: the scan computes recency from the same double as from a float64 column.
 */
export class AgentColumns {
  n = 0;
  capacity = 0;
  /** Set from the first memory's time (NaN until then). */
  base = NaN;
  ids = new Uint32Array(0);
  accessLow = new Uint32Array(0);
  /** Null while creation times do not fall as positions rise (then `lastCreated` is the last one's). */
  createdLow: Uint32Array | null = null;
  lastCreated = -Infinity;
  /** The high parts (the creation times' only where they are held): null while every time is within 2^32 ms of base. */
  accessHigh: Int8Array | null = null;
  createdHigh: Int8Array | null = null;
  importance = new Uint8Array(0);
  kind = new Uint8Array(0);
  slot = new Uint32Array(0);

  get bytes(): number {
    return this.capacity * this.bytesPerMemory;
  }

  get bytesPerMemory(): number {
    const created = this.createdLow ? CREATED_BYTES_PER_MEMORY : 0;
    return SCALAR_BYTES_PER_MEMORY + created + (this.accessHigh ? HIGH_BYTES_PER_TIME : 0) + (this.createdHigh ? HIGH_BYTES_PER_TIME : 0);
  }

  /** Last access of position p, game ms. */
  lastAccessedAt(p: number): number {
    return this.base + (this.accessHigh ? this.accessHigh[p] * TIME_HIGH_UNIT : 0) + this.accessLow[p];
  }

  /**
   * Whether position x comes before position y when their scores tie (compareScored: the newer creation, then the
   * higher id). Without a creation column, creation times do not fall as positions (ids) rise, so the later position.
   */
  newer(x: number, y: number): boolean {
    if (!this.createdLow) return x > y;
    const cx = this.createdAt(x);
    const cy = this.createdAt(y);
    return cx > cy || (cx === cy && this.ids[x] > this.ids[y]);
  }

  /** Creation time of position p, game ms, where the column is held. */
  createdAt(p: number): number {
    return this.base + (this.createdHigh ? this.createdHigh[p] * TIME_HIGH_UNIT : 0) + this.createdLow![p];
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
    this.ids = grown(this.ids, capacity, this.n);
    this.accessLow = grown(this.accessLow, capacity, this.n);
    if (this.createdLow) this.createdLow = grown(this.createdLow, capacity, this.n);
    if (this.accessHigh) this.accessHigh = grown(this.accessHigh, capacity, this.n);
    if (this.createdHigh) this.createdHigh = grown(this.createdHigh, capacity, this.n);
    this.importance = grown(this.importance, capacity, this.n);
    this.kind = grown(this.kind, capacity, this.n);
    this.slot = grown(this.slot, capacity, this.n);
    this.capacity = capacity;
  }
}

type Column = Float64Array | Float32Array | Uint32Array | Uint8Array | Int8Array;
/** A copy of the first n values in a new array of `capacity`. */
function grown<T extends Column>(a: T, capacity: number, n: number): T {
  const b = new (a.constructor as new (length: number) => T)(capacity);
  b.set(a.subarray(0, n) as never);
  return b;
}

/** The high part of a time's offset from base (the low part is offset − high·2^32), or NaN when it is not a safe integer or is over 2^39 ms (17 years) away. */
function highOf(t: number, base: number): number {
  if (!Number.isSafeInteger(t)) return NaN;
  const d = t - base; // exact: both are integers below 2^53
  if (d >= 0 && d < TIME_HIGH_UNIT) return 0;
  const high = Math.floor(d / TIME_HIGH_UNIT);
  return high >= -128 && high <= 127 ? high : NaN;
}

/**
 * A slot's fields in the pool's `meta`, SLOT_FIELDS doubles a slot (one cache line): an agent's rows sit
 * among other agents' in the pool, so the factors retrieval reads for each memory are together in one
 * line, not in six arrays (in six, retrieval over 40 agents' interleaved memories took 2–3× as long).
 */
export const FACTOR = 0;
export const ERROR_NORM = 1;
export const APPROX_NORM = 2;
export const FACTOR4 = 3;
export const ERROR_NORM4 = 4;
export const APPROX_NORM4 = 5;
const KEY = 6;
export const FLAGS = 7;
export const SLOT_FIELDS = 8;

/** The per-vector columns of the pool, indexed by slot. */
export class PoolColumns {
  capacity = 0;
  meta = new Float64Array(0);
  refs = new Uint32Array(0);

  resize(capacity: number): void {
    this.meta = grown(this.meta, capacity * SLOT_FIELDS, this.capacity * SLOT_FIELDS);
    this.refs = grown(this.refs, capacity, this.capacity);
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
  /**
   * Its vector's key in the pool: memories with the same key have the same vector (the `memory_vectors`
   * row). Left out, the memory's own id: a vector shared with no one. One store uses one kind of key.
   */
  vector?: number;
}

/** Counts of what the cache did, for tests and benchmarks. */
export interface CacheStats {
  loads: number;
  evictions: number;
  /** Vectors quantised into the pool (a vector already there is only referenced). */
  quantised: number;
}

export class ColumnCache {
  /** Padded row length: the dimension rounded up to the kernels' step (bytes of an int8 row). */
  readonly stride: number;
  /** Bytes of a slot of the pool: its int8 row and its int4 residual of stride/2 bytes. */
  readonly slotBytes: number;
  /**
   * The pool is in blocks of BLOCK_ROWS slots: their int8 rows, then their residuals, so that a scan, which
   * reads only the rows, reads them nearly contiguously (rows and residuals interleaved slot by slot made the
   * scan at 100k × 1536 about 1.8× as slow).
   */
  private readonly blockBytes: number;
  readonly stats: CacheStats = { loads: 0, evictions: 0, quantised: 0 };
  /** The pool's per-vector columns. */
  readonly pool = new PoolColumns();
  private readonly agents = new Map<string, AgentColumns>();
  /** Pool key → slot. */
  private readonly slots = new Map<number, number>();
  private memory: WebAssembly.Memory | undefined;
  private maximumPages = 0;
  private kernels: { dots8: DotsKernel; dots4: DotsKernel; gather8: DotsKernel } | undefined;
  private view = new Int8Array(0);
  /** Bytes before the first slot: the int16 query, then BLOCK_ROWS int32 results, then BLOCK_ROWS u32 row addresses. */
  private readonly header: number;
  private slotsMade = 0;
  private readonly freeSlots: number[] = [];
  private usedBytes = 0;

  constructor(
    readonly dimension: number,
    /** The most bytes the cache holds, all agents together; 0 disables it. */
    readonly capBytes: number,
  ) {
    this.stride = Math.ceil(Math.max(1, dimension) / ROW_ALIGN_BYTES) * ROW_ALIGN_BYTES;
    this.slotBytes = this.stride + this.stride / 2;
    this.blockBytes = BLOCK_ROWS * this.slotBytes;
    this.header = this.stride * 2 + BLOCK_ROWS * 8;
  }

  /** Bytes held now: pool slots in use plus every cached agent's columns. */
  get bytes(): number {
    return this.usedBytes;
  }

  /** Vectors in the pool now. */
  get vectors(): number {
    return this.slots.size;
  }

  /** The most bytes an agent of n memories can add (no vector shared), with room in its columns for `capacity`. */
  bytesFor(n: number, capacity = n): number {
    return n * (this.slotBytes + SLOT_SCALAR_BYTES) + capacity * SCALAR_BYTES_PER_MEMORY;
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
    for (let p = 0; p < c.n; p++) if (c.slot[p] !== NO_SLOT) this.release(c.slot[p]);
    this.usedBytes -= c.bytes;
    this.stats.evictions++;
  }

  /**
   * Loads an agent of n memories (rows in id order, vectors in any order), evicting others as needed;
   * `vectors` is read only when the pool lacks some of the agent's. Returns undefined, caching nothing,
   * when it cannot fit even alone (or a memory's vector is missing).
   */
  load(agentId: string, rows: readonly ColumnRow[], n: number, vectors: () => Iterable<{ id: number; vector: Float32Array }>): AgentColumns | undefined {
    this.evict(agentId);
    const capacity = n + Math.max(BLOCK_ROWS, n >>> 4);
    const c = new AgentColumns();
    // Creation times held only where they fall somewhere as ids rise (rows come in id order).
    for (let i = 1; i < rows.length && !c.createdLow; i++) if (!(rows[i].created >= rows[i - 1].created)) c.createdLow = new Uint32Array(0);
    if (!this.makeRoom(capacity * c.bytesPerMemory, agentId)) return undefined;
    c.resize(capacity);
    this.usedBytes += c.bytes;
    this.agents.set(agentId, c);
    // Slots are made in id order as the rows come, so that the scan reads a loaded agent's rows in order
    // (the vectors come in the order SQL gives them: filled in as they come, the scan at 20k × 1536 took 3×).
    const waiting = new Map<number, number>(); // position → its new slot, waiting for the vector
    for (const r of rows) {
      if (!this.append(agentId, c, r)) return undefined;
      const key = r.vector ?? r.id;
      let slot = this.slots.get(key);
      if (slot === undefined) {
        slot = this.newSlot(agentId, key);
        if (slot === undefined) return void this.evict(agentId);
        waiting.set(c.n - 1, slot);
      }
      this.reference(c, c.n - 1, slot);
    }
    if (waiting.size > 0) {
      for (const { id, vector } of vectors()) {
        const p = c.positionOf(id);
        const slot = p >= 0 ? waiting.get(p) : undefined;
        if (slot === undefined) continue;
        waiting.delete(p);
        this.quantiseInto(slot, vector);
      }
      if (waiting.size > 0) return void this.evict(agentId);
    }
    this.stats.loads++;
    return c;
  }

  /** Adds a new memory (its id above every cached one) to a cached agent; false when it was dropped instead. */
  add(agentId: string, row: ColumnRow, vector: Float32Array): boolean {
    const c = this.agents.get(agentId);
    if (!c) return false;
    if ((c.n > 0 && row.id <= c.ids[c.n - 1]) || !this.append(agentId, c, row)) return this.drop(agentId);
    const key = row.vector ?? row.id;
    let slot = this.slots.get(key);
    if (slot === undefined) {
      slot = this.newSlot(agentId, key);
      if (slot === undefined) return this.drop(agentId);
      this.quantiseInto(slot, vector);
    }
    this.reference(c, c.n - 1, slot);
    return true;
  }

  /** The pool key of position p's vector (the `memory_vectors` row, or the memory's id where vectors are per memory). */
  keyOf(c: AgentColumns, p: number): number {
    return this.pool.meta[c.slot[p] * SLOT_FIELDS + KEY];
  }

  /** Puts the int16 query where the kernels read it; scan and residualDot use the last one set. */
  setQuery(query16: Int16Array): void {
    if (this.memory) new Int16Array(this.viewOf().buffer, 0, this.stride).set(query16);
  }

  /** Stage 1 for every row of the agent, into out[0..n): out[p] = Σ_i query16[i]·a_p[i], exact. */
  scan(c: AgentColumns, out: Int32Array): void {
    if (c.n === 0) return;
    const buffer = this.viewOf().buffer;
    const outOffset = this.stride * 2;
    const listOffset = outOffset + BLOCK_ROWS * 4;
    const results = new Int32Array(buffer, outOffset, BLOCK_ROWS);
    const list = new Uint32Array(buffer, listOffset, BLOCK_ROWS);
    const { header, blockBytes, stride } = this;
    const slots = c.slot;
    for (let from = 0; from < c.n; from += BLOCK_ROWS) {
      const count = Math.min(BLOCK_ROWS, c.n - from);
      for (let j = 0; j < count; j++) {
        const s = slots[from + j];
        list[j] = header + (s >>> BLOCK_SHIFT) * blockBytes + (s & (BLOCK_ROWS - 1)) * stride;
      }
      this.kernels!.gather8(0, listOffset, outOffset, count, this.stride);
      out.set(count === BLOCK_ROWS ? results : results.subarray(0, count), from);
    }
  }

  /** Stage 2 for one row: Σ_i query16[i]·b_p[i], exact. */
  residualDot(c: AgentColumns, p: number): number {
    const view = this.viewOf();
    const outOffset = this.stride * 2;
    this.kernels!.dots4(0, this.residualOffset(c.slot[p]), outOffset, 1, this.stride / 2);
    return new Int32Array(view.buffer, outOffset, 1)[0];
  }

  /** The int8 row of position p (a view; for tests). */
  row(c: AgentColumns, p: number): Int8Array {
    const off = this.rowOffset(c.slot[p]);
    return this.viewOf().subarray(off, off + this.stride);
  }

  private residualOffset(slot: number): number {
    return this.header + (slot >>> BLOCK_SHIFT) * this.blockBytes + BLOCK_ROWS * this.stride + (slot & (BLOCK_ROWS - 1)) * (this.stride / 2);
  }

  private rowOffset(slot: number): number {
    return this.header + (slot >>> BLOCK_SHIFT) * this.blockBytes + (slot & (BLOCK_ROWS - 1)) * this.stride;
  }

  private viewOf(): Int8Array {
    if (this.view.buffer !== this.memory!.buffer) this.view = new Int8Array(this.memory!.buffer);
    return this.view;
  }

  private append(agentId: string, c: AgentColumns, r: ColumnRow): boolean {
    const importanceHeld = Number.isInteger(r.importance) && r.importance >= 0 && r.importance <= MAX_IMPORTANCE;
    if (!(Number.isInteger(r.id) && r.id >= 0 && r.id <= MAX_ID) || !importanceHeld) return this.drop(agentId);
    if (c.n === 0 && Number.isNaN(c.base)) {
      const first = Math.min(r.created, r.lastAccessed);
      if (!Number.isSafeInteger(first - BASE_BEFORE_MS)) return this.drop(agentId);
      c.base = first - BASE_BEFORE_MS;
    }
    if (c.n === c.capacity) {
      const capacity = c.capacity + Math.max(BLOCK_ROWS, c.capacity >>> 2);
      const extra = (capacity - c.capacity) * c.bytesPerMemory;
      if (!this.makeRoom(extra, agentId)) return this.drop(agentId);
      c.resize(capacity);
      this.usedBytes += extra;
    }
    const p = c.n;
    c.ids[p] = r.id;
    c.importance[p] = r.importance;
    c.kind[p] = kindIndex(r.kind);
    c.slot[p] = NO_SLOT;
    if (!c.createdLow) {
      // A memory created before the last one: dropped, so that a reload holds the creation times.
      if (!Number.isSafeInteger(r.created) || r.created < c.lastCreated) return this.drop(agentId);
      c.lastCreated = r.created;
    } else if (!this.setTime(agentId, c, p, 'created', r.created)) return false;
    if (!this.setTime(agentId, c, p, 'access', r.lastAccessed)) return false;
    c.n++;
    return true;
  }

  /**
   * Sets a time of position p (its high part's columns made when it needs one); false, with the agent
   * evicted, when the time is not an integer, is too far from the agent's base, or there is no room.
   */
  private setTime(agentId: string, c: AgentColumns, p: number, which: 'access' | 'created', t: number): boolean {
    const high = highOf(t, c.base);
    if (Number.isNaN(high)) return this.drop(agentId);
    const low = t - c.base - high * TIME_HIGH_UNIT;
    if (high !== 0 && !c.accessHigh) {
      const extra = c.capacity * HIGH_BYTES_PER_TIME * (c.createdLow ? 2 : 1);
      if (!this.makeRoom(extra, agentId)) return this.drop(agentId);
      c.accessHigh = new Int8Array(c.capacity);
      if (c.createdLow) c.createdHigh = new Int8Array(c.capacity);
      this.usedBytes += extra;
    }
    if (which === 'access') {
      c.accessLow[p] = low;
      if (c.accessHigh) c.accessHigh[p] = high;
    } else {
      c.createdLow![p] = low;
      if (c.createdHigh) c.createdHigh[p] = high;
    }
    return true;
  }

  /** Records a new last access of position p of a cached agent; false when the agent was evicted instead (its reload reads the row). */
  touch(agentId: string, c: AgentColumns, p: number, t: number): boolean {
    return this.agents.get(agentId) === c && this.setTime(agentId, c, p, 'access', t);
  }

  private reference(c: AgentColumns, p: number, slot: number): void {
    c.slot[p] = slot;
    this.pool.refs[slot]++;
  }

  private release(slot: number): void {
    if (--this.pool.refs[slot] > 0) return;
    this.slots.delete(this.pool.meta[slot * SLOT_FIELDS + KEY]);
    this.freeSlots.push(slot);
    this.usedBytes -= this.slotBytes + SLOT_SCALAR_BYTES;
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

  /** A new slot under `key`, with no references yet and its vector to be quantised into it; undefined when it cannot fit. */
  private newSlot(agentId: string, key: number): number | undefined {
    if (!this.makeRoom(this.slotBytes + SLOT_SCALAR_BYTES, agentId)) return undefined;
    let slot = this.freeSlots.pop();
    if (slot === undefined) {
      const needed = this.header + Math.ceil((this.slotsMade + 1) / BLOCK_ROWS) * this.blockBytes;
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
      slot = this.slotsMade++;
      if (slot >= this.pool.capacity) this.pool.resize(Math.max(1024, Math.ceil(this.pool.capacity * 1.25)));
    }
    this.usedBytes += this.slotBytes + SLOT_SCALAR_BYTES;
    this.pool.meta[slot * SLOT_FIELDS + KEY] = key;
    this.pool.refs[slot] = 0;
    this.slots.set(key, slot);
    return slot;
  }

  private quantiseInto(slot: number, v: Float32Array): void {
    this.stats.quantised++;
    const meta = this.pool.meta;
    const at = slot * SLOT_FIELDS;
    const view = this.viewOf();
    const rowAt = this.rowOffset(slot);
    const packedAt = this.residualOffset(slot);
    view.fill(0, rowAt, rowAt + this.stride);
    view.fill(0, packedAt, packedAt + this.stride / 2);
    meta.fill(0, at + FACTOR, at + APPROX_NORM4 + 1);
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
    meta[at + FLAGS] = norm2 === 0 ? ZERO_VECTOR : 0; // cosine() sums the squares in the same order
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
    meta[at + FACTOR] = s / norm;
    meta[at + ERROR_NORM] = Math.sqrt(err2) / norm;
    meta[at + APPROX_NORM] = Math.sqrt(approx2) / norm;
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
    meta[at + FACTOR4] = t / norm;
    meta[at + ERROR_NORM4] = Math.sqrt(err4) / norm;
    meta[at + APPROX_NORM4] = Math.sqrt(approx4) / norm;
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
