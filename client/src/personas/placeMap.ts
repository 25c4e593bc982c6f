// A drawn plan of the town for picking places: every arena of the place tree (GET /api/town `places`)
// as its tile rectangles, objects as small squares, sector names on top. A click gives the address of
// the object or arena under the pointer; the place tree beside it gives the same addresses as buttons.
import type { PlaceTree, TileRect } from '@protocol/places';
import { el } from '../ui/dom';

const SECTOR_COLOURS = ['#3d5a80', '#6a4c93', '#2a9d8f', '#8d6a3a', '#9c3d54', '#4f772d', '#5c677d', '#b5651d', '#1d7874', '#7b2cbf'];

interface Hit {
  address: string;
  rect: TileRect;
  kind: 'arena' | 'object';
}

export class PlaceMap {
  readonly canvas = el('canvas', { className: 'place-map' });
  readonly tree = el('div', { className: 'place-tree' });
  private readonly hits: Hit[] = [];
  private readonly widthTiles: number;
  private readonly heightTiles: number;
  private scale = 1;
  private marked = new Map<string, string>();
  private hover: string | null = null;

  constructor(
    private readonly places: PlaceTree,
    private readonly onPick: (address: string) => void,
  ) {
    let w = 1;
    let h = 1;
    for (const sector of places.sectors)
      for (const arena of sector.arenas) {
        for (const rect of arena.rects) {
          this.hits.push({ address: arena.address, rect, kind: 'arena' });
          w = Math.max(w, rect.x + rect.w);
          h = Math.max(h, rect.y + rect.h);
        }
        // Objects before arenas in hit order: the smaller thing under the pointer wins.
        for (const o of arena.objects) this.hits.unshift({ address: o.address, rect: o.rect, kind: 'object' });
      }
    this.widthTiles = w;
    this.heightTiles = h;
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', `plan of ${places.world}: click a place to pick it`);
    this.canvas.addEventListener('click', (e) => {
      const hit = this.hitAt(e.offsetX, e.offsetY);
      if (hit) this.onPick(hit.address);
    });
    this.canvas.addEventListener('mousemove', (e) => {
      const hit = this.hitAt(e.offsetX, e.offsetY);
      const address = hit?.address ?? null;
      if (address === this.hover) return;
      this.hover = address;
      this.canvas.title = address ?? '';
      this.draw();
    });
    this.buildTree();
  }

  /** Draws at `widthPx` wide (the height follows the town's shape). */
  resize(widthPx: number): void {
    this.scale = Math.max(1, widthPx / this.widthTiles);
    this.canvas.width = Math.round(this.widthTiles * this.scale);
    this.canvas.height = Math.round(this.heightTiles * this.scale);
    this.draw();
  }

  /** Places to show as chosen: address -> a short label (e.g. "home", "work", "2"). */
  mark(marked: Map<string, string>): void {
    this.marked = marked;
    this.draw();
  }

  /** Page coordinates of the middle of a place, for a real click in the browser tests. */
  positionOf(address: string): { x: number; y: number } | null {
    const hit = this.hits.find((h) => h.address === address);
    if (!hit) return null;
    const box = this.canvas.getBoundingClientRect();
    const sx = box.width / this.canvas.width;
    return { x: box.left + (hit.rect.x + hit.rect.w / 2) * this.scale * sx, y: box.top + (hit.rect.y + hit.rect.h / 2) * this.scale * sx };
  }

  private hitAt(offsetX: number, offsetY: number): Hit | null {
    const box = this.canvas.getBoundingClientRect();
    const k = this.canvas.width / (box.width || this.canvas.width);
    const tx = (offsetX * k) / this.scale;
    const ty = (offsetY * k) / this.scale;
    return this.hits.find((h) => tx >= h.rect.x && tx < h.rect.x + h.rect.w && ty >= h.rect.y && ty < h.rect.y + h.rect.h) ?? null;
  }

