// The relationship graph's layout: a force-directed placement (d3-force: many-body repulsion by a
// Barnes–Hut quadtree, springs along the ties, and a collision radius wide enough for a node's name),
// O(n log n) a step where Cytoscape's cose is O(n²). It runs in a Web Worker (layout.worker.ts), so the
// page stays responsive at 1,000 agents and more; nothing here touches the DOM.
import { forceCollide, forceLink, forceManyBody, forceSimulation, forceX, forceY, type SimulationNodeDatum } from 'd3-force';

export interface LayoutNode {
  id: string;
  /** The node's drawn diameter, model px. */
  size: number;
  /** The label's width, model px (an estimate is enough: it sets how far apart neighbours stay). */
  labelWidth: number;
}

export interface LayoutEdge {
  a: string;
  b: string;
  /** Conversations between the pair: the stronger the tie, the shorter its spring. */
  weight: number;
}

export interface LayoutRequest {
  nodes: LayoutNode[];
  edges: LayoutEdge[];
}

/** The worker's messages: progress as a share of the steps done, then the positions, in the order of the request's nodes. */
export type LayoutMessage = { kind: 'progress'; done: number } | { kind: 'done'; x: Float64Array; y: Float64Array; ms: number };

/**
 * Steps of the simulation, cooled from alpha 1 to d3's 0.001 over them: d3's default 300 for a small graph,
 * fewer for a big one (a step costs O(n log n); 1,000 nodes get 150), never under 100.
 */
export function layoutSteps(nodes: number): number {
  return Math.round(Math.min(300, Math.max(100, 150_000 / Math.max(1, nodes))));
}
const PROGRESS_EVERY_STEPS = 10;
/** Names are kept apart only over the last share of the steps: early on nodes move too far for it to matter. */
const COLLIDE_FROM = 0.6;

type SimNode = SimulationNodeDatum & { i: number; r: number };

/** Lays the graph out; `onProgress` is told the share done every few steps. Deterministic: the same graph, the same picture. */
export function layoutGraph(req: LayoutRequest, onProgress: (done: number) => void = () => {}): { x: Float64Array; y: Float64Array } {
  const index = new Map(req.nodes.map((n, i) => [n.id, i]));
  // d3 starts nodes on a phyllotaxis spiral when they have no position: deterministic, no Math.random.
  const nodes: SimNode[] = req.nodes.map((n, i) => ({ i, r: Math.max(n.size / 2, n.labelWidth / 2) + 4 }));
  const pairs = req.edges.filter((e) => index.has(e.a) && index.has(e.b) && e.a !== e.b).map((e) => [index.get(e.a)!, index.get(e.b)!, e.weight] as const);
  const degree = new Float64Array(nodes.length);
  for (const [a, b] of pairs) {
    degree[a]++;
    degree[b]++;
  }
  // d3's own default strength (1 / the lesser degree), raised for pairs who talked.
  const links = pairs.map(([a, b, weight]) => ({ source: a, target: b, weight, strength: (1 + Math.min(weight, 4)) / Math.min(degree[a], degree[b]) }));
  const sim = forceSimulation<SimNode>(nodes)
    .force(
      'link',
      forceLink<SimNode, (typeof links)[number]>(links)
        .id((n) => n.i)
        .distance((l) => 70 / Math.sqrt(1 + l.weight))
        .strength((l) => l.strength),
    )
    .force('charge', forceManyBody<SimNode>().strength(-120).distanceMax(600))
    // A weak pull to the middle keeps the pieces of a graph that falls apart (households, loners) in one picture.
    .force('x', forceX<SimNode>(0).strength(0.04))
    .force('y', forceY<SimNode>(0).strength(0.04))
    .stop();
  const steps = layoutSteps(nodes.length);
  sim.alphaDecay(1 - Math.pow(sim.alphaMin(), 1 / steps));
  for (let step = 1; step <= steps; step++) {
    if (step === Math.floor(steps * COLLIDE_FROM)) sim.force('collide', forceCollide<SimNode>((n) => n.r).iterations(2));
    sim.tick();
    if (step % PROGRESS_EVERY_STEPS === 0) onProgress(step / steps);
  }
  const x = new Float64Array(nodes.length);
  const y = new Float64Array(nodes.length);
  for (const n of nodes) {
    x[n.i] = n.x ?? 0;
    y[n.i] = n.y ?? 0;
  }
  return { x, y };
}

/** The `limit` strongest ties (most conversations first; ties kept in their given order), and how many there are in all. */
export function strongestEdges<E extends { conversations: number }>(edges: readonly E[], limit: number): E[] {
  if (edges.length <= limit) return [...edges];
  return edges
    .map((e, i) => ({ e, i }))
    .sort((p, q) => q.e.conversations - p.e.conversations || p.i - q.i)
    .slice(0, limit)
    .map((p) => p.e);
}
