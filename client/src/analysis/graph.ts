// Graphs: the relationship graph, and each topic's who-told-whom tree. Small ones with Cytoscape.js
// (canvas, no WebGL needed; force-directed and tree layouts; tap events on nodes and edges). A big
// relationship graph (over BIG_GRAPH_NODES agents) is laid out in a Web Worker (layout.ts) and drawn by
// canvasGraph.ts: Cytoscape's own layout and per-element styling held the main thread for seconds there.
import type cytoscape from 'cytoscape';
import type { Core } from 'cytoscape';
import type { GraphView, ReportTopic } from '@protocol/analysis';
import { groupThousands, shortTime } from './charts';
import { strongestEdges, type LayoutMessage, type LayoutRequest } from './layout';
import { CanvasGraph } from './canvasGraph';

/** What the page and its browser-test hooks ask of a drawn graph, whichever draws it. */
export interface GraphHandle {
  nodes(): number;
  edges(): number;
  /** The middle of an edge, in page coordinates. */
  edgeMidpoint(index: number): { x: number; y: number } | null;
  /** The drawn names' boxes (model or screen px: compared only with one another). */
  labelBoxes(): Array<{ id: string; x1: number; y1: number; x2: number; y2: number }>;
  /** The names' font size on screen, px. */
  labelPx(): number;
  destroy(): void;
}

const graphs = new Map<string, GraphHandle>();

export function graphByName(name: string): GraphHandle | undefined {
  return graphs.get(name);
}

/** Destroys the kept graphs whose names start with `prefix` (the trees of the topics of the last window or world). */
export function dropGraphs(prefix: string): void {
  for (const [name, g] of graphs)
    if (name.startsWith(prefix)) {
      g.destroy();
      graphs.delete(name);
    }
}

function cyHandle(cy: Core): GraphHandle {
  return {
    nodes: () => cy.nodes().length,
    edges: () => cy.edges().length,
    edgeMidpoint(index) {
      const edge = cy.edges()[index];
      if (!edge) return null;
      const box = cy.container()!.getBoundingClientRect();
      const mid = edge.renderedMidpoint();
      return { x: box.left + mid.x, y: box.top + mid.y };
    },
    labelBoxes: () => cy.nodes().map((n) => ({ id: n.id(), ...n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true }) })),
    labelPx: () => (cy.nodes().length ? parseFloat(String(cy.nodes()[0].style('font-size'))) * cy.zoom() : 0),
    destroy: () => cy.destroy(),
  };
}

/** Forgets the graph kept by that name, and empties its box. */
function release(name: string, container: HTMLElement): void {
  graphs.get(name)?.destroy();
  graphs.delete(name);
  container.replaceChildren();
}

/**
 * Makes a graph in `container` in place of the one kept by that name: the old one is destroyed first, so
 * a redraw for another window or world never draws over a live instance.
 */
/**
 * Cytoscape (about two thirds of the page's script) is loaded when a graph first needs it, not with the page:
 * a big town's page draws its relationship graph without it, and evaluating it is a long task on load.
 */
let cytoscapeModule: Promise<typeof cytoscape> | null = null;
function loadCytoscape(): Promise<typeof cytoscape> {
  cytoscapeModule ??= import('cytoscape').then((m) => m.default);
  return cytoscapeModule;
}

function keep(name: string, container: HTMLElement, make: () => Core): Core {
  release(name, container);
  allowCytoscapeUnderCsp();
  const cy = make();
  graphs.set(name, cyHandle(cy));
  return cy;
}

/**
 * Cytoscape adds an inline <style> to the page's head unless an element with its id is there already, and the
 * page's CSP allows no inline style: a placeholder stands in, and analysis.css gives `.cy` the rule it adds.
 */
function allowCytoscapeUnderCsp(): void {
  const id = '__________cytoscape_stylesheet';
  if (document.getElementById(id)) return;
  const placeholder = document.createElement('meta');
  placeholder.id = id;
  document.head.append(placeholder);
}

/** A label's width per character at the graphs' font size, model px (a rough mean for names). */
const LABEL_PX_PER_CHAR = 6;

