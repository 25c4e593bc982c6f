// Generates the shipped town, maps/town.tmj, a Tiled map that follows maps/README.md, and its art.
// `npm run map:build`. Deterministic: the same files on every run. Open the result in Tiled to edit by hand.
import fs from 'node:fs';
import path from 'node:path';
import { drawCharacterTemplate, drawTileset, gidOf, TILE, TILES, type TileName } from './drawArt';

const W = 100;
const H = 80;
const OUT = path.resolve('maps/town.tmj');

type Layer = Uint32Array;
const ground: Layer = new Uint32Array(W * H);
const walls: Layer = new Uint32Array(W * H);
const furnitureLayer: Layer = new Uint32Array(W * H);
const blocked = new Uint8Array(W * H);
/** Tiles that must stay clear of decoration (buildings, their surroundings, paths). */
const reserved = new Uint8Array(W * H);

interface TiledObject {
  id: number;
  name: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
  visible: boolean;
  point?: boolean;
}
let nextObjectId = 1;
const places: TiledObject[] = [];
const objects: TiledObject[] = [];
const spawns: TiledObject[] = [];

const idx = (x: number, y: number) => y * W + x;
function put(layer: Layer, x: number, y: number, tile: TileName): void {
  if (x >= 0 && y >= 0 && x < W && y < H) layer[idx(x, y)] = gidOf(tile);
}
function fill(layer: Layer, x: number, y: number, w: number, h: number, tile: TileName): void {
  for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) put(layer, i, j, tile);
}
function block(x: number, y: number): void {
  blocked[idx(x, y)] = 1;
}
function reserve(x: number, y: number, w: number, h: number): void {
  for (let j = Math.max(0, y); j < Math.min(H, y + h); j++) for (let i = Math.max(0, x); i < Math.min(W, x + w); i++) reserved[idx(i, j)] = 1;
}
function rectObject(list: TiledObject[], name: string, x: number, y: number, w: number, h: number): void {
  list.push({ id: nextObjectId++, name, type: '', x: x * TILE, y: y * TILE, width: w * TILE, height: h * TILE, rotation: 0, visible: true });
}

/** Object name -> the tile that draws it ("bed 2" is a bed). */
function tileFor(objectName: string): TileName {
  const base = objectName.replace(/ \d+$/, '');
  if ((TILES as readonly string[]).includes(base)) return base as TileName;
  throw new Error(`no tile for object '${objectName}'`);
}

interface Room {
  arena: string;
  width: number;
  floor: TileName;
  /** Objects along the room's top row, left to right, or at explicit [dx, dy] inside the room. */
  objects: Array<string | [string, number, number]>;
}

/**
 * A building: a row of rooms inside brick walls, interior walls with a door between neighbours,
 * and a front door in the top or bottom wall of one room, with a path to the road.
 */
function building(sector: string, x: number, y: number, interiorHeight: number, rooms: Room[], door: { room: number; side: 'top' | 'bottom'; pathTo: number }): { x: number; y: number; w: number; h: number } {
  const w = rooms.reduce((s, r) => s + r.width, 0) + rooms.length + 1;
  const h = interiorHeight + 2;
  reserve(x - 1, y - 1, w + 2, h + 2);
  for (let j = y; j < y + h; j++)
    for (let i = x; i < x + w; i++) {
      put(walls, i, j, 'brick');
      block(i, j);
    }
  let rx = x + 1;
  const midY = y + 1 + Math.floor(interiorHeight / 2);
  rooms.forEach((room, n) => {
    fill(ground, rx, y + 1, room.width, interiorHeight, room.floor);
    for (let j = y + 1; j < y + 1 + interiorHeight; j++)
      for (let i = rx; i < rx + room.width; i++) {
        walls[idx(i, j)] = 0;
        blocked[idx(i, j)] = 0;
      }
    rectObject(places, `${sector}: ${room.arena}`, rx, y + 1, room.width, interiorHeight);
    room.objects.forEach((o, k) => {
      const [name, dx, dy] = typeof o === 'string' ? [o, k * 2, 0] : o;
      if (dx >= room.width || dy >= interiorHeight) throw new Error(`${sector}: ${room.arena}: no room for '${name}'`);
      put(furnitureLayer, rx + dx, y + 1 + dy, tileFor(name));
      block(rx + dx, y + 1 + dy);
      rectObject(objects, name, rx + dx, y + 1 + dy, 1, 1);
    });
    if (n < rooms.length - 1) {
      const wallX = rx + room.width;
      for (let j = y + 1; j < y + 1 + interiorHeight; j++) put(walls, wallX, j, 'wall');
      // A doorway between neighbouring rooms.
      walls[idx(wallX, midY)] = 0;
      blocked[idx(wallX, midY)] = 0;
      put(ground, wallX, midY, 'door');
    }
    if (n === door.room) {
      const dx = rx + Math.floor(room.width / 2);
      const dy = door.side === 'bottom' ? y + h - 1 : y;
      walls[idx(dx, dy)] = 0;
      blocked[idx(dx, dy)] = 0;
      put(ground, dx, dy, 'door');
      const step = door.side === 'bottom' ? 1 : -1;
      for (let j = dy + step; j !== door.pathTo; j += step) {
        put(ground, dx, j, 'path');
        reserve(dx - 1, j, 3, 1);
      }
    }
    rx += room.width + 1;
  });
  return { x, y, w, h };
}

