// The one place that turns a described walk into a position. The server uses it to know which tile an
// agent stands on; the client uses it to draw agents between patches. Keeping it here means the two
// can never disagree.

export const DIRECTIONS = ['down', 'left', 'right', 'up'] as const;
export type Direction = (typeof DIRECTIONS)[number];

export interface PathPosition {
  /** Tile coordinates, fractional while walking. */
  x: number;
  y: number;
  direction: Direction;
  moving: boolean;
  /** The tile the agent is on (the last one it reached). */
  tileX: number;
  tileY: number;
  /** Index of the waypoint the agent last passed. */
  stepIndex: number;
}

export function directionBetween(fromX: number, fromY: number, toX: number, toY: number): Direction {
  if (toX > fromX) return 'right';
  if (toX < fromX) return 'left';
  if (toY < fromY) return 'up';
  return 'down';
}

/**
 * Position along a walk given as waypoints: tile indices (y * widthTiles + x) where the walk starts,
 * turns and ends; consecutive waypoints share a row or a column. The walker covers one tile per
 * 1 / tilesPerGameMinute game minutes.
 */
export function positionOnPath(path: ArrayLike<number>, widthTiles: number, startGameMs: number, tilesPerGameMinute: number, nowGameMs: number): PathPosition {
  const last = path.length - 1;
  if (last < 0) return { x: 0, y: 0, tileX: 0, tileY: 0, direction: 'down', moving: false, stepIndex: 0 };
  let travelled = tilesPerGameMinute > 0 ? Math.max(0, ((nowGameMs - startGameMs) / 60_000) * tilesPerGameMinute) : Infinity;
  let direction: Direction = 'down';
  for (let i = 0; i < last; i++) {
    const from = path[i];
    const to = path[i + 1];
    const fx = from % widthTiles;
    const fy = (from - fx) / widthTiles;
    const tx = to % widthTiles;
    const ty = (to - tx) / widthTiles;
    const length = Math.abs(tx - fx) + Math.abs(ty - fy);
    direction = directionBetween(fx, fy, tx, ty);
    if (travelled < length) {
      const sx = Math.sign(tx - fx);
      const sy = Math.sign(ty - fy);
      const whole = Math.floor(travelled);
      return { x: fx + sx * travelled, y: fy + sy * travelled, tileX: fx + sx * whole, tileY: fy + sy * whole, direction, moving: true, stepIndex: i };
    }
    travelled -= length;
  }
  const end = path[last];
  const ex = end % widthTiles;
  const ey = (end - ex) / widthTiles;
  return { x: ex, y: ey, tileX: ex, tileY: ey, direction, moving: false, stepIndex: last };
}

/** The waypoints of a tile-by-tile path: its start, every turn, and its end. */
export function compressPath(tiles: readonly number[], widthTiles: number): number[] {
  if (tiles.length <= 2) return [...tiles];
  const out = [tiles[0]];
  for (let i = 1; i < tiles.length - 1; i++) {
    const a = tiles[i - 1];
    const b = tiles[i];
    const c = tiles[i + 1];
    // A turn: the step into b and the step out of it differ.
    if (b - a !== c - b) out.push(b);
  }
  out.push(tiles[tiles.length - 1]);
  void widthTiles;
  return out;
}

/** Tiles walked along waypoints. */
export function pathLength(waypoints: ArrayLike<number>, widthTiles: number): number {
  let n = 0;
  for (let i = 1; i < waypoints.length; i++) {
    const a = waypoints[i - 1];
    const b = waypoints[i];
    n += Math.abs((b % widthTiles) - (a % widthTiles)) + Math.abs(Math.floor(b / widthTiles) - Math.floor(a / widthTiles));
  }
  return n;
}

/** Game ms at which a walk of `steps` tiles ends. */
export function arrivalGameMs(startGameMs: number, steps: number, tilesPerGameMinute: number): number {
  return startGameMs + (steps / tilesPerGameMinute) * 60_000;
}
