// The map's places, objects and spawns, read from its object layers onto the collision grid: arenas
// from `places` (rectangles or polygons named "Sector: arena"), game objects from `objects` (each wholly
// inside one arena, with a walkable tile on or beside it), spawns from `spawns` and from points named
// like a spawn ("Spawn Point") in any object layer. Every problem goes to `fail`; what can be read is
// kept, so that personas can still be checked against a map that has problems.
import type { ArenaNode, GameObjectNode, SpawnPoint, Tile, TileRect } from './types';
import { describeBlockers, type Collision } from './mapCollision';
import { TiledObject, type Fail, type FlatLayer } from './tiled';
import { boolProperty } from '../protocol/mapLayers';

export interface Grid {
  w: number;
  h: number;
  size: number;
  collision: Collision;
  fail: Fail;
  /** How many problems were tiles blocked where agents must walk (counted by the steps below). */
  blockedProblems: number;
}

/** A point object named like a spawn ("Spawn Point", "player spawn"): a spawn in any object layer (Phaser's examples keep one in `Objects`). */
export const SPAWN_NAME = /spawn/i;

export function isSpawnPoint(o: TiledObject): boolean {
  return o.point === true && SPAWN_NAME.test(o.name);
}

/** The objects of an object layer that zod accepts; the others are reported. */
export function readObjects(layer: FlatLayer, fail: Fail): TiledObject[] {
  const list: TiledObject[] = [];
  (layer.objects ?? []).forEach((raw, i) => {
    const o = TiledObject.safeParse(raw);
    if (!o.success) fail(layer.name, `object #${i}: ${o.error.issues[0].path.join('.')}: ${o.error.issues[0].message}`);
    else list.push(o.data);
  });
  return list;
}

const label = (o: TiledObject): string => `'${o.name}' (id ${o.id})`;

function toRect(o: TiledObject, layer: string, g: Grid): TileRect | null {
  const none = (what: string): null => {
    g.fail(layer, what);
    return null;
  };
  if (o.point || o.ellipse || o.polygon || o.polyline || o.text !== undefined || o.gid !== undefined)
    return none(`object ${label(o)} must be a rectangle${layer === 'places' ? ' or a polygon' : ''}`);
  if (o.rotation) return none(`object ${label(o)} is rotated; only unrotated rectangles are supported`);
  if (o.width <= 0 || o.height <= 0) return none(`object ${label(o)} has no area`);
  const x = Math.round(o.x / g.size);
  const y = Math.round(o.y / g.size);
  const rw = Math.max(1, Math.round(o.width / g.size));
  const rh = Math.max(1, Math.round(o.height / g.size));
  if (x < 0 || y < 0 || x + rw > g.w || y + rh > g.h) return none(`object ${label(o)} lies outside the ${g.w}x${g.h} map`);
  return { x, y, w: rw, h: rh };
}

/** A place's tiles, as rectangles: a rectangle as it is, a polygon as one per run of tiles in a row. */
function placeRects(o: TiledObject, g: Grid): TileRect[] | null {
  if (!o.polygon) {
    const r = toRect(o, 'places', g);
    return r ? [r] : null;
  }
  const none = (what: string): null => {
    g.fail('places', what);
    return null;
  };
  if (o.rotation) return none(`polygon ${label(o)} is rotated; only unrotated polygons are supported`);
  const points = o.polygon.map((p) => ({ x: o.x + p.x, y: o.y + p.y }));
  if (points.length < 3) return none(`polygon ${label(o)} has fewer than 3 points`);
  const rects = rasterisePolygon(points, g.size, g.w, g.h);
  if (rects.length === 0) return none(`polygon ${label(o)} covers no tile centre`);
  return rects;
}

export interface Arenas {
  arenas: ArenaNode[];
  arenasByAddress: Map<string, ArenaNode>;
  arenaIndexByTile: Int32Array;
  /** Tiles of misnamed places: objects on them are not "outside every place" too. */
  brokenPlaceTiles: Uint8Array;
}

