// Where everything of a generated town stands: a grid of roads; between two east-west roads, two rows
// of buildings back to back (the upper row's doors open onto the road above, the lower row's onto the
// road below), homes and workplaces mixed along them, and a park in some cells of the grid. Drawn with
// the same kit and art as the shipped town (maps/scripts/townBuilder.ts).
import { Rng } from '../../server/src/sim/rng';
import { buildingWidth, TownBuilder, type Room } from '../../maps/scripts/townBuilder';
import { STREET_KINDS, STREET_NAMES } from './tables';
import type { Population } from './population';

/** Lot width of one cell of the road grid, in tiles. */
const CELL_W = 60;
const ROAD = 2;
/** Tiles of path from a door to its road. */
const PATH = 1;
/** Tiles between the backs of the two rows of a strip. */
const BACKS = 1;
/** Tiles between neighbouring buildings of a row. */
const GAP = 1;
const MARGIN = 3;
const HOME_INTERIOR = 5;
const VENUE_INTERIOR = 8;
/** A row takes the first of this many next buildings that fits, so rows fill up well. */
const LOOKAHEAD = 8;

export interface Spot {
  /** The tile in front of the door (or the park's middle). */
  x: number;
  y: number;
}

export interface TownLayout {
  builder: TownBuilder;
  /** The sector of each household's home, by household index. */
  homes: string[];
  /** Where each sector is, for finding what is near whom. */
  spots: Map<string, Spot>;
}

interface Lot {
  sector: string | null;
  household: number | null;
  rooms: Room[];
  doorRoom: number;
  w: number;
  interior: number;
}

/** Objects mirrored top to bottom, for a building whose door is in its top wall (objects stay along the far wall). */
function flipRooms(rooms: Room[], interior: number): Room[] {
  return rooms.map((r) => ({
    ...r,
    objects: r.objects.map((o, k): [string, number, number] => (typeof o === 'string' ? [o, k * 2, interior - 1] : [o[0], o[1], interior - 1 - o[2]])),
  }));
}

function streetName(k: number): string {
  const kind = STREET_KINDS[(k + Math.floor(k / STREET_NAMES.length)) % STREET_KINDS.length];
  const names = STREET_NAMES.length * STREET_KINDS.length;
  return `${STREET_NAMES[k % STREET_NAMES.length]} ${kind}${k >= names ? ` ${Math.floor(k / names) + 1}` : ''}`;
}

/** Homes in a seeded order with the workplaces spread evenly among them. */
function orderLots(pop: Population, rng: Rng): Lot[] {
  const homes: Lot[] = rng
    .shuffle(pop.households)
    .map((h) => ({ sector: null, household: h.index, rooms: h.rooms, doorRoom: h.doorRoom, w: buildingWidth(h.rooms), interior: HOME_INTERIOR }));
  const venues: Lot[] = rng.shuffle(pop.venues.filter((v) => v.type)).map((v) => ({
    sector: v.sector,
    household: null,
    rooms: v.type!.rooms,
    doorRoom: v.type!.doorRoom,
    w: buildingWidth(v.type!.rooms),
    interior: VENUE_INTERIOR,
  }));
  const out: Lot[] = [];
  const total = homes.length + venues.length;
  let v = 0;
  for (let i = 0; i < total; i++) {
    const due = venues.length && v < venues.length && i >= Math.floor(((v + 0.5) * total) / venues.length);
    out.push(due || homes.length === 0 ? venues[v++] : homes.shift()!);
  }
  return out;
}

export function layoutTown(pop: Population, seed: number): TownLayout {
  const rng = Rng.fromKey(seed, 'layout');
  const lots = orderLots(pop, rng);
  const parks = pop.venues.filter((v) => v.kind === 'park');
  const strips = packStrips(lots, parks.length);
  const grid = roadGrid(strips);
  const t = new TownBuilder(grid.W, grid.H);
  t.lawn();
  drawRoads(t, grid);
  const { homes, spots } = drawStrips(t, strips, grid.roadYs, { households: pop.households.length, parks, rng });
  t.scenery();
  let k = 0;
  for (const y of grid.roadYs) for (const x of grid.roadXs) t.spawn(`spawn ${++k}`, x, y);
  return { builder: t, homes, spots };
}

type Row = Array<{ lot: Lot; x: number }>;

/** A band between two east-west roads: a cell per column of the grid, a park or two rows of lots back to back. */
interface Strip {
  cells: Array<{ park: number | null; upper: Row; lower: Row }>;
}

