// The live room over a real Colyseus server, driven by a manual wall clock: game time moves only when
// the test moves the clock, and the test waits for the room's next patch instead of sleeping.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type Room } from '@colyseus/sdk';
import { TownState } from '../../server/src/protocol/state';
import { ManualClock } from '../../server/src/core/wallClock';
import { startTestTown } from '../helpers';

const nextPatch = (room: Room<unknown, TownState>) => new Promise<void>((resolve) => room.onStateChange.once(() => resolve()));

describe('the town room over a real Colyseus server', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let room: Room<unknown, TownState>;
  const wall = new ManualClock();

  beforeAll(async () => {
    // Ten game minutes a real second, starting when people are up and about; the clock never waits for minds.
    town = await startTestTown({ rate: 600, startTime: '2026-02-13T08:55', clockPolicy: 'run' }, { wallClock: wall });
    const client = new Client(town.url);
    room = await client.join<TownState>('town', {}, TownState);
    for (const type of ['welcome', 'news']) room.onMessage(type, () => undefined);
    if (!room.state.mapWidth) await nextPatch(room);
  });
  afterAll(async () => {
    await room?.leave();
    await town?.close();
  });

  it('sends at least 8 agents with their looks and actions', () => {
    const agents = [...room.state.agents.values()];
    expect(agents.length).toBeGreaterThanOrEqual(8);
    for (const a of agents) {
      expect(a.name).not.toBe('');
      expect(a.skin).toMatch(/^#[0-9a-f]{6}$/i);
    }
    expect(room.state.mind).toBe('offline');
    expect(room.state.mapWidth).toBe(100);
  });

  it('stands still while no wall time passes, and advances by exactly the time that passed × the rate', async () => {
    // No wall time has passed since the town started: neither has game time, though the room ticks at 10 Hz.
    const before = room.state.gameMs;
    expect(town.town.gameMs).toBe(Date.UTC(2026, 1, 13, 8, 55));
    expect(before).toBe(town.town.gameMs);
    wall.advance(1000);
    while (room.state.gameMs === before) await nextPatch(room);
    expect(room.state.gameMs).toBe(before + 1000 * 600);
    const health = (await (await fetch(`${town.url}/healthz`)).json()) as {
      agents: number;
      gameTime: string;
      mind: string;
      memoryCache: {
        mb: number;
        bytes: number;
        capMb: number;
        agents: number;
        vectors: number;
        recentRows: number;
        loads: number;
        evictions: number;
        quantised: number;
      };
    };
    expect(health.agents).toBeGreaterThanOrEqual(8);
    // The memory stream's column cache: what it holds against its cap (MEMORY_CACHE_MB), for the soak.
    const any = expect.any(Number);
    expect(health.memoryCache).toEqual({
      mb: any,
      bytes: any,
      capMb: 512,
      agents: any,
      vectors: any,
      recentRows: any,
      loads: any,
      evictions: 0,
      quantised: any,
    });
    // …and the newest rows held for `recent` (each resident's seed memories, at most 200 an agent).
    expect(health.memoryCache.recentRows).toBeGreaterThan(0);
    expect(health.memoryCache.recentRows).toBeLessThanOrEqual(200 * health.agents);
    expect(health.memoryCache.vectors).toBeLessThanOrEqual(health.memoryCache.quantised);
    expect(health.memoryCache.agents).toBeLessThanOrEqual(health.agents);
    expect(health.mind).toBe('offline');
    expect(health.gameTime).toMatch(/2026, \d\d:\d\d$/);
  });

  it('describes walks as path segments with a start time and a speed, not per-tick positions', async () => {
    const walkingNow = () => [...room.state.agents.values()].find((a) => a.path.length > 1);
    for (let i = 0; i < 30 && !walkingNow(); i++) {
      wall.advance(100);
      await nextPatch(room);
    }
    const walking = walkingNow()!;
    expect(walking).toBeDefined();
    expect(walking.tilesPerGameMinute).toBeGreaterThan(0);
    expect(walking.pathStartGameMs).toBeGreaterThan(0);
    // While it walks, its tile stays the path's start: the client interpolates.
    const start = walking.path[0];
    expect(walking.tileY * room.state.mapWidth + walking.tileX).toBe(start);
  });
});
