// Shortest paths to popular destinations. Agents walk to a few hundred places (object stand tiles and
// a handful of spots per arena), so a breadth-first distance field per destination, computed once and
// kept, turns every later path into a walk downhill: O(path length), with no search. Paths are as
// short as A*'s; the fixed neighbour order keeps them deterministic.
//
// A big town has thousands of destinations (every bed and stove of every home) and a field the size of
// the map for each would not fit, so a destination seen for the first time gets a bounded search: the
// breadth-first search from the destination stops as soon as it reaches the walker. Every tile nearer
// the destination than the walker is then at its exact distance, which is all the walk downhill reads,
// so the path is the very one a whole field gives: which of the two ran never changes a path (the
// sim's determinism does not depend on what is cached). A destination whose bounded searches have
// together covered as many tiles as the map has (so a whole field would already have paid for itself),
// or a search that covered most of the map anyway, gets its whole field kept, up to a byte budget
// (oldest out first): a workplace that people walk to from all over town, not a bed down the hall.
//
// The bounded search is an A* from the destination towards the walker (Manhattan distance to the walker as
// its heuristic), not a breadth-first disc: it settles every tile whose distance from the destination plus
// its Manhattan distance to the walker is at most the walk's length L, and stops there. Every tile the walk
// downhill can step to lies on a shortest path, so has that sum ≤ L, so is settled at its exact distance;
// a tile not settled is not on a shortest path, and the descent never takes it. So the path is still the
// very one a whole field gives, for a search of the lens between the two ends instead of the disc of
// radius L around the destination (a commute across the town of 10,000 reached most of its 1.84 M tiles).

const UNREACHED = 0xffff;
/** searchLens's answer when it went past the tiles it was allowed. */
const GIVEN_UP = -2;
/** A bounded search that has covered this share of the map finishes the field and keeps it. */
const FINISH_FRACTION = 0.5;
/**
 * Whole fields kept at least, whatever the byte budget: the town of 10,000 (1.84 M tiles, 3.7 MB a field) kept 8
 * under 32 MB, and its morning's workplaces pushed each other out (85 fields made and dropped in a game hour,
 * each a search of the whole map); 64 of them are 236 MB, 0.024 MB a resident.
 */
const MIN_KEPT_FIELDS = 64;
/** Paths searched ahead and not yet taken, kept at most (a morning of 10,000 starts ~1,500 walks a game minute). */
const MAX_AHEAD_PATHS = 8_192;

export class DistanceFields {
  private readonly fields = new Map<number, Uint16Array>();
  /** Tiles covered by bounded searches towards each destination since its field was last kept. */
  private readonly searched = new Map<number, number>();
  private readonly size: number;
  private readonly capacity: number;
  private readonly scratch: Uint16Array;
  private readonly queue: Int32Array;
  /** The A*'s two open lists: the tiles at the current estimate, and at the next (the estimate grows by 0 or 2 a step). */
  private openNow: Int32Array;
  private openNext: Int32Array;
  /** Destinations whose whole field has paid for itself, waiting for `finishWanted` (only with `deferWholeFields`). */
  private readonly wanted = new Set<number>();
  /**
   * Whole fields are searched in `finishWanted`, between the served town's ticks, instead of inside the findPath that
   * earned them (a search of the whole map: 1.84 M tiles at 10,000). Paths are the same either way (see the header).
   */
  deferWholeFields = false;
  /** Searches run, the tiles they reached, and whole fields kept and dropped (for benchmarks). */
  /** `aheadTiles`: the share of `tilesSearched` that `searchAhead` searched; `aheadTaken`: paths of it that `findPath` gave. */
  readonly stats = { searches: 0, tilesSearched: 0, fieldsKept: 0, fieldsDropped: 0, aheadSearches: 0, aheadTiles: 0, aheadTaken: 0 };

