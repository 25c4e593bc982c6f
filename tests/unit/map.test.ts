import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTownMap, parseTownMap, rasterisePolygon, MapError, MapErrors } from '../../server/src/world/map';
import { tempDir } from '../helpers';

const TOWN = 'maps/town.tmj';
const HUT = 'tests/fixtures/maps/hut.tmj';

const KITCHEN = ['fridge', 'stove', 'table'];
const LAYOUT: Record<string, Record<string, string[]>> = {
  'Rivera House': { bedroom: ['bed', 'desk', 'wardrobe'], kitchen: KITCHEN, 'living room': ['bookshelf', 'sofa'], bathroom: ['shower', 'sink'] },
  'Okafor House': { bedroom: ['bed', 'desk'], kitchen: KITCHEN, 'living room': ['piano', 'sofa'] },
  'Lindqvist House': { bedroom: ['bed', 'desk', 'easel'], kitchen: KITCHEN, 'living room': ['bookshelf', 'sofa'] },
  'Tanaka House': { bedroom: ['bed', 'bed 2', 'desk'], kitchen: KITCHEN, 'living room': ['sofa', 'tv'] },
  'Moreau House': { bedroom: ['bed', 'desk'], kitchen: KITCHEN, 'living room': ['bookshelf', 'sofa'] },
  'Haddad House': { bedroom: ['bed', 'desk'], kitchen: KITCHEN, 'living room': ['sofa', 'tv'] },
  'Kowalski Apartment': { bedroom: ['bed', 'desk'], kitchen: KITCHEN },
  'Bennett House': { bedroom: ['bed', 'bed 2', 'wardrobe'], kitchen: KITCHEN, 'living room': ['bookshelf', 'sofa'], garden: ['bench', 'flower bed'] },
  'Hobbs Cafe': { cafe: ['coffee machine', 'counter', 'table', 'table 2', 'table 3'], kitchen: ['sink', 'stove'] },
  'Corner Shop': { shop: ['counter', 'fridge', 'shelf', 'shelf 2'] },
  'Oak Hill College': { library: ['bookshelf', 'bookshelf 2', 'desk', 'desk 2'], classroom: ['blackboard', 'desk', 'lectern'], office: ['bookshelf', 'desk'] },
  'Johnson Park': { park: ['bench', 'bench 2', 'fountain', 'garden', 'picnic table'] },
  'The Rose and Crown Pub': { bar: ['bar counter', 'piano', 'table', 'table 2'] },
  'Town Hall': { office: ['desk', 'desk 2', 'filing cabinet'], 'council chamber': ['meeting table'] },
};
const raw = () =>
  JSON.parse(fs.readFileSync(TOWN, 'utf8')) as { layers: Array<Record<string, unknown>>; tilesets: Array<Record<string, unknown>>; [k: string]: unknown };
const layer = (m: ReturnType<typeof raw>, name: string) =>
  m.layers.find((l) => l.name === name)! as { objects: Array<Record<string, unknown>>; data: number[] };

/** The hut fixture with its base64 collision layer rewritten as a plain array, for editing. */
function hutWithPlainCollision(): ReturnType<typeof raw> {
  const m = JSON.parse(fs.readFileSync(HUT, 'utf8')) as ReturnType<typeof raw>;
  const c = layer(m, 'collision') as unknown as { data: number[] | string; encoding?: string };
  const bytes = Buffer.from(c.data as string, 'base64');
  c.data = Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readUInt32LE(i * 4));
  delete c.encoding;
  return m;
}

/** The problems a broken map is refused with: each a MapError naming the file and layer. */
function mapErrors(json: unknown): MapError[] {
  try {
    parseTownMap(json, 'broken.tmj');
  } catch (error) {
    expect(error).toBeInstanceOf(MapErrors);
    const errors = (error as MapErrors).errors;
    for (const e of errors) {
      expect(e).toBeInstanceOf(MapError);
      expect(e.file).toBe('broken.tmj');
      expect((error as Error).message).toContain(e.message);
    }
    return errors;
  }
  throw new Error('the broken map loaded');
}

