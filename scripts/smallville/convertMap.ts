// The reference's maze (tile areas named by block ids) as a Tiled map that follows maps/README.md.
//
// The reference's arenas and game objects are tile areas, not rectangles. Each arena becomes the
// rectangles that tile it exactly (runs of tiles in a row, merged down while they line up), all named
// "Sector: arena" in the `places` layer: our loader takes several shapes per arena, a person can still
// open and edit them in Tiled, and no new convention is needed. Each connected patch of one game object
// becomes an `objects` rectangle (split into row runs if its bounding box would leave its arena).
// Only what agents can use is kept: tiles walkable from the town's main street network, objects with a
// walkable tile on or beside them; everything dropped is counted for the report. The staff's side of a counter or
// a bar ("behind the cafe counter") is marked `staff`: only those who work there use it.
import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import type { TileRect } from '../../server/src/world/types';
import type { ReferenceMaze } from './reference';

/** The tallest (or widest) tileset image kept as one texture; taller ones are cut, for browsers whose WebGL textures stop at 8192 px. */
export const MAX_TEXTURE_PX = 4096;

/** The reference's names for the staff's side of a counter or a bar ("behind the cafe counter"): objects marked `staff`. */
const STAFF_OBJECT = /^behind the /i;

/** The reference's layers that hold block ids, not art: the maze replaces them. */
const BLOCK_LAYER = /(blocks|registry)$|^collisions?$/i;

export interface ConvertedArena {
  sector: string;
  name: string;
  address: string;
  rects: TileRect[];
  /** Object names as the loader will name them ("bed", "bed 2"), in order. */
  objects: string[];
}

export interface ConvertedMap {
  tmj: Record<string, unknown>;
  world: string;
  arenas: ConvertedArena[];
  spawns: Array<{ name: string; x: number; y: number }>;
  /** Lines for the report: what was converted. */
  converted: string[];
  /** Lines for the report: what was dropped, and why. */
  dropped: string[];
  /** Is this tile walkable and reachable (for pinning residents' start tiles)? */
  reachable(x: number, y: number): boolean;
}

interface TiledTileset {
  firstgid: number;
  name: string;
  image?: string;
  imagewidth?: number;
  imageheight?: number;
  tilewidth?: number;
  tileheight?: number;
  tilecount?: number;
  columns?: number;
  margin?: number;
  spacing?: number;
  [k: string]: unknown;
}

interface TiledLayer {
  name: string;
  type: string;
  data?: number[] | string;
  encoding?: string;
  layers?: TiledLayer[];
  properties?: Array<{ name: string; type: string; value: unknown }>;
  [k: string]: unknown;
}

const cleanName = (s: string): string => s.replace(/:/g, ' -').replace(/\s+/g, ' ').trim();

/** Rectangles covering exactly the tiles in `tiles` (row runs, merged down while they line up). */
export function rectanglesOf(tiles: Iterable<number>, w: number): TileRect[] {
  const byRow = new Map<number, number[]>();
  for (const t of tiles) {
    const y = Math.floor(t / w);
    const row = byRow.get(y) ?? [];
    row.push(t % w);
    byRow.set(y, row);
  }
  const rects: TileRect[] = [];
  let open = new Map<string, TileRect>();
  for (const y of [...byRow.keys()].sort((a, b) => a - b)) {
    const xs = byRow.get(y)!.sort((a, b) => a - b);
    const next = new Map<string, TileRect>();
    for (let i = 0; i < xs.length;) {
      let j = i;
      while (j + 1 < xs.length && xs[j + 1] === xs[j] + 1) j++;
      const key = `${xs[i]},${xs[j]}`;
      const above = open.get(key);
      if (above && above.y + above.h === y) {
        above.h++;
        next.set(key, above);
      } else {
        const r = { x: xs[i], y, w: xs[j] - xs[i] + 1, h: 1 };
        rects.push(r);
        next.set(key, r);
      }
      i = j + 1;
    }
    open = next;
  }
  return rects;
}

