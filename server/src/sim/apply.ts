// The one reducer of the sim's observable state. The live sim changes what a viewer sees only by
// emitting an event through `applyEvent`; replay and resume fold the logged events through the same
// function, so the state they rebuild is the state the live town had.
import type { TownMap } from '../world/types';
import type { EventInput, EventKind, EventOf } from '../protocol/events';
import { keepPlan, spliceKept } from '../protocol/plan';
import * as C from './constants';
import type { SimIndex } from './state';
import { NEVER_GAME_MS, type AgentSimState, type SimState } from './types';

/** What a handler changes: the state, its index, and the map (for the arena a tile lies in). */
interface Fold {
  state: SimState;
  index: SimIndex;
  map: TownMap;
}

/** A handler per event kind; null where the kind changes nothing the sim holds (it lives in the log and the store). */
type Handlers = { [K in EventKind]: ((f: Fold, e: EventOf<K>) => void) | null };

export function applyEvent(state: SimState, index: SimIndex, map: TownMap, e: EventInput): void {
  if (!Object.hasOwn(HANDLERS, e.kind)) throw new Error(`unknown event ${JSON.stringify(e)}`);
  const handle = HANDLERS[e.kind] as ((f: Fold, e: EventInput) => void) | null;
  handle?.({ state, index, map }, e);
}

function agentOf(f: Fold, e: EventInput): AgentSimState | undefined {
  return e.agentId ? f.index.agents.get(e.agentId) : undefined;
}

function addAgent(f: Fold, e: EventOf<'agent.added'>): void {
  const { spec, tile, current } = e.data;
  if (f.index.agents.has(spec.id)) return;
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
    arenaIndex: f.map.arenaIndexByTile[tile] ?? -1,
    perceivedArena: -1,
    lookDue: false,
    held: [],
    pendingObservations: [],
    lastConversationEndGameMs: NEVER_GAME_MS,
    pairCooldowns: [],
  };
  f.state.agents.push(agent);
  f.index.agents.set(spec.id, agent);
}

function removeAgent(f: Fold, e: EventOf<'agent.removed'>): void {
  const agent = agentOf(f, e);
  if (!agent) return;
  f.state.agents = f.state.agents.filter((a) => a !== agent);
  f.index.agents.delete(agent.spec.id);
}

function updateAgent(f: Fold, e: EventOf<'agent.updated'>): void {
  const agent = agentOf(f, e);
  if (!agent) return;
  if (e.data.at === 'now') {
    agent.spec = e.data.spec;
    delete agent.nextSpec;
  } else agent.nextSpec = e.data.spec;
}

function startAction(f: Fold, e: EventOf<'agent.action'>): void {
  const agent = agentOf(f, e);
  if (!agent) return;
  agent.current = { description: e.data.description, emoji: e.data.emoji, address: e.data.address, startGameMs: e.gameMs };
  agent.asleep = e.data.asleep;
}

function moveAgent(f: Fold, e: EventOf<'agent.move'>): void {
  const agent = agentOf(f, e);
  if (!agent || e.data.path.length === 0) return;
  const { path, startGameMs, tilesPerGameMinute } = e.data;
  if (tilesPerGameMinute > 0 && path.length > 1) {
    agent.movement = { path: [...path], startGameMs, tilesPerGameMinute };
  } else {
    agent.movement = null;
    agent.tile = path[0];
    agent.arenaIndex = f.map.arenaIndexByTile[agent.tile] ?? -1;
  }
}

function startConversation({ state, index }: Fold, e: EventOf<'conversation.start'>): void {
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
}

function speak({ index }: Fold, e: EventOf<'conversation.utterance'>): void {
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
}

function endConversation({ state, index }: Fold, e: EventOf<'conversation.end'>): void {
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
}

function makePlan(f: Fold, e: EventOf<'plan.made'>): void {
  const agent = agentOf(f, e);
  if (!agent) return;
  const d = e.data;
  if ('fromMinute' in d) {
    if (!agent.plan) return;
    agent.plan = spliceKept(agent.plan, d.fromMinute, d.actions);
  } else {
    agent.plan = keepPlan(d);
  }
  agent.actionIndex = -2; // re-evaluate
}

function addWorldEvent({ state }: Fold, e: EventOf<'world.event'>): void {
  state.worldEvents.push({ description: e.data.description, arena: e.data.arena, untilGameMs: e.gameMs + e.data.durationGameMs });
}

const HANDLERS: Handlers = {
  'agent.added': addAgent,
  'agent.removed': removeAgent,
  'agent.updated': updateAgent,
  'agent.action': startAction,
  'agent.move': moveAgent,
  'conversation.start': startConversation,
  'conversation.utterance': speak,
  'conversation.end': endConversation,
  'plan.made': makePlan,
  'world.event': addWorldEvent,
  'agent.warning': null,
  // The world file was rewritten with the new id when it was logged: nothing left to fold.
  'agent.renamed': null,
  'persona.set': null,
  'memory.created': null,
  'reflection.made': null,
  'relationship.revised': null,
  'status.revised': null,
  'agent.decided': null,
  'conversation.summarised': null,
  'operator.action': null,
  'run.started': null,
  'run.resumed': null,
  'llm.fallback': null,
  'llm.mend': null,
  'budget.paused': null,
  'llm.endpoint': null,
  'scenario.started': null,
};

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
