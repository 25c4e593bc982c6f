// The analysis page's layouts and axes, away from the browser: the big relationship graph's force layout
// (what the worker runs), the strongest-ties default, the who-told-whom tree, and value axes that fit their data.
import { describe, expect, it } from 'vitest';
import { layoutGraph, layoutSteps, strongestEdges } from '../../client/src/analysis/layout';
import { treePositions } from '../../client/src/analysis/graph';
import { formatTick, groupThousands, valueAxis } from '../../client/src/analysis/charts';

describe('the relationship graph layout', () => {
  const ring = (n: number) => ({
    nodes: Array.from({ length: n }, (_, i) => ({ id: `a${i}`, size: 14, labelWidth: 60 })),
    edges: Array.from({ length: n }, (_, i) => ({ a: `a${i}`, b: `a${(i + 1) % n}`, weight: i % 3 })),
  });

  it('places every node at a finite spot, the same twice, with neighbours nearer than strangers', () => {
    const g = ring(60);
    const once = layoutGraph(g);
    expect(layoutGraph(g)).toEqual(once);
    for (let i = 0; i < 60; i++) expect(Number.isFinite(once.x[i]) && Number.isFinite(once.y[i])).toBe(true);
    const d = (i: number, j: number) => Math.hypot(once.x[i] - once.x[j], once.y[i] - once.y[j]);
    expect(d(0, 1)).toBeLessThan(d(0, 30));
  });

  it('tells its progress and takes fewer steps for a bigger graph, never under 100', () => {
    const seen: number[] = [];
    layoutGraph(ring(20), (done) => seen.push(done));
    expect(seen.at(-1)).toBe(1);
    expect(layoutSteps(50)).toBe(300);
    expect(layoutSteps(1000)).toBe(150);
    expect(layoutSteps(10_000)).toBe(100);
  });

  it('draws the strongest ties first, ties in their given order', () => {
    const edges = [0, 5, 1, 5, 2].map((conversations, i) => ({ id: i, conversations }));
    expect(strongestEdges(edges, 3).map((e) => e.id)).toEqual([1, 3, 4]);
    expect(strongestEdges(edges, 10)).toHaveLength(5);
  });
});

describe('the who-told-whom tree', () => {
  it('puts a generation to a column and a listener to a row, the teller level with those it told', () => {
    const { at, width, height } = treePositions([
      { id: 'root', parent: null, t: 0 },
      { id: 'b', parent: 'root', t: 2 },
      { id: 'a', parent: 'root', t: 1 },
      { id: 'c', parent: 'b', t: 3 },
    ]);
    expect(at.get('a')!.y).toBeLessThan(at.get('b')!.y);
    expect(at.get('root')!.y).toBe((at.get('a')!.y + at.get('b')!.y) / 2);
    expect(at.get('c')!.x).toBeGreaterThan(at.get('b')!.x);
    expect(at.get('b')!.x).toBeGreaterThan(at.get('root')!.x);
    expect(width).toBeGreaterThan(at.get('c')!.x);
    expect(height).toBeGreaterThan(at.get('b')!.y);
  });

  it('gives a one-node tree one row, and places agents of a cycle with no root', () => {
    expect(treePositions([{ id: 'solo', parent: null, t: 0 }])).toMatchObject({ height: 34 });
    const { at } = treePositions([
      { id: 'x', parent: 'y', t: 0 },
      { id: 'y', parent: 'x', t: 1 },
    ]);
    expect(at.size).toBe(2);
  });
});

describe('value axes', () => {
  it('fit small data (a density of 0.004 to 0.008 is not drawn on 0 to 1), and keep the limit when the data nears it', () => {
    expect(valueAxis([0.004, 0.008], { limit: 1, title: 'density' }).max).toBeUndefined();
    expect(valueAxis([0.5, 0.95], { limit: 1, title: 'density' }).max).toBe(1);
    expect(valueAxis([21], { limit: 1000, integer: true, title: 'aware' }).max).toBeUndefined();
    expect(valueAxis([0], { limit: 1000, integer: true, title: 'aware' }).max).toBe(5);
  });

  it('labels ticks with the decimals their step needs, thousands grouped', () => {
    expect(formatTick(0.006, 0.002)).toBe('0.006');
    expect(formatTick(150, 50)).toBe('150');
    expect(formatTick(0.5, 0.1)).toBe('0.5');
    expect(formatTick(3482, 500)).toBe('3,482');
    expect(groupThousands(1000)).toBe('1,000');
  });
});