function components(tiles: readonly number[], w: number): number[][] {
  const set = new Set(tiles);
  const seen = new Set<number>();
  const out: number[][] = [];
  for (const t of tiles) {
    if (seen.has(t)) continue;
    const comp: number[] = [];
    const queue = [t];
    seen.add(t);
    while (queue.length) {
      const u = queue.pop()!;
      comp.push(u);
      const x = u % w;
      for (const v of [u - w, u + w, x > 0 ? u - 1 : -1, x < w - 1 ? u + 1 : -1])
        if (v >= 0 && set.has(v) && !seen.has(v)) {
          seen.add(v);
          queue.push(v);
        }
    }
    out.push(comp.sort((a, b) => a - b));
  }
  return out;
}

export interface ConvertMapOptions {
  /** The reference's Tiled map, for the art; null converts the maze alone (nothing to draw). */
  visualFile: string | null;
  /** Where the .tmj will be written: image paths are made relative to it. */
  outDir: string;
}

/** One conversion under way: the maze, its size, its collision, and what the report will say. */
interface Conversion {
  maze: ReferenceMaze;
  w: number;
  h: number;
  n: number;
  size: number;
  blocked: Uint8Array;
  converted: string[];
  dropped: string[];
  /** Counts a tile whose block id no special_blocks row names. */
  note(what: string): void;
}

type Reachable = (tile: number) => boolean;
type PlacedObject = { name: string; rect: TileRect; arena: ConvertedArena };

export function convertMap(maze: ReferenceMaze, options: ConvertMapOptions): ConvertedMap {
  const { widthTiles: w, heightTiles: h, tileSizePx: size } = maze;
  const n = w * h;
  const blocked = new Uint8Array(n);
  for (let i = 0; i < n; i++) blocked[i] = maze.mazes.collision[i] !== '0' ? 1 : 0;
  const unknownIds = new Map<string, number>();
  const note = (what: string) => unknownIds.set(what, (unknownIds.get(what) ?? 0) + 1);
  const c: Conversion = { maze, w, h, n, size, blocked, converted: [], dropped: [], note };
  const names = tileNames(c);
  const reachable = townRegion(c, names.arenaKeyOf);
  const { arenas, arenaOfTile } = arenasOf(c, names, reachable);
  const { objects, patches } = objectsOf(c, arenas, arenaOfTile, reachable);
  const spawns = spawnsOf(c, reachable);
  for (const [what, count] of unknownIds) c.dropped.push(`${count} tiles with ${what}, which no special_blocks row names`);
  const art = artOf(c, options);
  const { tmj, places } = tmjOf(c, art, arenas, objects, spawns);
  c.converted.unshift(
    `the maze: ${w}x${h} tiles of ${size} px in the world '${maze.world}'`,
    `${new Set(arenas.map((a) => a.sector)).size} sectors, ${arenas.length} arenas as ${places} rectangles ` +
      `(tile areas cut into rectangles) in the 'places' layer`,
    `${objects.length} game objects from ${patches} patches (${new Set(objects.map((o) => o.name)).size} kinds) in the 'objects' layer`,
    `${spawns.length} spawning locations in the 'spawns' layer`,
    `the collision maze as the hidden 'collision' layer (${blocked.reduce((s, b) => s + b, 0)} blocked tiles)`,
  );
  const { converted, dropped } = c;
  return { tmj, world: maze.world, arenas, spawns, converted, dropped, reachable: (x, y) => x >= 0 && y >= 0 && x < w && y < h && reachable(y * w + x) };
}

