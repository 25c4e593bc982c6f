// The map's tile layers painted straight from the Tiled JSON onto 2D canvases, with no Phaser tilemap:
// Phaser makes an object for every cell of every layer as it reads a map (7 M for the generated town of
// 10,000, minutes and gigabytes), where this keeps each layer as one flat array of tile ids.
// - A region (a chunk, or a small map whole) is painted at full size, one image draw per tile.
// - The overview of a big map is composed pixel by pixel at a whole number of pixels per tile: each
//   tile of the tilesets is scaled down once (smoothed), then copied or blended into place.
// Maps using what this does not paint (flipped or rotated tiles, layer offsets, opacity or tint, tiles
// of another size than the map's) are drawn by Phaser's tilemap instead (phaserPainter.ts).
import type { DrawnLayer } from './mapLayers';

/** A tile layer as the Tiled JSON has it (the fields read here). */
interface TiledTileLayer {
  name: string;
  type: string;
  data?: number[] | string;
  encoding?: string;
  compression?: string;
  layers?: TiledTileLayer[];
  opacity?: number;
  offsetx?: number;
  offsety?: number;
  parallaxx?: number;
  parallaxy?: number;
  tintcolor?: string;
}

export interface TiledMapJson {
  width: number;
  height: number;
  tilewidth: number;
  tileheight: number;
  infinite?: boolean;
  layers?: TiledTileLayer[];
  tilesets: Array<{
    name: string;
    firstgid: number;
    image?: string;
    columns?: number;
    tilecount?: number;
    tilewidth?: number;
    tileheight?: number;
    margin?: number;
    spacing?: number;
    tileoffset?: { x: number; y: number };
  }>;
}

/** Tiled's flip and rotation flags, in the top bits of a tile id. */
const FLAGS = 0xf0000000;

/** The tile layers under their drawn names ("Group/Layer"), each with the groups around it. */
function tileLayers(map: TiledMapJson): Map<string, { layer: TiledTileLayer; groups: TiledTileLayer[] }> {
  const out = new Map<string, { layer: TiledTileLayer; groups: TiledTileLayer[] }>();
  const walk = (layers: readonly TiledTileLayer[], prefix: string, groups: TiledTileLayer[]): void => {
    for (const layer of layers) {
      if (layer.type === 'group') walk(layer.layers ?? [], `${prefix}${layer.name}/`, [...groups, layer]);
      else if (layer.type === 'tilelayer') out.set(`${prefix}${layer.name}`, { layer, groups });
    }
  };
  walk(map.layers ?? [], '', []);
  return out;
}

/** Why this map's layers need Phaser's tilemap to draw them (what of it this does not paint), or null. */
function unpaintable(map: TiledMapJson, drawn: readonly DrawnLayer[], layers: ReturnType<typeof tileLayers>): string | null {
  if (map.infinite) return 'an infinite map';
  if (map.tilewidth !== map.tileheight) return 'tiles that are not square';
  for (const ts of map.tilesets) {
    if ((ts.tilewidth ?? map.tilewidth) !== map.tilewidth || (ts.tileheight ?? map.tileheight) !== map.tileheight)
      return `tileset '${ts.name}': tiles of another size than the map's`;
    if (ts.tileoffset && (ts.tileoffset.x || ts.tileoffset.y)) return `tileset '${ts.name}': a tile offset`;
  }
  for (const d of drawn) {
    const found = layers.get(d.name);
    if (!found) return `layer '${d.name}': not found`;
    if (found.layer.compression) return `layer '${d.name}': compressed data`;
    for (const l of [found.layer, ...found.groups])
      if ((l.opacity ?? 1) !== 1 || l.offsetx || l.offsety || l.tintcolor || (l.parallaxx ?? 1) !== 1 || (l.parallaxy ?? 1) !== 1)
        return `layer '${l.name}': opacity, offset, tint or parallax`;
  }
  return null;
}

