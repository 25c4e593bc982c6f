// Copies the sim's view of agents and clock into the schema state. Shared by TownRoom and the network
// benchmark, so the bytes measured are the bytes sent.
import { ArraySchema, Encoder } from '@colyseus/schema';

// The first full state of a large town is above the encoder's default buffer (~150 KB for 1,000 agents, ~1.6 MB
// for 10,000): a buffer that fits it is allocated once per room instead of grown with a warning.
Encoder.BUFFER_SIZE = Math.max(Encoder.BUFFER_SIZE, 4 * 1024 * 1024);
import { AgentState, TownState } from '../protocol/state';
import { arrivalGameMs, pathLength } from '../protocol/movement';
import type { SimReadView } from '../sim/state';
import type { StepResult } from '../sim/types';
import type { Town } from '../town/Town';
import type { LoggedEvent } from '../protocol/events';
import { packNews, type NewsMessage } from '../protocol/news';
import { toldOf, type NameOf } from '../protocol/feedText';

export function syncAgentState(state: TownState, sim: SimReadView, id: string): void {
  const agent = sim.agent(id);
  if (!agent) {
    state.agents.delete(id);
    return;
  }
  let s = state.agents.get(id);
  if (!s) {
    s = new AgentState();
    s.id = id;
    state.agents.set(id, s);
  }
  // Name and look change only when an edited persona takes over (agent.updated): compared, not resent.
  const { name, look } = agent.spec;
  if (s.name !== name) s.name = name;
  if (s.skin !== look.skin || s.hair !== look.hair || s.shirt !== look.shirt || s.pants !== look.pants) {
    s.skin = look.skin;
    s.hair = look.hair;
    s.shirt = look.shirt;
    s.pants = look.pants;
  }
  const w = sim.map.widthTiles;
  const conversation = agent.conversationId !== null ? sim.conversation(agent.conversationId) : undefined;
  s.action = agent.current.description;
  s.emoji = agent.current.emoji;
  s.talkingTo = conversation ? (conversation.a === id ? conversation.b : conversation.a) : '';
  s.speech = agent.speech;
  s.asleep = agent.asleep;
  s.thinking = agent.busy && agent.conversationId === null;
  const m = agent.movement;
  if (m) {
    // A walk is sent once: its path, start and speed. The client interpolates.
    if (s.pathStartGameMs !== m.startGameMs || s.path.length !== m.path.length) {
      s.path = new ArraySchema<number>(...m.path);
      s.pathStartGameMs = m.startGameMs;
      s.tilesPerGameMinute = m.tilesPerGameMinute;
      s.tileX = m.path[0] % w;
      s.tileY = Math.floor(m.path[0] / w);
    }
  } else if (!arrivedAt(s, agent.tile, w, sim.gameMs) && (s.path.length > 0 || s.tileX !== agent.tile % w || s.tileY !== Math.floor(agent.tile / w))) {
    if (s.path.length > 0) s.path = new ArraySchema<number>();
    s.tileX = agent.tile % w;
    s.tileY = Math.floor(agent.tile / w);
    s.tilesPerGameMinute = 0;
  }
}

/**
 * Whether the state's walk is over by `gameMs` and ended on `tile`: then it is left as it is. A viewer places a walk
 * whose time is over at its end (protocol/movement.ts), so an arrival changes nothing on screen and costs no patch.
 * A walk cut short, or a walk still to come (a replay sought backwards), is replaced by the tile.
 */
function arrivedAt(s: AgentState, tile: number, mapWidth: number, gameMs: number): boolean {
  const path = s.path;
  const n = path.length;
  if (n < 2 || path[n - 1] !== tile || s.tilesPerGameMinute <= 0) return false;
  return arrivalGameMs(s.pathStartGameMs, pathLength(path, mapWidth), s.tilesPerGameMinute) <= gameMs;
}

/** The room's state for a town as a new room makes it: every agent and the clock. */
export function createTownState(town: Pick<Town, 'sim' | 'clock' | 'holds' | 'loop' | 'map' | 'mind' | 'shownGameMs'>): TownState {
  const state = new TownState();
  state.world = town.map.places.world;
  state.mapWidth = town.map.widthTiles;
  state.mind = town.mind.label;
  for (const agent of town.sim.agents()) syncAgentState(state, town.sim, agent.spec.id);
  syncTownClock(state, town);
  return state;
}

/**
 * What the room does with each tick of the served town: the tick's removed agents dropped from the state,
 * its changed and added ones synced, and the clock. Shared with the benchmark that drives the served loop
 * (bench/servedTown.ts), so its steps and patches are the room's.
 */
export function syncTick(
  state: TownState,
  town: Pick<Town, 'sim' | 'clock' | 'holds' | 'loop' | 'shownGameMs'>,
  result: Pick<StepResult, 'changed' | 'added' | 'removed'>,
): void {
  for (const id of result.removed) state.agents.delete(id);
  for (const id of result.changed) syncAgentState(state, town.sim, id);
  for (const id of result.added) syncAgentState(state, town.sim, id);
  syncTownClock(state, town);
}

/** The town's clock, its holds and any storage problem, as the room shows them. */
export function syncTownClock(state: TownState, town: Pick<Town, 'clock' | 'holds' | 'loop' | 'shownGameMs'>): void {
  const { clock, holds, loop } = town;
  const storageProblem = loop.storageProblem?.error;
  syncClockState(state, { gameMs: town.shownGameMs, rate: clock.rate, paused: clock.paused, holds: holds.list(), storageProblem });
}

export interface ClockView {
  gameMs: number;
  rate: number;
  paused: boolean;
  holds: Iterable<string>;
  /** Why the world file refuses writes, or null. */
  storageProblem?: string | null;
}

export function syncClockState(state: TownState, clock: ClockView): void {
  state.gameMs = clock.gameMs;
  state.rate = clock.rate;
  state.paused = clock.paused;
  state.holdReason = [...clock.holds].join(',');
  const storage = clock.storageProblem ?? '';
  if (state.storageProblem !== storage) state.storageProblem = storage;
}

/** What every viewer of the town (live or replayed) is told of a batch of logged events: the `news` message, or null. */
export function townNews(events: readonly LoggedEvent[], nameOf: NameOf): NewsMessage | null {
  const { utterances, feed } = toldOf(events, nameOf);
  return packNews(utterances, feed);
}
