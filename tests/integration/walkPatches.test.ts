// A walk's end sends nothing: the room leaves a finished walk in the state, and a viewer places it at its end once
// its time is over (protocol/movement.ts). Checked on a running town, step by step: wherever a viewer would draw
// each agent from the room's state is where the sim has it. A walk cut short, or one still to come (a replay sought
// backwards), is replaced by the tile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArraySchema, Encoder } from '@colyseus/schema';
import { positionOnPath } from '../../server/src/protocol/movement';
import type { AgentState, TownState } from '../../server/src/protocol/state';
import { createTownState, syncAgentState, syncTick } from '../../server/src/rooms/stateSync';
import type { SimReadView } from '../../server/src/sim/state';
import type { Town } from '../../server/src/town/Town';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import { openOfflineTown } from '../helpers';

/** Where a viewer draws an agent at `gameMs` from the room's state (client/src/view/AgentView.ts). */
function shown(s: AgentState, mapWidth: number, gameMs: number) {
  if (s.path.length < 2) return { x: s.tileX, y: s.tileY, moving: false };
  const p = positionOnPath([...s.path], mapWidth, s.pathStartGameMs, s.tilesPerGameMinute, gameMs);
  return { x: p.x, y: p.y, moving: p.moving };
}

/** Where the sim has it. */
function actual(town: Town, id: string) {
  const a = town.sim.agent(id)!;
  const w = town.map.widthTiles;
  if (!a.movement) return { x: a.tile % w, y: Math.floor(a.tile / w), moving: false };
  const p = positionOnPath(a.movement.path, w, a.movement.startGameMs, a.movement.tilesPerGameMinute, town.sim.gameMs);
  return { x: p.x, y: p.y, moving: p.moving };
}

describe('walks in the room state', () => {
  let town: Town;
  let state: TownState;
  /** Steps at which an agent stood at the end of a walk still in the state. */
  let keptArrivals = 0;
  let walks = 0;

  beforeAll(async () => {
    town = await openOfflineTown({ startTime: '2026-02-13T07:30' });
    state = createTownState(town);
    const w = town.map.widthTiles;
    const mismatches: string[] = [];
    await town.loop.runLockstep(town.gameMs + 2 * GAME_MS_PER_HOUR, 10_000, (r) => {
      syncTick(state, town, r);
      for (const a of town.sim.agents()) {
        const s = state.agents.get(a.spec.id)!;
        const drawn = shown(s, w, town.sim.gameMs);
        const there = actual(town, a.spec.id);
        if (drawn.x !== there.x || drawn.y !== there.y || drawn.moving !== there.moving)
          mismatches.push(`${a.spec.id} at ${new Date(town.sim.gameMs).toISOString()}: drawn ${JSON.stringify(drawn)}, is ${JSON.stringify(there)}`);
        if (!a.movement && s.path.length > 1) keptArrivals++;
      }
      for (const e of r.logged) if (e.kind === 'agent.move' && (e.data as { path: number[] }).path.length > 1) walks++;
    });
    expect(mismatches.slice(0, 5)).toEqual([]);
  }, 60_000);
  afterAll(async () => town?.close());

  it('draws every agent where the sim has it at every step, and arrivals leave the walk in place', () => {
    expect(walks).toBeGreaterThan(10);
    expect(keptArrivals).toBeGreaterThan(0);
  });

  it('sends nothing for an arrival, and replaces a walk cut short or not yet over by the tile', () => {
    const arrived = town.sim.agents().find((a) => !a.movement && state.agents.get(a.spec.id)!.path.length > 1)!;
    expect(arrived).toBeDefined();
    const id = arrived.spec.id;
    const w = town.map.widthTiles;
    const s = state.agents.get(id)!;
    const walk = { path: [...s.path], pathStartGameMs: s.pathStartGameMs, tilesPerGameMinute: s.tilesPerGameMinute, tileX: s.tileX, tileY: s.tileY };
    const putBack = () => Object.assign(s, { ...walk, path: new ArraySchema<number>(...walk.path) });
    const encoder = new Encoder(state);
    encoder.encodeAll();
    encoder.discardChanges();
    syncAgentState(state, town.sim, id);
    expect(encoder.hasChanges).toBe(false);

    // The controls. A walk cut short (the agent stands elsewhere, its time over) is replaced by where it stands…
    const elsewhere = walk.path[0];
    const cut: SimReadView = { ...viewOf(town), agent: (a) => (a === id ? { ...arrived, tile: elsewhere } : town.sim.agent(a)) };
    syncAgentState(state, cut, id);
    expect([s.path.length, s.tileY * w + s.tileX]).toEqual([0, elsewhere]);

    // …and so is the walk seen from before it ended (a replay sought backwards), which a viewer would draw on its way.
    putBack();
    const before: SimReadView = { ...viewOf(town), gameMs: walk.pathStartGameMs };
    expect(shown(s, w, before.gameMs)).not.toEqual(actual(town, id));
    syncAgentState(state, before, id);
    expect([s.path.length, s.tileY * w + s.tileX]).toEqual([0, arrived.tile]);
    expect(shown(s, w, before.gameMs)).toEqual(actual(town, id));
  });
});

function viewOf(town: Town): SimReadView {
  return {
    map: town.map,
    gameMs: town.sim.gameMs,
    agents: () => town.sim.agents(),
    agent: (id) => town.sim.agent(id),
    conversation: (id) => town.sim.conversation(id),
  };
}