/** A layer's tile ids, row by row (from a JSON array, CSV, or uncompressed Base64). */
function layerData(layer: TiledTileLayer, cells: number): Uint32Array {
  const data = layer.data;
  if (typeof data === 'string' && layer.encoding === 'base64') {
    const bytes = Uint8Array.from(atob(data.trim()), (c) => c.charCodeAt(0));
    return new Uint32Array(bytes.buffer, 0, Math.min(cells, bytes.length >> 2));
  }
  if (typeof data === 'string') return Uint32Array.from(data.split(','), (s) => Number(s.trim()) >>> 0);
  return Uint32Array.from(data ?? []);
}

/** Where a tile's image is: its tileset's image, or null (a tileset whose image did not load), and its corner there. */
interface TileImage {
  image: CanvasImageSource;
  sx: number;
  sy: number;
}

/** The map's tile layers as flat arrays, below and above the agents, and the tilesets' images by tile id. */
export class TilePainter {
  readonly widthTiles: number;
  readonly heightTiles: number;
  readonly tilePx: number;
  private readonly below: Uint32Array[];
  private readonly above: Uint32Array[];
  /** By tile id (no flags): where its image is; undefined for an empty or unknown id. */
  private readonly tiles: Array<TileImage | undefined> = [];
  /** Scaled-down tiles for the overview, by pixels per tile. */
  private readonly small = new Map<number, { pixels: Uint32Array; opaque: Uint8Array }>();

  /**
   * The painter of this map's drawn layers, or why they cannot be painted here (then Phaser draws them).
   * `image(name)`: the loaded image of the tileset of that name, or null.
   */
  static open(map: TiledMapJson, drawn: readonly DrawnLayer[], image: (tileset: string) => CanvasImageSource | null): TilePainter | string {
    const layers = tileLayers(map);
    const why = unpaintable(map, drawn, layers);
    if (why) return why;
    const cells = map.width * map.height;
    const read = (above: boolean) => drawn.filter((d) => d.above === above).map((d) => layerData(layers.get(d.name)!.layer, cells));
    const below = read(false);
    const above = read(true);
    for (const data of [...below, ...above]) for (let i = 0; i < data.length; i++) if (data[i] & FLAGS) return 'flipped or rotated tiles';
    return new TilePainter(map, below, above, image);
  }

  private constructor(map: TiledMapJson, below: Uint32Array[], above: Uint32Array[], image: (tileset: string) => CanvasImageSource | null) {
    this.widthTiles = map.width;
    this.heightTiles = map.height;
    this.tilePx = map.tilewidth;
    this.below = below;
    this.above = above;
    const px = this.tilePx;
    for (const ts of [...map.tilesets].sort((a, b) => a.firstgid - b.firstgid)) {
      const img = image(ts.name);
      if (!img || !ts.image) continue;
      const margin = ts.margin ?? 0;
      const spacing = ts.spacing ?? 0;
      const width = (img as { width: number }).width;
      const height = (img as { height: number }).height;
      const columns = ts.columns || Math.max(1, Math.floor((width - 2 * margin + spacing) / (px + spacing)));
      const count = ts.tilecount ?? columns * Math.floor((height - 2 * margin + spacing) / (px + spacing));
      for (let i = 0; i < count; i++)
        this.tiles[ts.firstgid + i] = { image: img, sx: margin + (i % columns) * (px + spacing), sy: margin + Math.floor(i / columns) * (px + spacing) };
    }
  }

  get hasBelow(): boolean {
    return this.below.length > 0;
  }

  get hasAbove(): boolean {
    return this.above.length > 0;
  }

