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

export function perceive(step: Step): void {
  const { map } = step.world;
  const agents = step.state.agents;
  // Who looks this step: those who arrived in an arena, and those whose arena changed on their turn (or
  // everyone, for a world event). One light pass over the town; only the arenas of those who look are
  // gathered (a looker's observations depend only on itself and the others there, so order is free).
  const lookers: AgentSimState[] = [];
  const looked = new Set<number>();
  for (const viewer of agents) {
    const arenaIndex = viewer.arenaIndex;
    if (arenaIndex < 0 || viewer.asleep || viewer.conversationId !== null) continue;
    // Arriving and world events are reasons to look at once.
    const moved = viewer.perceivedArena !== arenaIndex;
    if (step.forcePerception || step.dirtyArenas.has(arenaIndex)) viewer.lookDue = true;
    if (!moved && !step.forcePerception && !(viewer.lookDue && perceptionTurn(step, viewer.spec.id))) continue;
    lookers.push(viewer);
    looked.add(arenaIndex);
  }
  if (lookers.length === 0) return;
  const byArena = new Map<number, AgentSimState[]>();
  for (const a of agents) {
    if (!looked.has(a.arenaIndex)) continue;
    let list = byArena.get(a.arenaIndex);
    if (!list) byArena.set(a.arenaIndex, (list = []));
    list.push(a);
  }
  const w = map.widthTiles;
  for (const viewer of lookers) {
    const arenaIndex = viewer.arenaIndex;
    const arena = map.arenas[arenaIndex];
    const occupants = byArena.get(arenaIndex)!;
    viewer.lookDue = false;
    viewer.perceivedArena = arenaIndex;
    const vx = viewer.tile % w;
    const vy = (viewer.tile - vx) / w;
    // Its own action, outside the attention bandwidth (which is for the surroundings).
    const self = viewer.spec.name;
    const own: Observation = {
      description: sentenceOf(viewer),
      subject: self,
      predicate: 'is',
      object: viewer.current.description,
      arena: arena.address,
      actorId: viewer.spec.id,
    };
    if (!holds(viewer, own.description, step.now)) take(viewer, own, step.now);
    // The surroundings within sight, nearest first (ties in the order found: occupants, objects in use, then world
    // events). Only distances and who are gathered; an observation's text is made when it is reached in that order,
    // so a looker in a crowded arena does not build (and throw away) a sentence for everyone near it.
    const found = gathered;
    found.length = 0;
    for (let i = 0; i < occupants.length; i++) {
      const other = occupants[i];
      if (other === viewer) continue;
      const ox = other.tile % w;
      const oy = (other.tile - ox) / w;
      const d = Math.hypot(ox - vx, oy - vy);
      if (d > C.VISION_RADIUS_TILES) continue;
      found.push(d, i);
      if (!other.movement && isObjectIn(other.current.address, arena.address)) found.push(d + 0.5, ~i);
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

/** Pairs (distance, which) gathered for one looker at a time, reused: perception runs once per step, never re-entered. */
const gathered: number[] = [];
const sortOrder: number[] = [];

/** The offsets of `pairs`' pairs by distance, ties in the order gathered (as a stable sort of the pairs would give). */
function sortedPairs(pairs: number[]): number[] {
  sortOrder.length = 0;
  for (let k = 0; k < pairs.length; k += 2) sortOrder.push(k);
  return sortOrder.sort((p, q) => pairs[p] - pairs[q] || p - q);
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

/** Holds an observation until cognition takes it; the oldest waiting one is dropped (and no longer held, so it can be seen again) past the limit. */
function take(agent: AgentSimState, obs: Observation, now: number): void {
  agent.held.push([obs.description, now]);
  if (agent.held.length > C.HELD_EVENTS_LIMIT) agent.held.shift();
  agent.pendingObservations.push(obs);
  if (agent.pendingObservations.length > C.PENDING_OBSERVATIONS_LIMIT) {
    const dropped = agent.pendingObservations.shift()!;
    agent.held = agent.held.filter(([k]) => k !== dropped.description);
  }
}

function holds(agent: AgentSimState, description: string, now: number): boolean {
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
