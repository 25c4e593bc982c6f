// Loads a Tiled map (.tmj, orthogonal) that follows the conventions in maps/README.md and builds the
// TownMap: the collision grid, the place tree world > sector > arena > object, and spawn points.
// A map that breaks conventions is refused with every problem at once, each naming the file, the
// layer and what is wrong, so an author fixes them all in one go.
import fs from 'node:fs';
import { z } from 'zod';
import type { ArenaNode, GameObjectNode, SectorNode, SpawnPoint, Tile, TileRect, TownMap } from './types';
import { closestFirst, editDistance } from './places';

export class MapError extends Error {
  constructor(
    readonly file: string,
    readonly layer: string | null,
    what: string,
  ) {
    super(layer ? `${file}: layer '${layer}': ${what}` : `${file}: ${what}`);
    this.name = 'MapError';
  }
}

/** Every problem found in one map, each a MapError. */
export class MapErrors extends Error {
  constructor(
    readonly file: string,
    readonly errors: MapError[],
  ) {
    super(`${errors.length} problem${errors.length === 1 ? '' : 's'} in the map ${file} (see maps/README.md):\n  ${errors.map((e) => e.message).join('\n  ')}`);
    this.name = 'MapErrors';
  }
}

const Property = z.object({ name: z.string(), type: z.string().optional(), value: z.unknown() });
const Point = z.object({ x: z.number(), y: z.number() });

const TiledObject = z.object({
  id: z.number(),
  name: z.string().default(''),
  x: z.number(),
  y: z.number(),
  width: z.number().default(0),
  height: z.number().default(0),
  rotation: z.number().default(0),
  point: z.boolean().optional(),
  ellipse: z.boolean().optional(),
  polygon: z.array(Point).optional(),
  polyline: z.array(z.unknown()).optional(),
  text: z.unknown().optional(),
  gid: z.number().optional(),
});
type TiledObject = z.infer<typeof TiledObject>;

const Layer = z.object({
  name: z.string(),
  type: z.string(),
  data: z.union([z.array(z.number()), z.string()]).optional(),
  encoding: z.string().optional(),
  compression: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  objects: z.array(z.unknown()).optional(),
  layers: z.array(z.unknown()).optional(),
  chunks: z.array(z.unknown()).optional(),
});
type Layer = z.infer<typeof Layer>;

const TilesetTile = z.object({ id: z.number(), properties: z.array(Property).optional() });
const Tileset = z.object({
  firstgid: z.number(),
  source: z.string().optional(),
  image: z.string().optional(),
  name: z.string().optional(),
  tiles: z.array(TilesetTile).optional(),
});