  constructor(
    readonly widthTiles: number,
    readonly heightTiles: number,
    private readonly blocked: Uint8Array,
    /** Bytes of whole fields kept at most (each is widthTiles * heightTiles * 2 bytes); at least MIN_KEPT_FIELDS are kept. */
    budgetBytes = 32 * 1024 * 1024,
  ) {
    this.size = widthTiles * heightTiles;
    this.capacity = Math.max(MIN_KEPT_FIELDS, Math.floor(budgetBytes / (2 * this.size)));
    this.scratch = new Uint16Array(this.size).fill(UNREACHED);
    this.queue = new Int32Array(this.size);
    this.openNow = new Int32Array(this.size);
    this.openNext = new Int32Array(this.size);
  }

  /** Whole fields kept now. */
  get cached(): number {
    return this.fields.size;
  }

  /**
   * Paths searched ahead (`searchAhead`, between a served town's ticks) by their two ends, oldest first, until a
   * `findPath` takes them. A path is a pure function of its ends, so one searched ahead is the path `findPath` gives.
   */
  private readonly ahead = new Map<number, number[] | null>();
  /** Searches `searchWithin` gave up, by their two ends, until `searchAhead` searches them (oldest out past MAX_AHEAD_PATHS). */
  private readonly givenUp = new Set<number>();

  /**
   * Searches the path from `from` to `to` now, for a later `findPath` to take (the walks a served town's next steps
   * will start, searched between its ticks: sim/walksAhead.ts). Nothing to do towards a destination with a kept field
   * (its descent is cheap) or for a path already waiting. Returns whether it searched.
   */
  searchAhead(from: number, to: number): boolean {
    const key = from * this.size + to;
    this.givenUp.delete(key);
    if (from === to || this.ahead.has(key) || this.fields.has(to) || to < 0 || to >= this.size) return false;
    const tiles = this.stats.tilesSearched;
    const path = this.searchPath(from, to)!;
    this.stats.aheadTiles += this.stats.tilesSearched - tiles;
    this.keepAhead(key, path);
    this.stats.aheadSearches++;
    return true;
  }

  /**
   * Makes the path from `from` to `to` ready for `findPath` with at most about `maxTiles` of search (a live step's
   * budget left): true when it is (nothing to search, or a search that stayed within it, whose path waits among the
   * paths ahead), false when the search went past `maxTiles` and was given up (its tiles counted). A walk of a busy
   * step waits then, and its path is searched between ticks (`searchAhead`).
   */
  searchWithin(from: number, to: number, maxTiles: number): boolean {
    if (!this.wouldSearch(from, to)) return true;
    const key = from * this.size + to;
    // Given up before and not yet searched ahead: not tried again (each try would give up as much again).
    if (maxTiles <= 0 || this.givenUp.has(key)) return false;
    const tiles = this.stats.tilesSearched;
    const path = this.searchPath(from, to, maxTiles);
    if (path === undefined) {
      if (this.givenUp.size >= MAX_AHEAD_PATHS) this.givenUp.delete(this.givenUp.values().next().value as number);
      this.givenUp.add(key);
      return false;
    }
    this.stats.aheadTiles += this.stats.tilesSearched - tiles;
    this.keepAhead(key, path);
    return true;
  }

  private keepAhead(key: number, path: number[] | null): void {
    if (this.ahead.size >= MAX_AHEAD_PATHS) this.ahead.delete(this.ahead.keys().next().value as number);
    this.ahead.set(key, path);
  }

  /** Whether `findPath(from, to)` would search (no path searched ahead, no kept field towards `to`), not just descend. */
  wouldSearch(from: number, to: number): boolean {
    if (from === to || to < 0 || to >= this.size || this.blocked[to] || this.fields.has(to)) return false;
    return !(this.ahead.size > 0 && this.ahead.has(from * this.size + to));
  }

  /** Tile indices from `from` to `to`, both included, or null when `to` cannot be reached. */
  findPath(from: number, to: number): number[] | null {
    if (this.ahead.size > 0) {
      const key = from * this.size + to;
      const path = this.ahead.get(key);
      if (path !== undefined) {
        this.ahead.delete(key);
        this.stats.aheadTaken++;
        return path;
      }
    }
    return this.searchPath(from, to)!;
  }

