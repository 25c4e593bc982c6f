// Place names on the map, from the place tree: sector names above their buildings at every zoom, and
// arena names (rooms) inside them once zoomed in. Drawn at a constant size on screen, whatever the zoom.
import Phaser from 'phaser';
import type { PlaceTree, TileRect } from '@protocol/places';

/** Arena names show from this zoom on (a room is then wide enough on screen for its name). */
export const ARENA_LABEL_ZOOM = 0.75;

export interface PlaceLabel {
  text: string;
  kind: 'sector' | 'arena';
  object: Phaser.GameObjects.Text;
}

export class PlaceLabels {
  readonly labels: PlaceLabel[] = [];
  private zoom = -1;

  constructor(scene: Phaser.Scene, places: PlaceTree, tilePx: number) {
    const sectorStyle = { fontFamily: 'system-ui, sans-serif', fontSize: '14px', fontStyle: 'bold', color: '#fff7e0', stroke: '#1b1b24', strokeThickness: 4 };
    const arenaStyle = { fontFamily: 'system-ui, sans-serif', fontSize: '11px', fontStyle: 'italic', color: '#f4f1ea', stroke: '#1b1b24', strokeThickness: 3 };
    for (const sector of places.sectors) {
      const rects = sector.arenas.flatMap((a) => a.rects);
      if (!rects.length) continue;
      const box = bounds(rects);
      const x = (box.x + box.w / 2) * tilePx;
      const y = Math.max(box.y * tilePx - 2, 18);
      this.labels.push({ text: sector.name, kind: 'sector', object: scene.add.text(x, y, sector.name, sectorStyle).setOrigin(0.5, 1).setDepth(30) });
      // A one-room place is named by its sector already.
      if (sector.arenas.length < 2) continue;
      for (const arena of sector.arenas) {
        const largest = [...arena.rects].sort((a, b) => b.w * b.h - a.w * a.h)[0];
        if (!largest) continue;
        // At the foot of the room: furniture mostly stands along the top wall.
        const object = scene.add
          .text((largest.x + largest.w / 2) * tilePx, (largest.y + largest.h - 0.2) * tilePx, arena.name, arenaStyle)
          .setOrigin(0.5, 1)
          .setDepth(29)
          .setAlpha(0.9);
        this.labels.push({ text: arena.name, kind: 'arena', object });
      }
    }
  }

  /** Keeps the names at their size on screen, and shows room names only when zoomed in. */
  update(zoom: number): void {
    if (zoom === this.zoom) return;
    this.zoom = zoom;
    for (const l of this.labels) {
      l.object.setScale(1 / zoom);
      l.object.setVisible(l.kind === 'sector' || zoom >= ARENA_LABEL_ZOOM);
    }
  }
}

function bounds(rects: TileRect[]): TileRect {
  const x = Math.min(...rects.map((r) => r.x));
  const y = Math.min(...rects.map((r) => r.y));
  return { x, y, w: Math.max(...rects.map((r) => r.x + r.w)) - x, h: Math.max(...rects.map((r) => r.y + r.h)) - y };
}
