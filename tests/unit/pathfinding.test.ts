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
    const { finder, at, w } = grid(['.....', '.###.', '...#.', '.#.#.', '.#...']);
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
    for (const [a, b] of [
      [at(0, 0), at(39, 29)],
      [at(5, 5), at(30, 20)],
      [at(39, 0), at(0, 29)],
    ]) {
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

describe('DistanceFields on a town too big to keep every field', () => {
  it('gives the same path from a bounded search as from a whole kept field, whatever was cached before', async () => {
    const { DistanceFields } = await import('../../server/src/world/distanceFields');
    // Blocks of wall with gaps, like buildings between streets, so many shortest paths tie.
    const w = 90;
    const h = 70;
    const blocked = new Uint8Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) blocked[y * w + x] = x % 10 !== 0 && y % 8 !== 0 && !(x % 10 === 5 && y % 8 === 4) && (x * 3 + y * 5) % 17 !== 0 ? 1 : 0;
    const open: number[] = [];
    for (let t = 0; t < w * h; t++) if (!blocked[t]) open.push(t);
    let s = 7;
    const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % open.length;
    const pairs = Array.from({ length: 300 }, () => [open[next()], open[next()]] as const);
    // One that keeps next to nothing (paths from bounded searches), one with the fields kept first: a
    // destination searched often enough from afar gets its whole field kept.
    const bounded = new DistanceFields(w, h, blocked, 0);
    const whole = new DistanceFields(w, h, blocked);
    for (const [, to] of pairs) for (let k = 0; k < 12; k++) whole.findPath(open[k % 2 === 0 ? 0 : open.length - 1], to);
    expect(whole.cached).toBeGreaterThan(100);
    const finder = new GridPathfinder(w, h, blocked);
    let found = 0;
    for (const [from, to] of pairs) {
      const a = bounded.findPath(from, to);
      expect(a).toEqual(whole.findPath(from, to));
      expect(a?.length).toBe(finder.findPath(from, to)?.length);
      if (a) found++;
    }
    expect(found).toBeGreaterThan(200);
  });
});

/**
 * Streets every 10 and 8 tiles between blocks of wall, a map big enough that a walk's search stays local. No tile
 * walled off: a walk to a destination it cannot reach searches (and keeps) the whole field at once.
 */
function streets(): { w: number; h: number; blocked: Uint8Array } {
  const w = 300;
  const h = 240;
  const blocked = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) blocked[y * w + x] = x % 10 !== 0 && y % 8 !== 0 && (x * 3 + y * 5) % 7 !== 0 ? 1 : 0;
  return { w, h, blocked };
}

describe('DistanceFields with whole fields searched between ticks', () => {
  it('gives the same paths while whole fields wait, keeps them only when finished, and searches a lens, not a disc', async () => {
    const { DistanceFields } = await import('../../server/src/world/distanceFields');
    const { w, h, blocked } = streets();
    const open: number[] = [];
    for (let t = 0; t < w * h; t++) if (!blocked[t] && (t % w) % 10 === 0) open.push(t);
    let s = 11;
    const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % open.length;
    // A few destinations walked to from all over, as a morning's workplaces are.
    const goals = [open[next()], open[next()], open[next()]];
    const walks = Array.from({ length: 600 }, (_, i) => [open[next()], goals[i % 3]] as const);
    const deferred = new DistanceFields(w, h, blocked);
    deferred.deferWholeFields = true;
    const inStep = new DistanceFields(w, h, blocked);
    for (const [from, to] of walks) expect(deferred.findPath(from, to)).toEqual(inStep.findPath(from, to));
    // In the step, a destination walked to often gets its whole field kept; deferred, it waits for finishWanted.
    expect(inStep.cached).toBe(3);
    expect(deferred.cached).toBe(0);
    expect(deferred.wantsWork).toBe(true);
    expect(deferred.finishWanted(1)).toBe(1);
    expect(deferred.cached).toBe(1);
    while (deferred.wantsWork) deferred.finishWanted(1);
    expect(deferred.cached).toBe(3);
    const searchedBefore = deferred.stats.tilesSearched;
    for (const [from, to] of walks) expect(deferred.findPath(from, to)).toEqual(inStep.findPath(from, to));
    expect(deferred.stats.tilesSearched).toBe(searchedBefore);

    // The lens: a fresh search per walk reaches far fewer tiles than the disc of tiles nearer the destination than the walker.
    let discTiles = 0;
    const fresh = new DistanceFields(w, h, blocked);
    for (const [from, to] of walks.slice(0, 60)) {
      const field = new DistanceFields(w, h, blocked);
      for (let k = 0; k < 40; k++) field.findPath(open[k], to);
      field.findPath(from, to);
      const kept = (field as unknown as { fields: Map<number, Uint16Array> }).fields.get(to)!;
      const length = kept[from];
      for (let t = 0; t < w * h; t++) if (kept[t] < length) discTiles++;
      const searcher = new DistanceFields(w, h, blocked);
      searcher.findPath(from, to);
      fresh.stats.tilesSearched += searcher.stats.tilesSearched;
    }
    expect(discTiles).toBeGreaterThan(0);
    expect(fresh.stats.tilesSearched).toBeLessThan(discTiles / 3);
  });
});