  /** The path, or null where there is none; undefined where finding it would search more than `maxTiles` (given up). */
  private searchPath(from: number, to: number, maxTiles = Infinity): number[] | null | undefined {
    if (from === to) return this.blocked[to] ? null : [from];
    if (to < 0 || to >= this.size || this.blocked[to]) return null;
    const kept = this.keptField(to);
    if (kept) return this.descend(kept, from, to);
    const searched = this.searched.get(to) ?? 0;
    // A whole field (the whole map) is never searched within a budget: it is searched between ticks.
    const whole = maxTiles === Infinity;
    if (searched >= this.size && !this.deferWholeFields && whole) return this.descend(this.keepField(to, -this.search(to, -1)), from, to);
    if (searched >= this.size) this.wanted.add(to);
    const explored = this.searchLens(to, from, maxTiles);
    if (explored === GIVEN_UP || (explored < 0 && !whole)) return undefined;
    if (explored < 0) return this.descend(this.keepField(to, -this.search(to, -1)), from, to);
    this.searched.set(to, searched + explored);
    try {
      return this.descend(this.scratch, from, to);
    } finally {
      for (let i = 0; i < explored; i++) this.scratch[this.queue[i]] = UNREACHED;
    }
  }

  /** Whether whole fields wait for `finishWanted`. */
  get wantsWork(): boolean {
    return this.wanted.size > 0;
  }

  /** Searches and keeps up to `max` of the whole fields waiting (the longest waiting first); returns how many. */
  finishWanted(max = 1): number {
    let done = 0;
    for (const to of this.wanted) {
      if (done >= max) break;
      this.wanted.delete(to);
      if (this.fields.has(to)) continue;
      this.keepField(to, -this.search(to, -1));
      done++;
    }
    return done;
  }

  private descend(field: Uint16Array, from: number, to: number): number[] | null {
    if (field[from] === UNREACHED) return null;
    const w = this.widthTiles;
    const path = [from];
    let at = from;
    while (at !== to) {
      const d = field[at];
      const x = at % w;
      let next = -1;
      // Up, left, right, down: the same order as the A* search.
      if (at >= w && field[at - w] === d - 1) next = at - w;
      else if (x > 0 && field[at - 1] === d - 1) next = at - 1;
      else if (x < w - 1 && field[at + 1] === d - 1) next = at + 1;
      else if (at + w < this.size && field[at + w] === d - 1) next = at + w;
      if (next < 0) return null;
      path.push(next);
      at = next;
    }
    return path;
  }

  private keptField(to: number): Uint16Array | null {
    const field = this.fields.get(to);
    if (!field) return null;
    // Most recently used last.
    this.fields.delete(to);
    this.fields.set(to, field);
    return field;
  }

  /**
   * Breadth-first from `to` into the scratch field until `stopAt` is reached (never, for -1). Returns how
   * many tiles it reached (their indices are in `queue`), or minus that count when it searched the whole
   * map (stopAt unreachable, or the search went past FINISH_FRACTION of it and was finished).
   */
  private search(to: number, stopAt: number): number {
    const { scratch: field, queue, blocked } = this;
    const w = this.widthTiles;
    const finishAt = Math.floor(this.size * FINISH_FRACTION);
    let head = 0;
    let tail = 0;
    field[to] = 0;
    queue[tail++] = to;
    let bounded = stopAt >= 0;
    this.stats.searches++;
    while (head < tail) {
      // Every tile nearer `to` than `stopAt` has its exact distance once `stopAt` is reached.
      if (bounded && field[stopAt] !== UNREACHED) return this.searchedTiles(tail);
      if (bounded && tail > finishAt) bounded = false;
      const t = queue[head++];
      const d = field[t] + 1;
      const x = t % w;
      if (t >= w && !blocked[t - w] && field[t - w] === UNREACHED) ((field[t - w] = d), (queue[tail++] = t - w));
      if (x > 0 && !blocked[t - 1] && field[t - 1] === UNREACHED) ((field[t - 1] = d), (queue[tail++] = t - 1));
      if (x < w - 1 && !blocked[t + 1] && field[t + 1] === UNREACHED) ((field[t + 1] = d), (queue[tail++] = t + 1));
      if (t + w < this.size && !blocked[t + w] && field[t + w] === UNREACHED) ((field[t + w] = d), (queue[tail++] = t + w));
    }
    return -this.searchedTiles(tail);
  }

