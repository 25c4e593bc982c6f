// Place names on the map, from the place tree: sector names above their buildings at every zoom, and
// arena names (rooms) inside them once zoomed in. Drawn at a constant size on screen, whatever the zoom.
// Where names would overlap on screen (a big town zoomed out), the larger places keep theirs. Zoomed out,
// agents' emoji and bubbles yield to the names drawn, except the followed agent's: a name under those is
// not drawn while it is covered (markLayout.ts).
// A name is made (an image of a shared label atlas, labelAtlas.ts) the first time it is drawn, and only
// names in the camera's view are drawn: the generated town of 10,000 has 19,000 places, and a text
// object each (a canvas each) took minutes to make and most of every frame.
import type Phaser from 'phaser';
import type { PlaceTree, TileRect } from '@protocol/places';
import { BoxGrid } from './boxGrid';
import { LabelAtlas } from './labelAtlas';

/** Arena names show from this zoom on (a room is then wide enough on screen for its name). */
export const ARENA_LABEL_ZOOM = 0.75;

/**
 * While the zoom moves, which names show is worked out again when it has moved by more than this share,
 * or moved at all and RELAYOUT_MS have passed (an easing camera never quite stops), and once it stops.
 */
const RELAYOUT_ZOOM_CHANGE = 0.02;
const RELAYOUT_MS = 200;
/** Over the map's foreground layers (roofs, tree tops: depth 1000) and the agents' names. */
const SECTOR_DEPTH = 1100;
const ARENA_DEPTH = 1099;
/** Screen px between two names. */
const LABEL_GAP_PX = 4;
const GRID_PX = 128;
/** Measuring names ahead: at most this long at a time, and at least once in this long even when the page is never idle. */
const IDLE_SLICE_MS = 4;
const IDLE_WAIT_MS = 250;

export interface PlaceLabel {
  text: string;
  kind: 'sector' | 'arena';
  /** The middle of the name's foot, world px. */
  x: number;
  y: number;
  /** Its size on screen, px (measured when first laid out; -1 before). */
  width: number;
  height: number;
  /** Whether the name shows at this zoom (room names only when zoomed in, none over another); drawn only when in view too. */
  shown: boolean;
  /** Whether it shows and reaches into the camera's view: drawn, unless `covered`. */
  inView: boolean;
  /** Covered by the followed agent's emoji or speech bubble (markLayout.ts): not drawn while it is. */
  covered: boolean;
  /** The name's image, made the first time it is drawn. */
  object: Phaser.GameObjects.Image | null;
  /** Tiles covered by the place: bigger places keep their names when names would overlap. */
  areaTiles: number;
}

const SECTOR_STYLE = { font: 'bold 14px system-ui, sans-serif', color: '#fff7e0', stroke: '#1b1b24', strokePx: 4, rowPx: 21 };
const ARENA_STYLE = { font: 'italic 11px system-ui, sans-serif', color: '#f4f1ea', stroke: '#1b1b24', strokePx: 3, rowPx: 17 };

export class PlaceLabels {
  readonly labels: PlaceLabel[] = [];
  private readonly atlases: Record<PlaceLabel['kind'], LabelAtlas>;
  private zoom = -1;
  /** The zoom which names show was last worked out for, and when. */
  private laidOutZoom = -1;
  private laidOutMs = 0;
  /** The names shown in the camera's view (drawn unless covered), and a count bumped whenever that set changes. */
  readonly inView: PlaceLabel[] = [];
  inViewVersion = 0;
  private covered: PlaceLabel[] = [];

  constructor(
    private readonly scene: Phaser.Scene,
    places: PlaceTree,
    tilePx: number,
  ) {
    this.atlases = { sector: new LabelAtlas(scene, 'place-sectors', SECTOR_STYLE), arena: new LabelAtlas(scene, 'place-arenas', ARENA_STYLE) };
    const label = (text: string, kind: PlaceLabel['kind'], x: number, y: number, areaTiles: number): PlaceLabel => ({
      text,
      kind,
      x,
      y,
      width: -1,
      height: kind === 'sector' ? SECTOR_STYLE.rowPx : ARENA_STYLE.rowPx,
      shown: true,
      inView: false,
      covered: false,
      object: null,
      areaTiles,
    });
    for (const sector of places.sectors) {
      const rects = sector.arenas.flatMap((a) => a.rects);
      if (!rects.length) continue;
      const box = bounds(rects);
      const areaTiles = rects.reduce((s, r) => s + r.w * r.h, 0);
      this.labels.push(label(sector.name, 'sector', (box.x + box.w / 2) * tilePx, Math.max(box.y * tilePx - 2, 18), areaTiles));
      // A one-room place is named by its sector already.
      if (sector.arenas.length < 2) continue;
      for (const arena of sector.arenas) {
        const largest = [...arena.rects].sort((a, b) => b.w * b.h - a.w * a.h)[0];
        if (!largest) continue;
        // At the foot of the room: furniture mostly stands along the top wall.
        const areaTiles = arena.rects.reduce((s, r) => s + r.w * r.h, 0);
        this.labels.push(label(arena.name, 'arena', (largest.x + largest.w / 2) * tilePx, (largest.y + largest.h - 0.2) * tilePx, areaTiles));
      }
    }
    // Sectors before rooms, bigger first: the order names are placed in when they would overlap.
    this.labels.sort((a, b) => (a.kind === b.kind ? b.areaTiles - a.areaTiles : a.kind === 'sector' ? -1 : 1));
    this.measureWhenIdle();
  }