const BASE_STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      label: 'data(label)',
      color: '#f4f1ea',
      'font-size': 10,
      'text-valign': 'bottom',
      'text-margin-y': 3,
      // A label on a dark plate, so that an edge or a neighbour under it does not garble it.
      'text-background-color': '#181e2c',
      'text-background-opacity': 0.75,
      'text-background-padding': '1px',
      // A name smaller than this on screen is not drawn (zoom in to read it): no unreadable specks.
      'min-zoomed-font-size': 8,
      'background-color': '#6fb1ff',
      width: 'data(size)',
      height: 'data(size)',
    },
  },
  { selector: 'edge', style: { width: 'data(width)', 'line-color': '#8a97b5', opacity: 0.7, 'curve-style': 'bezier' } },
  { selector: 'edge.acquainted', style: { 'line-style': 'dashed' } },
  { selector: 'edge:selected', style: { 'line-color': '#ffb85c', opacity: 1 } },
  { selector: 'node:selected', style: { 'background-color': '#ffb85c' } },
];

/** Above this many agents the relationship graph is laid out in a worker and drawn by canvasGraph.ts. */
export const BIG_GRAPH_NODES = 100;
/** Ties drawn at first in a big graph: the strongest this many (all when there are no more); the rest on demand. */
export const EDGES_SHOWN_FIRST = 1000;

/** Positions for the graph's nodes, from the layout worker; `onProgress` hears the share done. */
function layOutInWorker(req: LayoutRequest, onProgress: (done: number) => void): Promise<{ x: Float64Array; y: Float64Array; ms: number }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./layout.worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (ev: MessageEvent<LayoutMessage>) => {
      if (ev.data.kind === 'progress') onProgress(ev.data.done);
      else {
        worker.terminate();
        resolve(ev.data);
      }
    };
    worker.onerror = (ev) => {
      worker.terminate();
      reject(new Error(`graph layout: ${ev.message}`));
    };
    worker.postMessage(req);
  });
}

export interface DrawnGraph {
  agents: number;
  /** Ties in the data, and how many are drawn. */
  total: number;
  shown: number;
  /** Draws the ties not drawn yet. */
  showAll(): void;
}

/**
 * Agents as nodes (size: conversations), pairs as edges (width: conversations; dashed: known at the start).
 * A small graph is laid out by Cytoscape's cose at once; a big one in a Web Worker, with `onProgress` told how
 * far it has got, and only its strongest EDGES_SHOWN_FIRST ties drawn until `showAll`; null when `isCurrent`
 * says, once it is laid out, that the page has moved on.
 */
export async function relationshipGraph(
  container: HTMLElement,
  g: GraphView,
  onEdge: (a: string, b: string) => void,
  onNode: (id: string) => void,
  onProgress: (note: string) => void = () => {},
  isCurrent: () => boolean = () => true,
): Promise<DrawnGraph | null> {
  const max = Math.max(1, ...g.edges.map((e) => e.conversations));
  const size = (conversations: number) => 14 + Math.sqrt(conversations) * 4;
  const width = (conversations: number) => 1 + (6 * conversations) / max;
  if (g.nodes.length <= BIG_GRAPH_NODES) {
    const cytoscape = await loadCytoscape();
    if (!isCurrent()) return null;
    smallRelationshipGraph(cytoscape, container, g, size, width, onEdge, onNode);
    return { agents: g.nodes.length, total: g.edges.length, shown: g.edges.length, showAll: () => {} };
  }
  release('relationships', container);
  const count = `${groupThousands(g.nodes.length)} agents, ${groupThousands(g.edges.length)} ties`;
  onProgress(`laying out the relationship graph (${count})…`);
  const placed = await layOutInWorker(
    {
      nodes: g.nodes.map((n) => ({ id: n.id, size: size(n.conversations), labelWidth: n.name.length * LABEL_PX_PER_CHAR })),
      edges: g.edges.map((e) => ({ a: e.a, b: e.b, weight: e.conversations })),
    },
    (done) => onProgress(`laying out the relationship graph (${count}): ${Math.round(done * 100)}%`),
  );
  // Another world or window was asked for while this one was laid out: that one draws.
  if (!isCurrent()) return null;
  release('relationships', container);
  const view = new CanvasGraph(
    container,
    g.nodes.map((n, i) => ({ id: n.id, label: n.name, size: size(n.conversations), x: placed.x[i], y: placed.y[i] })),
    { onNode, onEdge },
  );
  const edgeOf = (e: GraphView['edges'][number]) => ({ a: e.a, b: e.b, width: width(e.conversations), dashed: e.conversations === 0 });
  const first = strongestEdges(g.edges, EDGES_SHOWN_FIRST);
  view.setEdges(first.map(edgeOf));
  graphs.set('relationships', {
    nodes: () => view.nodeCount(),
    edges: () => view.edgeCount(),
    edgeMidpoint: (i) => view.edgeMidpoint(i),
    labelBoxes: () => view.drawnLabels(),
    labelPx: () => view.labelPx(),
    destroy: () => view.destroy(),
  });
  const drawn: DrawnGraph = {
    agents: g.nodes.length,
    total: g.edges.length,
    shown: first.length,
    showAll() {
      view.setEdges(g.edges.map(edgeOf));
      drawn.shown = g.edges.length;
    },
  };
  return drawn;
}

