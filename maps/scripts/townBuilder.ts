// The drawing kit of the project's towns: tile layers, brick buildings made of rooms with doors and
// paths to the road, places, objects and spawns, written as a Tiled map that follows maps/README.md.
// The shipped town (buildTown.ts) and generated towns of any size (scripts/generateTown.ts) are both
// drawn with it, so they share conventions and art. Deterministic: no randomness of its own.
import { gidOf, TILE, TILES, TILESET_COLUMNS, type TileName } from './drawArt';

interface TiledObject {
  id: number;
  name: string;
  type: string;
  x: number;
  y: number;
  width: number;
  height: number;
  rotation: number;
  visible: boolean;
  point?: boolean;
}

export interface Room {
  arena: string;
  width: number;
  floor: TileName;
  /** Objects along the room's top row, left to right, or at explicit [dx, dy] inside the room. */
  objects: Array<string | [string, number, number]>;
}

export interface Door {
  room: number;
  side: 'top' | 'bottom';
  /** The row of the road the path from the door runs to (exclusive). */
  pathTo: number;
}

export interface Footprint {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The width in tiles of a building of these rooms: the rooms, a wall between each two, and the outer walls. */
export function buildingWidth(rooms: readonly Room[]): number {
  return rooms.reduce((s, r) => s + r.width, 0) + rooms.length + 1;
}

/** Object name -> the tile that draws it ("bed 2" is a bed). */
export function tileFor(objectName: string): TileName {
  const base = objectName.replace(/ \d+$/, '');
  if ((TILES as readonly string[]).includes(base)) return base as TileName;
  throw new Error(`no tile for object '${objectName}'`);
}

/** The rooms of a home: bedroom, kitchen, a living room when given, and any extra rooms. */
export const home = (bedroom: string[], kitchen: string[], living: string[] | null, extra: Room[] = []): Room[] => [
  { arena: 'bedroom', width: 5, floor: 'wood floor', objects: bedroom },
  { arena: 'kitchen', width: 5, floor: 'tile floor', objects: kitchen },
  ...(living ? [{ arena: 'living room', width: 4, floor: 'carpet' as TileName, objects: living }] : []),
  ...extra,
];

export class TownBuilder {
  readonly ground: Uint32Array;
  readonly walls: Uint32Array;
  readonly furniture: Uint32Array;
  readonly blocked: Uint8Array;
  /** Tiles that must stay clear of decoration (buildings, their surroundings, paths). */
  readonly reserved: Uint8Array;
  private nextObjectId = 1;
  readonly places: TiledObject[] = [];
  readonly objects: TiledObject[] = [];
  readonly spawns: TiledObject[] = [];

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    const n = width * height;
    this.ground = new Uint32Array(n);
    this.walls = new Uint32Array(n);
    this.furniture = new Uint32Array(n);
    this.blocked = new Uint8Array(n);
    this.reserved = new Uint8Array(n);
  }

  idx(x: number, y: number): number {
    return y * this.width + x;
  }

  put(layer: Uint32Array, x: number, y: number, tile: TileName): void {
    if (x >= 0 && y >= 0 && x < this.width && y < this.height) layer[this.idx(x, y)] = gidOf(tile);
  }

  fill(layer: Uint32Array, x: number, y: number, w: number, h: number, tile: TileName): void {
    for (let j = y; j < y + h; j++) for (let i = x; i < x + w; i++) this.put(layer, i, j, tile);
  }

  block(x: number, y: number): void {
    this.blocked[this.idx(x, y)] = 1;
  }

  reserve(x: number, y: number, w: number, h: number): void {
    for (let j = Math.max(0, y); j < Math.min(this.height, y + h); j++)
      for (let i = Math.max(0, x); i < Math.min(this.width, x + w); i++) this.reserved[this.idx(i, j)] = 1;
  }

  /** A place rectangle `Sector: arena` in tiles. */
  place(name: string, x: number, y: number, w: number, h: number): void {
    this.rect(this.places, name, x, y, w, h);
  }

  /** A game object drawn with its tile, blocking its tile, named `name`. */
  object(name: string, x: number, y: number): void {
    this.put(this.furniture, x, y, tileFor(name));
    this.block(x, y);
    this.rect(this.objects, name, x, y, 1, 1);
  }

  /** A wall-layer tile that blocks: a tree, a bush, a fence. */
  obstacle(x: number, y: number, tile: TileName): void {
    this.put(this.walls, x, y, tile);
    this.block(x, y);
  }

  spawn(name: string, x: number, y: number): void {
    this.spawns.push({
      id: this.nextObjectId++,
      name,
      type: '',
      x: x * TILE + TILE / 2,
      y: y * TILE + TILE / 2,
      width: 0,
      height: 0,
      rotation: 0,
      visible: true,
      point: true,
    });
  }

  private rect(list: TiledObject[], name: string, x: number, y: number, w: number, h: number): void {
    list.push({ id: this.nextObjectId++, name, type: '', x: x * TILE, y: y * TILE, width: w * TILE, height: h * TILE, rotation: 0, visible: true });
  }