const TiledMap = z.object({
  orientation: z.string(),
  infinite: z.boolean().optional(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  tilewidth: z.number().int().positive(),
  tileheight: z.number().int().positive(),
  layers: z.array(z.unknown()),
  tilesets: z.array(Tileset).default([]),
  properties: z.array(Property).optional(),
});

/** The layers the conventions need. `collision` may instead come from tiles marked `collides: true`. */
export const REQUIRED_LAYERS = { collision: 'tilelayer', places: 'objectgroup', objects: 'objectgroup', spawns: 'objectgroup' } as const;

/** Tile properties that mark a tile as blocked (Phaser's `setCollisionByProperty` convention). */
export const COLLIDES_PROPERTIES = ['collides', 'collide'] as const;

/** Tiled keeps flip and rotation flags in the top bits of a gid. */
const GID_MASK = 0x0fffffff;

export function loadTownMap(file: string): TownMap {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new MapErrors(file, [new MapError(file, null, `cannot read the map: ${error instanceof Error ? error.message : String(error)}`)]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MapErrors(file, [
      new MapError(file, null, `not valid JSON (${error instanceof Error ? error.message : String(error)}); save it from Tiled as JSON (.tmj)`),
    ]);
  }
  return parseTownMap(json, file);
}

/** Builds the TownMap from a parsed .tmj, or throws MapErrors listing every problem found. */
export function parseTownMap(json: unknown, file: string): TownMap {
  const problems: MapError[] = [];
  const fail = (layer: string | null, what: string): void => void problems.push(new MapError(file, layer, what));
  const none = (layer: string | null, what: string): null => {
    fail(layer, what);
    return null;
  };
  const refuse = (): never => {
    throw new MapErrors(file, problems);
  };

  const parsed = TiledMap.safeParse(json);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) fail(null, `not a Tiled map: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    refuse();
  }
  const tmj = parsed.data!;
  if (tmj.orientation !== 'orthogonal') fail(null, `orientation is '${tmj.orientation}'; only orthogonal maps are supported`);
  if (tmj.infinite) fail(null, 'infinite maps are not supported: uncheck Map > Map Properties > Infinite');
  if (tmj.tilewidth !== tmj.tileheight) fail(null, `tiles must be square, got ${tmj.tilewidth}x${tmj.tileheight}`);
  for (const ts of tmj.tilesets)
    if (ts.source) fail(null, `tileset '${ts.source}' is external; embed tilesets (Tiled: Map > Embed Tilesets) so the browser can load the map`);
  // Without a grid of known size nothing below means anything.
  if (tmj.orientation !== 'orthogonal' || tmj.infinite || tmj.tilewidth !== tmj.tileheight) refuse();

  const w = tmj.width;
  const h = tmj.height;
  const size = tmj.tilewidth;
  const layers = flattenLayers(tmj.layers, fail);
  const layerNamed = (name: string): Layer | undefined => layers.find((l) => l.name === name);

  // ---- collision: a `collision` tile layer, and/or tiles whose tileset marks them `collides: true` ----
  const collidingGids = collidingGidsOf(tmj.tilesets);
  const collision = new Uint8Array(w * h);
  const collisionLayer = layerNamed('collision');
  let collisionKnown = collidingGids.size > 0;
  if (collisionLayer && collisionLayer.type !== 'tilelayer') fail('collision', `must be a tile layer, found '${collisionLayer.type}'`);
  else if (collisionLayer) {
    const gids = readTileData(collisionLayer, w, h, fail);
    if (gids) {
      collisionKnown = true;
      for (let i = 0; i < w * h; i++) if (gids[i] !== 0) collision[i] = 1;
    }
  }
  if (collidingGids.size > 0)
    for (const layer of layers) {
      if (layer.type !== 'tilelayer' || layer === collisionLayer) continue;
      const gids = readTileData(layer, w, h, fail);
      if (gids) for (let i = 0; i < w * h; i++) if (collidingGids.has(gids[i] & GID_MASK)) collision[i] = 1;
    }
  if (!collisionLayer && !collisionKnown)
    fail(
      'collision',
      `missing: a map needs a tile layer named 'collision' (any tile blocks), or tiles marked with a boolean ` +
        `property 'collides' in the tileset${nearName('collision', layers)}`,
    );

  // ---- the object layers ----
  const objectLayers = new Map<string, TiledObject[]>();
  for (const name of ['places', 'objects', 'spawns'] as const) {
    const layer = layerNamed(name);
    if (!layer) {
      fail(name, `missing: a map needs an object layer named '${name}'${nearName(name, layers)} (see maps/README.md)`);
      continue;
    }
    if (layer.type !== 'objectgroup') {
      fail(name, `must be an object layer, found '${layer.type}'`);
      continue;
    }
    const list: TiledObject[] = [];
    (layer.objects ?? []).forEach((raw, i) => {
      const o = TiledObject.safeParse(raw);
      if (!o.success) fail(name, `object #${i}: ${o.error.issues[0].path.join('.')}: ${o.error.issues[0].message}`);
      else list.push(o.data);
    });
    objectLayers.set(name, list);
  }

  const label = (o: TiledObject): string => `'${o.name}' (id ${o.id})`;
  const toRect = (o: TiledObject, layer: string): TileRect | null => {
    if (o.point || o.ellipse || o.polygon || o.polyline || o.text !== undefined || o.gid !== undefined) {
      fail(layer, `object ${label(o)} must be a rectangle${layer === 'places' ? ' or a polygon' : ''}`);
      return null;
    }
    if (o.rotation) return none(layer, `object ${label(o)} is rotated; only unrotated rectangles are supported`);
    if (o.width <= 0 || o.height <= 0) return none(layer, `object ${label(o)} has no area`);
    const x = Math.round(o.x / size);
    const y = Math.round(o.y / size);
    const rw = Math.max(1, Math.round(o.width / size));
    const rh = Math.max(1, Math.round(o.height / size));
    if (x < 0 || y < 0 || x + rw > w || y + rh > h) return none(layer, `object ${label(o)} lies outside the ${w}x${h} map`);
    return { x, y, w: rw, h: rh };
  };
  /** A place's tiles, as rectangles: a rectangle as it is, a polygon as one per run of tiles in a row. */
  const placeRects = (o: TiledObject): TileRect[] | null => {
    if (!o.polygon) {
      const r = toRect(o, 'places');
      return r ? [r] : null;
    }
    if (o.rotation) return none('places', `polygon ${label(o)} is rotated; only unrotated polygons are supported`);
    const points = o.polygon.map((p) => ({ x: o.x + p.x, y: o.y + p.y }));
    if (points.length < 3) return none('places', `polygon ${label(o)} has fewer than 3 points`);
    const rects = rasterisePolygon(points, size, w, h);
    if (rects.length === 0) return none('places', `polygon ${label(o)} covers no tile centre`);
    return rects;
  };

  // ---- arenas from the places layer: rectangles or polygons named "Sector: arena" ----
  const arenaIndexByTile = new Int32Array(w * h).fill(-1);
  const arenas: ArenaNode[] = [];
  const arenasByAddress = new Map<string, ArenaNode>();
  const brokenPlaceTiles = new Uint8Array(w * h);
  const places = objectLayers.get('places');
  for (const o of places ?? []) {
    const m = /^\s*([^:]+?)\s*:\s*([^:]+?)\s*$/.exec(o.name);
    const rects = placeRects(o);
    if (!m) {
      fail('places', `${o.polygon ? 'polygon' : 'rectangle'} ${label(o)} must be named "Sector: arena", e.g. "Hobbs Cafe: cafe"`);
      // Its objects are not "outside every place" too: the name is the one problem.
      for (const r of rects ?? []) for (let y = r.y; y < r.y + r.h; y++) for (let x = r.x; x < r.x + r.w; x++) brokenPlaceTiles[y * w + x] = 1;
      continue;
    }
    if (!rects) continue;
    const address = `${m[1]}: ${m[2]}`;
    let arena = arenasByAddress.get(address);
    if (!arena) {
      arena = { address, sector: m[1], name: m[2], rects: [], objects: [], centreTile: { x: 0, y: 0 } };
      arenasByAddress.set(address, arena);
      arenas.push(arena);
    }
    const index = arenas.indexOf(arena);
    let overlap: string | null = null;
    for (const rect of rects)
      for (let y = rect.y; y < rect.y + rect.h; y++)
        for (let x = rect.x; x < rect.x + rect.w; x++) {
          const other = arenaIndexByTile[y * w + x];
          if (other !== -1 && other !== index) overlap ??= `'${address}' (id ${o.id}) overlaps '${arenas[other].address}' at tile ${x},${y}`;
          else arenaIndexByTile[y * w + x] = index;
        }
    if (overlap) fail('places', overlap);
    arena.rects.push(...rects);
  }
  if (places && places.length === 0) fail('places', 'has no places: add rectangles or polygons named "Sector: arena"');

  const placed: ArenaNode[] = [];
  arenas.forEach((arena, index) => {
    const inArena = (t: number): boolean => arenaIndexByTile[t] === index;
    const centre = nearestTile(w, h, centreOf(arena.rects), inArena, (t) => inArena(t) && collision[t] === 0);
    if (!centre) fail('places', `'${arena.address}' has no walkable tile`);
    else {
      arena.centreTile = centre;
      placed.push(arena);
    }
  });

  // ---- spawns: points (or any object: its top-left) on walkable tiles ----
  const spawns: SpawnPoint[] = [];
  for (const o of objectLayers.get('spawns') ?? []) {
    const tile = { x: Math.floor(o.x / size), y: Math.floor(o.y / size) };
    if (tile.x < 0 || tile.y < 0 || tile.x >= w || tile.y >= h) fail('spawns', `spawn ${label(o)} lies outside the map`);
    else if (collision[tile.y * w + tile.x]) fail('spawns', `spawn ${label(o)} is on a blocked tile ${tile.x},${tile.y}`);
    else spawns.push({ name: o.name.trim(), tile });
  }
  if (objectLayers.has('spawns') && objectLayers.get('spawns')!.length === 0) fail('spawns', 'has no spawn points: add at least one point object');

  // Every arena must be reachable from the first spawn, or agents would be stranded without a word.
  const reach = spawns.length ? floodFill(collision, w, h, spawns[0].tile.y * w + spawns[0].tile.x) : null;
  const stranded = new Set<ArenaNode>();
  if (reach)
    for (const arena of placed) {
      const t = arena.centreTile.y * w + arena.centreTile.x;
      if (reach[t]) continue;
      stranded.add(arena);
      fail('places', `'${arena.address}' cannot be reached on foot from spawn '${spawns[0].name}': open a door in the collision layer`);
    }

  // ---- game objects: rectangles named by what they are, each wholly inside one arena ----
  const objectsByAddress = new Map<string, GameObjectNode>();
  // Without a places layer every object would be "outside every place": that layer's error says it all.
  for (const o of places ? (objectLayers.get('objects') ?? []) : []) {
    const name = o.name.trim();
    if (!name) {
      fail('objects', `object id ${o.id} has no name (name it "bed", "counter", ...)`);
      continue;
    }
    if (name.includes(':')) {
      fail('objects', `object '${name}' (id ${o.id}): names may not contain ':'`);
      continue;
    }
    const rect = toRect(o, 'objects');
    if (!rect) continue;
    const c = centreOf([rect]);
    const index = arenaIndexByTile[c.y * w + c.x];
    if (index === -1) {
      if (!brokenPlaceTiles[c.y * w + c.x]) fail('objects', `object '${name}' (id ${o.id}) at tile ${c.x},${c.y} is not inside any place`);
      continue;
    }
    const arena = arenas[index];
    let outside: string | null = null;
    for (let y = rect.y; y < rect.y + rect.h && !outside; y++)
      for (let x = rect.x; x < rect.x + rect.w && !outside; x++) if (arenaIndexByTile[y * w + x] !== index) outside = `${x},${y}`;
    if (outside) {
      fail('objects', `object '${name}' (id ${o.id}) is not wholly inside '${arena.address}': tile ${outside} is outside it`);
      continue;
    }
    let unique = name;
    for (let n = 2; arena.objects.some((x) => x.name === unique); n++) unique = `${name} ${n}`;
    // Stand on or beside (4-adjacent to) the object, inside its arena, on a tile reachable on foot;
    // the nearest such tile to the object's centre wins.
    const besideObject = (t: number): boolean => {
      const x = t % w;
      const y = Math.floor(t / w);
      const dx = x < rect.x ? rect.x - x : x >= rect.x + rect.w ? x - (rect.x + rect.w - 1) : 0;
      const dy = y < rect.y ? rect.y - y : y >= rect.y + rect.h ? y - (rect.y + rect.h - 1) : 0;
      return dx + dy <= 1;
    };
    const inArena = (t: number): boolean => arenaIndexByTile[t] === index;
    const stand = nearestTile(w, h, c, inArena, (t) => collision[t] === 0 && (reach === null || reach[t] === 1) && besideObject(t));
    if (!stand) {
      // The objects of an arena nobody can reach say nothing more than the arena's own error.
      if (stranded.has(arena)) continue;
      const blocked = !nearestTile(w, h, c, inArena, (t) => collision[t] === 0 && besideObject(t));
      fail(
        'objects',
        blocked
          ? `object '${name}' (id ${o.id}) in '${arena.address}' has no walkable tile on or beside it to stand on`
          : `object '${name}' (id ${o.id}) in '${arena.address}' cannot be reached on foot from spawn '${spawns[0].name}'`,
      );
      continue;
    }
    const node: GameObjectNode = { address: `${arena.address}: ${unique}`, name: unique, sector: arena.sector, arena: arena.name, rect, standTile: stand };
    arena.objects.push(node);
    objectsByAddress.set(node.address, node);
  }

  if (problems.length) refuse();

  const sectors: SectorNode[] = [];
  for (const arena of arenas) {
    let sector = sectors.find((s) => s.name === arena.sector);
    if (!sector) sectors.push((sector = { name: arena.sector, arenas: [] }));
    sector.arenas.push(arena);
  }
  const worldProp = tmj.properties?.find((p) => p.name === 'world')?.value;
  return {
    file,
    widthTiles: w,
    heightTiles: h,
    tileSizePx: size,
    collision,
    arenaIndexByTile,
    places: { world: typeof worldProp === 'string' && worldProp.trim() ? worldProp.trim() : 'the town', sectors },
    arenas,
    objectsByAddress,
    arenasByAddress,
    spawns,
  };
}