/** The names of each tile: its sector (from the sector maze, as the reference does) and arena, as an arena key. */
function tileNames({ maze, n, note }: Conversion): { arenaKeyOf: Array<string | null>; sectorOnly: number; sectorFromArenaRow: number } {
  const arenaKeyOf = new Array<string | null>(n).fill(null);
  let sectorOnly = 0;
  let sectorFromArenaRow = 0;
  for (let i = 0; i < n; i++) {
    const arenaId = maze.mazes.arena[i];
    const sectorId = maze.mazes.sector[i];
    if (arenaId === '0') {
      if (sectorId !== '0') sectorOnly++;
      continue;
    }
    const arenaRow = maze.blocks.arena.get(arenaId);
    if (!arenaRow) {
      note(`arena block ${arenaId}`);
      continue;
    }
    let sector = maze.blocks.sector.get(sectorId)?.names.at(-1);
    if (!sector) {
      // No sector painted under this arena tile: the arena's own row names its sector.
      sector = arenaRow.names.at(-2);
      if (sectorId !== '0') note(`sector block ${sectorId}`);
      sectorFromArenaRow++;
    }
    if (!sector) continue;
    arenaKeyOf[i] = `${cleanName(sector)}: ${cleanName(arenaRow.names.at(-1)!)}`;
  }
  return { arenaKeyOf, sectorOnly, sectorFromArenaRow };
}

/** The town: the largest walkable area holding arenas; the rest cannot be walked to. */
function townRegion({ w, n, blocked }: Conversion, arenaKeyOf: ReadonlyArray<string | null>): Reachable {
  const regionOf = new Int32Array(n).fill(-1);
  const regionArenaTiles: number[] = [];
  for (let s = 0; s < n; s++) {
    if (blocked[s] || regionOf[s] !== -1) continue;
    const id = regionArenaTiles.length;
    let count = 0;
    const queue = [s];
    regionOf[s] = id;
    while (queue.length) {
      const u = queue.pop()!;
      if (arenaKeyOf[u]) count++;
      const x = u % w;
      for (const v of [u - w, u + w, x > 0 ? u - 1 : -1, x < w - 1 ? u + 1 : -1])
        if (v >= 0 && v < n && !blocked[v] && regionOf[v] === -1) {
          regionOf[v] = id;
          queue.push(v);
        }
    }
    regionArenaTiles.push(count);
  }
  const town = regionArenaTiles.indexOf(Math.max(...regionArenaTiles));
  return (t: number): boolean => !blocked[t] && regionOf[t] === town;
}

/** The arenas: their tiles, less the walkable ones nobody can walk to. */
function arenasOf(
  { w, n, blocked, converted, dropped }: Conversion,
  { arenaKeyOf, sectorOnly, sectorFromArenaRow }: ReturnType<typeof tileNames>,
  reachable: Reachable,
): { arenas: ConvertedArena[]; arenaOfTile: Map<number, ConvertedArena> } {
  const arenaTiles = new Map<string, number[]>();
  let strandedTiles = 0;
  for (let i = 0; i < n; i++) {
    const key = arenaKeyOf[i];
    if (!key) continue;
    if (!blocked[i] && !reachable(i)) {
      strandedTiles++;
      continue;
    }
    const list = arenaTiles.get(key) ?? [];
    list.push(i);
    arenaTiles.set(key, list);
  }
  const arenas: ConvertedArena[] = [];
  const arenaOfTile = new Map<number, ConvertedArena>();
  for (const [address, tiles] of arenaTiles) {
    if (!tiles.some(reachable)) {
      dropped.push(`arena '${address}': none of its ${tiles.length} tiles can be walked to`);
      continue;
    }
    const [sector, name] = address.split(': ');
    const arena: ConvertedArena = { sector, name, address, rects: rectanglesOf(tiles, w), objects: [] };
    arenas.push(arena);
    for (const t of tiles) arenaOfTile.set(t, arena);
  }
  arenas.sort((a, b) => a.sector.localeCompare(b.sector) || a.name.localeCompare(b.name));
  if (sectorOnly) dropped.push(`${sectorOnly} tiles marked with a sector but no arena (yards, porches): our places are arenas, so they are outdoors`);
  if (strandedTiles) dropped.push(`${strandedTiles} walkable arena tiles that cannot be walked to from the town (closed off by collision)`);
  if (sectorFromArenaRow) converted.push(`${sectorFromArenaRow} arena tiles with no sector painted under them took the sector from their arena block row`);
  return { arenas, arenaOfTile };
}