  /**
   * A building: a row of rooms inside brick walls, interior walls with a door between neighbours,
   * and a front door in the top or bottom wall of one room, with a path to the road.
   */
  building(sector: string, x: number, y: number, interiorHeight: number, rooms: Room[], door: Door): Footprint {
    const { ground, walls, blocked } = this;
    const w = buildingWidth(rooms);
    const h = interiorHeight + 2;
    this.reserve(x - 1, y - 1, w + 2, h + 2);
    for (let j = y; j < y + h; j++)
      for (let i = x; i < x + w; i++) {
        this.put(walls, i, j, 'brick');
        this.block(i, j);
      }
    let rx = x + 1;
    const midY = y + 1 + Math.floor(interiorHeight / 2);
    rooms.forEach((room, n) => {
      this.fill(ground, rx, y + 1, room.width, interiorHeight, room.floor);
      for (let j = y + 1; j < y + 1 + interiorHeight; j++)
        for (let i = rx; i < rx + room.width; i++) {
          walls[this.idx(i, j)] = 0;
          blocked[this.idx(i, j)] = 0;
        }
      this.place(`${sector}: ${room.arena}`, rx, y + 1, room.width, interiorHeight);
      room.objects.forEach((o, k) => {
        const [name, dx, dy] = typeof o === 'string' ? [o, k * 2, 0] : o;
        if (dx >= room.width || dy >= interiorHeight) throw new Error(`${sector}: ${room.arena}: no room for '${name}'`);
        this.object(name, rx + dx, y + 1 + dy);
      });
      if (n < rooms.length - 1) {
        const wallX = rx + room.width;
        for (let j = y + 1; j < y + 1 + interiorHeight; j++) this.put(walls, wallX, j, 'wall');
        // A doorway between neighbouring rooms.
        walls[this.idx(wallX, midY)] = 0;
        blocked[this.idx(wallX, midY)] = 0;
        this.put(ground, wallX, midY, 'door');
      }
      if (n === door.room) {
        const dx = rx + Math.floor(room.width / 2);
        const dy = door.side === 'bottom' ? y + h - 1 : y;
        walls[this.idx(dx, dy)] = 0;
        blocked[this.idx(dx, dy)] = 0;
        this.put(ground, dx, dy, 'door');
        const step = door.side === 'bottom' ? 1 : -1;
        for (let j = dy + step; j !== door.pathTo; j += step) {
          this.put(ground, dx, j, 'path');
          this.reserve(dx - 1, j, 3, 1);
        }
      }
      rx += room.width + 1;
    });
    return { x, y, w, h };
  }

  /** Grass over everything, with a sprinkle of the second grass. */
  lawn(): void {
    this.fill(this.ground, 0, 0, this.width, this.height, 'grass');
    for (let j = 0; j < this.height; j++) for (let i = 0; i < this.width; i++) if ((i * 7 + j * 13) % 23 === 0) this.put(this.ground, i, j, 'grass2');
  }

  /** Trees and flowers in the open grass, away from buildings, paths and roads. */
  scenery(): void {
    const { ground, reserved } = this;
    for (let j = 1; j < this.height - 1; j++)
      for (let i = 1; i < this.width - 1; i++) {
        const t = this.idx(i, j);
        if (reserved[t] || (ground[t] !== gidOf('grass') && ground[t] !== gidOf('grass2'))) continue;
        const r = ((i * 73856093) ^ (j * 19349663)) >>> 0;
        if (r % 17 === 0) this.obstacle(i, j, r % 3 === 0 ? 'bush' : 'tree');
        else if (r % 11 === 0) this.put(ground, i, j, 'grass flowers');
      }
  }

  /** The Tiled map: ground, walls and furniture drawn, collision hidden, places, objects and spawns; the tileset beside it. */
  toTmj(world: string, tilesetImage = 'tilesets/town.png'): Record<string, unknown> {
    const { width: W, height: H } = this;
    const collision = new Uint32Array(W * H);
    for (let i = 0; i < W * H; i++) if (this.blocked[i]) collision[i] = gidOf('blocked');
    const tileLayer = (id: number, name: string, data: Uint32Array, visible = true) => ({
      id,
      name,
      type: 'tilelayer',
      x: 0,
      y: 0,
      width: W,
      height: H,
      opacity: 1,
      visible,
      data: Array.from(data),
    });
    const objectLayer = (id: number, name: string, list: TiledObject[]) => ({
      id,
      name,
      type: 'objectgroup',
      draworder: 'topdown',
      x: 0,
      y: 0,
      opacity: 1,
      visible: true,
      objects: list,
    });
    const rows = Math.ceil(TILES.length / TILESET_COLUMNS);
    return {
      type: 'map',
      version: '1.10',
      tiledversion: '1.10.2',
      orientation: 'orthogonal',
      renderorder: 'right-down',
      infinite: false,
      compressionlevel: -1,
      width: W,
      height: H,
      tilewidth: TILE,
      tileheight: TILE,
      nextlayerid: 8,
      nextobjectid: this.nextObjectId,
      properties: [{ name: 'world', type: 'string', value: world }],
      tilesets: [
        {
          firstgid: 1,
          name: 'town',
          image: tilesetImage,
          imagewidth: TILESET_COLUMNS * TILE,
          imageheight: rows * TILE,
          tilewidth: TILE,
          tileheight: TILE,
          columns: TILESET_COLUMNS,
          tilecount: TILES.length,
          margin: 0,
          spacing: 0,
        },
      ],
      layers: [
        tileLayer(1, 'ground', this.ground),
        tileLayer(2, 'walls', this.walls),
        tileLayer(3, 'furniture', this.furniture),
        tileLayer(4, 'collision', collision, false),
        objectLayer(5, 'places', this.places),
        objectLayer(6, 'objects', this.objects),
        objectLayer(7, 'spawns', this.spawns),
      ],
    };
  }
}

/** A map as text: indented, each layer's tile data on one line. */
export function tmjText(map: Record<string, unknown>): string {
  const text = JSON.stringify(map, null, 1).replace(/\[\s*([\d,\s]+?)\s*\]/g, (_m, body: string) => `[${body.replace(/\s+/g, '')}]`);
  return `${text}\n`;
}