  /**
   * A* from `to` towards `from` into the scratch field, settling every tile whose distance plus Manhattan distance to
   * `from` is at most the distance from `from` (see the header). Returns how many tiles it reached (their indices are
   * in `queue`), or -1 when `from` cannot be reached or the search went past FINISH_FRACTION of the map: the scratch is
   * then clear, for the whole field to be searched (and kept) instead. GIVEN_UP (scratch clear) when it reached more than
   * `maxTiles` first.
   */
  private searchLens(to: number, from: number, maxTiles = Infinity): number {
    const { scratch: g, queue: reached, blocked } = this;
    const w = this.widthTiles;
    const size = this.size;
    const finishAt = Math.floor(size * FINISH_FRACTION);
    const fx = from % w;
    const fy = (from - fx) / w;
    let now = this.openNow;
    let next = this.openNext;
    let nowLength = 0;
    let nextLength = 0;
    let count = 0;
    g[to] = 0;
    reached[count++] = to;
    now[nowLength++] = to;
    const tx = to % w;
    // The estimate of the tiles in `now`: distance so far plus Manhattan distance to `from` (consistent, so it never falls).
    let estimate = Math.abs(tx - fx) + Math.abs((to - tx) / w - fy);
    this.stats.searches++;
    for (;;) {
      while (nowLength > 0 && count <= maxTiles) {
        const t = now[--nowLength];
        const x = t % w;
        const y = (t - x) / w;
        const gt = g[t];
        // Settled already at a smaller estimate (it was reached again by a shorter way after it was listed here).
        if (gt + Math.abs(x - fx) + Math.abs(y - fy) !== estimate) continue;
        const d = gt + 1;
        for (let k = 0; k < 4; k++) {
          let n: number;
          let h: number;
          if (k === 0) {
            if (t < w) continue;
            ((n = t - w), (h = Math.abs(x - fx) + Math.abs(y - 1 - fy)));
          } else if (k === 1) {
            if (x === 0) continue;
            ((n = t - 1), (h = Math.abs(x - 1 - fx) + Math.abs(y - fy)));
          } else if (k === 2) {
            if (x === w - 1) continue;
            ((n = t + 1), (h = Math.abs(x + 1 - fx) + Math.abs(y - fy)));
          } else {
            if (t + w >= size) continue;
            ((n = t + w), (h = Math.abs(x - fx) + Math.abs(y + 1 - fy)));
          }
          if (blocked[n] || d >= g[n]) continue;
          if (g[n] === UNREACHED) reached[count++] = n;
          g[n] = d;
          if (d + h === estimate) now[nowLength++] = n;
          else next[nextLength++] = n;
        }
      }
      // Past `maxTiles` inside a layer (it is not all settled) or after one: given up.
      const givenUp = nowLength > 0 || (count > maxTiles && nextLength > 0 && g[from] > estimate);
      // Every tile with an estimate up to the walk's length is settled: the descent has all it reads.
      if (!givenUp && g[from] <= estimate) return this.searchedTiles(count);
      if (givenUp || nextLength === 0 || count > finishAt) {
        this.stats.tilesSearched += count;
        for (let i = 0; i < count; i++) g[reached[i]] = UNREACHED;
        return givenUp ? GIVEN_UP : -1;
      }
      [now, next] = [next, now];
      nowLength = nextLength;
      nextLength = 0;
      estimate += 2;
    }
  }

  private searchedTiles(reached: number): number {
    this.stats.tilesSearched += reached;
    return reached;
  }

  /** Moves the whole field in the scratch buffer (`reached` tiles) into the kept fields, and clears the scratch. */
  private keepField(to: number, reached: number): Uint16Array {
    const field = this.scratch.slice();
    for (let i = 0; i < reached; i++) this.scratch[this.queue[i]] = UNREACHED;
    if (this.fields.size >= this.capacity) {
      this.fields.delete(this.fields.keys().next().value as number);
      this.stats.fieldsDropped++;
    }
    this.stats.fieldsKept++;
    this.fields.set(to, field);
    this.searched.delete(to);
    return field;
  }
}
