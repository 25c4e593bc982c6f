// Draws the project's own pixel art with pngjs: the town tileset and the character template.
// Deterministic: the same bytes on every run. `npm run map:build` calls it before building the map.
import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';

export const TILE = 32;
export const TILESET_COLUMNS = 16;

/** Tile names in tileset order; a tile's gid in the map is its index + 1. */
export const TILES = [
  'grass',
  'grass2',
  'grass flowers',
  'path',
  'road',
  'road line',
  'wood floor',
  'tile floor',
  'carpet',
  'wall',
  'brick',
  'door',
  'water',
  'tree',
  'bush',
  'fence',
  'bed',
  'desk',
  'wardrobe',
  'stove',
  'fridge',
  'table',
  'sofa',
  'bookshelf',
  'shower',
  'sink',
  'piano',
  'easel',
  'tv',
  'counter',
  'coffee machine',
  'shelf',
  'blackboard',
  'lectern',
  'fountain',
  'bench',
  'garden',
  'picnic table',
  'bar counter',
  'filing cabinet',
  'meeting table',
  'blocked',
  'plaza',
  'rug',
  'flower bed',
  'lamp',
  'sign',
  'hedge',
] as const;
export type TileName = (typeof TILES)[number];
export const gidOf = (name: TileName): number => TILES.indexOf(name) + 1;

type RGB = [number, number, number];

class Canvas {
  readonly png: PNG;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.png = new PNG({ width, height });
    this.png.data.fill(0);
  }
  set(x: number, y: number, [r, g, b]: RGB, a = 255): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const i = (y * this.width + x) * 4;
    if (a < 255 && this.png.data[i + 3] > 0) {
      const t = a / 255;
      this.png.data[i] = Math.round(this.png.data[i] * (1 - t) + r * t);
      this.png.data[i + 1] = Math.round(this.png.data[i + 1] * (1 - t) + g * t);
      this.png.data[i + 2] = Math.round(this.png.data[i + 2] * (1 - t) + b * t);
      this.png.data[i + 3] = 255;
      return;
    }
    this.png.data[i] = r;
    this.png.data[i + 1] = g;
    this.png.data[i + 2] = b;
    this.png.data[i + 3] = a;
  }
  rect(x: number, y: number, w: number, h: number, c: RGB, a = 255): void {
    for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) this.set(i, j, c, a);
  }
  frame(x: number, y: number, w: number, h: number, c: RGB): void {
    this.rect(x, y, w, 1, c);
    this.rect(x, y + h - 1, w, 1, c);
    this.rect(x, y, 1, h, c);
    this.rect(x + w - 1, y, 1, h, c);
  }
  circle(cx: number, cy: number, r: number, c: RGB): void {
    for (let j = -r; j <= r; j++) for (let i = -r; i <= r; i++) if (i * i + j * j <= r * r + r * 0.8) this.set(cx + i, cy + j, c);
  }
  write(file: string): void {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, PNG.sync.write(this.png));
  }
}

/** Deterministic per-pixel noise in [0,1). */
function noise(x: number, y: number, salt: number): number {
  let h = (x * 374761393 + y * 668265263 + salt * 2147483647) | 0;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}
const shade = ([r, g, b]: RGB, f: number): RGB => [Math.min(255, Math.round(r * f)), Math.min(255, Math.round(g * f)), Math.min(255, Math.round(b * f))];
const OUTLINE: RGB = [40, 32, 36];

function textured(c: Canvas, ox: number, oy: number, base: RGB, amount: number, salt: number): void {
  for (let y = 0; y < TILE; y++) for (let x = 0; x < TILE; x++) c.set(ox + x, oy + y, shade(base, 1 - amount / 2 + noise(x, y, salt) * amount));
}

/** Furniture seen from above: a body with an outline, a lighter top and a darker front edge. */
function furniture(c: Canvas, ox: number, oy: number, x: number, y: number, w: number, h: number, body: RGB): void {
  c.rect(ox + x, oy + y, w, h, body);
  c.rect(ox + x, oy + y, w, 3, shade(body, 1.25));
  c.rect(ox + x, oy + y + h - 4, w, 4, shade(body, 0.7));
  c.frame(ox + x, oy + y, w, h, OUTLINE);
}