  /** Paints the tiles of the layers below (or above) the agents in a region of the map (px) at full size onto a new canvas. */
  paintRegion(above: boolean, x: number, y: number, width: number, height: number): HTMLCanvasElement {
    const px = this.tilePx;
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d')!;
    ctx.imageSmoothingEnabled = false;
    const tx0 = Math.max(0, Math.floor(x / px));
    const ty0 = Math.max(0, Math.floor(y / px));
    const tx1 = Math.min(this.widthTiles, Math.ceil((x + width) / px));
    const ty1 = Math.min(this.heightTiles, Math.ceil((y + height) / px));
    for (const data of above ? this.above : this.below)
      for (let ty = ty0; ty < ty1; ty++)
        for (let tx = tx0, i = ty * this.widthTiles + tx0; tx < tx1; tx++, i++) {
          const tile = this.tiles[data[i]];
          if (tile) ctx.drawImage(tile.image, tile.sx, tile.sy, px, px, tx * px - x, ty * px - y, px, px);
        }
    return canvas;
  }

  /** The whole map's layers below (or above) the agents at `k` pixels a tile, composed pixel by pixel onto a new canvas. */
  paintOverview(above: boolean, k: number): HTMLCanvasElement {
    const { pixels: small, opaque } = this.smallTiles(k);
    const width = this.widthTiles * k;
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = this.heightTiles * k;
    const ctx = canvas.getContext('2d')!;
    const image = ctx.createImageData(canvas.width, canvas.height);
    const out = new Uint32Array(image.data.buffer);
    const bytes = image.data;
    const src = new Uint8Array(small.buffer);
    const kk = k * k;
    for (const data of above ? this.above : this.below)
      for (let ty = 0, i = 0; ty < this.heightTiles; ty++)
        for (let tx = 0; tx < this.widthTiles; tx++, i++) {
          const id = data[i];
          if (!this.tiles[id]) continue;
          const base = id * kk;
          const corner = ty * k * width + tx * k;
          if (opaque[id]) for (let y = 0; y < k; y++) out.set(small.subarray(base + y * k, base + y * k + k), corner + y * width);
          else for (let y = 0; y < k; y++) for (let x = 0; x < k; x++) blend(bytes, (corner + y * width + x) * 4, src, (base + y * k + x) * 4);
        }
    ctx.putImageData(image, 0, 0);
    return canvas;
  }

  /** Every tile of the tilesets scaled down to k × k pixels (smoothed), as RGBA by tile id, and which are wholly opaque. */
  private smallTiles(k: number): { pixels: Uint32Array; opaque: Uint8Array } {
    const cached = this.small.get(k);
    if (cached) return cached;
    const n = this.tiles.length;
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, n * k);
    canvas.height = k;
    const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    const px = this.tilePx;
    this.tiles.forEach((t, id) => t && ctx.drawImage(t.image, t.sx, t.sy, px, px, id * k, 0, k, k));
    const strip = new Uint32Array(ctx.getImageData(0, 0, canvas.width, k).data.buffer);
    // Rearranged so that a tile's k rows follow one another.
    const pixels = new Uint32Array(n * k * k);
    const opaque = new Uint8Array(n);
    const alpha = new Uint8Array(pixels.buffer);
    for (let id = 0; id < n; id++) {
      for (let y = 0; y < k; y++) pixels.set(strip.subarray(y * n * k + id * k, y * n * k + id * k + k), id * k * k + y * k);
      let all = 1;
      for (let p = id * k * k; p < (id + 1) * k * k; p++) if (alpha[p * 4 + 3] !== 255) all = 0;
      opaque[id] = all;
    }
    const made = { pixels, opaque };
    this.small.set(k, made);
    return made;
  }
}

/** Source-over of one RGBA pixel (not premultiplied, as ImageData has it) onto another, in place. */
function blend(dst: Uint8ClampedArray, d: number, src: Uint8Array, s: number): void {
  const sa = src[s + 3] / 255;
  if (sa === 0) return;
  const da = (dst[d + 3] / 255) * (1 - sa);
  const a = sa + da;
  dst[d] = (src[s] * sa + dst[d] * da) / a;
  dst[d + 1] = (src[s + 1] * sa + dst[d + 1] * da) / a;
  dst[d + 2] = (src[s + 2] * sa + dst[d + 2] * da) / a;
  dst[d + 3] = a * 255;
}
