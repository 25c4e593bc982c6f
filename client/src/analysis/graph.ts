// Graphs with Cytoscape.js (canvas, no WebGL needed; built-in force-directed and tree layouts; tap
// events on nodes and edges): the relationship graph, and each topic's who-told-whom tree.
import cytoscape, { type Core } from 'cytoscape';
import type { GraphView, ReportTopic } from '@protocol/analysis';
import { shortTime } from './charts';

const graphs = new Map<string, Core>();

export function graphByName(name: string): Core | undefined {
  return graphs.get(name);
}

/** Destroys the kept graphs whose names start with `prefix` (the trees of the topics of the last window or world). */
export function dropGraphs(prefix: string): void {
  for (const [name, cy] of graphs)
    if (name.startsWith(prefix)) {
      cy.destroy();
      graphs.delete(name);
    }
}

/**
 * Makes a graph in `container` in place of the one kept by that name: the old one is destroyed first, so
 * a redraw for another window or world never draws over a live instance.
 */
function keep(name: string, container: HTMLElement, make: () => Core): Core {
  graphs.get(name)?.destroy();
  graphs.delete(name);
  allowCytoscapeUnderCsp();
  container.replaceChildren();
  const cy = make();
  graphs.set(name, cy);
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
      'min-zoomed-font-size': 6,
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

/** Agents as nodes (size: conversations), pairs as edges (width: conversations; dashed: known at the start). */
export function relationshipGraph(container: HTMLElement, g: GraphView, onEdge: (a: string, b: string) => void, onNode: (id: string) => void): Core {
  const max = Math.max(1, ...g.edges.map((e) => e.conversations));
  const cy = keep('relationships', container, () =>
    cytoscape({
      container,
      elements: [
        ...g.nodes.map((n) => ({ data: { id: n.id, label: n.name, size: 14 + Math.sqrt(n.conversations) * 4 } })),
        ...g.edges.map((e) => ({
          data: { id: `${e.a}|${e.b}`, source: e.a, target: e.b, width: 1 + (6 * e.conversations) / max, conversations: e.conversations },
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
  return cy;
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
export function diffusionTree(name: string, container: HTMLElement, topic: ReportTopic, onNode: (agentId: string, gameMs: number) => void): Core {
  const known = new Set(topic.agents.map((a) => a.id));
  const cy = keep(name, container, () =>
    cytoscape({
      container,
      elements: [
        ...topic.agents.map((a) => ({ data: { id: a.id, label: `${a.name}\n${shortTime(a.first_heard_ms)}`, size: a.from ? 14 : 20, t: a.first_heard_ms } })),
        ...topic.agents
          .filter((a) => a.from && known.has(a.from))
          .map((a) => ({ data: { id: `${a.from}>${a.id}`, source: a.from!, target: a.id, width: 1.5 } })),
      ],
      style: [
        ...BASE_STYLE,
        { selector: 'node', style: { 'text-wrap': 'wrap', 'font-size': 9 } },
        { selector: 'edge', style: { 'target-arrow-shape': 'triangle', 'target-arrow-color': '#8a97b5' } },
      ],
      layout: {
        name: 'breadthfirst',
        directed: true,
        roots: topic.agents.filter((a) => !a.from || !known.has(a.from)).map((a) => a.id),
        spacingFactor: 0.9,
        animate: false,
        nodeDimensionsIncludeLabels: true,
      },
    }),
  );
  cy.on('tap', 'node', (ev) => onNode(ev.target.id(), ev.target.data('t') as number));
  return cy;
}