/** The map is refused with exactly one problem, in `layerName`, matching `text`. */
function expectMapError(json: unknown, layerName: string | null, text: RegExp): void {
  const errors = mapErrors(json);
  expect(errors.map((e) => e.message)).toEqual([expect.stringMatching(text)]);
  expect(errors[0].layer).toBe(layerName);
}

describe('the shipped town', () => {
  const town = loadTownMap(TOWN);

  it('is about 100x80 tiles of 32 px, in the world "Smalltown"', () => {
    expect([town.widthTiles, town.heightTiles, town.tileSizePx]).toEqual([100, 80, 32]);
    expect(town.places.world).toBe('Smalltown');
  });

  it('holds every sector, arena and object of the layout, and nothing else', () => {
    const tree = Object.fromEntries(
      town.places.sectors.map((s) => [s.name, Object.fromEntries(s.arenas.map((a) => [a.name, a.objects.map((o) => o.name).sort()]))]),
    );
    expect(tree).toEqual(LAYOUT);
  });

  it('builds the place tree world > sector > arena > object, with a walkable stand tile per object', () => {
    const counter = town.objectsByAddress.get('Hobbs Cafe: cafe: counter')!;
    expect(counter).toMatchObject({ sector: 'Hobbs Cafe', arena: 'cafe', name: 'counter' });
    const cafe = town.places.sectors.find((s) => s.name === 'Hobbs Cafe')!.arenas.find((a) => a.name === 'cafe')!;
    expect(cafe.objects).toContain(counter);
    expect(town.arenasByAddress.get('Hobbs Cafe: cafe')).toBe(cafe);
    for (const o of town.objectsByAddress.values()) {
      const t = o.standTile.y * town.widthTiles + o.standTile.x;
      expect(town.collision[t], o.address).toBe(0);
      expect(town.arenas[town.arenaIndexByTile[t]].address).toBe(`${o.sector}: ${o.arena}`);
      const r = o.rect;
      const dx = Math.max(r.x - o.standTile.x, 0, o.standTile.x - (r.x + r.w - 1));
      const dy = Math.max(r.y - o.standTile.y, 0, o.standTile.y - (r.y + r.h - 1));
      expect(dx + dy, `${o.address} stands on or beside it`).toBeLessThanOrEqual(1);
    }
    expect(town.spawns.map((sp) => sp.name)).toEqual(Array.from({ length: 12 }, (_, i) => `spawn ${i + 1}`));
  });
});