describe("DistanceFields within a live step's budget of tiles", () => {
  it('gives up a search where it passes the tiles left, and gives the same path once it is searched between ticks', async () => {
    const { DistanceFields } = await import('../../server/src/world/distanceFields');
    const { w, h, blocked } = streets();
    const open: number[] = [];
    for (let t = 0; t < w * h; t++) if (!blocked[t]) open.push(t);
    let s = 5;
    const next = () => (s = (Math.imul(s, 1103515245) + 12345) >>> 0) % open.length;
    const walks = Array.from({ length: 200 }, () => [open[next()], open[next()]] as const);
    const reference = new DistanceFields(w, h, blocked);
    const budgeted = new DistanceFields(w, h, blocked);
    budgeted.deferWholeFields = true;
    const MAX = 4_000;
    let within = 0;
    let givenUp = 0;
    for (const [from, to] of walks) {
      const path = reference.findPath(from, to);
      const before = budgeted.stats.tilesSearched;
      if (budgeted.searchWithin(from, to, MAX)) {
        within++;
        // Ready: findPath descends or takes it, searching nothing more, and it is the very path.
        const searched = budgeted.stats.tilesSearched;
        expect(budgeted.findPath(from, to)).toEqual(path);
        expect(budgeted.stats.tilesSearched).toBe(searched);
      } else {
        givenUp++;
        // Given up about where it passed the tiles it was allowed (inside a layer: a tile's four neighbours at most more).
        expect(budgeted.stats.tilesSearched - before).toBeLessThanOrEqual(MAX + 4);
        expect(budgeted.wouldSearch(from, to)).toBe(true);
        // Not tried again in a later step (it would give up as much again) until it is searched between ticks.
        const after = budgeted.stats.tilesSearched;
        expect(budgeted.searchWithin(from, to, MAX)).toBe(false);
        expect(budgeted.stats.tilesSearched).toBe(after);
        // Searched between ticks, it is the same path.
        expect(budgeted.searchAhead(from, to)).toBe(true);
        expect(budgeted.findPath(from, to)).toEqual(path);
      }
    }
    // Both happen on this map; the control: no budget at all gives up nothing.
    expect(within).toBeGreaterThan(20);
    expect(givenUp).toBeGreaterThan(20);
    const unbounded = new DistanceFields(w, h, blocked);
    expect(walks.every(([from, to]) => unbounded.searchWithin(from, to, Infinity))).toBe(true);
    // And nothing to search (a kept field, a path waiting) needs no tiles at all.
    const [from, to] = walks[0];
    expect(unbounded.searchWithin(from, to, 0)).toBe(true);
  });
});
