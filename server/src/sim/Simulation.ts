// The town's rules, as one synchronous, deterministic step: time comes in as an argument, randomness
// from a seeded Rng, and anything that needs thinking leaves as an OperationRequest whose result comes
// back, later, as an Input. No I/O, no clocks, no awaits.
import type { AgentId, ArenaNode, TownMap } from '../world/types';
import { GridPathfinder } from '../world/pathfinding';
import { DistanceFields } from '../world/distanceFields';
import { positionOnPath, arrivalGameMs, compressPath, pathLength } from '../protocol/movement';
import type { EventInput } from '../store/types';
import { Rng } from './rng';
import { dayIndex, minuteOfDay, GAME_MS_PER_MINUTE } from '../protocol/time';
import { MINUTES_PER_DAY, minuteOfWakingDay, wakingDayAt } from '../world/clockText';
import * as C from './constants';
import type {
  AgentSimState,
  ConversationState,
  DayPlan,
  Input,
  Observation,
  OperationRequest,
  PlannedAction,
  ResidentSpec,
  SimState,
  StepResult,
  WorldEventState,
} from './types';

const SLEEPING = { description: 'sleeping', emoji: '😴' } as const;
const WAITING = { description: 'getting ready for the day', emoji: '🌅' } as const;
const SPOTS_PER_ARENA = 8;

export interface SimulationOptions {
  seed: number;
  startGameMs: number;
}

/** A read-only view of an agent, for rooms, the inspector and tests. */
export type AgentView = Readonly<AgentSimState>;

export class Simulation {
  readonly pathfinder: GridPathfinder;
  private readonly fields: DistanceFields;
  private state: SimState;
  private rng: Rng;
  private readonly byId = new Map<string, AgentSimState>();
  private readonly conversations = new Map<number, ConversationState>();
  private readonly arenaTiles = new Map<number, number[]>();
  // What the current step has produced so far; agents added by the constructor report in the first step.
  private out: StepResult = emptyResult();

  constructor(
    readonly map: TownMap,
    residents: readonly ResidentSpec[],
    options: SimulationOptions,
  ) {
    this.pathfinder = new GridPathfinder(map.widthTiles, map.heightTiles, map.collision);
    this.fields = new DistanceFields(map.widthTiles, map.heightTiles, map.collision);
    this.rng = new Rng(options.seed);
    this.state = {
      version: 1,
      seed: options.seed,
      gameMs: options.startGameMs,
      rngState: this.rng.getState(),
      nextConversationId: 1,
      agents: [],
      conversations: [],
      worldEvents: [],
    };
    for (const r of residents) this.insertAgent(r, options.startGameMs);
  }

  /** Rebuilds a simulation from `getState()`. Operations that were in flight are forgotten: their agents are free. */
  static restore(map: TownMap, saved: SimState): Simulation {
    if (saved.version !== 1) throw new Error(`unsupported sim state version ${String(saved.version)}`);
    const sim = new Simulation(map, [], { seed: 0, startGameMs: saved.gameMs });
    sim.state = structuredClone(saved);
    sim.rng = new Rng(saved.rngState);
    for (const a of sim.state.agents) {
      a.busy = false;
      a.conversationId = null;
      a.speech = '';
      if (a.plan === null || a.plan.day !== a.planRequestedDay) a.planRequestedDay = null;
      sim.byId.set(a.spec.id, a);
    }
    // Conversations cut by the restart simply end; their partners go back to their plans.
    sim.state.conversations = [];
    for (const a of sim.state.agents) if (!a.asleep) a.actionIndex = -2;
    return sim;
  }

  getState(): SimState {
    this.state.rngState = this.rng.getState();
    this.state.conversations = [...this.conversations.values()];
    return structuredClone(this.state);
  }

  get gameMs(): number {
    return this.state.gameMs;
  }

  agents(): readonly AgentView[] {
    return this.state.agents;
  }

  agent(id: string): AgentView | undefined {
    return this.byId.get(id);
  }

  conversation(id: number): Readonly<ConversationState> | undefined {
    return this.conversations.get(id);
  }