const home = (bedroom: string[], kitchen: string[], living: string[] | null, extra: Room[] = []): Room[] => [
  { arena: 'bedroom', width: 5, floor: 'wood floor', objects: bedroom },
  { arena: 'kitchen', width: 5, floor: 'tile floor', objects: kitchen },
  ...(living ? [{ arena: 'living room', width: 4, floor: 'carpet' as TileName, objects: living }] : []),
  ...extra,
];

function build(): void {
  fill(ground, 0, 0, W, H, 'grass');
  for (let j = 0; j < H; j++) for (let i = 0; i < W; i++) if ((i * 7 + j * 13) % 23 === 0) put(ground, i, j, 'grass2');

  // Roads: three east-west, three north-south.
  for (const ry of [18, 40, 62]) {
    fill(ground, 0, ry, W, 2, 'road');
    reserve(0, ry - 1, W, 4);
  }
  for (const rx of [24, 50, 75]) {
    fill(ground, rx, 0, 2, H, 'road');
    reserve(rx - 1, 0, 4, H);
  }

  // Homes: two rows of four, doors on the road below.
  const kitchen = ['stove', 'fridge', 'table'];
  building('Rivera House', 1, 10, 5, home(['bed', 'desk', 'wardrobe'], kitchen, ['sofa', 'bookshelf'], [{ arena: 'bathroom', width: 3, floor: 'tile floor', objects: ['shower', 'sink'] }]), { room: 2, side: 'bottom', pathTo: 18 });
  building('Okafor House', 28, 10, 5, home(['bed', 'desk'], kitchen, ['sofa', 'piano']), { room: 2, side: 'bottom', pathTo: 18 });
  building('Lindqvist House', 54, 10, 5, home(['bed', 'desk', 'easel'], kitchen, ['sofa', 'bookshelf']), { room: 2, side: 'bottom', pathTo: 18 });
  building('Tanaka House', 79, 10, 5, home(['bed', 'bed 2', 'desk'], kitchen, ['sofa', 'tv']), { room: 2, side: 'bottom', pathTo: 18 });
  building('Moreau House', 3, 32, 5, home(['bed', 'desk'], kitchen, ['sofa', 'bookshelf']), { room: 2, side: 'bottom', pathTo: 40 });
  building('Haddad House', 29, 32, 5, home(['bed', 'desk'], kitchen, ['sofa', 'tv']), { room: 2, side: 'bottom', pathTo: 40 });
  building('Kowalski Apartment', 57, 32, 5, home(['bed', 'desk'], kitchen, null), { room: 1, side: 'bottom', pathTo: 40 });
  building('Bennett House', 79, 32, 5, home(['bed', 'bed 2', 'wardrobe'], kitchen, ['sofa', 'bookshelf']), { room: 2, side: 'bottom', pathTo: 40 });
  // Bennett garden: an open plot above the house, fenced at the back.
  fill(ground, 81, 24, 14, 5, 'grass');
  rectObject(places, 'Bennett House: garden', 81, 24, 14, 5);
  for (let i = 81; i < 95; i++) {
    put(walls, i, 23, 'fence');
    block(i, 23);
  }
  for (const [name, x, y] of [['flower bed', 83, 25], ['bench', 91, 27]] as const) {
    put(furnitureLayer, x, y, tileFor(name));
    block(x, y);
    rectObject(objects, name, x, y, 1, 1);
  }
  // A second flower patch is scenery only: the layout names one flower bed.
  put(furnitureLayer, 85, 25, 'flower bed');
  block(85, 25);
  reserve(80, 22, 16, 10);

  // Public places on the third row, doors on the road below.
  building('Hobbs Cafe', 1, 51, 8, [
    { arena: 'cafe', width: 14, floor: 'wood floor', objects: [['counter', 1, 0], ['coffee machine', 3, 0], ['table', 3, 4], ['table 2', 7, 4], ['table 3', 11, 4]] },
    { arena: 'kitchen', width: 5, floor: 'tile floor', objects: ['stove', 'sink'] },
  ], { room: 0, side: 'bottom', pathTo: 62 });
  building('Oak Hill College', 26, 51, 8, [
    { arena: 'library', width: 8, floor: 'carpet', objects: ['bookshelf', 'bookshelf 2', ['desk', 2, 4], ['desk 2', 5, 4]] },
    { arena: 'classroom', width: 7, floor: 'wood floor', objects: [['blackboard', 3, 0], ['lectern', 3, 2], ['desk', 3, 5]] },
    { arena: 'office', width: 4, floor: 'carpet', objects: ['desk', 'bookshelf'] },
  ], { room: 1, side: 'bottom', pathTo: 62 });
  building('The Rose and Crown Pub', 55, 51, 8, [
    { arena: 'bar', width: 13, floor: 'wood floor', objects: [['bar counter', 2, 0], ['piano', 11, 0], ['table', 3, 4], ['table 2', 8, 4]] },
  ], { room: 0, side: 'bottom', pathTo: 62 });
  building('Corner Shop', 82, 51, 8, [
    { arena: 'shop', width: 9, floor: 'tile floor', objects: [['counter', 1, 5], 'shelf', ['shelf 2', 4, 0], ['fridge', 8, 0]] },
  ], { room: 0, side: 'bottom', pathTo: 62 });

  // Town Hall, on the bottom row, door facing the road above.
  building('Town Hall', 3, 67, 7, [
    { arena: 'office', width: 7, floor: 'carpet', objects: ['desk', 'desk 2', 'filing cabinet'] },
    { arena: 'council chamber', width: 8, floor: 'carpet', objects: [['meeting table', 3, 3]] },
  ], { room: 1, side: 'top', pathTo: 63 });

  // Johnson Park: paths, a pond, trees, a fountain, benches, a garden and a picnic table.
  const park = { x: 27, y: 65, w: 47, h: 14 };
  rectObject(places, 'Johnson Park: park', park.x, park.y, park.w, park.h);
  reserve(park.x - 1, park.y - 1, park.w + 2, park.h + 2);
  fill(ground, park.x, park.y + 6, park.w, 2, 'path');
  fill(ground, park.x + 22, park.y, 3, park.h, 'path');
  fill(ground, park.x + 20, park.y + 4, 7, 6, 'plaza');
  for (let j = 0; j < 4; j++)
    for (let i = 0; i < 7; i++) {
      put(ground, park.x + 33 + i, park.y + 1 + j, 'water');
      block(park.x + 33 + i, park.y + 1 + j);
    }
  const parkObjects: Array<[string, number, number]> = [
    ['fountain', park.x + 23, park.y + 6],
    ['bench', park.x + 18, park.y + 5],
    ['bench 2', park.x + 28, park.y + 5],
    ['garden', park.x + 8, park.y + 2],
    ['picnic table', park.x + 12, park.y + 10],
  ];
  for (const [name, x, y] of parkObjects) {
    put(furnitureLayer, x, y, tileFor(name));
    block(x, y);
    rectObject(objects, name, x, y, 1, 1);
  }
  for (const [x, y] of [[2, 1], [5, 3], [3, 10], [6, 12], [16, 1], [15, 12], [30, 10], [32, 12], [42, 9], [44, 12], [45, 2], [38, 11]]) {
    put(walls, park.x + x, park.y + y, 'tree');
    block(park.x + x, park.y + y);
  }
  for (const [x, y] of [[9, 3], [10, 3], [9, 4], [10, 4], [7, 3]]) put(ground, park.x + x, park.y + y, 'garden');

  // Trees and flowers in the open grass, away from buildings, paths and roads.
  for (let j = 1; j < H - 1; j++)
    for (let i = 1; i < W - 1; i++) {
      if (reserved[idx(i, j)] || ground[idx(i, j)] !== gidOf('grass') && ground[idx(i, j)] !== gidOf('grass2')) continue;
      const r = ((i * 73856093) ^ (j * 19349663)) >>> 0;
      if (r % 17 === 0) {
        put(walls, i, j, r % 3 === 0 ? 'bush' : 'tree');
        block(i, j);
      } else if (r % 11 === 0) put(ground, i, j, 'grass flowers');
    }

  // Spawn points on the roads.
  const spawnTiles = [[12, 18], [37, 18], [62, 18], [87, 18], [12, 40], [37, 40], [62, 40], [87, 40], [12, 62], [37, 62], [62, 62], [87, 62]];
  spawnTiles.forEach(([x, y], i) => spawns.push({ id: nextObjectId++, name: `spawn ${i + 1}`, type: '', x: x * TILE + TILE / 2, y: y * TILE + TILE / 2, width: 0, height: 0, rotation: 0, visible: true, point: true }));
}

