// Perception, as in the paper: an agent notes its own action (its stream holds what it does) and sees
// the actions of others within its vision radius in its own arena, objects in use and world events,
// nearest first, at most ATTENTION_BANDWIDTH new ones a step, skipping what it already holds. An agent
// looks at once when it arrives in an arena, and everyone looks at a world event; otherwise only agents
// in arenas where something changed look again, on their own perception turn (PERCEPTION_TURN_GAME_MS,
// stagger.ts), so the occupants of a busy arena take turns. The people it sees close enough to talk to
// go with its observations to cognition, which decides whether to start talking.
import type { AgentSimState } from './types';
import * as C from './constants';
import type { Observation } from './types';
import type { Step } from './state';
import { companyFor } from './conversations';
import { perceptionTurn } from './stagger';

// long: the sim's per-step hot loop over every agent (10,000 in the big town): one pass notes arenas and lookers in the
// module's reused typed arrays, and the gathering after it reads them in place; split, each part would re-walk them.
export function perceive(step: Step): void {
  const { map } = step.world;
  const agents = step.state.agents;
  const n = agents.length;
  const pass = nextPass(step);
  for (const a of step.dirtyArenas) if (a >= 0) dirtyMark[a] = pass;
  // Who looks this step: those who arrived in an arena, and those whose arena changed on their turn (or
  // everyone, for a world event). One light pass over the town, which also notes each agent's arena, so that
  // only the arenas of those who look are gathered after it, from those notes (a looker's observations depend
  // only on itself and the others there, so order is free).
  const lookers: AgentSimState[] = [];
  for (let i = 0; i < n; i++) {
    const viewer = agents[i];
    const arenaIndex = viewer.arenaIndex;
    arenaOf[i] = arenaIndex;
    if (arenaIndex < 0 || viewer.asleep || viewer.conversationId !== null) continue;
    // Arriving and world events are reasons to look at once.
    const moved = viewer.perceivedArena !== arenaIndex;
    if (step.forcePerception || dirtyMark[arenaIndex] === pass) viewer.lookDue = true;
    if (!moved && !step.forcePerception && !(viewer.lookDue && perceptionTurn(step, viewer.spec.id))) continue;
    // Its first turn still to come (a budgeted step's slice: dueAgents.ts): it looks after it, as it is then.
    if (step.due.beforeFirstTurn(viewer)) continue;
    lookers.push(viewer);
    if (lookedMark[arenaIndex] !== pass) {
      lookedMark[arenaIndex] = pass;
      lookersIn[arenaIndex] = 0;
    }
    lookersIn[arenaIndex]++;
  }
  if (lookers.length === 0) return;
  // The occupants of each looked arena, in the town's order: the notes, not the agents, are read for the rest.
  const byArena = new Map<number, AgentSimState[]>();
  for (let i = 0; i < n; i++) {
    const arenaIndex = arenaOf[i];
    if (arenaIndex < 0 || lookedMark[arenaIndex] !== pass) continue;
    let list = byArena.get(arenaIndex);
    if (!list) byArena.set(arenaIndex, (list = []));
    list.push(agents[i]);
  }
  const w = map.widthTiles;
  const cellsByArena = new Map<number, Cells | null>();
  for (const viewer of lookers) {
    const arenaIndex = viewer.arenaIndex;
    const arena = map.arenas[arenaIndex];
    const occupants = byArena.get(arenaIndex)!;
    viewer.lookDue = false;
    viewer.perceivedArena = arenaIndex;
    const vx = viewer.tile % w;
    const vy = (viewer.tile - vx) / w;
    // Its own action, outside the attention bandwidth (which is for the surroundings).
    const ownDescription = sentenceOf(viewer);
    if (!holds(viewer, ownDescription, step.now)) {
      const own: Observation = {
        description: ownDescription,
        subject: viewer.spec.name,
        predicate: 'is',
        object: viewer.current.description,
        arena: arena.address,
        actorId: viewer.spec.id,
      };
      take(viewer, own, step.now);
    }
    // The surroundings within sight, nearest first (ties in the order found: occupants, objects in use, then world
    // events). Only distances and who are gathered; an observation's text is made when it is reached in that order,
    // so a looker in a crowded arena does not build (and throw away) a sentence for everyone near it. In a crowded
    // arena only the occupants of the cells around the looker are tried (arenaCells); the sort puts them in order.
    const found = gathered;
    found.length = 0;
    let cells = cellsByArena.get(arenaIndex);
    if (cells === undefined) {
      const crowded = occupants.length >= cellSearch.minOccupants && lookersIn[arenaIndex] >= cellSearch.minLookers;
      cells = crowded ? arenaCells(occupants, w, cellSearch.cellTiles) : null;
      cellsByArena.set(arenaIndex, cells);
    }
    if (cells) {
      const { start, items, cols, rows, cellTiles } = cells;
      const cx = Math.floor((vx - cells.x0) / cellTiles);
      const cy = Math.floor((vy - cells.y0) / cellTiles);
      const c0 = Math.max(0, cx - 1);
      const c1 = Math.min(cols - 1, cx + 1);
      for (let row = Math.max(0, cy - 1); row <= Math.min(rows - 1, cy + 1); row++) {
        const end = start[row * cols + c1 + 1];
        for (let k = start[row * cols + c0]; k < end; k++) see(viewer, occupants, items[k], vx, vy, w, arena.address, found);
      }
    } else {
      for (let i = 0; i < occupants.length; i++) see(viewer, occupants, i, vx, vy, w, arena.address, found);
    }
    const events = step.state.worldEvents;
    for (let e = 0; e < events.length; e++) {
      const place = events[e].arena;
      if (place === null || place === arena.address || arena.address.startsWith(`${place}:`)) found.push(-1, occupants.length + e);
    }
    const order = sortedPairs(found);
    let taken = 0;
    for (const k of order) {
      if (taken >= C.ATTENTION_BANDWIDTH) break;
      if (viewer.conversationId !== null) break;
      const which = found[k + 1];
      let description: string;
      if (which >= occupants.length) description = events[which - occupants.length].description;
      else if (which >= 0) description = sentenceOf(occupants[which]);
      else {
        const other = occupants[~which];
        description = `the ${objectNameOf(other.current.address, arena.address)} is in use: ${sentenceOf(other)}`;
      }
      if (holds(viewer, description, step.now)) continue;
      let obs: Observation;
      if (which >= occupants.length) {
        const e = events[which - occupants.length];
        obs = { description, subject: 'the town', predicate: 'event', object: e.description, arena: arena.address, place: e.arena };
      } else if (which >= 0) {
        const other = occupants[which];
        obs = { description, subject: other.spec.name, predicate: 'is', object: other.current.description, arena: arena.address, actorId: other.spec.id };
      } else {
        const other = occupants[~which];
        const subject = objectNameOf(other.current.address, arena.address)!;
        obs = { description, subject, predicate: 'is in use by', object: other.spec.name, arena: arena.address };
      }
      take(viewer, obs, step.now);
      taken++;
    }
  }
}

