// The map's tile layers, drawn for speed. The map never changes, so its layers are drawn once into
// images: a frame then draws a few images instead of thousands of tiles (it matters when the whole town
// is on screen, and in software rendering, where drawing tiles one by one is slow).
// - A map up to MAX_BAKED_PX a side is drawn whole at full size, and its layers dropped.
// - A bigger one (a generated town of a thousand people) is drawn whole, scaled down to fit that size:
//   the overview. Zoomed in past the overview's resolution, square chunks of the map are drawn at full
//   size as they come into view (a few milliseconds' worth a frame) and shown over it, and once they cover the whole view
//   the overview is not drawn (following an agent in a big town); the least recently seen are dropped
//   past MAX_CHUNKS.
import type Phaser from 'phaser';
import type { TilePainter } from './tilePainter';

type Layer = Phaser.Tilemaps.TilemapLayer | Phaser.Tilemaps.TilemapGPULayer;

/** Maps larger than this (px, either side) are baked scaled down: one texture that big is refused by some GPUs. */
export const MAX_BAKED_PX = 4096;
/** Full-size chunks show once an overview pixel would cover more than this many screen pixels. */
const OVERVIEW_MAX_MAGNIFICATION = 1.5;
const CHUNK_PX = 512;
/** Full-size chunks kept at most (1 MB each); enough for the view at the zoom they start at. */
const MAX_CHUNKS = 112;
/** Chunks show only when the view spans this many at most (with those just left, within MAX_CHUNKS). */
const MAX_CHUNKS_IN_VIEW = 64;
/**
 * Chunks are drawn in a frame until this long has gone on them (one at least), so a flight into the town
 * (a click that follows an agent) does not stall its frames: the overview shows where a chunk is missing.
 */
const CHUNK_BUDGET_MS = 6;
/** Chunks above the agents' layers go just over that depth; below, just over the overview. */
const CHUNK_DEPTH_OFFSET = 0.001;

/** What paints the map's layers into textures: from the tile data (TilePainter), or Phaser's tilemap layers. */
export interface MapPainter {
  readonly widthPx: number;
  readonly heightPx: number;
  /** The overview's scale: 1 for a map painted whole at full size. */
  readonly scale: number;
  readonly hasBelow: boolean;
  readonly hasAbove: boolean;
  /** Paints the layers below (or above) the agents into a new texture under `key`: the whole map at the overview's scale, or a region at full size. */
  paint(key: string, above: boolean, region?: { x: number; y: number; size: number }): void;
  /** Called once the whole map is painted at full size: nothing more will be painted. */
  release(): void;
}

/** Paints from the tile data: the overview at a whole number of pixels a tile. */
export function tileDataPainter(scene: Phaser.Scene, tiles: TilePainter): MapPainter {
  const widthPx = tiles.widthTiles * tiles.tilePx;
  const heightPx = tiles.heightTiles * tiles.tilePx;
  const longest = Math.max(tiles.widthTiles, tiles.heightTiles);
  const k = Math.max(widthPx, heightPx) <= MAX_BAKED_PX ? tiles.tilePx : Math.max(1, Math.min(tiles.tilePx - 1, Math.floor(MAX_BAKED_PX / longest)));
  return {
    widthPx,
    heightPx,
    scale: k / tiles.tilePx,
    hasBelow: tiles.hasBelow,
    hasAbove: tiles.hasAbove,
    paint: (key, above, region) => {
      const canvas =
        region !== undefined
          ? tiles.paintRegion(above, region.x, region.y, region.size, region.size)
          : k === tiles.tilePx
            ? tiles.paintRegion(above, 0, 0, widthPx, heightPx)
            : tiles.paintOverview(above, k);
      // A plain texture over the canvas: addCanvas's CanvasTexture reads every pixel back (getImageData) when
      // made, 4 MB a chunk, which was most of what a chunk cost in a click that zooms in.
      scene.textures.addImage(key, canvas as unknown as HTMLImageElement);
    },
    release: () => {},
  };
}

/** Paints with Phaser's tilemap layers (maps the tile painter does not paint): they are drawn into dynamic textures. */
export function phaserLayerPainter(scene: Phaser.Scene, map: Phaser.Tilemaps.Tilemap, below: Layer[], above: Layer[]): MapPainter {
  const scale = Math.min(1, MAX_BAKED_PX / Math.max(map.widthInPixels, map.heightInPixels));
  for (const layer of [...below, ...above]) layer.setVisible(false);
  return {
    widthPx: map.widthInPixels,
    heightPx: map.heightInPixels,
    scale,
    hasBelow: below.length > 0,
    hasAbove: above.length > 0,
    paint: (key, isAbove, region) => {
      const layers = isAbove ? above : below;
      const s = region ? 1 : scale;
      const texture = region
        ? scene.textures.addDynamicTexture(key, region.size, region.size)
        : scene.textures.addDynamicTexture(key, Math.ceil(map.widthInPixels * s), Math.ceil(map.heightInPixels * s));
      if (!texture) return;
      for (const layer of layers) layer.setScale(s).setVisible(true);
      texture.draw(layers, region ? -region.x : 0, region ? -region.y : 0).render();
      for (const layer of layers) layer.setScale(1).setVisible(false);
    },
    // Kept until now only as what chunks are drawn from.
    release: () => {
      for (const layer of [...below, ...above]) layer.destroy();
    },
  };
}

