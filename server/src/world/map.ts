// Loads a Tiled map (.tmj, orthogonal) that follows the conventions in maps/README.md and builds the
// TownMap: the collision grid, the place tree world > sector > arena > object, and spawn points.
// A map that breaks conventions is refused with every problem at once, each naming the file, the
// layer and what is wrong, so an author fixes them all in one go. The steps live beside it: tiled.ts
// (the format), mapCollision.ts (what blocks, and who), mapPlaces.ts (places, objects, spawns).
import fs from 'node:fs';
import type { SectorNode, TownMap } from './types';
import { closestFirst, editDistance } from './places';
import { buildCollision, describeBlockers } from './mapCollision';
import { buildArenas, buildObjects, centreArenas, checkReach, isSpawnPoint, readObjects, readSpawns, type Grid } from './mapPlaces';
import { flattenLayers, TiledMap, type FlatLayer, type TiledObject } from './tiled';

export { COLLIDES_PROPERTIES } from './mapCollision';
export { rasterisePolygon } from './mapPlaces';

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

/**
 * Every problem found in one map, each a MapError; and, when the persona files could be checked against
 * the map as far as it was read (loadTownFiles), theirs too, so one start lists everything to fix.
 */
export class MapErrors extends Error {
  constructor(
    readonly file: string,
    readonly errors: MapError[],
    readonly personaErrors: readonly Error[] = [],
  ) {
    const n = (k: number, what: string): string => `${k} problem${k === 1 ? '' : 's'} in ${what}`;
    const personas = personaErrors.length
      ? `\nand ${n(personaErrors.length, 'the persona files')}, checked against the map as far as it could be read:\n  ` +
        personaErrors.map((e) => e.message).join('\n  ')
      : '';
    super(`${n(errors.length, `the map ${file}`)} (see maps/README.md):\n  ${errors.map((e) => e.message).join('\n  ')}${personas}`);
    this.name = 'MapErrors';
  }
}

/** The layers the conventions need. `collision` may instead come from tiles marked `collides: true`, `spawns` from spawn-named points. */
export const REQUIRED_LAYERS = { collision: 'tilelayer', places: 'objectgroup', objects: 'objectgroup', spawns: 'objectgroup' } as const;

/** A map as far as it could be read, and its problems. `map` is null when not even its grid could be read. */
export interface ReadMap {
  map: TownMap | null;
  problems: MapError[];
}

/** Loads a map file, or throws MapErrors listing every problem found. */
export function loadTownMap(file: string): TownMap {
  const read = readTownMapFile(file);
  if (read.problems.length) throw new MapErrors(file, read.problems);
  return read.map!;
}

/** Reads a map file as far as it can be read, with its problems (see readTownMap). */
export function readTownMapFile(file: string): ReadMap {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    return { map: null, problems: [new MapError(file, null, `cannot read the map: ${error instanceof Error ? error.message : String(error)}`)] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const why = `not valid JSON (${error instanceof Error ? error.message : String(error)}); save it from Tiled as JSON (.tmj)`;
    return { map: null, problems: [new MapError(file, null, why)] };
  }
  return readTownMap(json, file);
}

/** Builds the TownMap from a parsed .tmj, or throws MapErrors listing every problem found. */
export function parseTownMap(json: unknown, file: string): TownMap {
  const read = readTownMap(json, file);
  if (read.problems.length) throw new MapErrors(file, read.problems);
  return read.map!;
}

/**
 * Reads a parsed .tmj as far as it can: the TownMap and every problem. With problems, the map holds
 * what could be read (arenas without a walkable tile at their centre, objects without a stand tile at
 * theirs), so that persona files can be checked against it in the same start.
 */