  /** Advances the world to `gameMs`, first applying the inputs that arrived since the last step. */
  step(gameMs: number, inputs: readonly Input[] = []): StepResult {
    const now = Math.max(gameMs, this.state.gameMs);
    this.state.gameMs = now;
    for (const input of inputs) this.applyInput(input, now);
    this.state.worldEvents = this.state.worldEvents.filter((e) => e.untilGameMs > now);

    for (const agent of this.state.agents) this.updateAgent(agent, now);
    this.advanceConversations(now);
    this.perceive(now);
    for (const agent of this.state.agents) {
      if (!agent.busy && agent.pendingObservations.length > 0 && agent.conversationId === null) {
        agent.busy = true;
        this.out.changed.add(agent.spec.id);
        this.out.requests.push({ kind: 'observe', agentId: agent.spec.id, gameMs: now, observations: agent.pendingObservations });
        agent.pendingObservations = [];
      }
    }
    const result = this.out;
    this.out = emptyResult();
    return result;
  }

  // ---- inputs ---------------------------------------------------------------------------------

  private applyInput(input: Input, now: number): void {
    switch (input.kind) {
      case 'plan': {
        const a = this.byId.get(input.agentId);
        if (!a) return;
        a.plan = input.plan;
        a.actionIndex = -2; // re-evaluate
        this.emit(now, 'plan.made', a.spec.id, { day: input.plan.day, broadStrokes: input.plan.broadStrokes, hourBlocks: input.plan.hourBlocks, actions: input.plan.actions });
        return;
      }
      case 'replan': {
        const a = this.byId.get(input.agentId);
        if (!a || !a.plan) return;
        a.plan = { ...a.plan, actions: splicePlan(a.plan.actions, input.fromMinute, input.actions) };
        a.actionIndex = -2;
        this.emit(now, 'plan.made', a.spec.id, { day: a.plan.day, reason: input.reason, fromMinute: input.fromMinute, actions: input.actions });
        return;
      }
      case 'done': {
        const a = this.byId.get(input.agentId);
        if (a && a.conversationId === null) {
          a.busy = false;
          // A plan operation that ended without a plan (it failed) is asked for again.
          if (a.planRequestedDay !== null && a.plan?.day !== a.planRequestedDay) a.planRequestedDay = null;
          this.out.changed.add(a.spec.id);
        }
        return;
      }
      case 'utterance': {
        const c = this.conversations.get(input.conversationId);
        if (c && !c.ended) c.queued.push({ speaker: input.speaker, text: input.text });
        return;
      }
      case 'conversationEnd': {
        const c = this.conversations.get(input.conversationId);
        if (c) c.ended = true;
        return;
      }
      case 'worldEvent': {
        this.state.worldEvents.push({ description: input.description, arena: input.arena, untilGameMs: now + input.durationGameMs });
        this.emit(now, 'world.event', null, { description: input.description, arena: input.arena });
        // Everyone present perceives it on this step, even if nothing else in the arena changed.
        for (const a of this.state.agents) a.held = a.held.filter(([k]) => k !== input.description);
        this.forcePerception = true;
        return;
      }
      case 'addAgent': {
        if (this.byId.has(input.resident.id)) return;
        this.insertAgent(input.resident, now);
        this.out.added.push(input.resident.id);
        return;
      }
      case 'removeAgent': {
        const a = this.byId.get(input.agentId);
        if (!a) return;
        if (a.conversationId !== null) this.endConversation(this.conversations.get(a.conversationId)!, now);
        this.state.agents = this.state.agents.filter((x) => x !== a);
        this.byId.delete(a.spec.id);
        this.out.removed.push(a.spec.id);
        this.emit(now, 'agent.removed', a.spec.id, {});
        return;
      }
      default: {
        const never: never = input;
        throw new Error(`unknown input ${JSON.stringify(never)}`);
      }
    }
  }

  private forcePerception = false;