/** Arenas from the places layer: rectangles or polygons named "Sector: arena"; several shapes may make one arena. */
export function buildArenas(places: readonly TiledObject[], g: Grid): Arenas {
  const { w, h } = g;
  const arenaIndexByTile = new Int32Array(w * h).fill(-1);
  const arenas: ArenaNode[] = [];
  const arenasByAddress = new Map<string, ArenaNode>();
  const indexByAddress = new Map<string, number>();
  const brokenPlaceTiles = new Uint8Array(w * h);
  for (const o of places) {
    const m = /^\s*([^:]+?)\s*:\s*([^:]+?)\s*$/.exec(o.name);
    const rects = placeRects(o, g);
    if (!m) {
      g.fail('places', `${o.polygon ? 'polygon' : 'rectangle'} ${label(o)} must be named "Sector: arena", e.g. "Hobbs Cafe: cafe"`);
      for (const r of rects ?? []) forEachTile(r, (t) => (brokenPlaceTiles[t] = 1), w);
      continue;
    }
    if (!rects) continue;
    const address = `${m[1]}: ${m[2]}`;
    let arena = arenasByAddress.get(address);
    if (!arena) {
      arena = { address, sector: m[1], name: m[2], rects: [], objects: [], centreTile: { x: 0, y: 0 } };
      arenasByAddress.set(address, arena);
      indexByAddress.set(address, arenas.length);
      arenas.push(arena);
    }
    const index = indexByAddress.get(address)!;
    let overlap: string | null = null;
    for (const rect of rects)
      forEachTile(
        rect,
        (t) => {
          const other = arenaIndexByTile[t];
          if (other !== -1 && other !== index)
            overlap ??= `'${address}' (id ${o.id}) overlaps '${arenas[other].address}' at tile ${t % w},${Math.floor(t / w)}`;
          else arenaIndexByTile[t] = index;
        },
        w,
      );
    if (overlap) g.fail('places', overlap);
    arena.rects.push(...rects);
  }
  return { arenas, arenasByAddress, arenaIndexByTile, brokenPlaceTiles };
}

/**
 * Gives each arena its centre tile (the walkable tile nearest the centre of its largest shape); an arena
 * with none is reported, naming what blocks it, and left out of the returned list.
 */
export function centreArenas(a: Arenas, g: Grid): ArenaNode[] {
  const placed: ArenaNode[] = [];
  const grid = g.collision.grid;
  a.arenas.forEach((arena, index) => {
    const inArena = (t: number): boolean => a.arenaIndexByTile[t] === index;
    const centre = nearestTile(g.w, g.h, centreOf(arena.rects), inArena, (t) => inArena(t) && grid[t] === 0);
    if (centre) {
      arena.centreTile = centre;
      placed.push(arena);
      return;
    }
    // Kept with its geometric centre, so personas can still be checked against it.
    arena.centreTile = centreOf(arena.rects);
    const tiles: number[] = [];
    for (const r of arena.rects) forEachTile(r, (t) => tiles.push(t), g.w);
    g.blockedProblems++;
    g.fail('places', `'${arena.address}' has no walkable tile: all blocked ${describeBlockers(g.collision, tiles, 'erase tiles in')}`);
  });
  return placed;
}

/** Spawns: the objects of a `spawns` layer (a point, or any object's top-left) and spawn-named points elsewhere, on walkable tiles. */
export function readSpawns(candidates: ReadonlyArray<{ layer: string; o: TiledObject }>, g: Grid): SpawnPoint[] {
  const spawns: SpawnPoint[] = [];
  for (const { layer, o } of candidates) {
    const tile = { x: Math.floor(o.x / g.size), y: Math.floor(o.y / g.size) };
    const t = tile.y * g.w + tile.x;
    if (tile.x < 0 || tile.y < 0 || tile.x >= g.w || tile.y >= g.h) g.fail(layer, `spawn ${label(o)} lies outside the map`);
    else if (g.collision.grid[t]) {
      g.blockedProblems++;
      g.fail(layer, `spawn ${label(o)} is on a tile ${tile.x},${tile.y} blocked ${describeBlockers(g.collision, [t], 'move the spawn, or erase the tile in')}`);
    } else spawns.push({ name: o.name.trim(), tile });
  }
  return spawns;
}

/** The blocked tiles that wall in the walkable region around `from`: what stands between it and the rest. */
function enclosure(grid: Uint8Array, w: number, h: number, from: Tile): number[] {
  const region = floodFill(grid, w, h, from.y * w + from.x);
  const walls: number[] = [];
  for (let t = 0; t < w * h; t++) {
    if (!grid[t]) continue;
    const x = t % w;
    if ((t >= w && region[t - w]) || (t + w < w * h && region[t + w]) || (x > 0 && region[t - 1]) || (x < w - 1 && region[t + 1])) walls.push(t);
  }
  return walls;
}

/** The tiles reachable on foot from the first spawn (null: no spawn); each arena not among them is reported and returned. */
export function checkReach(placed: readonly ArenaNode[], spawns: readonly SpawnPoint[], g: Grid): { reach: Uint8Array | null; stranded: Set<ArenaNode> } {
  const stranded = new Set<ArenaNode>();
  if (!spawns.length) return { reach: null, stranded };
  const grid = g.collision.grid;
  const reach = floodFill(grid, g.w, g.h, spawns[0].tile.y * g.w + spawns[0].tile.x);
  for (const arena of placed) {
    if (reach[arena.centreTile.y * g.w + arena.centreTile.x]) continue;
    stranded.add(arena);
    g.blockedProblems++;
    const walls = describeBlockers(g.collision, enclosure(grid, g.w, g.h, arena.centreTile));
    g.fail('places', `'${arena.address}' cannot be reached on foot from spawn '${spawns[0].name}': walled in ${walls}`);
  }
  return { reach, stranded };
}

