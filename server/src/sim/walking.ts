// Walking: an action's place becomes a tile, the tile a walk (waypoints on a cached distance field),
// and walks advance with game time. The same `advanceWalk` settles positions when a state is folded
// from the log.
import type { ArenaNode } from '../world/types';
import type { AgentSimState } from './types';
import { positionOnPath, arrivalGameMs, compressPath, pathLength } from '../protocol/movement';
import { GAME_MS_PER_HOUR } from '../protocol/time';
import { Rng } from './rng';
import * as C from './constants';
import type { SimWorld, Step } from './state';
import { emit } from './emit';

const SPOTS_PER_ARENA = 8;

/**
 * Moves a walking agent to where its walk puts it at `now`; ends the walk on arrival. Returns the
 * arena it entered, or null when it stayed in the same one.
 */
export function advanceWalk(world: SimWorld, agent: AgentSimState, now: number): number | null {
  const m = agent.movement;
  if (!m) return null;
  const w = world.map.widthTiles;
  const pos = positionOnPath(m.path, w, m.startGameMs, m.tilesPerGameMinute, now);
  agent.tile = pos.tileY * w + pos.tileX;
  if (!pos.moving) agent.movement = null;
  const arena = world.map.arenaIndexByTile[agent.tile];
  if (arena === agent.arenaIndex) return null;
  agent.arenaIndex = arena;
  return arena;
}

/**
 * Whether an action's walk to `target` (its place's tile: `resolveTile`) must wait for a later step: a live step's
 * budget (Step.budget) has no walk left, or its path needs a search (no path searched ahead, no kept field towards it)
 * that would take the step past the tiles its budget has left. Such a search is given up where it passes them, and
 * the walk goes on the budget's `searchLater`, for the town loop to search between ticks. Takes one walk of the budget
 * when it need not wait; an action taken up where the agent stands walks nowhere and never waits.
 */
export function walkWaits(step: Step, agent: AgentSimState, target: number | null): boolean {
  const budget = step.budget;
  if (budget === null || target === null || target === agent.tile) return false;
  if (budget.walks <= 0) return true;
  const fields = step.world.fields;
  const left = budget.searchTiles - (fields.stats.tilesSearched - budget.fromTiles);
  if (!fields.searchWithin(agent.tile, target, Math.max(0, left))) {
    budget.searchLater.push({ from: agent.tile, to: target });
    return true;
  }
  budget.walks--;
  return false;
}

/** Sends the agent to the place at `address`, or warns and stays put when the map has no such place. */
export function walkToAddress(step: Step, agent: AgentSimState, address: string, target = resolveTile(step, address, agent)): void {
  if (target === null) {
    emit(step, 'agent.warning', agent.spec.id, { warning: `no place '${address}' in the map; staying put`, address });
    return;
  }
  walkTo(step, agent, target);
}

function walkTo(step: Step, agent: AgentSimState, target: number): void {
  if (target === agent.tile) {
    if (agent.movement) stopWalking(step, agent);
    return;
  }
  const path = step.world.fields.findPath(agent.tile, target);
  if (!path) {
    emit(step, 'agent.warning', agent.spec.id, { warning: 'no path', from: agent.tile, to: target });
    return;
  }
  // A walk is kept, logged and sent as its waypoints: the start, each turn, the end.
  const w = step.world.map.widthTiles;
  const waypoints = compressPath(path, w);
  const speed = C.WALK_TILES_PER_GAME_MINUTE;
  step.out.changed.add(agent.spec.id);
  emit(step, 'agent.move', agent.spec.id, {
    path: waypoints,
    startGameMs: step.now,
    tilesPerGameMinute: speed,
    arriveGameMs: arrivalGameMs(step.now, pathLength(waypoints, w), speed),
  });
}

export function stopWalking(step: Step, agent: AgentSimState): void {
  step.out.changed.add(agent.spec.id);
  emit(step, 'agent.move', agent.spec.id, { path: [agent.tile], startGameMs: step.now, tilesPerGameMinute: 0 });
}

/** The tile to walk to for an address: an object's stand tile, or a free-ish tile of an arena (null: no such place). */
export function resolveTile(step: Step, address: string, agent: AgentSimState): number | null {
  return tileOfAddress(step.world, step.state.seed, step.state.gameMs, address, agent.spec.id);
}

/** The tile an agent walks to for an address in a step at `gameMs` (sim/walksAhead.ts asks it ahead of that step). */
export function tileOfAddress(world: SimWorld, seed: number, gameMs: number, address: string, agentId: string): number | null {
  const map = world.map;
  const w = map.widthTiles;
  const object = map.objectsByAddress.get(address);
  if (object) return object.standTile.y * w + object.standTile.x;
  const arena = map.arenasByAddress.get(address);
  if (!arena) return null;
  const tiles = spotsOf(world, arena);
  if (tiles.length === 0) return arena.centreTile.y * w + arena.centreTile.x;
  // Spread agents who go to the same arena, deterministically per agent and hour.
  const rng = Rng.fromKey(seed, agentId, address, Math.floor(gameMs / GAME_MS_PER_HOUR));
  return tiles[rng.int(0, tiles.length - 1)];
}

/** Up to SPOTS_PER_ARENA walkable tiles spread over the arena: where agents stand when no object is named. */
function spotsOf(world: SimWorld, arena: ArenaNode): number[] {
  const all = walkableTilesOf(world, arena);
  if (all.length <= SPOTS_PER_ARENA) return all;
  const step = all.length / SPOTS_PER_ARENA;
  return Array.from({ length: SPOTS_PER_ARENA }, (_, i) => all[Math.floor(i * step + step / 2)]);
}

function walkableTilesOf(world: SimWorld, arena: ArenaNode): number[] {
  const map = world.map;
  const index = map.arenas.indexOf(arena);
  let tiles = world.arenaTiles.get(index);
  if (!tiles) {
    tiles = [];
    const w = map.widthTiles;
    for (const r of arena.rects)
      for (let y = r.y; y < r.y + r.h; y++)
        for (let x = r.x; x < r.x + r.w; x++) {
          const t = y * w + x;
          if (map.collision[t] === 0 && map.arenaIndexByTile[t] === index) tiles.push(t);
        }
    world.arenaTiles.set(index, tiles);
  }
  return tiles;
}