/** How many columns the road grid has, so that the town comes out about square: each cell row holds two rows of lots. */
function gridColumns(rowTiles: number, parkCount: number): number {
  const stripH = ROAD + 2 * PATH + BACKS + 2 * (VENUE_INTERIOR + 2) - 2;
  let columns = 1;
  for (let c = 1; c <= 40; c++) {
    const strips = Math.ceil((rowTiles / (2 * CELL_W) + parkCount) / c);
    columns = c;
    if (c * (CELL_W + ROAD) >= strips * stripH) break;
  }
  return columns;
}

/** The lots packed into the cells of strips (rows of a strip share their height), the parks spread among them. */
function packStrips(lots: Lot[], parkCount: number): Strip[] {
  // The length of one row holding every lot, with room to spare (rows seldom fill up).
  const rowTiles = lots.reduce((s, l) => s + l.w + GAP, 0) / 0.85;
  const columns = gridColumns(rowTiles, parkCount);
  const cellsWanted = Math.ceil(rowTiles / (2 * CELL_W)) + parkCount;
  const parkEvery = cellsWanted / Math.max(1, parkCount);
  const strips: Strip[] = [];
  let next = 0;
  let parkNext = 0;
  let cellIndex = 0;
  // A row takes, at each place along it, the first of the next LOOKAHEAD lots that fits, moved up to `next`.
  const fillRow = (x0: number): Row => {
    const row: Row = [];
    let x = x0 + 1;
    const end = x0 + CELL_W - 1;
    for (;;) {
      let pick = -1;
      for (let k = next; k < Math.min(lots.length, next + LOOKAHEAD); k++)
        if (x + lots[k].w <= end) {
          pick = k;
          break;
        }
      if (pick < 0) break;
      const [lot] = lots.splice(pick, 1);
      lots.splice(next, 0, lot);
      row.push({ lot, x });
      x += lot.w + GAP;
      next++;
    }
    return row;
  };
  while (next < lots.length || parkNext < parkCount) {
    const strip: Strip = { cells: [] };
    for (let c = 0; c < columns; c++) {
      const x0 = MARGIN + c * (CELL_W + ROAD);
      const parkDue = parkNext < parkCount && (cellIndex >= Math.floor(parkNext * parkEvery + parkEvery / 2) || next >= lots.length);
      if (parkDue) strip.cells.push({ park: parkNext++, upper: [], lower: [] });
      else strip.cells.push({ park: null, upper: fillRow(x0), lower: fillRow(x0) });
      cellIndex++;
    }
    strips.push(strip);
  }
  return strips;
}

interface RoadGrid {
  W: number;
  H: number;
  /** The top row of each east-west road, and the left column of each north-south one. */
  roadYs: number[];
  roadXs: number[];
}

/** The map's size and its roads: an east-west road above and below each strip, as high as its tallest buildings need. */
function roadGrid(strips: readonly Strip[]): RoadGrid {
  const columns = strips[0]?.cells.length ?? 1;
  const rowHeight = (rows: Row[]) => Math.max(HOME_INTERIOR + 2, ...rows.flatMap((r) => r.map((p) => p.lot.interior + 2)));
  const heights = strips.map((s) => ({ upper: rowHeight(s.cells.map((c) => c.upper)), lower: rowHeight(s.cells.map((c) => c.lower)) }));
  const W = MARGIN + columns * (CELL_W + ROAD) + 1;
  const roadYs: number[] = [1];
  heights.forEach((h) => roadYs.push(roadYs[roadYs.length - 1] + ROAD + PATH + h.upper + BACKS + h.lower + PATH));
  const H = roadYs[roadYs.length - 1] + ROAD + 1;
  const roadXs = Array.from({ length: columns + 1 }, (_, c) => MARGIN + c * (CELL_W + ROAD) - ROAD);
  return { W, H, roadYs, roadXs };
}

function drawRoads(t: TownBuilder, { W, roadYs, roadXs }: RoadGrid): void {
  for (const y of roadYs) {
    t.fill(t.ground, 0, y, W, ROAD, 'road');
    t.reserve(0, y - 1, W, ROAD + 2);
  }
  for (const x of roadXs) {
    t.fill(t.ground, x, roadYs[0], ROAD, roadYs[roadYs.length - 1] + ROAD - roadYs[0], 'road');
    t.reserve(x - 1, roadYs[0] - 1, ROAD + 2, roadYs[roadYs.length - 1] + ROAD + 2 - roadYs[0]);
  }
}

