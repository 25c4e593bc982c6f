// The collision grid of a map, and who blocks each tile, so that a refusal can say which layer and
// which tileset property block a place and how to change that (maps/README.md, "What blocks").
//
// A tile is blocked by any tile of a `collision` layer, and by a tile its tileset marks `collides: true`
// (or `collide`) on a layer that blocks. Which layers block, first rule that applies:
// 1. the map's string property `collisionLayers`: the layers it names (comma-separated, own names or
//    "Group/Layer");
// 2. layers with the bool property `collides`: those set true, or, if none is, every default layer but
//    those set false;
// 3. by default, as Phaser's examples turn collision on for their "World" layer only: every tile layer
//    between the ground (the lowest tile layer) and the layers drawn above the agents. A map with one
//    tile layer blocks on it.
import { boolProperty } from '../protocol/mapLayers';
import { GID_MASK, readTileData, type Fail, type FlatLayer, type TiledMap, type Tileset } from './tiled';

/** Tile properties that mark a tile as blocked (Phaser's `setCollisionByProperty` convention). */
export const COLLIDES_PROPERTIES = ['collides', 'collide'] as const;

const MAP_PROPERTY_RULE = 'the map property collisionLayers';

/** One reason tiles are blocked: a layer, and for a tileset's marked tiles the tileset and its property. */
export interface BlockSource {
  layer: string;
  tileset: string | null;
  property: string | null;
}

export interface Collision {
  /** 1 = blocked, index y * w + x. */
  grid: Uint8Array;
  /** The first source that blocks each tile (index into `sources`), or -1. */
  blockedBy: Int32Array;
  sources: BlockSource[];
  /** The tile layers whose marked tiles were not taken as blocking, for the fix a message offers. */
  ignored: string[];
  /** The blocking tile layers, as the rule chose them. */
  blocking: string[];
  /** Which rule chose them, for messages: "the map property collisionLayers", ... */
  rule: string;
  /** Whether anything says what blocks (a collision layer or marked tiles). */
  known: boolean;
}

interface Marked {
  tileset: string;
  property: string;
}

/** The gids of tiles whose tileset gives them a true `collides` (or `collide`) property, with the tileset and property. */
export function collidingGidsOf(tilesets: readonly Tileset[]): Map<number, Marked> {
  const gids = new Map<number, Marked>();
  for (const ts of tilesets)
    for (const tile of ts.tiles ?? []) {
      const p = tile.properties?.find((x) => (COLLIDES_PROPERTIES as readonly string[]).includes(x.name) && (x.value === true || x.value === 'true'));
      if (p) gids.set(ts.firstgid + tile.id, { tileset: ts.name ?? ts.image ?? `firstgid ${ts.firstgid}`, property: p.name });
    }
  return gids;
}

