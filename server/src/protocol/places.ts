// The place tree of a town (world > sector > arena > object) with the tile rectangles it covers: loaded
// from the map by the server (world/map.ts), sent in GET /api/town, and drawn as place names by the client.

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
  /** For staff only (Tiled bool property `staff`): used by those who work in its sector, e.g. "behind the cafe counter". */
  staff?: true;
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
