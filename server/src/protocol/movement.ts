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
  /** Index into the path of the tile the agent is on or leaving. */
  stepIndex: number;
}

export function directionBetween(fromX: number, fromY: number, toX: number, toY: number): Direction {
  if (toX > fromX) return 'right';
  if (toX < fromX) return 'left';
  if (toY < fromY) return 'up';
  return 'down';
}

/** Position along a path of tile indices (y * widthTiles + x), each step one tile, at a constant speed. */
export function positionOnPath(
  path: ArrayLike<number>,
  widthTiles: number,
  startGameMs: number,
  tilesPerGameMinute: number,
  nowGameMs: number,
): PathPosition {
  const last = path.length - 1;
  if (last < 0) return { x: 0, y: 0, direction: 'down', moving: false, stepIndex: 0 };
  const travelled = Math.max(0, ((nowGameMs - startGameMs) / 60_000) * tilesPerGameMinute);
  const i = Math.min(Math.floor(travelled), last);
  const from = path[i];
  const fx = from % widthTiles;
  const fy = (from - fx) / widthTiles;
  if (i >= last || tilesPerGameMinute <= 0) {
    let direction: Direction = 'down';
    if (last > 0) {
      const prev = path[last - 1];
      const px = prev % widthTiles;
      direction = directionBetween(px, (prev - px) / widthTiles, fx, fy);
    }
    return { x: fx, y: fy, direction, moving: false, stepIndex: last };
  }
  const to = path[i + 1];
  const tx = to % widthTiles;
  const ty = (to - tx) / widthTiles;
  const frac = travelled - i;
  return {
    x: fx + (tx - fx) * frac,
    y: fy + (ty - fy) * frac,
    direction: directionBetween(fx, fy, tx, ty),
    moving: true,
    stepIndex: i,
  };
}

/** Game ms at which a walk of `steps` tiles ends. */
export function arrivalGameMs(startGameMs: number, steps: number, tilesPerGameMinute: number): number {
  return startGameMs + (steps / tilesPerGameMinute) * 60_000;
}