/** " (there is a layer 'Collisions': rename it?)" when a layer's name is close to the one wanted. */
function nearName(wanted: string, layers: readonly Layer[]): string {
  const near = closestFirst(
    wanted,
    layers.map((l) => l.name),
  ).find((n) => editDistance(wanted, n.toLowerCase()) <= 3);
  return near ? ` (there is a layer '${near}': rename it to '${wanted}'?)` : '';
}

/** Tile layers and object layers in the map's order; groups are flattened (a layer keeps its own name). */
function flattenLayers(raw: unknown[], fail: (layer: string | null, what: string) => void, prefix = ''): Layer[] {
  const out: Layer[] = [];
  raw.forEach((r, i) => {
    const l = Layer.safeParse(r);
    if (!l.success) fail(null, `layer #${i}${prefix ? ` of group '${prefix}'` : ''}: ${l.error.issues[0].path.join('.')}: ${l.error.issues[0].message}`);
    else if (l.data.type === 'group') out.push(...flattenLayers(l.data.layers ?? [], fail, l.data.name));
    else out.push(l.data);
  });
  return out;
}

/** The gids of tiles whose tileset gives them a true `collides` (or `collide`) property. */
function collidingGidsOf(tilesets: ReadonlyArray<z.infer<typeof Tileset>>): Set<number> {
  const gids = new Set<number>();
  for (const ts of tilesets)
    for (const tile of ts.tiles ?? [])
      if (tile.properties?.some((p) => (COLLIDES_PROPERTIES as readonly string[]).includes(p.name) && (p.value === true || p.value === 'true')))
        gids.add(ts.firstgid + tile.id);
  return gids;
}

