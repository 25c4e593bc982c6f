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
      description: `${self} is ${viewer.current.description}`,
      subject: self,
      predicate: 'is',
      object: viewer.current.description,
      arena: arena.address,
      actorId: viewer.spec.id,
    };
    if (!holds(viewer, own.description, step.now)) take(viewer, own, step.now);
    const candidates: Array<{ d: number; obs: Observation }> = [];
    for (const other of occupants) {
      if (other === viewer) continue;
      const ox = other.tile % w;
      const oy = (other.tile - ox) / w;
      const d = Math.hypot(ox - vx, oy - vy);
      if (d > C.VISION_RADIUS_TILES) continue;
      const name = other.spec.name;
      candidates.push({
        d,
        obs: {
          description: `${name} is ${other.current.description}`,
          subject: name,
          predicate: 'is',
          object: other.current.description,
          arena: arena.address,
          actorId: other.spec.id,
        },
      });
      const objectName = objectNameOf(other.current.address, arena.address);
      if (objectName && !other.movement) {
        const description = `the ${objectName} is in use: ${name} is ${other.current.description}`;
        candidates.push({ d: d + 0.5, obs: { description, subject: objectName, predicate: 'is in use by', object: name, arena: arena.address } });
      }
    }
    for (const e of step.state.worldEvents)
      if (e.arena === null || e.arena === arena.address || arena.address.startsWith(`${e.arena}:`))
        candidates.push({
          d: -1,
          obs: { description: e.description, subject: 'the town', predicate: 'event', object: e.description, arena: arena.address, place: e.arena },
        });
    candidates.sort((p, q) => p.d - q.d);
    let taken = 0;
    for (const { obs } of candidates) {
      if (taken >= C.ATTENTION_BANDWIDTH) break;
      if (viewer.conversationId !== null) break;
      if (holds(viewer, obs.description, step.now)) continue;
      take(viewer, obs, step.now);
      taken++;
    }
  }
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

/** "counter" for "Hobbs Cafe: cafe: counter" inside arena "Hobbs Cafe: cafe"; null for the arena itself. */
function objectNameOf(address: string, arenaAddress: string): string | null {
  return address.startsWith(`${arenaAddress}: `) ? address.slice(arenaAddress.length + 2) : null;
}
