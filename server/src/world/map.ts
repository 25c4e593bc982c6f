// Loads a Tiled map (.tmj, orthogonal) that follows the conventions in maps/README.md and builds the
// TownMap: the collision grid, the place tree world > sector > arena > object, and spawn points.
// A map that breaks a convention is refused with the file, the layer and what is wrong.
import fs from 'node:fs';
import { z } from 'zod';
import type { ArenaNode, GameObjectNode, SectorNode, SpawnPoint, Tile, TileRect, TownMap } from './types';

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

const Property = z.object({ name: z.string(), type: z.string().optional(), value: z.unknown() });

const TiledObject = z.object({
  id: z.number(),
  name: z.string().default(''),
  x: z.number(),
  y: z.number(),
  width: z.number().default(0),
  height: z.number().default(0),
  point: z.boolean().optional(),
  ellipse: z.boolean().optional(),
  polygon: z.array(z.unknown()).optional(),
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

const Tileset = z.object({ firstgid: z.number(), source: z.string().optional(), image: z.string().optional(), name: z.string().optional() });

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

export const REQUIRED_LAYERS = { collision: 'tilelayer', places: 'objectgroup', objects: 'objectgroup', spawns: 'objectgroup' } as const;

export function loadTownMap(file: string): TownMap {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new MapError(file, null, `cannot read the map: ${error instanceof Error ? error.message : String(error)}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MapError(file, null, `not valid JSON (${error instanceof Error ? error.message : String(error)}); save it from Tiled as JSON (.tmj)`);
  }
  return parseTownMap(json, file);
}

export function parseTownMap(json: unknown, file: string): TownMap {
  const parsed = TiledMap.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MapError(file, null, `not a Tiled map: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const tmj = parsed.data;
  if (tmj.orientation !== 'orthogonal') throw new MapError(file, null, `orientation is '${tmj.orientation}'; only orthogonal maps are supported`);
  if (tmj.infinite) throw new MapError(file, null, 'infinite maps are not supported: uncheck Map > Map Properties > Infinite');
  if (tmj.tilewidth !== tmj.tileheight) throw new MapError(file, null, `tiles must be square, got ${tmj.tilewidth}x${tmj.tileheight}`);
  for (const ts of tmj.tilesets)
    if (ts.source) throw new MapError(file, null, `tileset '${ts.source}' is external; embed tilesets (Tiled: Map > Embed Tilesets) so the browser can load the map`);

  const w = tmj.width;
  const h = tmj.height;
  const size = tmj.tilewidth;
  const layers = flattenLayers(tmj.layers, file);
  for (const [name, type] of Object.entries(REQUIRED_LAYERS)) {
    const layer = layers.find((l) => l.name === name);
    if (!layer) throw new MapError(file, name, `missing: a map needs a ${type === 'tilelayer' ? 'tile' : 'object'} layer named '${name}' (see maps/README.md)`);
    if (layer.type !== type) throw new MapError(file, name, `must be a ${type === 'tilelayer' ? 'tile layer' : 'object layer'}, found '${layer.type}'`);
  }

  const collisionLayer = layers.find((l) => l.name === 'collision')!;
  const gids = readTileData(collisionLayer, w, h, file);
  const collision = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) collision[i] = gids[i] !== 0 ? 1 : 0;

  const objectsOf = (name: string): TiledObject[] => {
    const layer = layers.find((l) => l.name === name)!;
    return (layer.objects ?? []).map((raw, i) => {
      const o = TiledObject.safeParse(raw);
      if (!o.success) throw new MapError(file, name, `object #${i}: ${o.error.issues[0].path.join('.')}: ${o.error.issues[0].message}`);
      return o.data;
    });
  };
  const toRect = (o: TiledObject, layer: string): TileRect => {
    if (o.point || o.polygon || o.ellipse) throw new MapError(file, layer, `object '${o.name}' (id ${o.id}) must be a rectangle`);
    if (o.width <= 0 || o.height <= 0) throw new MapError(file, layer, `object '${o.name}' (id ${o.id}) has no area`);
    const x = Math.round(o.x / size);
    const y = Math.round(o.y / size);
    const rw = Math.max(1, Math.round(o.width / size));
    const rh = Math.max(1, Math.round(o.height / size));
    if (x < 0 || y < 0 || x + rw > w || y + rh > h) throw new MapError(file, layer, `object '${o.name}' (id ${o.id}) lies outside the ${w}x${h} map`);
    return { x, y, w: rw, h: rh };
  };

  // Arenas from the places layer: rectangles named "Sector: arena"; several rectangles may form one arena.
  const arenaIndexByTile = new Int32Array(w * h).fill(-1);
  const arenas: ArenaNode[] = [];
  const arenasByAddress = new Map<string, ArenaNode>();
  for (const o of objectsOf('places')) {
    const m = /^\s*([^:]+?)\s*:\s*([^:]+?)\s*$/.exec(o.name);
    if (!m) throw new MapError(file, 'places', `rectangle '${o.name}' (id ${o.id}) must be named "Sector: arena", e.g. "Hobbs Cafe: cafe"`);
    const rect = toRect(o, 'places');
    const address = `${m[1]}: ${m[2]}`;
    let arena = arenasByAddress.get(address);
    if (!arena) {
      arena = { address, sector: m[1], name: m[2], rects: [], objects: [], centreTile: { x: 0, y: 0 } };
      arenasByAddress.set(address, arena);
      arenas.push(arena);
    }
    arena.rects.push(rect);
    const index = arenas.indexOf(arena);
    for (let y = rect.y; y < rect.y + rect.h; y++)
      for (let x = rect.x; x < rect.x + rect.w; x++) {
        const t = y * w + x;
        const other = arenaIndexByTile[t];
        if (other !== -1 && other !== index) throw new MapError(file, 'places', `'${address}' (id ${o.id}) overlaps '${arenas[other].address}' at tile ${x},${y}`);
        arenaIndexByTile[t] = index;
      }
  }
  if (arenas.length === 0) throw new MapError(file, 'places', 'has no places: add rectangles named "Sector: arena"');

  arenas.forEach((arena, index) => {
    const inArena = (t: number): boolean => arenaIndexByTile[t] === index;
    const centre = nearestTile(w, h, centreOf(arena.rects), inArena, (t) => inArena(t) && collision[t] === 0);
    if (!centre) throw new MapError(file, 'places', `'${arena.address}' has no walkable tile`);
    arena.centreTile = centre;
  });

  const spawns: SpawnPoint[] = objectsOf('spawns').map((o) => {
    const tile = { x: Math.floor(o.x / size), y: Math.floor(o.y / size) };
    if (tile.x < 0 || tile.y < 0 || tile.x >= w || tile.y >= h) throw new MapError(file, 'spawns', `spawn '${o.name}' (id ${o.id}) lies outside the map`);
    if (collision[tile.y * w + tile.x]) throw new MapError(file, 'spawns', `spawn '${o.name}' (id ${o.id}) is on a blocked tile ${tile.x},${tile.y}`);
    return { name: o.name.trim(), tile };
  });
  if (spawns.length === 0) throw new MapError(file, 'spawns', 'has no spawn points: add at least one point object');

  // Every arena must be reachable from the first spawn, or agents would be stranded without a word.
  const reach = floodFill(collision, w, h, spawns[0].tile.y * w + spawns[0].tile.x);
  for (const arena of arenas) {
    const t = arena.centreTile.y * w + arena.centreTile.x;
    if (!reach[t]) throw new MapError(file, 'places', `'${arena.address}' cannot be reached on foot from spawn '${spawns[0].name}': open a door in the collision layer`);
  }

  // Game objects: rectangles named by what they are, each wholly inside one arena.
  const objectsByAddress = new Map<string, GameObjectNode>();
  for (const o of objectsOf('objects')) {
    const name = o.name.trim();
    if (!name) throw new MapError(file, 'objects', `object id ${o.id} has no name (name it "bed", "counter", ...)`);
    if (name.includes(':')) throw new MapError(file, 'objects', `object '${name}' (id ${o.id}): names may not contain ':'`);
    const rect = toRect(o, 'objects');
    const c = centreOf([rect]);
    const index = arenaIndexByTile[c.y * w + c.x];
    if (index === -1) throw new MapError(file, 'objects', `object '${name}' (id ${o.id}) at tile ${c.x},${c.y} is not inside any place rectangle`);
    const arena = arenas[index];
    for (let y = rect.y; y < rect.y + rect.h; y++)
      for (let x = rect.x; x < rect.x + rect.w; x++)
        if (arenaIndexByTile[y * w + x] !== index)
          throw new MapError(file, 'objects', `object '${name}' (id ${o.id}) is not wholly inside '${arena.address}': tile ${x},${y} is outside it`);
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
    const stand = nearestTile(w, h, c, inArena, (t) => collision[t] === 0 && reach[t] === 1 && besideObject(t));
    if (!stand) {
      const blocked = !nearestTile(w, h, c, inArena, (t) => collision[t] === 0 && besideObject(t));
      throw new MapError(
        file,
        'objects',
        blocked
          ? `object '${name}' (id ${o.id}) in '${arena.address}' has no walkable tile on or beside it to stand on`
          : `object '${name}' (id ${o.id}) in '${arena.address}' cannot be reached on foot from spawn '${spawns[0].name}'`,
      );
    }
    const node: GameObjectNode = { address: `${arena.address}: ${unique}`, name: unique, sector: arena.sector, arena: arena.name, rect, standTile: stand };
    arena.objects.push(node);
    objectsByAddress.set(node.address, node);
  }

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

function flattenLayers(raw: unknown[], file: string): Layer[] {
  const out: Layer[] = [];
  raw.forEach((r, i) => {
    const l = Layer.safeParse(r);
    if (!l.success) throw new MapError(file, null, `layer #${i}: ${l.error.issues[0].path.join('.')}: ${l.error.issues[0].message}`);
    if (l.data.type === 'group') out.push(...flattenLayers(l.data.layers ?? [], file));
    else out.push(l.data);
  });
  return out;
}

function readTileData(layer: Layer, w: number, h: number, file: string): Uint32Array {
  if (layer.chunks) throw new MapError(file, layer.name, 'chunked (infinite) tile data is not supported');
  if (layer.compression) throw new MapError(file, layer.name, `tile data is compressed (${layer.compression}); save with "Tile Layer Format: Base64 (uncompressed)" or CSV`);
  let gids: Uint32Array;
  if (Array.isArray(layer.data)) gids = Uint32Array.from(layer.data);
  else if (typeof layer.data === 'string' && layer.encoding === 'base64') {
    const bytes = Buffer.from(layer.data, 'base64');
    if (bytes.length % 4 !== 0) throw new MapError(file, layer.name, `base64 tile data is ${bytes.length} bytes, not a whole number of 4-byte tiles`);
    gids = new Uint32Array(bytes.length / 4);
    for (let i = 0; i < gids.length; i++) gids[i] = bytes.readUInt32LE(i * 4);
  } else if (typeof layer.data === 'string')
    throw new MapError(file, layer.name, `tile data encoding '${layer.encoding ?? 'none'}' is not supported; save as CSV or Base64 (uncompressed)`);
  else throw new MapError(file, layer.name, 'has no tile data');
  if (gids.length !== w * h) throw new MapError(file, layer.name, `has ${gids.length} tiles, expected ${w}x${h} = ${w * h}`);
  return gids;
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