/**
 * Game objects: rectangles named by what they are, each wholly inside one arena, standing on or beside
 * it. One that has nowhere to stand is reported but kept in the map (at its centre) for checking personas.
 */
export function buildObjects(
  objects: readonly TiledObject[],
  a: Arenas,
  reached: { reach: Uint8Array | null; stranded: Set<ArenaNode>; firstSpawn: string },
  g: Grid,
): Map<string, GameObjectNode> {
  const { w, h } = g;
  const grid = g.collision.grid;
  const objectsByAddress = new Map<string, GameObjectNode>();
  for (const o of objects) {
    const name = o.name.trim();
    if (!name) {
      g.fail('objects', `object id ${o.id} has no name (name it "bed", "counter", ...)`);
      continue;
    }
    if (name.includes(':')) {
      g.fail('objects', `object '${name}' (id ${o.id}): names may not contain ':'`);
      continue;
    }
    const rect = toRect(o, 'objects', g);
    if (!rect) continue;
    const c = centreOf([rect]);
    const index = a.arenaIndexByTile[c.y * w + c.x];
    if (index === -1) {
      if (!a.brokenPlaceTiles[c.y * w + c.x]) g.fail('objects', `object '${name}' (id ${o.id}) at tile ${c.x},${c.y} is not inside any place`);
      continue;
    }
    const arena = a.arenas[index];
    const outsideTiles: number[] = [];
    forEachTile(rect, (t) => a.arenaIndexByTile[t] !== index && outsideTiles.push(t), w);
    if (outsideTiles.length) {
      const outside = `${outsideTiles[0] % w},${Math.floor(outsideTiles[0] / w)}`;
      g.fail('objects', `object '${name}' (id ${o.id}) is not wholly inside '${arena.address}': tile ${outside} is outside it`);
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
    const inArena = (t: number): boolean => a.arenaIndexByTile[t] === index;
    const reach = reached.reach;
    const stand = nearestTile(w, h, c, inArena, (t) => grid[t] === 0 && (reach === null || reach[t] === 1) && besideObject(t));
    // The objects of an arena nobody can reach say nothing more than the arena's own error.
    if (!stand && !reached.stranded.has(arena)) {
      const blocked = !nearestTile(w, h, c, inArena, (t) => grid[t] === 0 && besideObject(t));
      g.blockedProblems++;
      const tiles: number[] = [];
      forEachTile({ x: rect.x - 1, y: rect.y - 1, w: rect.w + 2, h: rect.h + 2 }, (t) => tiles.push(t), w, h);
      g.fail(
        'objects',
        blocked
          ? `object '${name}' (id ${o.id}) in '${arena.address}' has no walkable tile on or beside it to stand on: ` +
              `blocked ${describeBlockers(g.collision, tiles, 'erase tiles in')}`
          : `object '${name}' (id ${o.id}) in '${arena.address}' cannot be reached on foot from spawn '${reached.firstSpawn}'`,
      );
    }
    const node: GameObjectNode = { address: `${arena.address}: ${unique}`, name: unique, sector: arena.sector, arena: arena.name, rect, standTile: stand ?? c };
    if (boolProperty(o, 'staff')) node.staff = true;
    arena.objects.push(node);
    objectsByAddress.set(node.address, node);
  }
  return objectsByAddress;
}

function forEachTile(r: TileRect, visit: (t: number) => void, w: number, h = Number.POSITIVE_INFINITY): void {
  for (let y = Math.max(0, r.y); y < Math.min(h, r.y + r.h); y++) for (let x = Math.max(0, r.x); x < Math.min(w, r.x + r.w); x++) visit(y * w + x);
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
  // A set, not an array of the whole map: the search stays inside one arena, and a big town has tens of
  // thousands of arenas and objects (an array each was 1.8 MB zeroed per object at 10,000 people).
  const seen = new Set<number>([start]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const t = queue[i];
    if (accept(t)) return { x: t % w, y: Math.floor(t / w) };
    const x = t % w;
    for (const n of [t - w, x > 0 ? t - 1 : -1, x < w - 1 ? t + 1 : -1, t + w]) {
      if (n < 0 || n >= w * h || seen.has(n) || !within(n)) continue;
      seen.add(n);
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