function smallRelationshipGraph(
  cytoscape: typeof import('cytoscape'),
  container: HTMLElement,
  g: GraphView,
  size: (conversations: number) => number,
  width: (conversations: number) => number,
  onEdge: (a: string, b: string) => void,
  onNode: (id: string) => void,
): void {
  const cy = keep('relationships', container, () =>
    cytoscape({
      container,
      elements: [
        ...g.nodes.map((n) => ({ data: { id: n.id, label: n.name, size: size(n.conversations) } })),
        ...g.edges.map((e) => ({
          data: { id: `${e.a}|${e.b}`, source: e.a, target: e.b, width: width(e.conversations), conversations: e.conversations },
          classes: e.conversations === 0 ? 'acquainted' : '',
        })),
      ],
      style: BASE_STYLE,
      layout: { name: 'cose', animate: false, randomize: false, nodeDimensionsIncludeLabels: true, nodeRepulsion: () => 40000, idealEdgeLength: () => 90 },
    }),
  );
  // cose places nodes by forces, not by their labels' boxes: labels that still cover one another are moved apart.
  separateLabels(cy);
  cy.on('tap', 'edge', (ev) => onEdge(ev.target.data('source') as string, ev.target.data('target') as string));
  cy.on('tap', 'node', (ev) => onNode(ev.target.id()));
}

/** Pushes nodes whose label boxes overlap apart along the axis they overlap least on, until none do (20 passes at most). */
function separateLabels(cy: Core, gap = 2): void {
  const box = (n: cytoscape.NodeSingular) => n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true });
  for (let pass = 0; pass < 20; pass++) {
    let moved = false;
    const nodes = cy.nodes().toArray();
    for (let i = 0; i < nodes.length; i++)
      for (let j = i + 1; j < nodes.length; j++) {
        const [p, q] = [box(nodes[i]), box(nodes[j])];
        const dx = Math.min(p.x2, q.x2) - Math.max(p.x1, q.x1);
        const dy = Math.min(p.y2, q.y2) - Math.max(p.y1, q.y1);
        if (dx <= 0 || dy <= 0) continue;
        const [a, b] = [nodes[i].position(), nodes[j].position()];
        const alongX = dx < dy;
        const shift = ((alongX ? dx : dy) + gap) / 2;
        const sign = (alongX ? a.x <= b.x : a.y <= b.y) ? -1 : 1;
        nodes[i].position(alongX ? { x: a.x + sign * shift, y: a.y } : { x: a.x, y: a.y + sign * shift });
        nodes[j].position(alongX ? { x: b.x - sign * shift, y: b.y } : { x: b.x, y: b.y - sign * shift });
        moved = true;
      }
    if (!moved) break;
  }
  cy.fit(undefined, 30); // as the layout fits (cose: padding 30)
}