function readTileData(layer: Layer, w: number, h: number, fail: (layer: string | null, what: string) => void): Uint32Array | null {
  const none = (l: string, what: string): null => {
    fail(l, what);
    return null;
  };
  if (layer.chunks) return none(layer.name, 'chunked (infinite) tile data is not supported');
  if (layer.compression) return none(layer.name, `tile data is compressed (${layer.compression}); save with "Tile Layer Format: Base64 (uncompressed)" or CSV`);
  let gids: Uint32Array;
  if (Array.isArray(layer.data)) gids = Uint32Array.from(layer.data);
  else if (typeof layer.data === 'string' && layer.encoding === 'base64') {
    const bytes = Buffer.from(layer.data, 'base64');
    if (bytes.length % 4 !== 0) return none(layer.name, `base64 tile data is ${bytes.length} bytes, not a whole number of 4-byte tiles`);
    gids = new Uint32Array(bytes.length / 4);
    for (let i = 0; i < gids.length; i++) gids[i] = bytes.readUInt32LE(i * 4);
  } else if (typeof layer.data === 'string')
    return none(layer.name, `tile data encoding '${layer.encoding ?? 'none'}' is not supported; save as CSV or Base64 (uncompressed)`);
  else return none(layer.name, 'has no tile data');
  if (gids.length !== w * h) return none(layer.name, `has ${gids.length} tiles, expected ${w}x${h} = ${w * h}`);
  return gids;
}