/** Squared distances in whole tiles above this are out of sight, whatever Math.hypot's rounding (tested with hypot below it). */
const OUT_OF_SIGHT_SQUARED = C.VISION_RADIUS_TILES * C.VISION_RADIUS_TILES + 1;

/** Gathers occupant `i` (and the object it uses) if within the viewer's sight: the pairs (distance, which) of perceive. */
function see(viewer: AgentSimState, occupants: AgentSimState[], i: number, vx: number, vy: number, w: number, arena: string, found: number[]): void {
  const other = occupants[i];
  if (other === viewer) return;
  const ox = other.tile % w;
  const oy = (other.tile - ox) / w;
  const dx = ox - vx;
  const dy = oy - vy;
  if (dx * dx + dy * dy > OUT_OF_SIGHT_SQUARED) return;
  const d = Math.hypot(dx, dy);
  if (d > C.VISION_RADIUS_TILES) return;
  found.push(d, i);
  if (!other.movement && isObjectIn(other.current.address, arena)) found.push(d + 0.5, ~i);
}

/**
 * A crowded arena's occupants by square cells of `cellTiles` tiles (no less than the vision radius, so all that a looker
 * can see is in the 3 x 3 cells around its own): cell by cell, row by row over the occupants' bounding box, each cell's
 * occupants in the town's order. Three cells side by side in a row are contiguous in `items`.
 */