export function readTownMap(json: unknown, file: string): ReadMap {
  const problems: MapError[] = [];
  const fail = (layer: string | null, what: string): void => void problems.push(new MapError(file, layer, what));
  const tmj = readHeader(json, fail);
  if (!tmj) return { map: null, problems };
  const layers = flattenLayers(tmj.layers, fail);
  const collision = buildCollision(tmj, layers, fail);
  if (!layers.some((l) => l.name === 'collision') && !collision.known)
    fail(
      'collision',
      `missing: a map needs a tile layer named 'collision' (any tile blocks), or tiles marked with a boolean ` +
        `property 'collides' in the tileset${nearName('collision', layers)}`,
    );
  const g: Grid = { w: tmj.width, h: tmj.height, size: tmj.tilewidth, collision, fail, blockedProblems: 0 };
  const objectLayers = readConventionLayers(layers, fail);
  const places = objectLayers.get('places');
  const arenas = buildArenas(places ?? [], g);
  if (places && places.length === 0) fail('places', 'has no places: add rectangles or polygons named "Sector: arena"');
  const placed = centreArenas(arenas, g);
  const spawnCandidates = spawnObjects(layers, objectLayers, fail);
  const spawns = readSpawns(spawnCandidates, g);
  const reached = checkReach(placed, spawns, g);
  // Without a places layer every object would be "outside every place": that layer's error says it all.
  const objectsByAddress = buildObjects(places ? (objectLayers.get('objects') ?? []) : [], arenas, { ...reached, firstSpawn: spawns[0]?.name ?? '' }, g);
  // A map mostly blocked by tiles its tileset marks is the sign of ground tiles taken as walls: say so once, with the fix.
  let blockedByMarks = 0;
  for (const s of collision.blockedBy) if (s >= 0 && collision.sources[s].tileset) blockedByMarks++;
  if (g.blockedProblems > 0 && blockedByMarks * 2 > g.w * g.h) {
    const all = Array.from({ length: g.w * g.h }, (_, t) => t);
    const blocked = collision.grid.reduce((n, b) => n + b, 0);
    fail(null, `most of the map is blocked (${blocked} of ${g.w * g.h} tiles), ${describeBlockers(collision, all, 'erase tiles in')}`);
  }

  const sectorsByName = new Map<string, SectorNode>();
  for (const arena of arenas.arenas) {
    let sector = sectorsByName.get(arena.sector);
    if (!sector) sectorsByName.set(arena.sector, (sector = { name: arena.sector, arenas: [] }));
    sector.arenas.push(arena);
  }
  const sectors = [...sectorsByName.values()];
  const worldProp = tmj.properties?.find((p) => p.name === 'world')?.value;
  const map: TownMap = {
    file,
    widthTiles: g.w,
    heightTiles: g.h,
    tileSizePx: g.size,
    collision: collision.grid,
    arenaIndexByTile: arenas.arenaIndexByTile,
    places: { world: typeof worldProp === 'string' && worldProp.trim() ? worldProp.trim() : 'the town', sectors },
    arenas: arenas.arenas,
    objectsByAddress,
    arenasByAddress: arenas.arenasByAddress,
    spawns,
  };
  return { map, problems };
}

