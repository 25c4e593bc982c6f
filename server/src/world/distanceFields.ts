// Shortest paths to popular destinations. Agents walk to a few hundred places (object stand tiles and
// a handful of spots per arena), so a breadth-first distance field per destination, computed once and
// kept, turns every later path into a walk downhill: O(path length), with no search. Paths are as
// short as A*'s; the fixed neighbour order keeps them deterministic.

const UNREACHED = 0xffff;

export class DistanceFields {
  private readonly fields = new Map<number, Uint16Array>();
  private readonly size: number;

  constructor(
    readonly widthTiles: number,
    readonly heightTiles: number,
    private readonly blocked: Uint8Array,
    /** Fields kept at most (each is widthTiles * heightTiles * 2 bytes); the oldest goes first. */
    private readonly capacity = 1024,
  ) {
    this.size = widthTiles * heightTiles;
  }

  get cached(): number {
    return this.fields.size;
  }

  /** Tile indices from `from` to `to`, both included, or null when `to` cannot be reached. */
  findPath(from: number, to: number): number[] | null {
    if (from === to) return this.blocked[to] ? null : [from];
    const field = this.fieldTo(to);
    if (!field || field[from] === UNREACHED) return null;
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

  private fieldTo(to: number): Uint16Array | null {
    if (to < 0 || to >= this.size || this.blocked[to]) return null;
    let field = this.fields.get(to);
    if (field) {
      // Most recently used last.
      this.fields.delete(to);
      this.fields.set(to, field);
      return field;
    }
    field = new Uint16Array(this.size).fill(UNREACHED);
    const queue = new Int32Array(this.size);
    let head = 0;
    let tail = 0;
    field[to] = 0;
    queue[tail++] = to;
    const w = this.widthTiles;
    while (head < tail) {
      const t = queue[head++];
      const d = field[t] + 1;
      const x = t % w;
      if (t >= w && !this.blocked[t - w] && field[t - w] === UNREACHED) (field[t - w] = d), (queue[tail++] = t - w);
      if (x > 0 && !this.blocked[t - 1] && field[t - 1] === UNREACHED) (field[t - 1] = d), (queue[tail++] = t - 1);
      if (x < w - 1 && !this.blocked[t + 1] && field[t + 1] === UNREACHED) (field[t + 1] = d), (queue[tail++] = t + 1);
      if (t + w < this.size && !this.blocked[t + w] && field[t + w] === UNREACHED) (field[t + w] = d), (queue[tail++] = t + w);
    }
    if (this.fields.size >= this.capacity) this.fields.delete(this.fields.keys().next().value as number);
    this.fields.set(to, field);
    return field;
  }
}
