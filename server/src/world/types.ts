// Domain types of the world layer: the map, its place tree and the personas who live in it.
// Everything here is plain data, so the sim can copy, serialise and test it freely.

export type { AgentId, Brand } from '../protocol/ids';
export { asAgentId } from '../protocol/ids';

export type { Tile, TileRect, GameObjectNode, ArenaNode, SectorNode, PlaceTree } from '../protocol/places';
import type { Tile, ArenaNode, GameObjectNode, PlaceTree } from '../protocol/places';

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
