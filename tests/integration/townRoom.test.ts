import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type Room } from '@colyseus/sdk';
import { TownState } from '../../server/src/protocol/state';
import { startTestTown, waitFor } from '../helpers';

describe('the town room over a real Colyseus server', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let room: Room<unknown, TownState>;

  beforeAll(async () => {
    // Ten game minutes a real second, starting when people are up and about.
    town = await startTestTown({ rate: 600, startTime: '2026-02-13T08:55' });
    const client = new Client(town.url);
    room = await client.joinOrCreate<TownState>('town', {}, TownState);
    for (const type of ['welcome', 'feed', 'utterance']) room.onMessage(type, () => undefined);
  });
  afterAll(async () => {
    await room?.leave();
    await town?.close();
  });

  it('sends at least 8 agents with their looks and actions', async () => {
    await waitFor('8 agents in the state', () => room.state.agents.size >= 8);
    const agents = [...room.state.agents.values()];
    expect(agents.length).toBeGreaterThanOrEqual(8);
    for (const a of agents) {
      expect(a.name).not.toBe('');
      expect(a.skin).toMatch(/^#[0-9a-f]{6}$/i);
    }
    expect(room.state.mind).toBe('offline');
    expect(room.state.mapWidth).toBe(100);
  });

  it('describes walks as path segments with a start time and a speed, not per-tick positions', async () => {
    const walking = await waitFor('an agent walking', () => [...room.state.agents.values()].find((a) => a.path.length > 1));
    expect(walking.tilesPerGameMinute).toBeGreaterThan(0);
    expect(walking.pathStartGameMs).toBeGreaterThan(0);
    // While it walks, its tile stays the path's start: the client interpolates.
    const start = walking.path[0];
    expect(walking.tileY * room.state.mapWidth + walking.tileX).toBe(start);
  });

  it('advances game time and answers /healthz', async () => {
    const before = room.state.gameMs;
    await waitFor('game time to advance', () => room.state.gameMs > before + 60_000);
    const health = (await (await fetch(`${town.url}/healthz`)).json()) as { agents: number; gameTime: string; mind: string };
    expect(health.agents).toBeGreaterThanOrEqual(8);
    expect(health.mind).toBe('offline');
    expect(health.gameTime).toMatch(/2026, \d\d:\d\d$/);
  });
});