  private insertAgent(spec: ResidentSpec, now: number): void {
    const agent: AgentSimState = {
      spec,
      tile: spec.spawnTile,
      movement: null,
      plan: null,
      planRequestedDay: null,
      current: { description: SLEEPING.description, emoji: SLEEPING.emoji, address: spec.bedAddress, startGameMs: now },
      actionIndex: -1,
      asleep: false,
      busy: false,
      conversationId: null,
      speech: '',
      arenaIndex: this.map.arenaIndexByTile[spec.spawnTile] ?? -1,
      held: [],
      pendingObservations: [],
      lastConversationEndGameMs: -Infinity,
      pairCooldowns: [],
    };
    this.state.agents.push(agent);
    this.byId.set(spec.id, agent);
    this.emit(now, 'agent.added', spec.id, { name: spec.name, tile: agent.tile, look: spec.look });
  }

  // ---- schedules and movement -----------------------------------------------------------------

  private updateAgent(agent: AgentSimState, now: number): void {
    const spec = agent.spec;
    // After midnight and before a bedtime past midnight, it is still yesterday's plan, at minute 1440+.
    const { day, minute } = wakingDayAt(dayIndex(now), minuteOfDay(now), spec.wakeMinute, spec.sleepMinute);
    const awake = isAwake(minute % MINUTES_PER_DAY, spec.wakeMinute, spec.sleepMinute);

    // Ask for today's plan a little before waking (or at once, for a world that starts mid-morning).
    const planDay = minute >= spec.wakeMinute - C.PLAN_LEAD_MINUTES && minute < minuteOfWakingDay(spec.sleepMinute, spec.wakeMinute) ? day : null;
    if (planDay !== null && (agent.plan?.day ?? -1) < planDay && agent.planRequestedDay !== planDay && !agent.busy) {
      agent.planRequestedDay = planDay;
      agent.busy = true;
      this.out.changed.add(spec.id);
      this.out.requests.push({ kind: 'plan', agentId: spec.id, day: planDay, gameMs: now });
    }

    if (agent.movement) {
      const m = agent.movement;
      const pos = positionOnPath(m.path, this.map.widthTiles, m.startGameMs, m.tilesPerGameMinute, now);
      agent.tile = pos.tileY * this.map.widthTiles + pos.tileX;
      if (!pos.moving) agent.movement = null;
      const arena = this.map.arenaIndexByTile[agent.tile];
      if (arena !== agent.arenaIndex) {
        agent.arenaIndex = arena;
        this.dirtyArenas.add(arena);
      }
    }

    if (agent.conversationId !== null) return;

    if (!awake) {
      if (!agent.asleep) {
        agent.asleep = true;
        agent.actionIndex = -1;
        this.setAction(agent, now, SLEEPING.description, SLEEPING.emoji, spec.bedAddress);
      }
      return;
    }
    if (agent.asleep) {
      agent.asleep = false;
      agent.actionIndex = -2;
      this.out.changed.add(spec.id);
    }

    const plan = agent.plan && agent.plan.day === day ? agent.plan : null;
    const index = plan ? findActionIndex(plan.actions, minute) : -1;
    if (index === agent.actionIndex) return;
    agent.actionIndex = index;
    if (plan && index >= 0) {
      const action = plan.actions[index];
      this.setAction(agent, now, action.description, action.emoji, action.address);
    } else if (agent.current.description !== WAITING.description) {
      this.setAction(agent, now, WAITING.description, WAITING.emoji, agent.current.address);
    }
  }

  private setAction(agent: AgentSimState, now: number, description: string, emoji: string, address: string): void {
    agent.current = { description, emoji, address, startGameMs: now };
    this.out.changed.add(agent.spec.id);
    if (agent.arenaIndex >= 0) this.dirtyArenas.add(agent.arenaIndex);
    this.emit(now, 'agent.action', agent.spec.id, { description, emoji, address });
    const target = this.resolveTile(address, agent);
    if (target === null) {
      this.emit(now, 'agent.action', agent.spec.id, { warning: `no place '${address}' in the map; staying put`, address });
      return;
    }
    this.walkTo(agent, now, target);
  }

