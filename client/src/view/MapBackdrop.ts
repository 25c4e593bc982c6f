// The map's tile layers, drawn for speed. The map never changes, so its layers are drawn once into
// images: a frame then draws a few images instead of thousands of tiles (it matters when the whole town
// is on screen, and in software rendering, where drawing tiles one by one is slow).
// - A map up to MAX_BAKED_PX a side is drawn whole at full size, and its layers dropped.
// - A bigger one (a generated town of a thousand people) is drawn whole, scaled down to fit that size:
//   the overview. Zoomed in past the overview's resolution, square chunks of the map are drawn at full
//   size as they come into view (a few a frame) and shown over it, and once they cover the whole view
//   the overview is not drawn (following an agent in a big town); the least recently seen are dropped
//   past MAX_CHUNKS.
import type Phaser from 'phaser';

type Layer = Phaser.Tilemaps.TilemapLayer | Phaser.Tilemaps.TilemapGPULayer;

/** Maps larger than this (px, either side) are baked scaled down: one texture that big is refused by some GPUs. */
export const MAX_BAKED_PX = 4096;
/** Full-size chunks show once an overview pixel would cover more than this many screen pixels. */
const OVERVIEW_MAX_MAGNIFICATION = 1.5;
const CHUNK_PX = 1024;
/** Full-size chunks kept at most (4 MB each); enough for the view at the zoom they start at. */
const MAX_CHUNKS = 28;
/** Chunks drawn per frame at most, so flying across town does not stall a frame. */
const CHUNKS_PER_FRAME = 2;
/** Chunks above the agents' layers go just over that depth; below, just over the overview. */
const CHUNK_DEPTH_OFFSET = 0.001;

interface Chunk {
  key: string;
  images: Phaser.GameObjects.Image[];
  seen: number;
}

export class MapBackdrop {
  /** The overview's scale: 1 for a map drawn at full size. */
  readonly scale: number;
  private readonly chunks = new Map<string, Chunk>();
  private readonly mapPx: { width: number; height: number };
  private frame = 0;
  /** The overview images (below and above the agents): hidden while full-size chunks cover the whole view. */
  private readonly overview: Phaser.GameObjects.Image[] = [];

  constructor(
    private readonly scene: Phaser.Scene,
    map: Phaser.Tilemaps.Tilemap,
    private readonly below: Layer[],
    private readonly above: Layer[],
    private readonly aboveDepth: number,
  ) {
    this.scale = Math.min(1, MAX_BAKED_PX / Math.max(map.widthInPixels, map.heightInPixels));
    const keep = this.scale < 1;
    this.bakeWhole('town-map', below, 0, map, keep);
    this.bakeWhole('town-map-above', above, aboveDepth, map, keep);
    // Kept only as what chunks are drawn from.
    for (const layer of keep ? [...below, ...above] : []) layer.setVisible(false);
    this.mapPx = { width: map.widthInPixels, height: map.heightInPixels };
  }

  /** Draws the layers into one image at that depth, scaled to the overview's scale (dropping them, unless kept). */
  private bakeWhole(key: string, layers: Layer[], depth: number, map: Phaser.Tilemaps.Tilemap, keep: boolean): void {
    if (layers.length === 0) return;
    const s = this.scale;
    const texture = this.scene.textures.addDynamicTexture(key, Math.ceil(map.widthInPixels * s), Math.ceil(map.heightInPixels * s));
    if (!texture) return;
    for (const layer of layers) layer.setScale(s);
    texture.draw(layers, 0, 0).render();
    for (const layer of layers) layer.setScale(1);
    if (!keep) for (const layer of layers) layer.destroy();
    this.overview.push(
      this.scene.add
        .image(0, 0, key)
        .setOrigin(0, 0)
        .setScale(1 / s)
        .setDepth(depth),
    );
  }

  /** Each frame: full-size chunks for the view when zoomed in past the overview, drawn a few at a time. */
  update(camera: Phaser.Cameras.Scene2D.Camera): void {
    if (this.scale === 1) return;
    this.frame++;
    const detail = camera.zoom / this.scale > OVERVIEW_MAX_MAGNIFICATION;
    const view = camera.worldView;
    let drawn = 0;
    let covered = detail;
    if (detail) {
      const x0 = Math.max(0, Math.floor(view.x / CHUNK_PX));
      const y0 = Math.max(0, Math.floor(view.y / CHUNK_PX));
      const x1 = Math.min(Math.ceil(this.mapPx.width / CHUNK_PX) - 1, Math.floor((view.x + view.width) / CHUNK_PX));
      const y1 = Math.min(Math.ceil(this.mapPx.height / CHUNK_PX) - 1, Math.floor((view.y + view.height) / CHUNK_PX));
      for (let cy = y0; cy <= y1; cy++)
        for (let cx = x0; cx <= x1; cx++) {
          const key = `${cx},${cy}`;
          let chunk = this.chunks.get(key);
          if (!chunk) {
            covered = false;
            if (drawn >= CHUNKS_PER_FRAME) continue;
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
    for (const [layers, depth, suffix] of [
      [this.below, 0, ''],
      [this.above, this.aboveDepth, '-above'],
    ] as const) {
      if (layers.length === 0) continue;
      const texture = this.scene.textures.addDynamicTexture(`${key}${suffix}`, CHUNK_PX, CHUNK_PX);
      if (!texture) continue;
      for (const layer of layers) layer.setVisible(true);
      texture.draw(layers, -cx * CHUNK_PX, -cy * CHUNK_PX).render();
      for (const layer of layers) layer.setVisible(false);
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
