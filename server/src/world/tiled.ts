// The parts of Tiled's JSON map format (.tmj) the map loader reads, checked with zod, and the readers of
// its layers: groups flattened, tile data decoded from CSV arrays or uncompressed base64.
import { z } from 'zod';
import { isAboveAgents, boolProperty } from '../protocol/mapLayers';

export const Property = z.object({ name: z.string(), type: z.string().optional(), value: z.unknown() });
const Point = z.object({ x: z.number(), y: z.number() });

export const TiledObject = z.object({
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
  properties: z.array(Property).optional(),
});
export type TiledObject = z.infer<typeof TiledObject>;

const Layer = z.object({
  name: z.string(),
  type: z.string(),
  visible: z.boolean().optional(),
  properties: z.array(Property).optional(),
  data: z.union([z.array(z.number()), z.string()]).optional(),
  encoding: z.string().optional(),
  compression: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  objects: z.array(z.unknown()).optional(),
  layers: z.array(z.unknown()).optional(),
  chunks: z.array(z.unknown()).optional(),
});
/** A layer of a flattened map: its own name, its group path as Phaser names it, and whether it is drawn above the agents. */
export type FlatLayer = z.infer<typeof Layer> & { path: string; above: boolean };

const TilesetTile = z.object({ id: z.number(), properties: z.array(Property).optional() });
export const Tileset = z.object({
  firstgid: z.number(),
  source: z.string().optional(),
  image: z.string().optional(),
  name: z.string().optional(),
  tiles: z.array(TilesetTile).optional(),
});
export type Tileset = z.infer<typeof Tileset>;

export const TiledMap = z.object({
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
export type TiledMap = z.infer<typeof TiledMap>;

/** Tiled keeps flip and rotation flags in the top bits of a gid. */
export const GID_MASK = 0x0fffffff;

export type Fail = (layer: string | null, what: string) => void;

/** Tile layers and object layers in the map's order; groups are flattened (a layer keeps its own name, `path` has the group's). */
export function flattenLayers(raw: unknown[], fail: Fail, prefix = '', groupAbove?: boolean): FlatLayer[] {
  const out: FlatLayer[] = [];
  raw.forEach((r, i) => {
    const l = Layer.safeParse(r);
    if (!l.success)
      fail(null, `layer #${i}${prefix ? ` of group '${prefix.slice(0, -1)}'` : ''}: ${l.error.issues[0].path.join('.')}: ${l.error.issues[0].message}`);
    else if (l.data.type === 'group')
      out.push(...flattenLayers(l.data.layers ?? [], fail, `${prefix}${l.data.name}/`, boolProperty(l.data, 'above') ?? groupAbove));
    else out.push({ ...l.data, path: `${prefix}${l.data.name}`, above: isAboveAgents(l.data, groupAbove) });
  });
  return out;
}

/** A tile layer's gids, one per tile, or null (with the problem said) when they cannot be read. */
export function readTileData(layer: FlatLayer, w: number, h: number, fail: Fail): Uint32Array | null {
  const none = (what: string): null => {
    fail(layer.name, what);
    return null;
  };
  if (layer.chunks) return none('chunked (infinite) tile data is not supported');
  if (layer.compression) return none(`tile data is compressed (${layer.compression}); save with "Tile Layer Format: Base64 (uncompressed)" or CSV`);
  let gids: Uint32Array;
  if (Array.isArray(layer.data)) gids = Uint32Array.from(layer.data);
  else if (typeof layer.data === 'string' && layer.encoding === 'base64') {
    const bytes = Buffer.from(layer.data, 'base64');
    if (bytes.length % 4 !== 0) return none(`base64 tile data is ${bytes.length} bytes, not a whole number of 4-byte tiles`);
    gids = new Uint32Array(bytes.length / 4);
    for (let i = 0; i < gids.length; i++) gids[i] = bytes.readUInt32LE(i * 4);
  } else if (typeof layer.data === 'string')
    return none(`tile data encoding '${layer.encoding ?? 'none'}' is not supported; save as CSV or Base64 (uncompressed)`);
  else return none('has no tile data');
  if (gids.length !== w * h) return none(`has ${gids.length} tiles, expected ${w}x${h} = ${w * h}`);
  return gids;
}
