// Place names on the map, from the place tree: sector names above their buildings at every zoom, and
// arena names (rooms) inside them once zoomed in. Drawn at a constant size on screen, whatever the zoom.
// Where names would overlap on screen (a big town zoomed out), the larger places keep theirs.
// Only names in the camera's view are drawn: the generated town of a thousand has 2,457, and the 2D
// canvas draws each (an image of its own canvas) even outside the view, which took most of the frame.
import Phaser from 'phaser';
import type { PlaceTree, TileRect } from '@protocol/places';

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

export interface PlaceLabel {
  text: string;
  kind: 'sector' | 'arena';
  object: Phaser.GameObjects.Text;
  /** Whether the name shows at this zoom (room names only when zoomed in, none over another); drawn only when in view too. */
  shown: boolean;
  /** Tiles covered by the place: bigger places keep their names when names would overlap. */
  areaTiles: number;
}

export class PlaceLabels {
  readonly labels: PlaceLabel[] = [];
  private zoom = -1;
  /** The zoom which names show was last worked out for, and when. */
  private laidOutZoom = -1;
  private laidOutMs = 0;

  constructor(scene: Phaser.Scene, places: PlaceTree, tilePx: number) {
    const sectorStyle = { fontFamily: 'system-ui, sans-serif', fontSize: '14px', fontStyle: 'bold', color: '#fff7e0', stroke: '#1b1b24', strokeThickness: 4 };
    const arenaStyle = { fontFamily: 'system-ui, sans-serif', fontSize: '11px', fontStyle: 'italic', color: '#f4f1ea', stroke: '#1b1b24', strokeThickness: 3 };
    for (const sector of places.sectors) {
      const rects = sector.arenas.flatMap((a) => a.rects);
      if (!rects.length) continue;
      const box = bounds(rects);
      const x = (box.x + box.w / 2) * tilePx;
      const y = Math.max(box.y * tilePx - 2, 18);
      const areaTiles = rects.reduce((s, r) => s + r.w * r.h, 0);
      this.labels.push({
        text: sector.name,
        kind: 'sector',
        object: scene.add.text(x, y, sector.name, sectorStyle).setOrigin(0.5, 1).setDepth(SECTOR_DEPTH),
        shown: true,
        areaTiles,
      });
      // A one-room place is named by its sector already.
      if (sector.arenas.length < 2) continue;
      for (const arena of sector.arenas) {
        const largest = [...arena.rects].sort((a, b) => b.w * b.h - a.w * a.h)[0];
        if (!largest) continue;
        // At the foot of the room: furniture mostly stands along the top wall.
        const object = scene.add
          .text((largest.x + largest.w / 2) * tilePx, (largest.y + largest.h - 0.2) * tilePx, arena.name, arenaStyle)
          .setOrigin(0.5, 1)
          .setDepth(ARENA_DEPTH)
          .setAlpha(0.9);
        this.labels.push({ text: arena.name, kind: 'arena', object, shown: true, areaTiles: arena.rects.reduce((s, r) => s + r.w * r.h, 0) });
      }
    }
    // Sectors before rooms, bigger first: the order names are placed in when they would overlap.
    this.labels.sort((a, b) => (a.kind === b.kind ? b.areaTiles - a.areaTiles : a.kind === 'sector' ? -1 : 1));
  }

  /** Keeps the names at their size on screen, shows room names only when zoomed in, and no name over another; draws those in `view`. */
  update(zoom: number, view: Phaser.Geom.Rectangle): void {
    const moving = zoom !== this.zoom;
    this.zoom = zoom;
    if (moving) for (const l of this.labels) l.object.setScale(1 / zoom);
    if (zoom !== this.laidOutZoom) {
      const crossed = zoom >= ARENA_LABEL_ZOOM !== this.laidOutZoom >= ARENA_LABEL_ZOOM;
      const small = Math.abs(zoom - this.laidOutZoom) <= this.laidOutZoom * RELAYOUT_ZOOM_CHANGE;
      if (!moving || crossed || this.laidOutZoom <= 0 || !small || performance.now() - this.laidOutMs >= RELAYOUT_MS) this.layOut(zoom);
    }
    this.cull(zoom, view);
  }

  /** Draws only the shown names that reach into the view (world px). */
  private cull(zoom: number, view: Phaser.Geom.Rectangle): void {
    const margin = LABEL_GAP_PX / zoom;
    const left = view.x - margin;
    const right = view.x + view.width + margin;
    const top = view.y - margin;
    const bottom = view.y + view.height + margin;
    for (const l of this.labels) {
      const o = l.object;
      // Origin (0.5, 1): the name's foot in the middle; its size on screen is its text's.
      const halfWidth = o.width / zoom / 2;
      o.setVisible(l.shown && o.x + halfWidth > left && o.x - halfWidth < right && o.y > top && o.y - o.height / zoom < bottom);
    }
  }

  /** Which names show at this zoom: room names only when zoomed in, and none over another. */
  private layOut(zoom: number): void {
    this.laidOutZoom = zoom;
    this.laidOutMs = performance.now();
    // Overlap is the same wherever the camera is: screen boxes are world positions times the zoom.
    const taken = new Map<string, Array<[number, number, number, number]>>();
    const cellsOf = (x0: number, y0: number, x1: number, y1: number) => {
      const out: string[] = [];
      for (let i = Math.floor(x0 / GRID_PX); i <= Math.floor(x1 / GRID_PX); i++)
        for (let j = Math.floor(y0 / GRID_PX); j <= Math.floor(y1 / GRID_PX); j++) out.push(`${i},${j}`);
      return out;
    };
    for (const l of this.labels) {
      if (l.kind === 'arena' && zoom < ARENA_LABEL_ZOOM) {
        l.shown = false;
        continue;
      }
      const w = l.object.width + LABEL_GAP_PX;
      const h = l.object.height + LABEL_GAP_PX;
      const x0 = l.object.x * zoom - w / 2;
      const y0 = l.object.y * zoom - h;
      const box: [number, number, number, number] = [x0, y0, x0 + w, y0 + h];
      const cells = cellsOf(...box);
      const clash = cells.some((c) => taken.get(c)?.some((b) => b[0] < box[2] && box[0] < b[2] && b[1] < box[3] && box[1] < b[3]));
      l.shown = !clash;
      if (clash) continue;
      for (const c of cells) taken.set(c, [...(taken.get(c) ?? []), box]);
    }
  }
}

function bounds(rects: TileRect[]): TileRect {
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  return { x, y, w: Math.max(...rects.map((r) => r.x + r.w)) - x, h: Math.max(...rects.map((r) => r.y + r.h)) - y };
}
