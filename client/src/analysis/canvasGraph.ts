// A big relationship graph (hundreds to thousands of agents) drawn straight onto one canvas: every edge in
// one path per style, every node in one path, names only where they are big enough to read. Cytoscape
// styles and caches each element, which at 1,000 nodes and thousands of edges kept the page's main
// thread busy for seconds in tasks of up to 800 ms; here a frame is a few ms. Pan by dragging, zoom
// with the wheel, click a node or an edge. Positions come from the layout worker (layout.ts).

export interface CanvasNode {
  id: string;
  label: string;
  /** Diameter in model px. */
  size: number;
  x: number;
  y: number;
}

export interface CanvasEdge {
  a: string;
  b: string;
  /** Line width in model px. */
  width: number;
  /** Known at the start and never talked in the window. */
  dashed: boolean;
}

/** A name is drawn only when its text would be at least this tall on screen: nothing smaller than can be read. */
export const MIN_LABEL_PX = 9;
const LABEL_MODEL_PX = 10;
const MAX_LABEL_PX = 14;
/** Names drawn a frame at most (the biggest nodes first), so a zoom onto a crowd stays quick. */
const MAX_LABELS = 400;
const PAD_PX = 30;
const CLICK_SLOP_PX = 5;

export class CanvasGraph {
  readonly canvas: HTMLCanvasElement;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly nodes: CanvasNode[];
  private readonly byId: Map<string, CanvasNode>;
  private edges: CanvasEdge[] = [];
  private scale = 1;
  private tx = 0;
  private ty = 0;
  private selected: { kind: 'node'; id: string } | { kind: 'edge'; index: number } | null = null;
  private frame = 0;
  private destroyedFlag = false;
  private readonly resize = new ResizeObserver(() => this.fit());
  private labelsDrawn: Array<{ id: string; x1: number; y1: number; x2: number; y2: number }> = [];

  constructor(
    readonly container: HTMLElement,
    nodes: CanvasNode[],
    private readonly handlers: { onNode(id: string): void; onEdge(a: string, b: string): void },
  ) {
    this.nodes = nodes;
    this.byId = new Map(nodes.map((n) => [n.id, n]));
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'graph-canvas';
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', `relationship graph of ${nodes.length} agents`);
    container.replaceChildren(this.canvas);
    this.ctx = this.canvas.getContext('2d')!;
    this.wire();
    this.fit();
    this.resize.observe(container);
  }

  /** Sets the edges drawn (the strongest first, or all). */
  setEdges(edges: CanvasEdge[]): void {
    this.edges = edges.filter((e) => this.byId.has(e.a) && this.byId.has(e.b));
    this.selected = null;
    this.redraw();
  }

  nodeCount(): number {
    return this.nodes.length;
  }

  edgeCount(): number {
    return this.edges.length;
  }

  /** The middle of an edge in page coordinates (for the browser tests' real clicks). */
  edgeMidpoint(index: number): { x: number; y: number } | null {
    const e = this.edges[index];
    if (!e) return null;
    const [p, q] = [this.byId.get(e.a)!, this.byId.get(e.b)!];
    const box = this.canvas.getBoundingClientRect();
    return { x: box.left + this.sx((p.x + q.x) / 2), y: box.top + this.sy((p.y + q.y) / 2) };
  }

  /** The names drawn in the last frame, as screen boxes. */
  drawnLabels(): Array<{ id: string; x1: number; y1: number; x2: number; y2: number }> {
    return this.labelsDrawn;
  }

  /** The names' size on screen at this zoom (drawn only from MIN_LABEL_PX). */
  labelPx(): number {
    return Math.min(MAX_LABEL_PX, LABEL_MODEL_PX * this.scale);
  }

  destroyed(): boolean {
    return this.destroyedFlag;
  }

  destroy(): void {
    this.destroyedFlag = true;
    cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    this.canvas.remove();
  }