describe('a map that breaks the conventions', () => {
  it('names a missing collision layer', () => {
    const m = raw();
    m.layers = m.layers.filter((l) => l.name !== 'collision');
    expectMapError(m, 'collision', /missing/);
  });

  it('names a place rectangle that is not "Sector: arena"', () => {
    const m = raw();
    layer(m, 'places').objects[0].name = 'Cafe';
    expectMapError(m, 'places', /must be named "Sector: arena"/);
  });

  it('names an object outside every place', () => {
    const m = raw();
    layer(m, 'objects').objects.push({ id: 9999, name: 'lamp', x: 0, y: 0, width: 32, height: 32 });
    expectMapError(m, 'objects', /'lamp' \(id 9999\).*not inside any place/);
  });

  it('refuses external tilesets, saying how to embed them', () => {
    const m = raw();
    m.tilesets = [{ firstgid: 1, source: 'town.tsx' }];
    expectMapError(m, null, /Embed Tilesets/);
  });

  it('refuses an arena that cannot be reached on foot', () => {
    const m = raw();
    const c = layer(m, 'collision');
    const cafe = layer(m, 'places').objects.find((o) => o.name === 'Hobbs Cafe: cafe')!;
    const [x, y, w, h] = [cafe.x, cafe.y, cafe.width, cafe.height].map((v) => Number(v) / 32);
    // Wall the cafe in: block the ring of tiles around it (doors included).
    for (let i = x - 1; i <= x + w; i++) for (const j of [y - 1, y + h]) c.data[j * 100 + i] = 42;
    for (let j = y - 1; j <= y + h; j++) for (const i of [x - 1, x + w]) c.data[j * 100 + i] = 42;
    // Both arenas behind the wall, once each; not again for each of their objects.
    const errors = mapErrors(m);
    expect(errors.map((e) => [e.layer, e.message.replace(/^.*?layer 'places': /, '')])).toEqual([
      [
        'places',
        "'Hobbs Cafe: cafe' cannot be reached on foot from spawn 'spawn 1': walled in by layer 'collision' (any tile, 47 tiles); open a door in that layer",
      ],
      [
        'places',
        "'Hobbs Cafe: kitchen' cannot be reached on foot from spawn 'spawn 1': walled in by layer 'collision' (any tile, 25 tiles); open a door in that layer",
      ],
    ]);
  });

  it('refuses isometric maps and files that are not JSON', () => {
    const m = raw();
    m.orientation = 'isometric';
    expectMapError(m, null, /only orthogonal/);
    const dir = tempDir();
    const file = path.join(dir, 'bad.tmj');
    fs.writeFileSync(file, '{ not json');
    expect(() => loadTownMap(file)).toThrow(/bad\.tmj: not valid JSON/);
  });

  it('loads any orthogonal map that follows the conventions, not only the shipped one', () => {
    const tiny = {
      orientation: 'orthogonal',
      width: 6,
      height: 4,
      tilewidth: 16,
      tileheight: 16,
      tilesets: [],
      properties: [{ name: 'world', type: 'string', value: 'Tiny' }],
      layers: [
        { name: 'collision', type: 'tilelayer', width: 6, height: 4, data: [1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1] },
        { name: 'places', type: 'objectgroup', objects: [{ id: 1, name: 'Hut: room', x: 16, y: 16, width: 64, height: 32 }] },
        { name: 'objects', type: 'objectgroup', objects: [{ id: 2, name: 'bed', x: 16, y: 16, width: 16, height: 16 }] },
        { name: 'spawns', type: 'objectgroup', objects: [{ id: 3, name: 'door', x: 40, y: 40, point: true }] },
      ],
    };
    const map = parseTownMap(tiny, 'tiny.tmj');
    expect(map.places.world).toBe('Tiny');
    expect(map.objectsByAddress.get('Hut: room: bed')!.standTile).toEqual({ x: 1, y: 1 });
  });

  it('names an object that straddles two places', () => {
    const m = raw();
    const bed = layer(m, 'objects').objects.find((o) => o.name === 'bed')!;
    bed.width = 32 * 40;
    expectMapError(m, 'objects', /'bed' \(id \d+\) is not wholly inside/);
  });

  it('refuses compressed tile data, saying how to save it', () => {
    const m = JSON.parse(fs.readFileSync(HUT, 'utf8')) as ReturnType<typeof raw>;
    Object.assign(layer(m, 'collision'), { compression: 'zlib' });
    expectMapError(m, 'collision', /compressed \(zlib\).*uncompressed/);
  });

  it('refuses an object with nowhere to stand beside it', () => {
    const m = hutWithPlainCollision();
    const c = layer(m, 'collision');
    // Block the stove's tile and its kitchen neighbours (6,2) and (5,3).
    for (const [x, y] of [
      [6, 3],
      [6, 2],
      [5, 3],
    ])
      c.data[y * 8 + x] = 3;
    expectMapError(m, 'objects', /'stove' \(id 4\) in 'Hut: kitchen' has no walkable tile on or beside it/);
  });

  it('refuses a spawn on a blocked tile', () => {
    const m = JSON.parse(fs.readFileSync(HUT, 'utf8')) as ReturnType<typeof raw>;
    Object.assign(layer(m, 'spawns').objects[0], { x: 2, y: 2 });
    expectMapError(
      m,
      'spawns',
      /'spawn 1' \(id 5\) is on a tile 0,0 blocked by layer 'collision' \(any tile, 1 tile\); move the spawn, or erase the tile in that layer/,
    );
  });
});