  private walkTo(agent: AgentSimState, now: number, target: number): void {
    if (target === agent.tile) {
      if (agent.movement) {
        agent.movement = null;
        this.emitMove(agent, now);
      }
      return;
    }
    const path = this.findPath(agent.tile, target);
    if (!path) {
      this.emit(now, 'agent.move', agent.spec.id, { warning: 'no path', from: agent.tile, to: target });
      return;
    }
    // A walk is kept, logged and sent as its waypoints: the start, each turn, the end.
    agent.movement = { path: compressPath(path, this.map.widthTiles), startGameMs: now, tilesPerGameMinute: C.WALK_TILES_PER_GAME_MINUTE };
    this.emitMove(agent, now);
  }

  private emitMove(agent: AgentSimState, now: number): void {
    this.out.changed.add(agent.spec.id);
    const m = agent.movement;
    this.emit(now, 'agent.move', agent.spec.id, m
      ? { path: m.path, startGameMs: m.startGameMs, tilesPerGameMinute: m.tilesPerGameMinute, arriveGameMs: arrivalGameMs(m.startGameMs, pathLength(m.path, this.map.widthTiles), m.tilesPerGameMinute) }
      : { path: [agent.tile], startGameMs: now, tilesPerGameMinute: 0 });
  }

  /** Destinations are few (stand tiles and arena spots), so their distance fields are kept. */
  private findPath(from: number, to: number): number[] | null {
    return this.fields.findPath(from, to);
  }

  /** The tile to walk to for an address: an object's stand tile, or a free-ish tile of an arena. */
  private resolveTile(address: string, agent: AgentSimState): number | null {
    const w = this.map.widthTiles;
    const object = this.map.objectsByAddress.get(address);
    if (object) return object.standTile.y * w + object.standTile.x;
    const arena = this.map.arenasByAddress.get(address);
    if (!arena) return null;
    const tiles = this.spotsOf(arena);
    if (tiles.length === 0) return arena.centreTile.y * w + arena.centreTile.x;
    // Spread agents who go to the same arena, deterministically per agent and hour.
    const rng = Rng.fromKey(this.state.seed, agent.spec.id, address, Math.floor(this.state.gameMs / 3_600_000));
    return tiles[rng.int(0, tiles.length - 1)];
  }

  /** Up to SPOTS_PER_ARENA walkable tiles spread over the arena: where agents stand when no object is named. */
  private spotsOf(arena: ArenaNode): number[] {
    const all = this.walkableTilesOf(arena);
    if (all.length <= SPOTS_PER_ARENA) return all;
    const step = all.length / SPOTS_PER_ARENA;
    return Array.from({ length: SPOTS_PER_ARENA }, (_, i) => all[Math.floor(i * step + step / 2)]);
  }

  private walkableTilesOf(arena: ArenaNode): number[] {
    const index = this.map.arenas.indexOf(arena);
    let tiles = this.arenaTiles.get(index);
    if (!tiles) {
      tiles = [];
      const w = this.map.widthTiles;
      for (const r of arena.rects)
        for (let y = r.y; y < r.y + r.h; y++)
          for (let x = r.x; x < r.x + r.w; x++) {
            const t = y * w + x;
            if (this.map.collision[t] === 0 && this.map.arenaIndexByTile[t] === index) tiles.push(t);
          }
      this.arenaTiles.set(index, tiles);
    }
    return tiles;
  }

  // ---- perception and encounters --------------------------------------------------------------

  private dirtyArenas = new Set<number>();
  private lastArenaOf = new Map<string, number>();