const WOOD: RGB = [176, 124, 78];
const DARK_WOOD: RGB = [120, 78, 48];
const METAL: RGB = [170, 178, 186];
const WHITE: RGB = [236, 236, 228];

/** A bed of soil with plants in rows, their flowers in `flower`. */
function plantBed(c: Canvas, ox: number, oy: number, flower: RGB): void {
  c.rect(ox, oy, TILE, TILE, [110, 80, 56]);
  for (let j = 4; j < TILE; j += 8)
    for (let i = 4; i < TILE; i += 8) {
      c.circle(ox + i, oy + j, 2, [60, 140, 60]);
      c.rect(ox + i - 1, oy + j - 1, 2, 2, flower);
    }
}

function drawTile(c: Canvas, name: TileName, ox: number, oy: number): void {
  DRAWINGS[name](c, ox, oy);
}

/** One drawing per tile of the tileset, its pixels set by hand; the type holds one for every tile name. */
const DRAWINGS: { [K in TileName]: (c: Canvas, ox: number, oy: number) => void } = {
  grass: (c, ox, oy) => {
    textured(c, ox, oy, [96, 168, 80], 0.18, 1);
  },
  grass2: (c, ox, oy) => {
    textured(c, ox, oy, [88, 160, 76], 0.22, 2);
    for (let i = 0; i < 6; i++) c.rect(ox + Math.floor(noise(i, 1, 9) * 30), oy + Math.floor(noise(i, 2, 9) * 28), 1, 3, [70, 132, 60]);
  },
  'grass flowers': (c, ox, oy) => {
    textured(c, ox, oy, [96, 168, 80], 0.18, 3);
    for (let i = 0; i < 7; i++) {
      const fx = ox + 2 + Math.floor(noise(i, 3, 4) * 27);
      const fy = oy + 2 + Math.floor(noise(i, 4, 4) * 27);
      const col: RGB = i % 3 === 0 ? [240, 220, 80] : i % 3 === 1 ? [236, 120, 150] : [250, 250, 250];
      c.rect(fx, fy, 2, 2, col);
    }
  },
  path: (c, ox, oy) => {
    textured(c, ox, oy, [196, 178, 140], 0.12, 5);
    for (let j = 0; j < TILE; j += 8) for (let i = (j / 8) % 2 ? 4 : 0; i < TILE; i += 8) c.frame(ox + i, oy + j, 8, 8, [170, 152, 116]);
  },
  road: (c, ox, oy) => {
    textured(c, ox, oy, [92, 94, 102], 0.1, 6);
  },
  'road line': (c, ox, oy) => {
    textured(c, ox, oy, [92, 94, 102], 0.1, 7);
    c.rect(ox + 4, oy + 15, 24, 2, [230, 210, 120]);
  },
  'wood floor': (c, ox, oy) => {
    for (let j = 0; j < TILE; j++)
      for (let i = 0; i < TILE; i++) {
        const plank = Math.floor(j / 8);
        const seam = j % 8 === 0 || (i + plank * 11) % 32 === 0;
        c.set(ox + i, oy + j, seam ? [140, 96, 60] : shade([190, 140, 92], 0.92 + noise(i >> 2, j, 8) * 0.14));
      }
  },
  'tile floor': (c, ox, oy) => {
    c.rect(ox, oy, TILE, TILE, [220, 222, 214]);
    for (let k = 0; k < TILE; k += 8) {
      c.rect(ox + k, oy, 1, TILE, [182, 186, 180]);
      c.rect(ox, oy + k, TILE, 1, [182, 186, 180]);
    }
  },
  carpet: (c, ox, oy) => {
    textured(c, ox, oy, [150, 70, 72], 0.1, 10);
  },
  rug: (c, ox, oy) => {
    textured(c, ox, oy, [190, 140, 92], 0.05, 11);
    c.rect(ox + 3, oy + 3, 26, 26, [86, 110, 160]);
    c.frame(ox + 5, oy + 5, 22, 22, [220, 200, 120]);
  },
  wall: (c, ox, oy) => {
    c.rect(ox, oy, TILE, TILE, [110, 96, 92]);
    c.rect(ox, oy, TILE, 8, [150, 136, 128]);
    c.rect(ox, oy + 8, TILE, 2, [80, 68, 66]);
  },
  brick: (c, ox, oy) => {
    c.rect(ox, oy, TILE, TILE, [150, 76, 60]);
    for (let j = 0; j < TILE; j += 8) {
      c.rect(ox, oy + j, TILE, 1, [110, 56, 46]);
      for (let i = (j / 8) % 2 ? 8 : 0; i < TILE; i += 16) c.rect(ox + i, oy + j, 1, 8, [110, 56, 46]);
    }
    c.rect(ox, oy, TILE, 4, [120, 60, 50]);
  },
  door: (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    c.rect(ox + 2, oy, 28, 4, [96, 64, 40]);
  },
  water: (c, ox, oy) => {
    for (let j = 0; j < TILE; j++)
      for (let i = 0; i < TILE; i++) c.set(ox + i, oy + j, shade([64, 132, 200], 0.9 + 0.15 * Math.sin((i + j * 2) / 4) * noise(i >> 3, j >> 3, 12)));
    c.rect(ox + 6, oy + 10, 8, 1, [190, 220, 250]);
    c.rect(ox + 18, oy + 22, 7, 1, [190, 220, 250]);
  },
  tree: (c, ox, oy) => {
    textured(c, ox, oy, [96, 168, 80], 0.18, 13);
    c.rect(ox + 13, oy + 20, 6, 10, [110, 74, 44]);
    c.circle(ox + 16, oy + 14, 12, [44, 110, 56]);
    c.circle(ox + 13, oy + 11, 7, [64, 140, 70]);
    c.circle(ox + 20, oy + 16, 4, [36, 92, 48]);
  },
  bush: (c, ox, oy) => {
    textured(c, ox, oy, [96, 168, 80], 0.18, 14);
    c.circle(ox + 16, oy + 18, 10, [52, 124, 60]);
    c.circle(ox + 12, oy + 15, 5, [76, 150, 80]);
  },
  hedge: (c, ox, oy) => {
    c.rect(ox, oy + 4, TILE, 26, [52, 116, 58]);
    for (let i = 0; i < 8; i++) c.circle(ox + 2 + i * 4, oy + 6, 3, [66, 138, 70]);
  },
  fence: (c, ox, oy) => {
    textured(c, ox, oy, [96, 168, 80], 0.18, 15);
    c.rect(ox, oy + 12, TILE, 3, WOOD);
    c.rect(ox, oy + 20, TILE, 3, WOOD);
    for (let i = 2; i < TILE; i += 10) furniture(c, ox, oy, i, 8, 4, 18, WOOD);
  },
  bed: (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    furniture(c, ox, oy, 3, 1, 26, 30, [200, 180, 150]);
    c.rect(ox + 6, oy + 4, 20, 7, WHITE);
    c.rect(ox + 4, oy + 13, 24, 16, [80, 120, 190]);
    c.rect(ox + 4, oy + 13, 24, 2, [110, 150, 210]);
  },
  desk: (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    furniture(c, ox, oy, 2, 4, 28, 18, WOOD);
    c.rect(ox + 6, oy + 7, 10, 7, WHITE);
    c.rect(ox + 19, oy + 6, 6, 5, [60, 60, 70]);
  },
  wardrobe: (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    furniture(c, ox, oy, 4, 1, 24, 28, DARK_WOOD);
    c.rect(ox + 15, oy + 4, 1, 22, OUTLINE);
    c.rect(ox + 12, oy + 14, 2, 3, [220, 200, 120]);
    c.rect(ox + 18, oy + 14, 2, 3, [220, 200, 120]);
  },
  stove: (c, ox, oy) => {
    drawTile(c, 'tile floor', ox, oy);
    furniture(c, ox, oy, 2, 2, 28, 26, [210, 210, 214]);
    for (const [x, y] of [
      [9, 9],
      [22, 9],
      [9, 19],
      [22, 19],
    ])
      c.circle(ox + x, oy + y, 4, [50, 50, 56]);
  },
  fridge: (c, ox, oy) => {
    drawTile(c, 'tile floor', ox, oy);
    furniture(c, ox, oy, 5, 1, 22, 29, [232, 236, 240]);
    c.rect(ox + 6, oy + 11, 20, 1, [160, 166, 172]);
    c.rect(ox + 22, oy + 5, 2, 4, [120, 124, 130]);
  },
  table: (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    furniture(c, ox, oy, 3, 5, 26, 20, [196, 146, 96]);
    c.circle(ox + 10, oy + 13, 3, WHITE);
    c.circle(ox + 21, oy + 14, 3, WHITE);
  },
  sofa: (c, ox, oy) => {
    drawTile(c, 'carpet', ox, oy);
    furniture(c, ox, oy, 1, 4, 30, 24, [90, 120, 160]);
    c.rect(ox + 4, oy + 10, 24, 12, [110, 140, 184]);
  },
  bookshelf: (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    furniture(c, ox, oy, 1, 1, 30, 26, DARK_WOOD);
    for (let row = 0; row < 3; row++)
      for (let b = 0; b < 8; b++) {
        const col: RGB = [
          [180, 60, 60],
          [60, 100, 170],
          [200, 170, 70],
          [70, 140, 90],
        ][(b + row) % 4] as RGB;
        c.rect(ox + 4 + b * 3, oy + 4 + row * 7, 2, 6, col);
      }
  },
  shower: (c, ox, oy) => {
    drawTile(c, 'tile floor', ox, oy);
    c.rect(ox + 3, oy + 3, 26, 26, [190, 220, 235]);
    c.frame(ox + 3, oy + 3, 26, 26, [120, 150, 170]);
    c.circle(ox + 16, oy + 8, 3, METAL);
  },
  sink: (c, ox, oy) => {
    drawTile(c, 'tile floor', ox, oy);
    furniture(c, ox, oy, 4, 3, 24, 18, WHITE);
    c.rect(ox + 9, oy + 7, 14, 9, [180, 200, 215]);
    c.rect(ox + 15, oy + 4, 2, 4, METAL);
  },
  piano: (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    furniture(c, ox, oy, 1, 2, 30, 24, [30, 28, 34]);
    c.rect(ox + 3, oy + 18, 26, 5, WHITE);
    for (let k = 5; k < 28; k += 3) c.rect(ox + k, oy + 18, 1, 3, OUTLINE);
  },
  easel: (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    c.rect(ox + 8, oy + 4, 2, 26, DARK_WOOD);
    c.rect(ox + 22, oy + 4, 2, 26, DARK_WOOD);
    furniture(c, ox, oy, 6, 3, 20, 16, WHITE);
    c.rect(ox + 9, oy + 6, 6, 5, [230, 130, 80]);
    c.rect(ox + 15, oy + 9, 7, 6, [90, 150, 210]);
  },
  tv: (c, ox, oy) => {
    drawTile(c, 'carpet', ox, oy);
    furniture(c, ox, oy, 3, 4, 26, 14, [30, 30, 36]);
    c.rect(ox + 5, oy + 6, 22, 9, [70, 120, 170]);
    c.rect(ox + 10, oy + 20, 12, 6, DARK_WOOD);
  },
  counter: (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    furniture(c, ox, oy, 0, 6, 32, 20, [150, 100, 64]);
    c.rect(ox, oy + 6, 32, 5, [210, 200, 180]);
    c.rect(ox + 20, oy + 11, 8, 6, [90, 90, 100]);
  },
  'coffee machine': (c, ox, oy) => {
    drawTile(c, 'tile floor', ox, oy);
    furniture(c, ox, oy, 4, 6, 24, 20, [190, 60, 50]);
    c.rect(ox + 9, oy + 9, 14, 6, [50, 50, 56]);
    c.rect(ox + 13, oy + 18, 6, 5, WHITE);
  },
  shelf: (c, ox, oy) => {
    drawTile(c, 'tile floor', ox, oy);
    furniture(c, ox, oy, 1, 2, 30, 24, [200, 190, 170]);
    // Two rows of goods, each in its three colours in turn.
    const rows: Array<[number, RGB[]]> = [
      [
        6,
        [
          [220, 80, 60],
          [240, 200, 70],
          [90, 160, 90],
        ],
      ],
      [
        14,
        [
          [80, 130, 200],
          [200, 120, 180],
          [240, 160, 60],
        ],
      ],
    ];
    for (let b = 0; b < 6; b++) for (const [y, colours] of rows) c.rect(ox + 4 + b * 4, oy + y, 3, 5, colours[b % 3]);
  },
  blackboard: (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    furniture(c, ox, oy, 1, 2, 30, 18, [40, 70, 56]);
    c.rect(ox + 5, oy + 7, 12, 1, WHITE);
    c.rect(ox + 5, oy + 11, 18, 1, WHITE);
    c.rect(ox + 2, oy + 19, 28, 3, WOOD);
  },
  lectern: (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    furniture(c, ox, oy, 9, 6, 14, 18, DARK_WOOD);
    c.rect(ox + 11, oy + 8, 10, 5, WHITE);
  },
  fountain: (c, ox, oy) => {
    drawTile(c, 'plaza', ox, oy);
    c.circle(ox + 16, oy + 16, 14, [170, 170, 176]);
    c.circle(ox + 16, oy + 16, 11, [70, 140, 210]);
    c.circle(ox + 16, oy + 16, 3, [200, 230, 250]);
  },
  bench: (c, ox, oy) => {
    drawTile(c, 'grass', ox, oy);
    furniture(c, ox, oy, 2, 10, 28, 12, WOOD);
    c.rect(ox + 2, oy + 14, 28, 1, DARK_WOOD);
  },
  'picnic table': (c, ox, oy) => {
    drawTile(c, 'grass', ox, oy);
    furniture(c, ox, oy, 2, 3, 28, 6, WOOD);
    furniture(c, ox, oy, 2, 11, 28, 10, [196, 146, 96]);
    furniture(c, ox, oy, 2, 23, 28, 6, WOOD);
  },
  'bar counter': (c, ox, oy) => {
    drawTile(c, 'wood floor', ox, oy);
    furniture(c, ox, oy, 0, 4, 32, 22, [100, 56, 36]);
    c.rect(ox, oy + 4, 32, 4, [170, 120, 70]);
    c.rect(ox + 6, oy + 10, 3, 8, [120, 180, 120]);
    c.rect(ox + 14, oy + 10, 3, 8, [200, 160, 60]);
  },
  'filing cabinet': (c, ox, oy) => {
    drawTile(c, 'carpet', ox, oy);
    furniture(c, ox, oy, 7, 2, 18, 27, [140, 150, 160]);
    for (let k = 0; k < 3; k++) {
      c.rect(ox + 9, oy + 6 + k * 8, 14, 1, OUTLINE);
      c.rect(ox + 14, oy + 8 + k * 8, 4, 2, [220, 220, 220]);
    }
  },
  'meeting table': (c, ox, oy) => {
    drawTile(c, 'carpet', ox, oy);
    furniture(c, ox, oy, 1, 4, 30, 22, [120, 80, 52]);
    c.rect(ox + 5, oy + 10, 6, 6, WHITE);
    c.rect(ox + 20, oy + 12, 6, 6, WHITE);
  },
  blocked: (c, ox, oy) => {
    c.rect(ox, oy, TILE, TILE, [220, 40, 40], 110);
  },
  plaza: (c, ox, oy) => {
    textured(c, ox, oy, [206, 198, 180], 0.08, 20);
    c.frame(ox, oy, TILE, TILE, [180, 170, 150]);
  },
  lamp: (c, ox, oy) => {
    drawTile(c, 'path', ox, oy);
    c.rect(ox + 15, oy + 8, 2, 22, [60, 60, 70]);
    c.circle(ox + 16, oy + 7, 4, [250, 230, 150]);
  },
  sign: (c, ox, oy) => {
    drawTile(c, 'path', ox, oy);
    c.rect(ox + 15, oy + 14, 2, 16, DARK_WOOD);
    furniture(c, ox, oy, 5, 4, 22, 12, WOOD);
  },
  garden: (c, ox, oy) => plantBed(c, ox, oy, [240, 200, 70]),
  'flower bed': (c, ox, oy) => plantBed(c, ox, oy, [230, 90, 120]),
};