/** The game objects: each connected patch of one object in one arena, with a walkable tile to use it from. */
function objectsOf(
  { maze, w, h, n, converted, dropped, note }: Conversion,
  arenas: ConvertedArena[],
  arenaOfTile: Map<number, ConvertedArena>,
  reachable: Reachable,
): { objects: PlacedObject[]; patches: number } {
  const objectTiles = new Map<string, { arena: ConvertedArena; name: string; tiles: number[] }>();
  let objectsOutside = 0;
  for (let i = 0; i < n; i++) {
    const id = maze.mazes.game_object[i];
    if (id === '0') continue;
    const row = maze.blocks.game_object.get(id);
    if (!row) {
      note(`game object block ${id}`);
      continue;
    }
    const arena = arenaOfTile.get(i);
    if (!arena) {
      objectsOutside++;
      continue;
    }
    const name = cleanName(row.names.at(-1)!);
    const key = `${arena.address}\u0000${name}`;
    const entry = objectTiles.get(key) ?? { arena, name, tiles: [] };
    entry.tiles.push(i);
    objectTiles.set(key, entry);
  }
  if (objectsOutside) dropped.push(`${objectsOutside} game object tiles outside every kept arena`);
  const objects: PlacedObject[] = [];
  let patches = 0;
  const severalPatches: string[] = [];
  const noStand: string[] = [];
  for (const { arena, name, tiles } of objectTiles.values()) {
    const parts = components(tiles, w);
    if (parts.length > 1) severalPatches.push(`${arena.address}: ${name} (${parts.length})`);
    for (const part of parts) {
      patches++;
      const xs = part.map((t) => t % w);
      const ys = part.map((t) => Math.floor(t / w));
      const box = { x: Math.min(...xs), y: Math.min(...ys), w: Math.max(...xs) - Math.min(...xs) + 1, h: Math.max(...ys) - Math.min(...ys) + 1 };
      let inside = true;
      for (let y = box.y; y < box.y + box.h && inside; y++) for (let x = box.x; x < box.x + box.w && inside; x++) inside = arenaOfTile.get(y * w + x) === arena;
      const rects = inside ? [box] : rectanglesOf(part, w);
      for (const rect of rects) {
        // A walkable tile of the town on or beside it, in its arena, to use it from (as the loader requires).
        let stand = false;
        for (let y = rect.y - 1; y <= rect.y + rect.h && !stand; y++)
          for (let x = rect.x - 1; x <= rect.x + rect.w && !stand; x++) {
            if (x < 0 || y < 0 || x >= w || y >= h) continue;
            const corner = (x < rect.x || x >= rect.x + rect.w) && (y < rect.y || y >= rect.y + rect.h);
            if (!corner && reachable(y * w + x) && arenaOfTile.get(y * w + x) === arena) stand = true;
          }
        if (!stand) {
          noStand.push(`${arena.address}: ${name}`);
          continue;
        }
        objects.push({ name, rect, arena });
        let unique = name;
        for (let k = 2; arena.objects.includes(unique); k++) unique = `${name} ${k}`;
        arena.objects.push(unique);
      }
    }
  }
  objects.sort((a, b) => a.arena.address.localeCompare(b.arena.address) || a.rect.y - b.rect.y || a.rect.x - b.rect.x);
  // Names as the loader gives them follow the layer's order: recompute in that order.
  for (const a of arenas) a.objects = [];
  for (const o of objects) {
    let unique = o.name;
    for (let k = 2; o.arena.objects.includes(unique); k++) unique = `${o.name} ${k}`;
    o.arena.objects.push(unique);
  }
  if (severalPatches.length)
    converted.push(
      `${severalPatches.length} game object${severalPatches.length === 1 ? ' lies' : 's lie'} in several separate ` +
        `patches of one arena; each patch is its own object, the second and later named "… 2", "… ` +
        `3": ${severalPatches.join('; ')}`,
    );
  if (noStand.length) dropped.push(`${noStand.length} game object patches with no walkable tile of the town on or beside them: ${noStand.join('; ')}`);
  return { objects, patches };
}