interface Cells {
  x0: number;
  y0: number;
  cellTiles: number;
  cols: number;
  rows: number;
  /** Where each cell's occupants start in `items` (one more entry for the end of the last). */
  start: Int32Array;
  /** Occupant indices. */
  items: Int32Array;
}

/**
 * When an arena is searched by cells: at least `minOccupants` in it and `minLookers` of them looking in the step (the
 * cells cost a pass over the occupants; measured, BENCHMARKS.md "Round 9"). `cellTiles`, tiles on a side of a cell,
 * is the vision radius rounded up; less would miss some in sight. Settable for the tests and the bench only.
 */
export const cellSearch = { minOccupants: 96, minLookers: 8, cellTiles: Math.ceil(C.VISION_RADIUS_TILES) };

/** The cells of an arena's occupants (in the town's order), over their bounding box; null where they are all within 3 x 3. */
function arenaCells(occupants: AgentSimState[], w: number, cellTiles: number): Cells | null {
  const m = occupants.length;
  const xs = new Int32Array(m);
  const ys = new Int32Array(m);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < m; i++) {
    const tile = occupants[i].tile;
    const x = tile % w;
    const y = (tile - x) / w;
    xs[i] = x;
    ys[i] = y;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  const cols = Math.floor((x1 - x0) / cellTiles) + 1;
  const rows = Math.floor((y1 - y0) / cellTiles) + 1;
  // Within 3 x 3 cells, the cells around a looker leave out few or none: the scan of all is cheaper.
  if (cols <= 3 && rows <= 3) return null;
  const start = new Int32Array(cols * rows + 1);
  const cellOf = new Int32Array(m);
  for (let i = 0; i < m; i++) {
    const c = Math.floor((ys[i] - y0) / cellTiles) * cols + Math.floor((xs[i] - x0) / cellTiles);
    cellOf[i] = c;
    start[c + 1]++;
  }
  for (let c = 0; c < cols * rows; c++) start[c + 1] += start[c];
  const items = new Int32Array(m);
  const next = start.slice(0, cols * rows);
  for (let i = 0; i < m; i++) items[next[cellOf[i]]++] = i;
  return { x0, y0, cellTiles, cols, rows, start, items };
}

/** Per-step notes by arena (marked with the pass that wrote them, so none is cleared) and by agent; grown as needed. */
let pass = 0;
let lookedMark = new Int32Array(0);
let dirtyMark = new Int32Array(0);
let lookersIn = new Int32Array(0);
let arenaOf = new Int32Array(0);

/** The next pass's number, the notes sized for the map's arenas (and any dirty index beyond them) and for the agents. */
function nextPass(step: Step): number {
  let arenas = step.world.map.arenas.length;
  for (const a of step.dirtyArenas) arenas = Math.max(arenas, a + 1);
  if (lookedMark.length < arenas || pass >= 0x3fffffff) {
    lookedMark = new Int32Array(arenas);
    dirtyMark = new Int32Array(arenas);
    lookersIn = new Int32Array(arenas);
    pass = 0;
  }
  const agents = step.state.agents.length;
  if (arenaOf.length < agents) arenaOf = new Int32Array(agents + (agents >> 3));
  return ++pass;
}

/** Pairs (distance, which) gathered for one looker at a time, reused: perception runs once per step, never re-entered. */
const gathered: number[] = [];
const sortOrder: number[] = [];

