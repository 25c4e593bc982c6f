// The one reducer of the sim's observable state. The live sim changes what a viewer sees only by
// emitting an event through `applyEvent`; replay and resume fold the logged events through the same
// function, so the state they rebuild is the state the live town had.
import type { TownMap } from '../world/types';
import type { EventInput } from '../protocol/events';
import { keepPlan, spliceKept } from '../protocol/plan';
import * as C from './constants';
import type { SimIndex } from './state';
import { NEVER_GAME_MS, type AgentSimState, type SimState } from './types';

export function applyEvent(state: SimState, index: SimIndex, map: TownMap, e: EventInput): void {
  switch (e.kind) {
    case 'agent.added': {
      const { spec, tile, current } = e.data;
      if (index.agents.has(spec.id)) return;
      const agent: AgentSimState = {
        spec,
        tile,
        movement: null,
        plan: null,
        planRequestedDay: null,
        current: { ...current },
        actionIndex: -1,
        asleep: false,
        busy: false,
        conversationId: null,
        speech: '',
        arenaIndex: map.arenaIndexByTile[tile] ?? -1,
        perceivedArena: -1,
        lookDue: false,
        held: [],
        pendingObservations: [],
        lastConversationEndGameMs: NEVER_GAME_MS,
        pairCooldowns: [],
      };
      state.agents.push(agent);
      index.agents.set(spec.id, agent);
      return;
    }
    case 'agent.removed': {
      const agent = e.agentId ? index.agents.get(e.agentId) : undefined;
      if (!agent) return;
      state.agents = state.agents.filter((a) => a !== agent);
      index.agents.delete(agent.spec.id);
      return;
    }
    case 'agent.updated': {
      const agent = e.agentId ? index.agents.get(e.agentId) : undefined;
      if (!agent) return;
      if (e.data.at === 'now') {
        agent.spec = e.data.spec;
        delete agent.nextSpec;
      } else agent.nextSpec = e.data.spec;
      return;
    }
    case 'agent.action': {
      const agent = e.agentId ? index.agents.get(e.agentId) : undefined;
      if (!agent) return;
      agent.current = { description: e.data.description, emoji: e.data.emoji, address: e.data.address, startGameMs: e.gameMs };
      agent.asleep = e.data.asleep;
      return;
    }
    case 'agent.move': {
      const agent = e.agentId ? index.agents.get(e.agentId) : undefined;
      if (!agent || e.data.path.length === 0) return;
      const { path, startGameMs, tilesPerGameMinute } = e.data;
      if (tilesPerGameMinute > 0 && path.length > 1) {
        agent.movement = { path: [...path], startGameMs, tilesPerGameMinute };
      } else {
        agent.movement = null;
        agent.tile = path[0];
        agent.arenaIndex = map.arenaIndexByTile[agent.tile] ?? -1;
      }
      return;
    }
    case 'conversation.start': {
      const { conversationId: id, a, b, arena } = e.data;
      if (index.conversations.has(id)) return;
      const c = { id, a, b, arena, startedGameMs: e.gameMs, queued: [], lines: 0, nextLineGameMs: e.gameMs, ended: false };
      state.conversations.push(c);
      index.conversations.set(id, c);
      state.nextConversationId = Math.max(state.nextConversationId, id + 1);
      for (const agentId of [a, b]) {
        const agent = index.agents.get(agentId);
        if (!agent) continue;
        // What they perceived before and have not handed to cognition yet waits for the end of the talk.
        agent.busy = true;
        agent.conversationId = id;
      }
      return;
    }
    case 'conversation.utterance': {
      const { conversationId, speaker, listener, text } = e.data;
      const c = index.conversations.get(conversationId);
      if (c) {
        c.lines++;
        c.nextLineGameMs = e.gameMs + C.LINE_GAME_MS;
      }
      const s = index.agents.get(speaker);
      const l = index.agents.get(listener);
      if (s) s.speech = text;
      if (l) l.speech = '';
      return;
    }
    case 'conversation.end': {
      const { conversationId, a, b } = e.data;
      const c = index.conversations.get(conversationId);
      if (c) {
        state.conversations = state.conversations.filter((x) => x !== c);
        index.conversations.delete(conversationId);
      }
      for (const [id, other] of [
        [a, b],
        [b, a],
      ] as const) {
        const agent = index.agents.get(id);
        if (!agent) continue;
        agent.conversationId = null;
        agent.busy = false;
        agent.speech = '';
        agent.lastConversationEndGameMs = e.gameMs;
        agent.actionIndex = -2; // back to the plan
        setCooldown(agent, other, e.gameMs);
      }
      return;
    }
    case 'plan.made': {
      const agent = e.agentId ? index.agents.get(e.agentId) : undefined;
      if (!agent) return;
      const d = e.data;
      if ('fromMinute' in d) {
        if (!agent.plan) return;
        agent.plan = spliceKept(agent.plan, d.fromMinute, d.actions);
      } else {
        agent.plan = keepPlan(d);
      }
      agent.actionIndex = -2; // re-evaluate
      return;
    }
    case 'world.event':
      state.worldEvents.push({ description: e.data.description, arena: e.data.arena, untilGameMs: e.gameMs + e.data.durationGameMs });
      return;
    case 'agent.warning':
    // The world file was rewritten with the new id when it was logged: nothing left to fold.
    case 'agent.renamed':
    case 'persona.set':
    case 'memory.created':
    case 'reflection.made':
    case 'relationship.revised':
    case 'status.revised':
    case 'agent.decided':
    case 'conversation.summarised':
    case 'operator.action':
    case 'run.started':
    case 'run.resumed':
    case 'llm.fallback':
    case 'llm.mend':
    case 'budget.paused':
    case 'llm.endpoint':
    case 'scenario.started':
      return;
    default: {
      const never: never = e;
      throw new Error(`unknown event ${JSON.stringify(never)}`);
    }
  }
}

export function setCooldown(agent: AgentSimState, otherId: string, at: number): void {
  const entry = agent.pairCooldowns.find(([id]) => id === otherId);
  if (entry) entry[1] = at;
  else {
    // Entries past the cooldown decide nothing (conversations.ts): dropped, so the list is the few of the
    // last hours, not everyone the agent ever met (state and snapshots would grow all week).
    const expired = at - C.PAIR_CONVERSATION_COOLDOWN_GAME_MS;
    if (agent.pairCooldowns.some(([, t]) => t < expired)) agent.pairCooldowns = agent.pairCooldowns.filter(([, t]) => t >= expired);
    agent.pairCooldowns.push([otherId, at]);
  }
}