/** The spawns: the reference's spawning locations the town can reach (or one near the centre). */
function spawnsOf({ maze, w, h, n, converted, dropped, note }: Conversion, reachable: Reachable): ConvertedMap['spawns'] {
  const spawns: Array<{ name: string; x: number; y: number }> = [];
  let unreachableSpawns = 0;
  for (let i = 0; i < n; i++) {
    const id = maze.mazes.spawning_location[i];
    if (id === '0') continue;
    const row = maze.blocks.spawning_location.get(id);
    if (!row) {
      note(`spawning location block ${id}`);
      continue;
    }
    if (!reachable(i)) {
      unreachableSpawns++;
      continue;
    }
    spawns.push({ name: cleanName(row.names.slice(1).join(' ')), x: i % w, y: Math.floor(i / w) });
  }
  if (unreachableSpawns) dropped.push(`${unreachableSpawns} spawning locations on tiles the town cannot walk to`);
  if (spawns.length === 0) {
    // The loader needs one: the walkable tile of the town nearest the map's centre.
    let best = -1;
    let bestD = Infinity;
    for (let i = 0; i < n; i++) {
      if (!reachable(i)) continue;
      const d = Math.abs((i % w) - w / 2) + Math.abs(Math.floor(i / w) - h / 2);
      if (d < bestD) [best, bestD] = [i, d];
    }
    spawns.push({ name: 'town centre', x: best % w, y: Math.floor(best / w) });
    converted.push('no spawning location could be used: one spawn was put at the walkable tile nearest the centre');
  }
  return spawns;
}

/** The art: the reference's Tiled layers and tilesets, images referenced from the checkout. */
function artOf({ w, h, size, converted, dropped }: Conversion, options: ConvertMapOptions): { layers: TiledLayer[]; tilesets: TiledTileset[] } {
  const layers: TiledLayer[] = [];
  let tilesets: TiledTileset[] = [];
  if (options.visualFile) {
    const visual = JSON.parse(fs.readFileSync(options.visualFile, 'utf8')) as {
      width: number;
      height: number;
      tilewidth: number;
      layers: TiledLayer[];
      tilesets: TiledTileset[];
    };
    if (visual.width !== w || visual.height !== h || visual.tilewidth !== size)
      throw new Error(`${options.visualFile} is ${visual.width}x${visual.height} tiles of ${visual.tilewidth} px, but the maze is ${w}x${h} of ${size} px`);
    const keep = (list: TiledLayer[]): TiledLayer[] =>
      list.flatMap((l): TiledLayer[] => {
        if (l.type === 'group') return [{ ...l, layers: keep(l.layers ?? []) }];
        if (l.type !== 'tilelayer') return [];
        if (BLOCK_LAYER.test(l.name.trim())) {
          dropped.push(`layer '${l.name.trim()}': the reference's block ids, replaced by the maze's collision, places, objects and spawns`);
          return [];
        }
        // The reference's page draws its "Foreground" layers over the characters.
        const above = /^foreground/i.test(l.name.trim());
        return [
          { ...l, name: l.name.trim(), properties: [...(l.properties ?? []).filter((p) => p.name !== 'above'), { name: 'above', type: 'bool', value: above }] },
        ];
      });
    layers.push(...keep(visual.layers));
    converted.push(`${countTileLayers(layers)} tile layers of ${path.basename(options.visualFile)} drawn as they are (the "Foreground" ones above the agents)`);
    tilesets = convertTilesets(visual.tilesets, layers, path.dirname(options.visualFile), options.outDir, converted, dropped);
  } else dropped.push('the visual map (visuals/the_ville*.json): not found, so the town has no art; it still runs');
  return { layers, tilesets };
}