/** The who-told-whom tree of a topic: a root for each agent who knew it first-hand (seed, whisper, observation). */
export async function diffusionTree(
  name: string,
  container: HTMLElement,
  topic: ReportTopic,
  onNode: (agentId: string, gameMs: number) => void,
): Promise<Core> {
  const cytoscape = await loadCytoscape();
  const known = new Set(topic.agents.map((a) => a.id));
  const placed = treePositions(topic.agents.map((a) => ({ id: a.id, parent: a.from && known.has(a.from) ? a.from : null, t: a.first_heard_ms })));
  // The box fits the tree at a zoom where names are TREE_LABEL_PX tall: as tall as the tree needs (up to a limit), never a one-node tree blown up.
  const zoom = Math.min(1, (container.clientWidth - 2 * TREE_PAD_PX) / Math.max(1, placed.width));
  const heightPx = Math.min(TREE_MAX_HEIGHT_PX, Math.max(TREE_MIN_HEIGHT_PX, placed.height * zoom + 2 * TREE_PAD_PX));
  container.style.height = `${Math.round(heightPx)}px`;
  const cy = keep(name, container, () =>
    cytoscape({
      container,
      elements: [
        ...topic.agents.map((a) => ({
          data: { id: a.id, label: `${a.name}\n${shortTime(a.first_heard_ms)}`, size: a.from ? 14 : 20, t: a.first_heard_ms },
          position: placed.at.get(a.id)!,
        })),
        ...topic.agents
          .filter((a) => a.from && known.has(a.from))
          .map((a) => ({ data: { id: `${a.from}>${a.id}`, source: a.from!, target: a.id, width: 1.5 } })),
      ],
      style: [
        ...BASE_STYLE,
        // The name and the time first heard to the right of the node, the tree reading left to right.
        {
          selector: 'node',
          style: { 'text-wrap': 'wrap', 'font-size': TREE_LABEL_PX, 'text-valign': 'center', 'text-halign': 'right', 'text-margin-x': 4, 'text-margin-y': 0 },
        },
        {
          selector: 'edge',
          style: { 'target-arrow-shape': 'triangle', 'target-arrow-color': '#8a97b5', 'curve-style': 'taxi', 'taxi-direction': 'rightward' },
        },
      ],
      layout: { name: 'preset' },
      minZoom: 0.1,
      maxZoom: 3,
    }),
  );
  // Whole at a zoom where the names are readable (at most 1: names TREE_LABEL_PX tall), centred; a tree too big for
  // its box at that zoom is shown from its roots, and panned to see the rest.
  const fitted = Math.min(1, (cy.width() - 2 * TREE_PAD_PX) / Math.max(1, placed.width), (cy.height() - 2 * TREE_PAD_PX) / Math.max(1, placed.height));
  const z = Math.max(fitted, MIN_TREE_ZOOM);
  cy.zoom(z);
  const bb = cy.elements().boundingBox({ includeLabels: true });
  cy.pan({
    x: bb.w * z <= cy.width() ? (cy.width() - bb.w * z) / 2 - bb.x1 * z : TREE_PAD_PX - bb.x1 * z,
    y: bb.h * z <= cy.height() ? (cy.height() - bb.h * z) / 2 - bb.y1 * z : TREE_PAD_PX - bb.y1 * z,
  });
  cy.on('tap', 'node', (ev) => onNode(ev.target.id(), ev.target.data('t') as number));
  return cy;
}

/** The names in a who-told-whom tree, px at zoom 1. */
const TREE_LABEL_PX = 11;
/** A tree is never zoomed out below this (names 9 px): a bigger one is panned. */
const MIN_TREE_ZOOM = 9 / TREE_LABEL_PX;
const TREE_PAD_PX = 16;
const TREE_MIN_HEIGHT_PX = 90;
const TREE_MAX_HEIGHT_PX = 720;
/** A row a leaf, and a column a generation, model px: room for two lines of name and time. */
const TREE_ROW_PX = 34;
const TREE_COLUMN_PX = 150;

/**
 * A tree laid out left to right: a column per generation (who told whom), a row per agent who told no one,
 * each teller level with the middle of those it told; siblings in the order they heard. Several roots
 * (several first-hand sources) stack one under another.
 */
export function treePositions(nodes: Array<{ id: string; parent: string | null; t: number }>): {
  at: Map<string, { x: number; y: number }>;
  width: number;
  height: number;
} {
  const children = new Map<string | null, Array<{ id: string; t: number }>>();
  for (const n of nodes) {
    const list = children.get(n.parent) ?? [];
    list.push(n);
    children.set(n.parent, list);
  }
  for (const list of children.values()) list.sort((a, b) => a.t - b.t || a.id.localeCompare(b.id));
  const at = new Map<string, { x: number; y: number }>();
  let row = 0;
  let depthMax = 0;
  const place = (id: string, depth: number): number => {
    depthMax = Math.max(depthMax, depth);
    const kids = (children.get(id) ?? []).filter((k) => !at.has(k.id));
    at.set(id, { x: 0, y: 0 });
    let y: number;
    if (kids.length === 0) y = row++ * TREE_ROW_PX;
    else {
      const ys = kids.map((k) => place(k.id, depth + 1));
      y = (ys[0] + ys[ys.length - 1]) / 2;
    }
    at.set(id, { x: depth * TREE_COLUMN_PX, y });
    return y;
  };
  for (const root of children.get(null) ?? []) place(root.id, 0);
  // A cycle in the data (each told by another) has no root: its agents are placed from the first of them.
  for (const n of nodes) if (!at.has(n.id)) place(n.id, 0);
  return { at, width: depthMax * TREE_COLUMN_PX + TREE_COLUMN_PX, height: Math.max(1, row) * TREE_ROW_PX };
}
