// Perception, as in the paper: an agent sees the actions of others within its vision radius in its own
// arena, objects in use and world events, nearest first, at most ATTENTION_BANDWIDTH new ones a step,
// skipping what it already holds. An agent looks at once when it arrives in an arena, and everyone looks
// at a world event; otherwise only agents in arenas where something changed look again, on their own
// perception turn (PERCEPTION_TURN_GAME_MS, stagger.ts), so the occupants of a busy arena take turns.
// Agents close enough may start a conversation.
import type { AgentSimState } from './types';
import * as C from './constants';
import type { Observation } from './types';
import type { Step } from './state';
import { maybeStartConversation } from './conversations';
import { perceptionTurn } from './stagger';

export function perceive(step: Step): void {
  const { map } = step.world;
  const byArena = new Map<number, AgentSimState[]>();
  for (const a of step.state.agents) {
    if (a.arenaIndex < 0) continue;
    let list = byArena.get(a.arenaIndex);
    if (!list) byArena.set(a.arenaIndex, (list = []));
    list.push(a);
  }
  const w = map.widthTiles;
  for (const [arenaIndex, occupants] of byArena) {
    const arena = map.arenas[arenaIndex];
    const arenaDirty = step.forcePerception || step.dirtyArenas.has(arenaIndex);
    for (const viewer of occupants) {
      if (viewer.asleep || viewer.conversationId !== null) continue;
      // Arriving and world events are reasons to look at once.
      const moved = viewer.perceivedArena !== arenaIndex;
      if (arenaDirty) viewer.lookDue = true;
      if (!moved && !step.forcePerception && !(viewer.lookDue && perceptionTurn(step, viewer.spec.id))) continue;
      viewer.lookDue = false;
      viewer.perceivedArena = arenaIndex;
      const vx = viewer.tile % w;
      const vy = (viewer.tile - vx) / w;
      const candidates: Array<{ d: number; obs: Observation }> = [];
      for (const other of occupants) {
        if (other === viewer) continue;
        const ox = other.tile % w;
        const oy = (other.tile - ox) / w;
        const d = Math.hypot(ox - vx, oy - vy);
        if (d > C.VISION_RADIUS_TILES) continue;
        const name = other.spec.name;
        candidates.push({ d, obs: { description: `${name} is ${other.current.description}`, subject: name, predicate: 'is', object: other.current.description, arena: arena.address } });
        const objectName = objectNameOf(other.current.address, arena.address);
        if (objectName && !other.movement) {
          const description = `the ${objectName} is in use: ${name} is ${other.current.description}`;
          candidates.push({ d: d + 0.5, obs: { description, subject: objectName, predicate: 'is in use by', object: name, arena: arena.address } });
        }
        if (d <= C.CONVERSE_RADIUS_TILES) maybeStartConversation(step, viewer, other, arena.address);
      }
      for (const e of step.state.worldEvents)
        if (e.arena === null || e.arena === arena.address || arena.address.startsWith(`${e.arena}:`))
          candidates.push({ d: -1, obs: { description: e.description, subject: 'the town', predicate: 'event', object: e.description, arena: arena.address } });
      candidates.sort((p, q) => p.d - q.d);
      let taken = 0;
      for (const { obs } of candidates) {
        if (taken >= C.ATTENTION_BANDWIDTH) break;
        if (viewer.conversationId !== null) break;
        if (holds(viewer, obs.description, step.now)) continue;
        viewer.held.push([obs.description, step.now]);
        if (viewer.held.length > C.HELD_EVENTS_LIMIT) viewer.held.shift();
        viewer.pendingObservations.push(obs);
        if (viewer.pendingObservations.length > C.PENDING_OBSERVATIONS_LIMIT) viewer.pendingObservations.shift();
        taken++;
      }
    }
  }
}

/** Hands each free agent's new observations to cognition, one operation at a time. */
export function requestObservations(step: Step): void {
  for (const agent of step.state.agents) {
    if (agent.busy || agent.pendingObservations.length === 0 || agent.conversationId !== null) continue;
    agent.busy = true;
    step.out.changed.add(agent.spec.id);
    step.out.requests.push({ kind: 'observe', agentId: agent.spec.id, gameMs: step.now, observations: agent.pendingObservations });
    agent.pendingObservations = [];
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