/**
 * The tiles whose centres lie inside a polygon (pixel coordinates; even-odd rule), as one rectangle
 * per run of tiles in a row, top to bottom.
 */
export function rasterisePolygon(points: ReadonlyArray<{ x: number; y: number }>, tileSize: number, w: number, h: number): TileRect[] {
  const xs = points.map((p) => p.x);
  const ys = points.map((p) => p.y);
  const x0 = Math.max(0, Math.floor(Math.min(...xs) / tileSize));
  const x1 = Math.min(w - 1, Math.floor(Math.max(...xs) / tileSize));
  const y0 = Math.max(0, Math.floor(Math.min(...ys) / tileSize));
  const y1 = Math.min(h - 1, Math.floor(Math.max(...ys) / tileSize));
  const inside = (px: number, py: number): boolean => {
    let odd = false;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const a = points[i];
      const b = points[j];
      if (a.y > py !== b.y > py && px < ((b.x - a.x) * (py - a.y)) / (b.y - a.y) + a.x) odd = !odd;
    }
    return odd;
  };
  const rects: TileRect[] = [];
  for (let ty = y0; ty <= y1; ty++) {
    let run: TileRect | null = null;
    for (let tx = x0; tx <= x1; tx++) {
      if (inside((tx + 0.5) * tileSize, (ty + 0.5) * tileSize)) {
        if (run) run.w++;
        else rects.push((run = { x: tx, y: ty, w: 1, h: 1 }));
      } else run = null;
    }
  }
  return rects;
}

