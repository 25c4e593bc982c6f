import { describe, expect, it } from 'vitest';
import { GridPathfinder } from '../../server/src/world/pathfinding';

/** '#' blocked, '.' open; returns the grid and a helper to index tiles. */
function grid(rows: string[]) {
  const h = rows.length;
  const w = rows[0].length;
  const blocked = new Uint8Array(w * h);
  rows.forEach((row, y) => [...row].forEach((c, x) => (blocked[y * w + x] = c === '#' ? 1 : 0)));
  return { finder: new GridPathfinder(w, h, blocked), at: (x: number, y: number) => y * w + x, w };
}

function isConnected(path: number[], w: number): boolean {
  return path.every((t, i) => i === 0 || Math.abs((t % w) - (path[i - 1] % w)) + Math.abs(Math.floor(t / w) - Math.floor(path[i - 1] / w)) === 1);
}

describe('GridPathfinder', () => {
  it('finds a shortest path around walls', () => {
    const { finder, at, w } = grid([
      '.....',
      '.###.',
      '...#.',
      '.#.#.',
      '.#...',
    ]);
    const path = finder.findPath(at(0, 4), at(4, 4))!;
    expect(path[0]).toBe(at(0, 4));
    expect(path[path.length - 1]).toBe(at(4, 4));
    expect(isConnected(path, w)).toBe(true);
    // Up to row 2, through the gap in the middle and down: 8 steps, 9 tiles.
    expect(path.length).toBe(9);
  });

  it('returns null when the goal is walled off or blocked', () => {
    const { finder, at } = grid(['..#..', '..#..', '..#..']);
    expect(finder.findPath(at(0, 0), at(4, 0))).toBeNull();
    expect(finder.findPath(at(0, 0), at(2, 1))).toBeNull();
  });

  it('returns the single tile when start and goal are the same', () => {
    const { finder, at } = grid(['...']);
    expect(finder.findPath(at(1, 0), at(1, 0))).toEqual([at(1, 0)]);
  });

  it('does not wrap around the row edge', () => {
    const { finder, at, w } = grid(['..#', '#..', '...']);
    const path = finder.findPath(at(1, 0), at(0, 2))!;
    expect(isConnected(path, w)).toBe(true);
  });

  it('gives the same path every time and reuses its buffers correctly', () => {
    const rows = Array.from({ length: 30 }, (_, y) => Array.from({ length: 40 }, (_, x) => ((x * 7 + y * 13) % 11 === 0 && x % 5 !== 0 ? '#' : '.')).join(''));
    const { finder, at } = grid(rows);
    const first = finder.findPath(at(0, 0), at(39, 29));
    for (let i = 0; i < 5; i++) finder.findPath(at(5, 5), at(30, 20));
    expect(finder.findPath(at(0, 0), at(39, 29))).toEqual(first);
    expect(first!.length).toBe(39 + 29 + 1);
  });
});

describe('DistanceFields', () => {
  it('finds paths exactly as short as A*, deterministically, and none to walled-off tiles', async () => {
    const { DistanceFields } = await import('../../server/src/world/distanceFields');
    const rows = Array.from({ length: 30 }, (_, y) => Array.from({ length: 40 }, (_, x) => ((x * 7 + y * 13) % 11 === 0 && x % 5 !== 0 ? '#' : '.')).join(''));
    const { finder, at, w } = grid(rows);
    const blocked = new Uint8Array(40 * 30);
    rows.forEach((row, y) => [...row].forEach((c, x) => (blocked[y * 40 + x] = c === '#' ? 1 : 0)));
    const fields = new DistanceFields(40, 30, blocked);
    for (const [a, b] of [[at(0, 0), at(39, 29)], [at(5, 5), at(30, 20)], [at(39, 0), at(0, 29)]]) {
      const p = fields.findPath(a, b)!;
      expect(p.length).toBe(finder.findPath(a, b)!.length);
      expect(isConnected(p, w)).toBe(true);
      expect(p.every((t) => blocked[t] === 0)).toBe(true);
      expect(fields.findPath(a, b)).toEqual(p);
    }
    const walled = grid(['..#..', '..#..']);
    const wf = new DistanceFields(5, 2, Uint8Array.from([0, 0, 1, 0, 0, 0, 0, 1, 0, 0]));
    expect(wf.findPath(walled.at(0, 0), walled.at(4, 1))).toBeNull();
  });
});