/** The tile layers whose marked tiles block, by the rules above, and the name of the rule used. */
export function blockingLayers(tmj: TiledMap, tileLayers: readonly FlatLayer[], fail: Fail): { blocking: FlatLayer[]; rule: string } {
  const named = tmj.properties?.find((p) => p.name === 'collisionLayers');
  if (named) {
    const names = String(named.value ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const blocking = tileLayers.filter((l) => names.includes(l.path) || names.includes(l.name));
    const unknown = names.filter((n) => !tileLayers.some((l) => l.path === n || l.name === n));
    if (unknown.length)
      fail(null, `the map property collisionLayers names ${unknown.map((n) => `'${n}'`).join(', ')}, not a tile layer of the map (${layerList(tileLayers)})`);
    return { blocking, rule: MAP_PROPERTY_RULE };
  }
  const said = tileLayers.filter((l) => boolProperty(l, 'collides') !== undefined);
  const chosen = said.filter((l) => boolProperty(l, 'collides') === true);
  if (chosen.length) return { blocking: chosen, rule: "the layers' property collides" };
  const below = tileLayers.filter((l) => !l.above);
  const defaults = tileLayers.length > 1 ? below.filter((l) => l !== tileLayers[0]) : below;
  if (said.length) return { blocking: defaults.filter((l) => !said.includes(l)), rule: "the default rule and the layers' property collides" };
  return { blocking: defaults, rule: 'the default rule (every tile layer between the ground and the layers above the agents)' };
}

function layerList(layers: readonly FlatLayer[]): string {
  return layers.map((l) => `'${l.path}'`).join(', ') || 'none';
}

/** Builds the collision grid: the `collision` layer's tiles, and marked tiles on the blocking layers. */
export function buildCollision(tmj: TiledMap, layers: readonly FlatLayer[], fail: Fail): Collision {
  const w = tmj.width;
  const h = tmj.height;
  const grid = new Uint8Array(w * h);
  const blockedBy = new Int32Array(w * h).fill(-1);
  const sources: BlockSource[] = [];
  const sourceIndex = (s: BlockSource): number => {
    const i = sources.findIndex((x) => x.layer === s.layer && x.tileset === s.tileset && x.property === s.property);
    return i >= 0 ? i : sources.push(s) - 1;
  };
  const block = (t: number, source: number): void => {
    if (grid[t]) return;
    grid[t] = 1;
    blockedBy[t] = source;
  };
  const collisionLayer = layers.find((l) => l.name === 'collision');
  let known = false;
  if (collisionLayer && collisionLayer.type !== 'tilelayer') fail('collision', `must be a tile layer, found '${collisionLayer.type}'`);
  else if (collisionLayer) {
    const gids = readTileData(collisionLayer, w, h, fail);
    if (gids) {
      known = true;
      const s = sourceIndex({ layer: collisionLayer.path, tileset: null, property: null });
      for (let i = 0; i < w * h; i++) if (gids[i] !== 0) block(i, s);
    }
  }
  const marked = collidingGidsOf(tmj.tilesets);
  const tileLayers = layers.filter((l) => l.type === 'tilelayer' && l !== collisionLayer);
  const { blocking, rule } = blockingLayers(tmj, tileLayers, fail);
  const ignored: string[] = [];
  if (marked.size > 0) {
    known = true;
    for (const layer of tileLayers) {
      const gids = readTileData(layer, w, h, fail);
      if (!gids) continue;
      if (!blocking.includes(layer)) {
        if (gids.some((g) => marked.has(g & GID_MASK))) ignored.push(layer.path);
        continue;
      }
      for (let i = 0; i < w * h; i++) {
        const m = marked.get(gids[i] & GID_MASK);
        if (m) block(i, sourceIndex({ layer: layer.path, tileset: m.tileset, property: m.property }));
      }
    }
  }
  return { grid, blockedBy, sources, ignored, blocking: blocking.map((l) => l.path), rule, known };
}

/**
 * What blocks the given tiles, for a message: "by layer 'Below Player' (tiles marked 'collides' in tileset
 * 'tuxmon', 40 tiles)", with the fix when tiles marked in a tileset do it. Empty when none is blocked.
 */
export function describeBlockers(c: Collision, tiles: Iterable<number>, layerFix = 'open a door in'): string {
  const counts = new Map<number, number>();
  for (const t of tiles) if (c.blockedBy[t] >= 0) counts.set(c.blockedBy[t], (counts.get(c.blockedBy[t]) ?? 0) + 1);
  if (counts.size === 0) return '';
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  const parts = ranked.map(([s, n]) => {
    const src = c.sources[s];
    const what = src.tileset ? `tiles marked '${src.property}' in tileset '${src.tileset}'` : 'any tile';
    return `layer '${src.layer}' (${what}, ${n} tile${n === 1 ? '' : 's'})`;
  });
  const marked = ranked.map(([s]) => c.sources[s]).filter((s) => s.tileset);
  const names = marked.map((s) => `'${s.layer}'`).join(', ');
  const them = marked.length === 1 ? 'it' : 'them';
  const how =
    c.rule === MAP_PROPERTY_RULE
      ? `take ${them} out of the map property collisionLayers`
      : `give the map a string property collisionLayers naming the layers that block, or give ${them} a bool property collides = false`;
  const fix = marked.length
    ? `; if agents walk on ${names}, ${how} (maps/README.md, "What blocks")`
    : `; ${layerFix} ${ranked.length === 1 ? 'that layer' : 'those layers'}`;
  return `by ${parts.join(', ')}${fix}`;
}