  private perceive(now: number): void {
    const byArena = new Map<number, AgentSimState[]>();
    for (const a of this.state.agents) {
      if (a.arenaIndex < 0) continue;
      let list = byArena.get(a.arenaIndex);
      if (!list) byArena.set(a.arenaIndex, (list = []));
      list.push(a);
    }
    const force = this.forcePerception;
    this.forcePerception = false;
    const w = this.map.widthTiles;
    for (const [arenaIndex, occupants] of byArena) {
      const arena = this.map.arenas[arenaIndex];
      const arenaDirty = force || this.dirtyArenas.has(arenaIndex);
      for (const viewer of occupants) {
        if (viewer.asleep || viewer.conversationId !== null) continue;
        const moved = this.lastArenaOf.get(viewer.spec.id) !== arenaIndex;
        if (!arenaDirty && !moved) continue;
        this.lastArenaOf.set(viewer.spec.id, arenaIndex);
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
          if (objectName && !other.movement)
            candidates.push({ d: d + 0.5, obs: { description: `the ${objectName} is in use: ${name} is ${other.current.description}`, subject: objectName, predicate: 'is in use by', object: name, arena: arena.address } });
          if (d <= C.CONVERSE_RADIUS_TILES) this.maybeStartConversation(viewer, other, arena.address, now);
        }
        for (const e of this.state.worldEvents)
          if (e.arena === null || e.arena === arena.address || arena.address.startsWith(`${e.arena}:`))
            candidates.push({ d: -1, obs: { description: e.description, subject: 'the town', predicate: 'event', object: e.description, arena: arena.address } });
        candidates.sort((p, q) => p.d - q.d);
        let taken = 0;
        for (const { obs } of candidates) {
          if (taken >= C.ATTENTION_BANDWIDTH) break;
          if (viewer.conversationId !== null) break;
          if (this.holds(viewer, obs.description, now)) continue;
          viewer.held.push([obs.description, now]);
          if (viewer.held.length > C.HELD_EVENTS_LIMIT) viewer.held.shift();
          viewer.pendingObservations.push(obs);
          if (viewer.pendingObservations.length > C.PENDING_OBSERVATIONS_LIMIT) viewer.pendingObservations.shift();
          taken++;
        }
      }
    }
    this.dirtyArenas.clear();
  }

  private holds(agent: AgentSimState, description: string, now: number): boolean {
    for (let i = agent.held.length - 1; i >= 0; i--) {
      const [k, at] = agent.held[i];
      if (k === description) return now - at < C.REPERCEIVE_AFTER_GAME_MS;
    }
    return false;
  }

  private maybeStartConversation(a: AgentSimState, b: AgentSimState, arena: string, now: number): void {
    if (a.busy || b.busy || a.asleep || b.asleep || a.conversationId !== null || b.conversationId !== null) return;
    if (now - a.lastConversationEndGameMs < C.AGENT_CONVERSATION_COOLDOWN_GAME_MS) return;
    if (now - b.lastConversationEndGameMs < C.AGENT_CONVERSATION_COOLDOWN_GAME_MS) return;
    const pairEnd = a.pairCooldowns.find(([id]) => id === b.spec.id)?.[1] ?? -Infinity;
    if (now - pairEnd < C.PAIR_CONVERSATION_COOLDOWN_GAME_MS) return;
    if (!this.rng.chance(C.CONVERSE_CHANCE)) {
      // One roll per encounter: without this the pair would re-roll every step until it succeeds.
      setCooldown(a, b.spec.id, now - C.PAIR_CONVERSATION_COOLDOWN_GAME_MS + 30 * GAME_MS_PER_MINUTE);
      setCooldown(b, a.spec.id, now - C.PAIR_CONVERSATION_COOLDOWN_GAME_MS + 30 * GAME_MS_PER_MINUTE);
      return;
    }
    const id = this.state.nextConversationId++;
    const c: ConversationState = { id, a: a.spec.id, b: b.spec.id, arena, startedGameMs: now, queued: [], lines: 0, nextLineGameMs: now, ended: false };
    this.conversations.set(id, c);
    for (const [self, other] of [[a, b], [b, a]] as const) {
      self.busy = true;
      self.conversationId = id;
      self.pendingObservations = [];
      if (self.movement) {
        self.movement = null;
        this.emitMove(self, now);
      }
      self.current = { description: `talking with ${other.spec.name}`, emoji: '💬', address: self.current.address, startGameMs: now };
      this.out.changed.add(self.spec.id);
      this.emit(now, 'agent.action', self.spec.id, { description: self.current.description, emoji: '💬', address: self.current.address });
    }
    this.emit(now, 'conversation.start', a.spec.id, { conversationId: id, a: a.spec.id, b: b.spec.id, arena });
    this.out.requests.push({ kind: 'converse', conversationId: id, initiator: a.spec.id, partner: b.spec.id, gameMs: now, arena });
  }

  private advanceConversations(now: number): void {
    for (const c of this.conversations.values()) {
      if (now >= c.nextLineGameMs && c.queued.length > 0) {
        const line = c.queued.shift()!;
        c.lines++;
        c.nextLineGameMs = now + C.LINE_GAME_MS;
        const listener = line.speaker === c.a ? c.b : c.a;
        for (const id of [c.a, c.b]) {
          const agent = this.byId.get(id);
          if (!agent) continue;
          agent.speech = id === line.speaker ? line.text : '';
          this.out.changed.add(id);
        }
        this.emit(now, 'conversation.utterance', line.speaker, { conversationId: c.id, speaker: line.speaker, listener, text: line.text });
      } else if ((c.ended && c.queued.length === 0 && now >= c.nextLineGameMs) || now - c.startedGameMs > C.CONVERSATION_TIMEOUT_GAME_MS) {
        this.endConversation(c, now);
      }
    }
  }

  private endConversation(c: ConversationState, now: number): void {
    this.conversations.delete(c.id);
    for (const [id, other] of [[c.a, c.b], [c.b, c.a]] as const) {
      const agent = this.byId.get(id);
      if (!agent) continue;
      agent.conversationId = null;
      agent.busy = false;
      agent.speech = '';
      agent.lastConversationEndGameMs = now;
      agent.actionIndex = -2; // back to the plan
      setCooldown(agent, other, now);
      this.out.changed.add(id);
    }
    this.emit(now, 'conversation.end', c.a, { conversationId: c.id, a: c.a, b: c.b, lines: c.lines });
  }

  private emit(gameMs: number, kind: EventInput['kind'], agentId: AgentId | null, data: unknown): void {
    this.out.events.push({ gameMs, kind, agentId, data });
  }
}