interface Chunk {
  key: string;
  images: Phaser.GameObjects.Image[];
  seen: number;
}

export class MapBackdrop {
  /** The overview's scale: 1 for a map drawn at full size. */
  readonly scale: number;
  private readonly chunks = new Map<string, Chunk>();
  private frame = 0;
  /** The overview images (below and above the agents): hidden while full-size chunks cover the whole view. */
  private readonly overview: Phaser.GameObjects.Image[] = [];

  constructor(
    private readonly scene: Phaser.Scene,
    private readonly painter: MapPainter,
    private readonly aboveDepth: number,
  ) {
    this.scale = painter.scale;
    if (painter.hasBelow) this.bakeWhole('town-map', false, 0);
    if (painter.hasAbove) this.bakeWhole('town-map-above', true, aboveDepth);
    if (this.scale === 1) painter.release();
  }

  /** Paints the layers below or above the agents into one image at that depth, at the overview's scale. */
  private bakeWhole(key: string, above: boolean, depth: number): void {
    this.painter.paint(key, above);
    if (!this.scene.textures.exists(key)) return;
    this.overview.push(
      this.scene.add
        .image(0, 0, key)
        .setOrigin(0, 0)
        .setScale(1 / this.scale)
        .setDepth(depth),
    );
  }

  /** Each frame: full-size chunks for the view when zoomed in past the overview, drawn a few at a time. */
  update(camera: Phaser.Cameras.Scene2D.Camera): void {
    if (this.scale === 1) return;
    this.frame++;
    const view = camera.worldView;
    const x0 = Math.max(0, Math.floor(view.x / CHUNK_PX));
    const y0 = Math.max(0, Math.floor(view.y / CHUNK_PX));
    const x1 = Math.min(Math.ceil(this.painter.widthPx / CHUNK_PX) - 1, Math.floor((view.x + view.width) / CHUNK_PX));
    const y1 = Math.min(Math.ceil(this.painter.heightPx / CHUNK_PX) - 1, Math.floor((view.y + view.height) / CHUNK_PX));
    // Chunks only when few enough cover the view: more would be dropped and drawn again every frame (a town of 10,000,
    // whose overview has 2 px a tile, is magnified past it while a view still spans dozens of chunks).
    const detail = camera.zoom / this.scale > OVERVIEW_MAX_MAGNIFICATION && (x1 - x0 + 1) * (y1 - y0 + 1) <= MAX_CHUNKS_IN_VIEW;
    let drawn = 0;
    const started = performance.now();
    let covered = detail;
    if (detail) {
      for (let cy = y0; cy <= y1; cy++)
        for (let cx = x0; cx <= x1; cx++) {
          const key = `${cx},${cy}`;
          let chunk = this.chunks.get(key);
          if (!chunk) {
            covered = false;
            if (drawn > 0 && performance.now() - started >= CHUNK_BUDGET_MS) continue;
            chunk = this.bakeChunk(cx, cy);
            this.chunks.set(key, chunk);
            drawn++;
          }
          chunk.seen = this.frame;
          for (const image of chunk.images) image.setVisible(true);
        }
    }
    for (const chunk of this.chunks.values()) if (chunk.seen !== this.frame) for (const image of chunk.images) image.setVisible(false);
    // Two scaled draws of the whole overview a frame cost as much as the chunks: none while chunks cover the view (a fresh chunk counts next frame).
    for (const image of this.overview) image.setVisible(!covered || drawn > 0);
    if (this.chunks.size > MAX_CHUNKS) {
      const oldest = [...this.chunks.entries()].sort((a, b) => a[1].seen - b[1].seen).slice(0, this.chunks.size - MAX_CHUNKS);
      for (const [key, chunk] of oldest) {
        for (const image of chunk.images) image.destroy();
        for (const k of [chunk.key, `${chunk.key}-above`]) if (this.scene.textures.exists(k)) this.scene.textures.remove(k);
        this.chunks.delete(key);
      }
    }
  }

  private bakeChunk(cx: number, cy: number): Chunk {
    const key = `town-map-chunk-${cx}-${cy}`;
    const images: Phaser.GameObjects.Image[] = [];
    for (const [above, has, depth, suffix] of [
      [false, this.painter.hasBelow, 0, ''],
      [true, this.painter.hasAbove, this.aboveDepth, '-above'],
    ] as const) {
      if (!has) continue;
      this.painter.paint(`${key}${suffix}`, above, { x: cx * CHUNK_PX, y: cy * CHUNK_PX, size: CHUNK_PX });
      if (!this.scene.textures.exists(`${key}${suffix}`)) continue;
      images.push(
        this.scene.add
          .image(cx * CHUNK_PX, cy * CHUNK_PX, `${key}${suffix}`)
          .setOrigin(0, 0)
          .setDepth(depth + CHUNK_DEPTH_OFFSET),
      );
    }
    return { key, images, seen: this.frame };
  }
}