/** The map's format and grid, or null when without a grid of known size nothing else would mean anything. */
function readHeader(json: unknown, fail: (layer: string | null, what: string) => void): TiledMap | null {
  const parsed = TiledMap.safeParse(json);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) fail(null, `not a Tiled map: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
    return null;
  }
  const tmj = parsed.data;
  if (tmj.orientation !== 'orthogonal') fail(null, `orientation is '${tmj.orientation}'; only orthogonal maps are supported`);
  if (tmj.infinite) fail(null, 'infinite maps are not supported: uncheck Map > Map Properties > Infinite');
  if (tmj.tilewidth !== tmj.tileheight) fail(null, `tiles must be square, got ${tmj.tilewidth}x${tmj.tileheight}`);
  for (const ts of tmj.tilesets)
    if (ts.source) fail(null, `tileset '${ts.source}' is external; embed tilesets (Tiled: Map > Embed Tilesets) so the browser can load the map`);
  return tmj.orientation !== 'orthogonal' || tmj.infinite || tmj.tilewidth !== tmj.tileheight ? null : tmj;
}

/** The objects of the `places`, `objects` and `spawns` layers (spawn-named points left to the spawns); a missing `spawns` is no problem here. */
function readConventionLayers(layers: readonly FlatLayer[], fail: (layer: string | null, what: string) => void): Map<string, TiledObject[]> {
  const out = new Map<string, TiledObject[]>();
  for (const name of ['places', 'objects', 'spawns'] as const) {
    const layer = layers.find((l) => l.name === name);
    if (!layer) {
      const spawnPoints = layers.some((l) => l.type === 'objectgroup' && readObjects(l, () => {}).some(isSpawnPoint));
      if (name !== 'spawns' || !spawnPoints) fail(name, `missing: a map needs an object layer named '${name}'${nearName(name, layers)} (see maps/README.md)`);
      continue;
    }
    if (layer.type !== 'objectgroup') {
      fail(name, `must be an object layer, found '${layer.type}'`);
      continue;
    }
    const objects = readObjects(layer, fail);
    out.set(name, name === 'spawns' ? objects : objects.filter((o) => !isSpawnPoint(o)));
  }
  return out;
}

/** The spawn candidates: every object of `spawns`, and points named like a spawn in any other object layer. */
function spawnObjects(
  layers: readonly FlatLayer[],
  conventional: Map<string, TiledObject[]>,
  fail: (layer: string | null, what: string) => void,
): Array<{ layer: string; o: TiledObject }> {
  const out: Array<{ layer: string; o: TiledObject }> = (conventional.get('spawns') ?? []).map((o) => ({ layer: 'spawns', o }));
  for (const l of layers)
    if (l.type === 'objectgroup' && l.name !== 'spawns') for (const o of readObjects(l, () => {})) if (isSpawnPoint(o)) out.push({ layer: l.name, o });
  if (conventional.has('spawns') && out.length === 0) fail('spawns', 'has no spawn points: add at least one point object');
  return out;
}

/**
 * " (there is a layer 'Collisions': rename it to 'collision'?)" when a layer's name is close to the one
 * wanted and it holds nothing else; when it holds other things (a Phaser map's `Objects` with its
 * "Spawn Point"), the advice is to add the layer beside it instead.
 */
function nearName(wanted: keyof typeof REQUIRED_LAYERS, layers: readonly FlatLayer[]): string {
  const near = closestFirst(
    wanted,
    layers.map((l) => l.name),
  ).find((n) => editDistance(wanted, n.toLowerCase()) <= 3);
  if (!near) return '';
  const layer = layers.find((l) => l.name === near)!;
  const other = otherThings(wanted, layer);
  if (other === null) return ` (there is a layer '${near}': rename it to '${wanted}'?)`;
  const kind = REQUIRED_LAYERS[wanted] === 'tilelayer' ? 'tile layer' : 'object layer';
  return ` (layer '${near}' holds ${other}: keep it as it is and add a new ${kind} named '${wanted}')`;
}

/** What a layer holds that the wanted layer would not ("the point 'Spawn Point'"), or null when renaming it would be right. */
function otherThings(wanted: keyof typeof REQUIRED_LAYERS, layer: FlatLayer): string | null {
  if (layer.type !== REQUIRED_LAYERS[wanted]) return `${layer.type === 'tilelayer' ? 'tiles' : 'other things'} (it is a '${layer.type}')`;
  if (layer.type === 'tilelayer') return null;
  const objects = readObjects(layer, () => {});
  const fits = (o: TiledObject): boolean =>
    wanted === 'spawns' ? o.point === true : wanted === 'places' ? /^[^:]+:[^:]+$/.test(o.name) && !o.point : !o.point && !o.name.includes(':');
  const misfit = objects.find((o) => !fits(o) || (wanted !== 'spawns' && isSpawnPoint(o)));
  return misfit ? `other things, such as ${misfit.point ? 'the point' : 'the object'} '${misfit.name}'` : null;
}