/** The map: the art's layers, then the hidden collision layer and the places, objects and spawns layers. */
function tmjOf(
  { maze, w, h, size, blocked }: Conversion,
  { layers, tilesets }: { layers: TiledLayer[]; tilesets: TiledTileset[] },
  arenas: readonly ConvertedArena[],
  objects: readonly PlacedObject[],
  spawns: ConvertedMap['spawns'],
): { tmj: ConvertedMap['tmj']; places: number } {
  let nextId = 1;
  const obj = (name: string, x: number, y: number, width: number, height: number, extra: Record<string, unknown> = {}) => ({
    id: nextId++,
    name,
    type: '',
    x,
    y,
    width,
    height,
    rotation: 0,
    visible: true,
    ...extra,
  });
  const collision = Array.from(blocked, (b) => (b ? 1 : 0));
  const places = arenas.flatMap((a) => a.rects.map((r) => obj(a.address, r.x * size, r.y * size, r.w * size, r.h * size)));
  // The reference names the staff's side of a counter or bar "behind the …": such an object is for staff (maps/README.md).
  const staff = (name: string) => (STAFF_OBJECT.test(name) ? { properties: [{ name: 'staff', type: 'bool', value: true }] } : {});
  const objectList = objects.map((o) => obj(o.name, o.rect.x * size, o.rect.y * size, o.rect.w * size, o.rect.h * size, staff(o.name)));
  const spawnList = spawns.map((s) => obj(s.name, s.x * size + size / 2, s.y * size + size / 2, 0, 0, { point: true }));
  let layerId = 1;
  const withIds = (list: TiledLayer[]): TiledLayer[] => list.map((l) => ({ ...l, id: layerId++, ...(l.layers ? { layers: withIds(l.layers) } : {}) }));
  const objectLayer = (name: string, objectsOfLayer: unknown[]) => ({
    name,
    type: 'objectgroup',
    draworder: 'topdown',
    opacity: 1,
    visible: true,
    x: 0,
    y: 0,
    objects: objectsOfLayer,
  });
  const allLayers = withIds([
    ...layers,
    { name: 'collision', type: 'tilelayer', width: w, height: h, x: 0, y: 0, opacity: 1, visible: false, data: collision },
    objectLayer('places', places),
    objectLayer('objects', objectList),
    objectLayer('spawns', spawnList),
  ]);
  const tmj = {
    type: 'map',
    version: '1.10',
    tiledversion: '1.10.2',
    orientation: 'orthogonal',
    renderorder: 'right-down',
    width: w,
    height: h,
    tilewidth: size,
    tileheight: size,
    infinite: false,
    nextlayerid: layerId,
    nextobjectid: nextId,
    properties: [{ name: 'world', type: 'string', value: maze.world }],
    tilesets,
    layers: allLayers,
  };
  return { tmj, places: places.length };
}

function countTileLayers(layers: readonly TiledLayer[]): number {
  return layers.reduce((s, l) => s + (l.type === 'group' ? countTileLayers(l.layers ?? []) : 1), 0);
}

function usedGids(layers: readonly TiledLayer[], into = new Set<number>()): Set<number> {
  for (const l of layers) {
    if (l.layers) usedGids(l.layers, into);
    if (Array.isArray(l.data))
      for (const g of l.data)
        if (g) into.add(g & 0x0fffffff);
        else if (typeof l.data === 'string' && l.encoding === 'base64') {
          const b = Buffer.from(l.data, 'base64');
          for (let i = 0; i + 3 < b.length; i += 4) {
            const g = b.readUInt32LE(i) & 0x0fffffff;
            if (g) into.add(g);
          }
        }
  }
  return into;
}

