// Domain types of the world layer: the map, its place tree and the personas who live in it.
// Everything here is plain data, so the sim can copy, serialise and test it freely.

export type { AgentId, Brand } from '../protocol/ids';
export { asAgentId } from '../protocol/ids';

export interface Tile {
  x: number;
  y: number;
}

/** A rectangle in whole tiles: x, y of the top-left tile, w and h in tiles. */
export interface TileRect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** A named game object inside an arena: a bed, a stove, a counter. */
export interface GameObjectNode {
  /** Full address, "Sector: arena: object", e.g. "Hobbs Cafe: cafe: counter". Unique in the map; a
   *  second object of the same name in one arena gets a suffix (" 2"). */
  address: string;
  /** Plain name as written in Tiled, e.g. "counter". */
  name: string;
  sector: string;
  arena: string;
  rect: TileRect;
  /** A walkable tile from which an agent uses the object (inside its arena). */
  standTile: Tile;
}

export interface ArenaNode {
  /** "Sector: arena", e.g. "Hobbs Cafe: cafe". */
  address: string;
  sector: string;
  name: string;
  /** An arena may be drawn as several rectangles (an L-shaped room). */
  rects: TileRect[];
  objects: GameObjectNode[];
  /** A walkable tile near the arena's centre, used when a plan names the arena but no object. */
  centreTile: Tile;
}

export interface SectorNode {
  name: string;
  arenas: ArenaNode[];
}

/** world > sector > arena > object, as in the reference's "the Ville: Hobbs Cafe: cafe: counter". */
export interface PlaceTree {
  world: string;
  sectors: SectorNode[];
}

export interface SpawnPoint {
  /** The Tiled object's name; may name a persona id to pin that persona's spawn. */
  name: string;
  tile: Tile;
}

export interface TownMap {
  /** Path of the file it was loaded from, for messages. */
  file: string;
  widthTiles: number;
  heightTiles: number;
  tileSizePx: number;
  /** widthTiles * heightTiles, 1 = blocked, 0 = walkable. Index = y * widthTiles + x. */
  collision: Uint8Array;
  /** widthTiles * heightTiles, index into `arenas` of the arena covering the tile, or -1 (outdoors/none). */
  arenaIndexByTile: Int32Array;
  places: PlaceTree;
  /** All arenas of all sectors, flattened, in a stable order. */
  arenas: ArenaNode[];
  /** Every game object by its full address. */
  objectsByAddress: Map<string, GameObjectNode>;
  /** Every arena by its address "Sector: arena". */
  arenasByAddress: Map<string, ArenaNode>;
  spawns: SpawnPoint[];
}