function emptyResult(): StepResult {
  return { events: [], requests: [], changed: new Set(), added: [], removed: [] };
}

function setCooldown(agent: AgentSimState, otherId: string, at: number): void {
  const entry = agent.pairCooldowns.find(([id]) => id === otherId);
  if (entry) entry[1] = at;
  else agent.pairCooldowns.push([otherId, at]);
}

export function isAwake(minute: number, wakeMinute: number, sleepMinute: number): boolean {
  return wakeMinute < sleepMinute ? minute >= wakeMinute && minute < sleepMinute : minute >= wakeMinute || minute < sleepMinute;
}

/** Index of the action in force at `minute`, or -1. Actions are sorted and do not overlap. */
export function findActionIndex(actions: readonly PlannedAction[], minute: number): number {
  for (let i = actions.length - 1; i >= 0; i--) {
    const a = actions[i];
    if (a.startMinute <= minute) return minute < a.startMinute + a.durationMinutes ? i : -1;
  }
  return -1;
}

/** Keeps the actions before `fromMinute` (cutting the one that spans it) and appends the new ones. */
export function splicePlan(actions: readonly PlannedAction[], fromMinute: number, replacement: readonly PlannedAction[]): PlannedAction[] {
  const kept: PlannedAction[] = [];
  for (const a of actions) {
    if (a.startMinute >= fromMinute) break;
    const end = Math.min(a.startMinute + a.durationMinutes, fromMinute);
    kept.push({ ...a, durationMinutes: end - a.startMinute });
  }
  return [...kept, ...replacement.filter((a) => a.startMinute >= fromMinute)];
}

/** "counter" for "Hobbs Cafe: cafe: counter" inside arena "Hobbs Cafe: cafe"; null for the arena itself. */
function objectNameOf(address: string, arenaAddress: string): string | null {
  return address.startsWith(`${arenaAddress}: `) ? address.slice(arenaAddress.length + 2) : null;
}

export type { DayPlan, WorldEventState };