/**
 * The tilesets the kept layers use, each image referenced from the checkout relative to the output
 * folder; an image taller or wider than MAX_TEXTURE_PX is cut into bands written to <out>/tilesets/
 * (same tiles, same gids: a band is a tileset of consecutive rows).
 */
function convertTilesets(
  list: readonly TiledTileset[],
  layers: readonly TiledLayer[],
  visualDir: string,
  outDir: string,
  converted: string[],
  dropped: string[],
): TiledTileset[] {
  const used = usedGids(layers);
  const sorted = [...list].sort((a, b) => a.firstgid - b.firstgid);
  const out: TiledTileset[] = [];
  sorted.forEach((ts, i) => {
    const end = ts.tilecount ? ts.firstgid + ts.tilecount : (sorted[i + 1]?.firstgid ?? Infinity);
    if (![...used].some((g) => g >= ts.firstgid && g < end)) {
      dropped.push(`tileset '${ts.name}': only the block layers used it`);
      return;
    }
    if (typeof ts.image !== 'string') {
      dropped.push(`tileset '${ts.name}': not one image (an image collection), which the client does not draw`);
      out.push(ts);
      return;
    }
    const source = path.resolve(visualDir, ts.image);
    const rel = (file: string) => path.relative(outDir, file).split(path.sep).join('/');
    const tooBig = (ts.imageheight ?? 0) > MAX_TEXTURE_PX || (ts.imagewidth ?? 0) > MAX_TEXTURE_PX;
    const exists = fs.existsSync(source);
    if (!exists) dropped.push(`tileset image ${ts.image}: not in the checkout (the map draws without it)`);
    // Cutting keeps it simple: bands of whole rows, for images without margins or spacing.
    const cuttable = exists && tooBig && !ts.margin && !ts.spacing && (ts.imageheight ?? 0) > MAX_TEXTURE_PX && (ts.imagewidth ?? 0) <= MAX_TEXTURE_PX;
    if (tooBig && exists && !cuttable)
      converted.push(`tileset '${ts.name}' is ${ts.imagewidth}x${ts.imageheight} px: browsers with smaller textures may not draw it`);
    if (!cuttable) {
      out.push({ ...ts, image: rel(source) });
      return;
    }
    const png = PNG.sync.read(fs.readFileSync(source));
    const tile = ts.tileheight ?? 32;
    const columns = ts.columns ?? Math.floor(png.width / (ts.tilewidth ?? tile));
    const rows = Math.ceil((ts.tilecount ?? columns * Math.floor(png.height / tile)) / columns);
    const rowsPerBand = Math.floor(MAX_TEXTURE_PX / tile);
    fs.mkdirSync(path.join(outDir, 'tilesets'), { recursive: true });
    let bands = 0;
    for (let r0 = 0; r0 < rows; r0 += rowsPerBand) {
      const r1 = Math.min(rows, r0 + rowsPerBand);
      const y0 = r0 * tile;
      const height = Math.min(png.height - y0, (r1 - r0) * tile);
      const band = new PNG({ width: png.width, height });
      PNG.bitblt(png, band, 0, y0, png.width, height, 0, 0);
      const file = path.join(outDir, 'tilesets', `${path.basename(source, '.png')}-rows-${r0}-${r1 - 1}.png`);
      fs.writeFileSync(file, PNG.sync.write(band));
      out.push({
        ...ts,
        name: `${ts.name} rows ${r0}-${r1 - 1}`,
        firstgid: ts.firstgid + r0 * columns,
        image: rel(file),
        imageheight: height,
        tilecount: Math.min((r1 - r0) * columns, (ts.tilecount ?? rows * columns) - r0 * columns),
      });
      bands++;
    }
    converted.push(
      `tileset '${ts.name}' (${ts.imagewidth}x${ts.imageheight} px, taller than browsers' ${MAX_TEXTURE_PX} px ` +
        `textures may be) cut into ${bands} bands in tilesets/, same gids`,
    );
  });
  return out;
}