describe('any conventional map', () => {
  it('loads a hand-made 16 px map with base64 tile data', () => {
    const hut = loadTownMap(HUT);
    expect([hut.widthTiles, hut.heightTiles, hut.tileSizePx, hut.places.world]).toEqual([8, 5, 16, 'Hutville']);
    expect([...hut.objectsByAddress.keys()]).toEqual(['Hut: bedroom: bed', 'Hut: kitchen: stove']);
    expect(hut.collision[0]).toBe(1);
    expect(hut.collision[2 * 8 + 4]).toBe(0);
  });

  it('stands beside an object whose own tile is blocked, in the same arena', () => {
    const m = hutWithPlainCollision();
    const c = layer(m, 'collision');
    c.data[1 * 8 + 1] = 3; // the bed's tile
    const hut = parseTownMap(m, 'hut.tmj');
    expect(hut.objectsByAddress.get('Hut: bedroom: bed')!.standTile).toEqual({ x: 2, y: 1 });
  });

  it('defaults the world name to "the town"', () => {
    const m = JSON.parse(fs.readFileSync(HUT, 'utf8')) as ReturnType<typeof raw>;
    delete m.properties;
    expect(parseTownMap(m, 'hut.tmj').places.world).toBe('the town');
  });
});

/** A 6x4 map of 16 px tiles: walls around a 4x2 room "Hut: room" with a bed, and a spawn inside. */
type LooseLayer = Record<string, unknown> & { name: string; objects?: Array<Record<string, unknown>>; data?: number[] };

function tinyMap() {
  return {
    orientation: 'orthogonal',
    width: 6,
    height: 4,
    tilewidth: 16,
    tileheight: 16,
    tilesets: [] as Array<Record<string, unknown>>,
    layers: [
      { name: 'collision', type: 'tilelayer', width: 6, height: 4, data: [1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1] },
      { name: 'places', type: 'objectgroup', objects: [{ id: 1, name: 'Hut: room', x: 16, y: 16, width: 64, height: 32 }] as Array<Record<string, unknown>> },
      { name: 'objects', type: 'objectgroup', objects: [{ id: 2, name: 'bed', x: 16, y: 16, width: 16, height: 16 }] as Array<Record<string, unknown>> },
      { name: 'spawns', type: 'objectgroup', objects: [{ id: 3, name: 'door', x: 40, y: 40, point: true }] },
    ] as LooseLayer[],
  };
}