/**
 * The offsets of `pairs`' pairs by distance, ties in the order of the town (an occupant, then the object it uses, then
 * world events): the order in which a scan of the occupants in the town's order gathers them, so a stable sort of the
 * pairs as a scan gathers them gives the same order, whatever order they were gathered in. An occupant and its object
 * never tie (half a tile apart), nor does a world event (-1) with either.
 */
function sortedPairs(pairs: number[]): number[] {
  sortOrder.length = 0;
  for (let k = 0; k < pairs.length; k += 2) sortOrder.push(k);
  return sortOrder.sort((p, q) => pairs[p] - pairs[q] || townOrder(pairs[p + 1]) - townOrder(pairs[q + 1]));
}

/** An occupant's index for itself and for the object it uses (~index); a world event's (after the occupants) as it is. */
function townOrder(which: number): number {
  return which >= 0 ? which : ~which;
}

/** "Ana Diaz is reading at the counter", kept per agent while its name and action stay the same (seen by many in a crowded arena). */
const sentences = new WeakMap<AgentSimState, { name: string; action: string; text: string }>();
function sentenceOf(agent: AgentSimState): string {
  const name = agent.spec.name;
  const action = agent.current.description;
  const kept = sentences.get(agent);
  if (kept && kept.name === name && kept.action === action) return kept.text;
  const text = `${name} is ${action}`;
  sentences.set(agent, { name, action, text });
  return text;
}

/** Hands each free agent's new observations to cognition, one operation at a time, with the company it could talk to. */
export function requestObservations(step: Step): void {
  for (const agent of step.state.agents) {
    if (agent.busy || agent.pendingObservations.length === 0 || agent.conversationId !== null) continue;
    agent.busy = true;
    step.out.changed.add(agent.spec.id);
    step.due.touch(agent);
    const observations = agent.pendingObservations;
    const company = companyFor(
      step,
      agent,
      observations.flatMap((o) => (o.actorId && o.actorId !== agent.spec.id ? [o.actorId] : [])),
    );
    step.out.requests.push({ kind: 'observe', agentId: agent.spec.id, gameMs: step.now, observations, company });
    agent.pendingObservations = [];
  }
}

/**
 * Holds an observation until cognition takes it; the oldest waiting one is dropped (and no longer held, so it can be seen
 * again) past the limit. Exported with `holds` for the reference scan perception is tested against.
 */
export function take(agent: AgentSimState, obs: Observation, now: number): void {
  agent.held.push([obs.description, now]);
  if (agent.held.length > C.HELD_EVENTS_LIMIT) agent.held.shift();
  agent.pendingObservations.push(obs);
  if (agent.pendingObservations.length > C.PENDING_OBSERVATIONS_LIMIT) {
    const dropped = agent.pendingObservations.shift()!;
    agent.held = agent.held.filter(([k]) => k !== dropped.description);
  }
}

/** Whether the agent holds `description` seen within REPERCEIVE_AFTER_GAME_MS. */
export function holds(agent: AgentSimState, description: string, now: number): boolean {
  for (let i = agent.held.length - 1; i >= 0; i--) {
    const [k, at] = agent.held[i];
    if (k === description) return now - at < C.REPERCEIVE_AFTER_GAME_MS;
  }
  return false;
}

/** Whether `address` is an object inside arena `arenaAddress` (objectNameOf's test, without making a string). */
function isObjectIn(address: string, arenaAddress: string): boolean {
  const n = arenaAddress.length;
  return address.length > n + 2 && address.charCodeAt(n) === 58 && address.charCodeAt(n + 1) === 32 && address.startsWith(arenaAddress);
}

/** "counter" for "Hobbs Cafe: cafe: counter" inside arena "Hobbs Cafe: cafe"; null for the arena itself. */
function objectNameOf(address: string, arenaAddress: string): string | null {
  return address.startsWith(`${arenaAddress}: `) ? address.slice(arenaAddress.length + 2) : null;
}