export function drawTileset(file: string): { columns: number; count: number; width: number; height: number } {
  const rows = Math.ceil(TILES.length / TILESET_COLUMNS);
  const c = new Canvas(TILESET_COLUMNS * TILE, rows * TILE);
  TILES.forEach((name, i) => drawTile(c, name, (i % TILESET_COLUMNS) * TILE, Math.floor(i / TILESET_COLUMNS) * TILE));
  c.write(file);
  return { columns: TILESET_COLUMNS, count: TILES.length, width: c.width, height: c.height };
}

// ---- the character template -----------------------------------------------------------------------
// Marker colours, palette-swapped per persona by the client: skin red, hair green, shirt blue, pants
// yellow; three shading levels each (1, 0.75, 0.5 of full intensity); outline and eyes black.
const mark = (kind: 'skin' | 'hair' | 'shirt' | 'pants', level: 1 | 0.75 | 0.5): RGB => {
  const v = Math.round(255 * level);
  return kind === 'skin' ? [v, 0, 0] : kind === 'hair' ? [0, v, 0] : kind === 'shirt' ? [0, 0, v] : [v, v, 0];
};
const BLACK: RGB = [0, 0, 0];

function drawCharacter(c: Canvas, ox: number, oy: number, dir: 'down' | 'left' | 'right' | 'up', frame: number): void {
  const step = frame === 1 ? 1 : frame === 3 ? -1 : 0;
  const bob = frame % 2 === 1 ? 1 : 0;
  const y0 = oy + bob;
  // Legs (pants), moving apart on the walk frames.
  const legL = dir === 'left' || dir === 'right' ? step * 2 : step;
  c.rect(ox + 12, y0 + 22, 4, 7 - Math.max(0, legL), mark('pants', 0.75));
  c.rect(ox + 17, y0 + 22, 4, 7 - Math.max(0, -legL), mark('pants', 1));
  c.rect(ox + 12, y0 + 28 - Math.max(0, legL), 4, 1, BLACK);
  c.rect(ox + 17, y0 + 28 - Math.max(0, -legL), 4, 1, BLACK);
  // Body (shirt) with shading and arms swinging.
  c.rect(ox + 10, y0 + 14, 13, 9, mark('shirt', 1));
  c.rect(ox + 10, y0 + 20, 13, 3, mark('shirt', 0.75));
  if (dir === 'down' || dir === 'up') {
    c.rect(ox + 8, y0 + 15 + step, 2, 7, mark('shirt', 0.5));
    c.rect(ox + 23, y0 + 15 - step, 2, 7, mark('shirt', 0.5));
    c.rect(ox + 8, y0 + 22 + step, 2, 2, mark('skin', 0.75));
    c.rect(ox + 23, y0 + 22 - step, 2, 2, mark('skin', 0.75));
  } else {
    const ax = dir === 'left' ? 14 + step * 2 : 17 - step * 2;
    c.rect(ox + ax, y0 + 15, 3, 7, mark('shirt', 0.5));
    c.rect(ox + ax, y0 + 22, 3, 2, mark('skin', 0.75));
  }
  c.frame(ox + 10, y0 + 14, 13, 9, BLACK);
  // Head: skin, hair on top (all of it from behind), eyes by direction.
  c.rect(ox + 10, y0 + 3, 13, 11, mark('skin', 1));
  c.rect(ox + 10, y0 + 11, 13, 3, mark('skin', 0.75));
  c.rect(ox + 9, y0 + 2, 15, 4, mark('hair', 1));
  if (dir === 'up') c.rect(ox + 10, y0 + 3, 13, 9, mark('hair', 0.75));
  if (dir === 'left') c.rect(ox + 18, y0 + 3, 6, 8, mark('hair', 0.75));
  if (dir === 'right') c.rect(ox + 9, y0 + 3, 6, 8, mark('hair', 0.75));
  if (dir === 'down') {
    c.rect(ox + 9, y0 + 3, 2, 6, mark('hair', 0.5));
    c.rect(ox + 22, y0 + 3, 2, 6, mark('hair', 0.5));
    c.rect(ox + 13, y0 + 8, 2, 2, BLACK);
    c.rect(ox + 18, y0 + 8, 2, 2, BLACK);
  } else if (dir === 'left') c.rect(ox + 11, y0 + 8, 2, 2, BLACK);
  else if (dir === 'right') c.rect(ox + 20, y0 + 8, 2, 2, BLACK);
  c.frame(ox + 9, y0 + 2, 15, 12, BLACK);
}

export function drawCharacterTemplate(file: string): void {
  const dirs = ['down', 'left', 'right', 'up'] as const;
  const c = new Canvas(4 * TILE, 4 * TILE);
  dirs.forEach((dir, row) => {
    for (let frame = 0; frame < 4; frame++) drawCharacter(c, frame * TILE, row * TILE, dir, frame);
  });
  c.write(file);
}
