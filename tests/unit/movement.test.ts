import { describe, expect, it } from 'vitest';
import { compressPath, pathLength, positionOnPath } from '../../server/src/protocol/movement';

const W = 10;
const t = (x: number, y: number) => y * W + x;

describe('walks as waypoints', () => {
  // Right 3 tiles, then down 2.
  const tiles = [t(0, 0), t(1, 0), t(2, 0), t(3, 0), t(3, 1), t(3, 2)];
  const waypoints = compressPath(tiles, W);

  it('keeps only the start, the turns and the end', () => {
    expect(waypoints).toEqual([t(0, 0), t(3, 0), t(3, 2)]);
    expect(pathLength(waypoints, W)).toBe(5);
  });

  it('places the walker by time along the segments, with its facing', () => {
    // 6 tiles a game minute: 10 game seconds a tile.
    const at = (seconds: number) => positionOnPath(waypoints, W, 0, 6, seconds * 1000);
    expect(at(0)).toMatchObject({ x: 0, y: 0, moving: true, direction: 'right' });
    expect(at(15)).toMatchObject({ x: 1.5, y: 0, tileX: 1, tileY: 0 });
    expect(at(35)).toMatchObject({ x: 3, y: 0.5, tileX: 3, tileY: 0, direction: 'down' });
    expect(at(50)).toMatchObject({ x: 3, y: 2, moving: false, direction: 'down' });
    expect(at(500)).toMatchObject({ x: 3, y: 2, moving: false });
  });

  it('handles a standing agent and a single tile', () => {
    expect(positionOnPath([t(4, 4)], W, 0, 6, 1000)).toMatchObject({ x: 4, y: 4, moving: false });
    expect(positionOnPath([], W, 0, 6, 1000)).toMatchObject({ moving: false });
  });
});