  /**
   * Measures every name's width a few milliseconds at a time while the page is idle, so the first zoom
   * past ARENA_LABEL_ZOOM does not measure thousands of room names in one frame (300 ms in the town of
   * 1,000, on the click that follows an agent). A name laid out before it is measured is measured then.
   */
  private measureWhenIdle(): void {
    let next = 0;
    const measure = (deadline?: IdleDeadline) => {
      // Called after IDLE_WAIT_MS without an idle moment, it has no time left: it takes a slice all the same.
      const slice = deadline && !deadline.didTimeout ? Math.min(IDLE_SLICE_MS, deadline.timeRemaining()) : IDLE_SLICE_MS;
      const end = performance.now() + slice;
      for (let first = true; next < this.labels.length && (first || performance.now() < end); next++, first = false) {
        const l = this.labels[next];
        if (l.width < 0) l.width = this.atlases[l.kind].widthOf(l.text);
      }
      if (next < this.labels.length) later(measure);
    };
    const later = (f: (deadline?: IdleDeadline) => void) =>
      typeof requestIdleCallback === 'function' ? requestIdleCallback(f, { timeout: IDLE_WAIT_MS }) : setTimeout(f, IDLE_WAIT_MS);
    later(measure);
  }

  /** A name's box in the world at this zoom (px). */
  static box(l: PlaceLabel, zoom: number): { x: number; y: number; width: number; height: number } {
    return { x: l.x - l.width / zoom / 2, y: l.y - l.height / zoom, width: l.width / zoom, height: l.height / zoom };
  }

  /** Keeps the names at their size on screen, shows room names only when zoomed in, and no name over another; draws those in `view`. */
  update(zoom: number, view: Phaser.Geom.Rectangle): void {
    const moving = zoom !== this.zoom;
    this.zoom = zoom;
    if (moving) for (const l of this.labels) l.object?.setScale(1 / zoom);
    if (zoom !== this.laidOutZoom) {
      const crossed = zoom >= ARENA_LABEL_ZOOM !== this.laidOutZoom >= ARENA_LABEL_ZOOM;
      const small = Math.abs(zoom - this.laidOutZoom) <= this.laidOutZoom * RELAYOUT_ZOOM_CHANGE;
      if (!moving || crossed || this.laidOutZoom <= 0 || !small || performance.now() - this.laidOutMs >= RELAYOUT_MS) this.layOut(zoom);
    }
    this.cull(zoom, view);
    this.atlases.sector.flush();
    this.atlases.arena.flush();
  }

  /** Draws only the shown names that reach into the view (world px), making each the first time. */
  private cull(zoom: number, view: Phaser.Geom.Rectangle): void {
    const margin = LABEL_GAP_PX / zoom;
    const left = view.x - margin;
    const right = view.x + view.width + margin;
    const top = view.y - margin;
    const bottom = view.y + view.height + margin;
    this.inView.length = 0;
    for (const l of this.labels) {
      // The foot's middle is at (x, y); its size on screen is the text's.
      const halfWidth = l.width / zoom / 2;
      const inView = l.shown && l.x + halfWidth > left && l.x - halfWidth < right && l.y > top && l.y - l.height / zoom < bottom;
      if (inView && !l.object) l.object = this.make(l, zoom);
      l.object?.setVisible(inView && !l.covered);
      if (inView) this.inView.push(l);
      if (inView !== l.inView) {
        l.inView = inView;
        this.inViewVersion++;
      }
    }
  }

  /** The names covered by the followed agent's emoji or bubble from now on (none: []); they are not drawn while they are. */
  cover(names: readonly PlaceLabel[]): void {
    for (const l of this.covered) {
      l.covered = false;
      l.object?.setVisible(l.inView);
    }
    this.covered = [...names];
    for (const l of names) {
      l.covered = true;
      l.object?.setVisible(false);
    }
  }

  private make(l: PlaceLabel, zoom: number): Phaser.GameObjects.Image {
    const { key, frame } = this.atlases[l.kind].frameOf(l.text);
    const image = this.scene.add
      .image(l.x, l.y, key, frame)
      .setOrigin(0.5, 1)
      .setScale(1 / zoom);
    return l.kind === 'sector' ? image.setDepth(SECTOR_DEPTH) : image.setDepth(ARENA_DEPTH).setAlpha(0.9);
  }

  /** Which names show at this zoom: room names only when zoomed in, and none over another. */
  private layOut(zoom: number): void {
    this.laidOutZoom = zoom;
    this.laidOutMs = performance.now();
    // Overlap is the same wherever the camera is: screen boxes are world positions times the zoom.
    const taken = new BoxGrid(GRID_PX);
    for (const l of this.labels) {
      if (l.kind === 'arena' && zoom < ARENA_LABEL_ZOOM) {
        l.shown = false;
        continue;
      }
      if (l.width < 0) l.width = this.atlases[l.kind].widthOf(l.text);
      const w = l.width + LABEL_GAP_PX;
      const h = l.height + LABEL_GAP_PX;
      const x0 = l.x * zoom - w / 2;
      const y0 = l.y * zoom - h;
      l.shown = !taken.hits(x0, y0, x0 + w, y0 + h);
      if (l.shown) taken.place(x0, y0, x0 + w, y0 + h);
    }
  }
}

function bounds(rects: TileRect[]): TileRect {
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  return { x, y, w: Math.max(...rects.map((r) => r.x + r.w)) - x, h: Math.max(...rects.map((r) => r.y + r.h)) - y };
}