function tileLayer(id: number, name: string, data: Layer, visible = true) {
  return { id, name, type: 'tilelayer', x: 0, y: 0, width: W, height: H, opacity: 1, visible, data: Array.from(data) };
}
function objectLayer(id: number, name: string, list: TiledObject[]) {
  return { id, name, type: 'objectgroup', draworder: 'topdown', x: 0, y: 0, opacity: 1, visible: true, objects: list };
}

export function buildTown(): void {
  const tileset = drawTileset(path.resolve('maps/tilesets/town.png'));
  drawCharacterTemplate(path.resolve('client/public/assets/characters-base.png'));
  build();
  const collision = new Uint32Array(W * H);
  for (let i = 0; i < W * H; i++) if (blocked[i]) collision[i] = gidOf('blocked');
  const map = {
    type: 'map',
    version: '1.10',
    tiledversion: '1.10.2',
    orientation: 'orthogonal',
    renderorder: 'right-down',
    infinite: false,
    compressionlevel: -1,
    width: W,
    height: H,
    tilewidth: TILE,
    tileheight: TILE,
    nextlayerid: 8,
    nextobjectid: nextObjectId,
    properties: [{ name: 'world', type: 'string', value: 'Smalltown' }],
    tilesets: [
      { firstgid: 1, name: 'town', image: 'tilesets/town.png', imagewidth: tileset.width, imageheight: tileset.height, tilewidth: TILE, tileheight: TILE, columns: tileset.columns, tilecount: tileset.count, margin: 0, spacing: 0 },
    ],
    layers: [
      tileLayer(1, 'ground', ground),
      tileLayer(2, 'walls', walls),
      tileLayer(3, 'furniture', furnitureLayer),
      tileLayer(4, 'collision', collision, false),
      objectLayer(5, 'places', places),
      objectLayer(6, 'objects', objects),
      objectLayer(7, 'spawns', spawns),
    ],
  };
  // One row of tiles per line keeps the file diffable.
  const text = JSON.stringify(map, null, 1).replace(/\[\s*([\d,\s]+?)\s*\]/g, (_m, body: string) => `[${body.replace(/\s+/g, '')}]`);
  fs.writeFileSync(OUT, `${text}\n`);
  console.log(`wrote ${path.relative(process.cwd(), OUT)}: ${W}x${H} tiles, ${places.length} place rectangles, ${objects.length} objects, ${spawns.length} spawns`);
}

buildTown();
