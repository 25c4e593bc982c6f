// A* on the collision grid, 4-connected, unit cost, Manhattan heuristic: the general pathfinder, and the
// reference the sim's distance fields (distanceFields.ts) are tested against. It keeps its buffers
// between calls (typed arrays reset by a generation stamp, not reallocated); bench/sim.ts measures it.

export class GridPathfinder {
  private readonly size: number;
  private readonly g: Float64Array;
  private readonly parent: Int32Array;
  private readonly stamp: Uint32Array;
  private readonly closed: Uint32Array;
  private generation = 0;
  // Binary heap of node indices ordered by f, then by insertion order for deterministic ties.
  private heapNodes: Int32Array;
  private heapF: Float64Array;
  private heapOrder: Uint32Array;
  private heapSize = 0;
  private counter = 0;

  constructor(
    readonly widthTiles: number,
    readonly heightTiles: number,
    /** 1 = blocked; index = y * widthTiles + x. Not copied: later edits to it are seen. */
    private readonly blocked: Uint8Array,
  ) {
    this.size = widthTiles * heightTiles;
    if (blocked.length !== this.size) throw new Error(`collision grid has ${blocked.length} cells, expected ${this.size}`);
    this.g = new Float64Array(this.size);
    this.parent = new Int32Array(this.size);
    this.stamp = new Uint32Array(this.size);
    this.closed = new Uint32Array(this.size);
    this.heapNodes = new Int32Array(1024);
    this.heapF = new Float64Array(1024);
    this.heapOrder = new Uint32Array(1024);
  }

  isWalkable(index: number): boolean {
    return index >= 0 && index < this.size && this.blocked[index] === 0;
  }

  /**
   * Tile indices from `from` to `to`, both included; `[from]` when they are equal; `null` when `to`
   * cannot be reached or either end is blocked.
   */
  findPath(from: number, to: number): number[] | null {
    if (!this.isWalkable(from) || !this.isWalkable(to)) return null;
    if (from === to) return [from];
    const w = this.widthTiles;
    const tx = to % w;
    const ty = (to - tx) / w;
    const gen = ++this.generation;
    this.heapSize = 0;
    this.counter = 0;
    this.stamp[from] = gen;
    this.g[from] = 0;
    this.parent[from] = -1;
    this.push(from, this.heuristic(from, tx, ty));
    while (this.heapSize > 0) {
      const node = this.pop();
      if (this.closed[node] === gen) continue;
      this.closed[node] = gen;
      if (node === to) return this.trace(to);
      const x = node % w;
      const gNext = this.g[node] + 1;
      // Fixed neighbour order (up, left, right, down) keeps results deterministic.
      for (let k = 0; k < 4; k++) {
        let n: number;
        if (k === 0) n = node - w;
        else if (k === 1) n = x > 0 ? node - 1 : -1;
        else if (k === 2) n = x < w - 1 ? node + 1 : -1;
        else n = node + w;
        if (n < 0 || n >= this.size || this.blocked[n] !== 0 || this.closed[n] === gen) continue;
        if (this.stamp[n] !== gen || gNext < this.g[n]) {
          this.stamp[n] = gen;
          this.g[n] = gNext;
          this.parent[n] = node;
          this.push(n, gNext + this.heuristic(n, tx, ty));
        }
      }
    }
    return null;
  }

  private heuristic(node: number, tx: number, ty: number): number {
    const x = node % this.widthTiles;
    const y = (node - x) / this.widthTiles;
    // A hair over 1 breaks f-ties toward the goal, which expands far fewer nodes on open ground.
    return (Math.abs(x - tx) + Math.abs(y - ty)) * 1.001;
  }

  private trace(to: number): number[] {
    const out: number[] = [];
    for (let n = to; n !== -1; n = this.parent[n]) out.push(n);
    return out.reverse();
  }

  private push(node: number, f: number): void {
    if (this.heapSize === this.heapNodes.length) this.grow();
    let i = this.heapSize++;
    const order = this.counter++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (this.heapF[p] < f || (this.heapF[p] === f && this.heapOrder[p] < order)) break;
      this.heapNodes[i] = this.heapNodes[p];
      this.heapF[i] = this.heapF[p];
      this.heapOrder[i] = this.heapOrder[p];
      i = p;
    }
    this.heapNodes[i] = node;
    this.heapF[i] = f;
    this.heapOrder[i] = order;
  }

  private pop(): number {
    const top = this.heapNodes[0];
    const size = --this.heapSize;
    if (size > 0) {
      const node = this.heapNodes[size];
      const f = this.heapF[size];
      const order = this.heapOrder[size];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= size) break;
        const r = l + 1;
        let c = l;
        if (r < size && (this.heapF[r] < this.heapF[l] || (this.heapF[r] === this.heapF[l] && this.heapOrder[r] < this.heapOrder[l]))) c = r;
        if (this.heapF[c] > f || (this.heapF[c] === f && this.heapOrder[c] > order)) break;
        this.heapNodes[i] = this.heapNodes[c];
        this.heapF[i] = this.heapF[c];
        this.heapOrder[i] = this.heapOrder[c];
        i = c;
      }
      this.heapNodes[i] = node;
      this.heapF[i] = f;
      this.heapOrder[i] = order;
    }
    return top;
  }

  private grow(): void {
    const n = this.heapNodes.length * 2;
    const nodes = new Int32Array(n);
    nodes.set(this.heapNodes);
    const f = new Float64Array(n);
    f.set(this.heapF);
    const order = new Uint32Array(n);
    order.set(this.heapOrder);
    this.heapNodes = nodes;
    this.heapF = f;
    this.heapOrder = order;
  }
}