function centreOf(rects: TileRect[]): Tile {
  // The centre of the largest rectangle: an L-shaped arena's average point may lie outside it.
  const r = [...rects].sort((a, b) => b.w * b.h - a.w * a.h)[0];
  return { x: r.x + Math.floor((r.w - 1) / 2), y: r.y + Math.floor((r.h - 1) / 2) };
}

/** The tile nearest to `from` that satisfies `accept`: 4-connected BFS over the tiles that satisfy `within`. */
function nearestTile(w: number, h: number, from: Tile, within: (t: number) => boolean, accept: (t: number) => boolean): Tile | null {
  const start = from.y * w + from.x;
  const seen = new Uint8Array(w * h);
  const queue = [start];
  seen[start] = 1;
  for (let i = 0; i < queue.length; i++) {
    const t = queue[i];
    if (accept(t)) return { x: t % w, y: Math.floor(t / w) };
    const x = t % w;
    for (const n of [t - w, x > 0 ? t - 1 : -1, x < w - 1 ? t + 1 : -1, t + w]) {
      if (n < 0 || n >= w * h || seen[n] || !within(n)) continue;
      seen[n] = 1;
      queue.push(n);
    }
  }
  return null;
}

function floodFill(collision: Uint8Array, w: number, h: number, start: number): Uint8Array {
  const seen = new Uint8Array(w * h);
  const queue = [start];
  seen[start] = 1;
  for (let i = 0; i < queue.length; i++) {
    const t = queue[i];
    const x = t % w;
    for (const n of [t - w, x > 0 ? t - 1 : -1, x < w - 1 ? t + 1 : -1, t + w]) {
      if (n < 0 || n >= w * h || seen[n] || collision[n]) continue;
      seen[n] = 1;
      queue.push(n);
    }
  }
  return seen;
}