  private draw(): void {
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return;
    const s = this.scale;
    ctx.fillStyle = '#161b26';
    ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    const markedSectors = new Set([...this.marked.keys()].map((a) => a.split(': ')[0]));
    this.places.sectors.forEach((sector, i) => {
      const colour = SECTOR_COLOURS[i % SECTOR_COLOURS.length];
      for (const arena of sector.arenas) {
        const chosen = this.marked.has(arena.address) || [...this.marked.keys()].some((a) => a.startsWith(`${arena.address}: `));
        for (const r of arena.rects) {
          ctx.fillStyle = colour;
          ctx.globalAlpha = this.hover === arena.address ? 0.95 : chosen ? 0.85 : markedSectors.has(sector.name) ? 0.6 : 0.45;
          ctx.fillRect(r.x * s, r.y * s, r.w * s, r.h * s);
          ctx.globalAlpha = 1;
          ctx.strokeStyle = chosen ? '#ffd166' : '#0d1017';
          ctx.lineWidth = chosen ? 2 : 1;
          ctx.strokeRect(r.x * s + 0.5, r.y * s + 0.5, r.w * s - 1, r.h * s - 1);
        }
        for (const o of arena.objects) {
          const on = this.marked.has(o.address) || this.hover === o.address;
          ctx.fillStyle = on ? '#ffd166' : '#e8e2d0';
          ctx.globalAlpha = on ? 1 : 0.55;
          ctx.fillRect(o.rect.x * s + 1, o.rect.y * s + 1, Math.max(2, o.rect.w * s - 2), Math.max(2, o.rect.h * s - 2));
          ctx.globalAlpha = 1;
        }
      }
    });
    ctx.font = `${Math.max(9, Math.round(s * 0.9))}px system-ui, sans-serif`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    for (const sector of this.places.sectors) {
      const rects = sector.arenas.flatMap((a) => a.rects);
      if (!rects.length) continue;
      const x0 = Math.min(...rects.map((r) => r.x));
      const x1 = Math.max(...rects.map((r) => r.x + r.w));
      const y0 = Math.min(...rects.map((r) => r.y));
      ctx.fillStyle = '#0d1017';
      ctx.globalAlpha = 0.7;
      const label = sector.name;
      const width = ctx.measureText(label).width + 6;
      ctx.fillRect(((x0 + x1) / 2) * s - width / 2, y0 * s + 1, width, Math.max(12, s * 1.1));
      ctx.globalAlpha = 1;
      ctx.fillStyle = '#f4f1ea';
      ctx.fillText(label, ((x0 + x1) / 2) * s, y0 * s + Math.max(7, s * 0.6));
    }
    for (const [address, tag] of this.marked) {
      const hit = this.hits.find((h) => h.address === address);
      if (!hit || !tag) continue;
      const cx = (hit.rect.x + hit.rect.w / 2) * s;
      const cy = (hit.rect.y + hit.rect.h / 2) * s;
      ctx.fillStyle = '#ffd166';
      ctx.fillRect(cx - 14, cy - 7, 28, 14);
      ctx.fillStyle = '#161b26';
      ctx.fillText(tag, cx, cy);
    }
  }

  /** world > sector > arena > object as buttons, for picking without the map. */
  private buildTree(): void {
    const pick = (address: string, text: string) => {
      const b = el('button', { type: 'button', className: 'link', textContent: text });
      b.dataset.address = address;
      b.addEventListener('click', () => this.onPick(address));
      return b;
    };
    this.tree.replaceChildren(
      ...this.places.sectors.map((sector) =>
        el(
          'details',
          {},
          el('summary', { textContent: sector.name }),
          el(
            'ul',
            {},
            ...sector.arenas.map((arena) =>
              el(
                'li',
                {},
                pick(arena.address, arena.name),
                arena.objects.length ? el('span', { className: 'objects' }, ...arena.objects.map((o) => pick(o.address, o.name))) : '',
              ),
            ),
          ),
        ),
      ),
    );
  }
}