  /** Shows the whole graph in the box. */
  fit(): void {
    const w = this.container.clientWidth || 600;
    const h = this.container.clientHeight || 400;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    this.canvas.style.width = `${w}px`;
    this.canvas.style.height = `${h}px`;
    let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const n of this.nodes) {
      x1 = Math.min(x1, n.x - n.size / 2);
      y1 = Math.min(y1, n.y - n.size / 2);
      x2 = Math.max(x2, n.x + n.size / 2);
      y2 = Math.max(y2, n.y + n.size / 2);
    }
    if (!Number.isFinite(x1)) [x1, y1, x2, y2] = [-1, -1, 1, 1];
    this.scale = Math.min((w - 2 * PAD_PX) / Math.max(1, x2 - x1), (h - 2 * PAD_PX) / Math.max(1, y2 - y1), 2);
    this.tx = w / 2 - ((x1 + x2) / 2) * this.scale;
    this.ty = h / 2 - ((y1 + y2) / 2) * this.scale;
    this.redraw();
  }

  private sx(x: number): number {
    return x * this.scale + this.tx;
  }

  private sy(y: number): number {
    return y * this.scale + this.ty;
  }

  private redraw(): void {
    if (this.frame || this.destroyedFlag) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  private draw(): void {
    const { ctx } = this;
    const dpr = window.devicePixelRatio || 1;
    const w = this.canvas.width / dpr;
    const h = this.canvas.height / dpr;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = '#181e2c';
    ctx.fillRect(0, 0, w, h);
    // Edges, grouped by style so each group is one path.
    const groups = new Map<string, CanvasEdge[]>();
    for (const e of this.edges) {
      const key = `${e.dashed ? 'd' : 's'}${Math.max(0.5, Math.round(e.width * this.scale * 2) / 2)}`;
      let list = groups.get(key);
      if (!list) groups.set(key, (list = []));
      list.push(e);
    }
    ctx.strokeStyle = 'rgba(138, 151, 181, 0.55)';
    for (const [key, list] of groups) {
      ctx.lineWidth = Number(key.slice(1));
      ctx.setLineDash(key[0] === 'd' ? [4, 3] : []);
      ctx.beginPath();
      for (const e of list) {
        const [p, q] = [this.byId.get(e.a)!, this.byId.get(e.b)!];
        ctx.moveTo(this.sx(p.x), this.sy(p.y));
        ctx.lineTo(this.sx(q.x), this.sy(q.y));
      }
      ctx.stroke();
    }
    ctx.setLineDash([]);
    const sel = this.selected;
    if (sel?.kind === 'edge' && this.edges[sel.index]) {
      const e = this.edges[sel.index];
      const [p, q] = [this.byId.get(e.a)!, this.byId.get(e.b)!];
      ctx.strokeStyle = '#ffb85c';
      ctx.lineWidth = Math.max(2, e.width * this.scale);
      ctx.beginPath();
      ctx.moveTo(this.sx(p.x), this.sy(p.y));
      ctx.lineTo(this.sx(q.x), this.sy(q.y));
      ctx.stroke();
    }
    // Nodes: at least 2 px across, so a whole town still shows as dots.
    ctx.fillStyle = '#6fb1ff';
    ctx.beginPath();
    for (const n of this.nodes) {
      const r = Math.max(1, (n.size / 2) * this.scale);
      const [x, y] = [this.sx(n.x), this.sy(n.y)];
      if (x < -r || y < -r || x > w + r || y > h + r) continue;
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    }
    ctx.fill();
    if (sel?.kind === 'node') {
      const n = this.byId.get(sel.id)!;
      ctx.fillStyle = '#ffb85c';
      ctx.beginPath();
      ctx.arc(this.sx(n.x), this.sy(n.y), Math.max(2, (n.size / 2) * this.scale), 0, 2 * Math.PI);
      ctx.fill();
    }
    this.drawLabels(w, h);
  }

  /** Names under their nodes, on a dark plate, where they are big enough to read and do not cover one already drawn. */
  private drawLabels(w: number, h: number): void {
    this.labelsDrawn = [];
    const px = Math.min(MAX_LABEL_PX, LABEL_MODEL_PX * this.scale);
    if (px < MIN_LABEL_PX) return;
    const { ctx } = this;
    ctx.font = `${px}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'top';
    const inView = this.nodes.filter((n) => {
      const [x, y] = [this.sx(n.x), this.sy(n.y)];
      return x > 0 && y > 0 && x < w && y < h;
    });
    inView.sort((p, q) => q.size - p.size);
    for (const n of inView) {
      if (this.labelsDrawn.length >= MAX_LABELS) break;
      const width = ctx.measureText(n.label).width;
      const x = this.sx(n.x);
      const y = this.sy(n.y) + (n.size / 2) * this.scale + 2;
      const box = { id: n.id, x1: x - width / 2 - 1, y1: y - 1, x2: x + width / 2 + 1, y2: y + px + 1 };
      if (this.labelsDrawn.some((b) => b.x1 < box.x2 && box.x1 < b.x2 && b.y1 < box.y2 && box.y1 < b.y2)) continue;
      ctx.fillStyle = 'rgba(24, 30, 44, 0.75)';
      ctx.fillRect(box.x1, box.y1, box.x2 - box.x1, box.y2 - box.y1);
      ctx.fillStyle = '#f4f1ea';
      ctx.fillText(n.label, x, y);
      this.labelsDrawn.push(box);
    }
  }

  private wire(): void {
    let drag: { x: number; y: number; moved: boolean } | null = null;
    this.canvas.addEventListener('pointerdown', (e) => {
      drag = { x: e.clientX, y: e.clientY, moved: false };
      this.canvas.setPointerCapture(e.pointerId);
    });
    this.canvas.addEventListener('pointermove', (e) => {
      if (!drag) return;
      const [dx, dy] = [e.clientX - drag.x, e.clientY - drag.y];
      if (!drag.moved && Math.hypot(dx, dy) < CLICK_SLOP_PX) return;
      drag.moved = true;
      this.tx += dx;
      this.ty += dy;
      drag.x = e.clientX;
      drag.y = e.clientY;
      this.redraw();
    });
    this.canvas.addEventListener('pointerup', (e) => {
      const wasClick = drag && !drag.moved;
      drag = null;
      if (!wasClick) return;
      const box = this.canvas.getBoundingClientRect();
      this.click(e.clientX - box.left, e.clientY - box.top);
    });
    this.canvas.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        const box = this.canvas.getBoundingClientRect();
        const [x, y] = [e.clientX - box.left, e.clientY - box.top];
        const k = Math.exp(-e.deltaY * 0.0015);
        const scale = Math.min(8, Math.max(0.005, this.scale * k));
        this.tx = x - ((x - this.tx) * scale) / this.scale;
        this.ty = y - ((y - this.ty) * scale) / this.scale;
        this.scale = scale;
        this.redraw();
      },
      { passive: false },
    );
  }

  /** A click picks the node under it, else the edge nearest it (within a few px). */
  private click(x: number, y: number): void {
    let best: CanvasNode | null = null;
    let bestD = Infinity;
    for (const n of this.nodes) {
      const d = Math.hypot(this.sx(n.x) - x, this.sy(n.y) - y);
      if (d <= Math.max(4, (n.size / 2) * this.scale) && d < bestD) [best, bestD] = [n, d];
    }
    if (best) {
      this.selected = { kind: 'node', id: best.id };
      this.redraw();
      this.handlers.onNode(best.id);
      return;
    }
    let edge = -1;
    let edgeD = CLICK_SLOP_PX;
    this.edges.forEach((e, i) => {
      const [p, q] = [this.byId.get(e.a)!, this.byId.get(e.b)!];
      const d = distanceToSegment(x, y, this.sx(p.x), this.sy(p.y), this.sx(q.x), this.sy(q.y));
      if (d < edgeD) [edge, edgeD] = [i, d];
    });
    if (edge < 0) return;
    this.selected = { kind: 'edge', index: edge };
    this.redraw();
    this.handlers.onEdge(this.edges[edge].a, this.edges[edge].b);
  }
}

function distanceToSegment(x: number, y: number, x1: number, y1: number, x2: number, y2: number): number {
  const [dx, dy] = [x2 - x1, y2 - y1];
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / len2));
  return Math.hypot(x - (x1 + t * dx), y - (y1 + t * dy));
}