/** Draws each strip's parks and buildings (homes named by their street address); where each home and sector is. */
function drawStrips(
  t: TownBuilder,
  strips: readonly Strip[],
  roadYs: readonly number[],
  town: { households: number; parks: Population['venues']; rng: Rng },
): Pick<TownLayout, 'homes' | 'spots'> {
  const homes: string[] = new Array(town.households);
  const spots = new Map<string, Spot>();
  const numbers = new Map<number, number>();
  const address = (road: number) => {
    const n = (numbers.get(road) ?? 0) + 1;
    numbers.set(road, n);
    return `${n} ${streetName(road)}`;
  };
  strips.forEach((strip, s) => {
    const top = roadYs[s];
    const bottom = roadYs[s + 1];
    strip.cells.forEach((cell, c) => {
      const x0 = MARGIN + c * (CELL_W + ROAD);
      if (cell.park !== null) {
        const park = town.parks[cell.park];
        drawPark(t, park.sector, x0 + 1, top + ROAD + 1, CELL_W - 2, bottom - top - ROAD - 2, town.rng);
        spots.set(park.sector, { x: x0 + Math.floor(CELL_W / 2), y: Math.floor((top + bottom) / 2) });
        return;
      }
      for (const [row, side] of [
        [cell.upper, 'top'],
        [cell.lower, 'bottom'],
      ] as const)
        for (const { lot, x } of row) {
          const h = lot.interior + 2;
          const y = side === 'top' ? top + ROAD + PATH : bottom - PATH - h;
          const sector = lot.sector ?? address(side === 'top' ? s : s + 1);
          if (lot.household !== null) homes[lot.household] = sector;
          const rooms = side === 'top' ? flipRooms(lot.rooms, lot.interior) : lot.rooms;
          t.building(sector, x, y, lot.interior, rooms, { room: lot.doorRoom, side, pathTo: side === 'top' ? top + ROAD - 1 : bottom });
          const doorX = x + 1 + lot.rooms.slice(0, lot.doorRoom).reduce((sum, r) => sum + r.width + 1, 0) + Math.floor(lot.rooms[lot.doorRoom].width / 2);
          spots.set(sector, { x: doorX, y: side === 'top' ? y - 1 : y + h });
        }
    });
  });
  return { homes, spots };
}

/** A park filling a cell: a cross of paths, a plaza with a fountain, a pond, benches, gardens, picnic tables, trees. */
function drawPark(t: TownBuilder, sector: string, x: number, y: number, w: number, h: number, rng: Rng): void {
  t.place(`${sector}: park`, x, y, w, h);
  t.reserve(x - 1, y - 1, w + 2, h + 2);
  const cx = x + Math.floor(w / 2);
  const cy = y + Math.floor(h / 2);
  t.fill(t.ground, x, cy - 1, w, 2, 'path');
  t.fill(t.ground, cx - 1, y, 3, h, 'path');
  t.fill(t.ground, cx - 4, cy - 3, 9, 6, 'plaza');
  t.object('fountain', cx, cy);
  t.object('bench', cx - 4, cy - 3);
  t.object('bench 2', cx + 4, cy - 3);
  t.object('bench 3', cx - 4, cy + 2);
  t.object('bench 4', cx + 4, cy + 2);
  // A pond in one corner, the gardens in another, picnic tables in a third.
  const pondLeft = rng.chance(0.5);
  const px = pondLeft ? x + 3 : x + w - 11;
  for (let j = 0; j < 4; j++)
    for (let i = 0; i < 8; i++) {
      t.put(t.ground, px + i, y + 2 + j, 'water');
      t.block(px + i, y + 2 + j);
    }
  const gx = pondLeft ? x + w - 12 : x + 4;
  for (let j = 0; j < 3; j++) for (let i = 0; i < 5; i++) t.put(t.ground, gx + i, y + 2 + j, 'garden');
  t.object('garden', gx + 2, y + 3);
  t.object('flower bed', gx + 6, y + 2);
  t.object('flower bed 2', gx + 6, y + 4);
  t.object('picnic table', x + 5, y + h - 3);
  t.object('picnic table 2', x + 10, y + h - 3);
  for (const [dx, dy] of [
    [1, 1],
    [w - 2, 1],
    [1, h - 2],
    [w - 2, h - 2],
    [w - 6, h - 2],
    [15, h - 2],
    [w - 15, h - 3],
    [6, 8],
    [w - 7, 8],
  ])
    if (dy > 0 && dy < h - 1 && Math.abs(x + dx - cx) > 2 && Math.abs(y + dy - cy) > 1) t.obstacle(x + dx, y + dy, 'tree');
}