describe('maps made elsewhere', () => {
  it('reports every problem at once, not one per start', () => {
    const m = tinyMap();
    m.layers = m.layers.filter((l) => l.name === 'objects');
    m.layers.push({ name: 'Collisions', type: 'tilelayer', width: 6, height: 4, data: new Array(24).fill(0) });
    const errors = mapErrors(m);
    expect(errors.map((e) => e.layer)).toEqual(['collision', 'places', 'spawns']);
    expect(errors[0].message).toMatch(
      /missing: a map needs a tile layer named 'collision'.*'collides'.*there is a layer 'Collisions': rename it to 'collision'\?/,
    );
    expect(errors[1].message).toMatch(/layer 'places': missing/);
  });

  it('lists several broken objects in one refusal', () => {
    const m = tinyMap();
    m.layers[2].objects = [
      { id: 2, name: 'bed', x: 16, y: 16, width: 16, height: 16, rotation: 45 },
      { id: 4, name: 'rug', x: 32, y: 16, width: 16, height: 16, ellipse: true },
      { id: 5, name: '', x: 48, y: 16, width: 16, height: 16 },
    ];
    expect(mapErrors(m).map((e) => e.message.replace(/^.*?layer 'objects': /, ''))).toEqual([
      "object 'bed' (id 2) is rotated; only unrotated rectangles are supported",
      "object 'rug' (id 4) must be a rectangle",
      'object id 5 has no name (name it "bed", "counter", ...)',
    ]);
  });

  it('does not blame the objects of a misnamed place as well', () => {
    const m = tinyMap();
    m.layers[1].objects![0].name = 'Hut';
    expectMapError(m, 'places', /rectangle 'Hut' \(id 1\) must be named "Sector: arena"/);
  });

  it('takes collision from tiles whose tileset marks them collides: true, with no collision layer', () => {
    const m = tinyMap();
    const walls = m.layers[0].data as number[];
    m.layers[0] = { name: 'Walls and floor', type: 'tilelayer', width: 6, height: 4, data: walls.map((v) => (v ? 2 : 1)) };
    m.tilesets = [{ firstgid: 1, name: 'hut', image: 'hut.png', tiles: [{ id: 1, properties: [{ name: 'collides', type: 'bool', value: true }] }] }];
    const map = parseTownMap(m, 'tiny.tmj');
    expect([...map.collision]).toEqual(walls);
    // Flipped tiles keep their flags in the gid's top bits, and still collide.
    (m.layers[0].data as number[])[0] = 2 + 0x80000000;
    expect(parseTownMap(m, 'tiny.tmj').collision[0]).toBe(1);
    // Phaser's older spelling, `collide`, works too; and the tiles add to a collision layer.
    m.tilesets = [{ firstgid: 1, name: 'hut', image: 'hut.png', tiles: [{ id: 1, properties: [{ name: 'collide', type: 'bool', value: true }] }] }];
    m.layers.unshift({
      name: 'collision',
      type: 'tilelayer',
      width: 6,
      height: 4,
      data: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0, 0, 0, 0, 0],
    });
    const both = parseTownMap(m, 'tiny.tmj');
    expect(both.collision[16]).toBe(1);
    expect(both.collision[0]).toBe(1);
  });

  it('takes a place drawn as a polygon: the tiles whose centres lie inside it', () => {
    const m = tinyMap();
    // A triangle over the room: (16,16) (80,16) (16,48) in pixels, as Tiled writes it (points relative to x, y).
    m.layers[1].objects = [
      {
        id: 1,
        name: 'Hut: room',
        x: 16,
        y: 16,
        width: 0,
        height: 0,
        polygon: [
          { x: 0, y: 0 },
          { x: 64, y: 0 },
          { x: 0, y: 32 },
        ],
      },
    ];
    const map = parseTownMap(m, 'tiny.tmj');
    const room = map.arenasByAddress.get('Hut: room')!;
    const tiles = [...map.arenaIndexByTile].map((v, i) => (v === 0 ? i : -1)).filter((i) => i >= 0);
    // Row 1: centres at x 24, 40, 56 lie left of the diagonal (x < 80 - 2(y-16)); row 2 (y 40): only x 24.
    expect(tiles).toEqual([7, 8, 9, 13]);
    expect(room.rects).toEqual([
      { x: 1, y: 1, w: 3, h: 1 },
      { x: 1, y: 2, w: 1, h: 1 },
    ]);
    expect(map.objectsByAddress.has('Hut: room: bed')).toBe(true);
  });

  it('rasterises polygons by tile centres, even-odd, clipped to the map', () => {
    // A square from -8 to 40 px covers the tiles whose centres (8, 24) lie inside; 40 is on its edge, outside.
    expect(
      rasterisePolygon(
        [
          { x: -8, y: -8 },
          { x: 40, y: -8 },
          { x: 40, y: 40 },
          { x: -8, y: 40 },
        ],
        16,
        10,
        10,
      ),
    ).toEqual([
      { x: 0, y: 0, w: 2, h: 1 },
      { x: 0, y: 1, w: 2, h: 1 },
    ]);
    // A "U" (concave): the notch between its arms is left out.
    const u = [
      { x: 0, y: 0 },
      { x: 16, y: 0 },
      { x: 16, y: 32 },
      { x: 32, y: 32 },
      { x: 32, y: 0 },
      { x: 48, y: 0 },
      { x: 48, y: 48 },
      { x: 0, y: 48 },
    ];
    expect(rasterisePolygon(u, 16, 10, 10)).toEqual([
      { x: 0, y: 0, w: 1, h: 1 },
      { x: 2, y: 0, w: 1, h: 1 },
      { x: 0, y: 1, w: 1, h: 1 },
      { x: 2, y: 1, w: 1, h: 1 },
      { x: 0, y: 2, w: 3, h: 1 },
    ]);
    expect(
      rasterisePolygon(
        [
          { x: 0, y: 0 },
          { x: 10, y: 0 },
          { x: 0, y: 10 },
        ],
        16,
        10,
        10,
      ),
    ).toEqual([]);
  });
});
