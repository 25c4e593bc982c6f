// The schedule passes over quiet agents (sim/schedule.ts QuietSchedule): a town that does so must live
// exactly the day a town that runs every agent's schedule every step lives, event for event.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import type { Town } from '../../server/src/town/Town';
import { generateTown } from '../../scripts/generateTown';
import { openOfflineTown, tempDir } from '../helpers';

async function liveDay(everyAgent: boolean): Promise<{ town: Town; events: unknown[] }> {
  const town = await openOfflineTown({ startTime: '2026-02-13T05:00' });
  town.sim.scheduleEveryAgent = everyAgent;
  const events: unknown[] = [];
  const record = (r: { events: Array<{ gameMs: number; kind: string; agentId: string | null; data: unknown }> }) =>
    events.push(...r.events.map((e) => [e.gameMs, e.kind, e.agentId, e.data]));
  // 1× steps (6 game s) through the morning, a world event, then 20-second steps to the night.
  await town.loop.runLockstep(town.gameMs + 4 * GAME_MS_PER_HOUR, 6_000, record);
  town.commands.inject('A brass band is playing in the park', null, 'test');
  await town.loop.runLockstep(town.gameMs + 14 * GAME_MS_PER_HOUR, 20_000, record);
  return { town, events };
}

describe('the schedule passing over quiet agents', () => {
  it('lives the same day as running every agent every step, and passes over most of them', async () => {
    const reference = await liveDay(true);
    const passing = await liveDay(false);
    expect(reference.events.length).toBeGreaterThan(1000);
    expect(passing.events).toEqual(reference.events);
    expect(passing.town.sim.getState()).toEqual(reference.town.sim.getState());
    const { passed, ran } = passing.town.sim.scheduleCounts;
    expect(reference.town.sim.scheduleCounts.passed).toBe(0);
    expect(passed / (passed + ran)).toBeGreaterThan(0.6);
    await reference.town.close();
    await passing.town.close();
  }, 180_000);

  it('lives the same night and morning, and runs no sleeper between midnight, wakes, bedtimes and plan leads', async () => {
    const dir = tempDir('smalltown-night-');
    generateTown({ agents: 60, outDir: dir, seed: 3 });
    const night = async (everyAgent: boolean) => {
      const town = await openOfflineTown({ mapFile: path.join(dir, 'town.tmj'), personasDir: path.join(dir, 'personas'), startTime: '2026-02-13T20:00' });
      town.sim.scheduleEveryAgent = everyAgent;
      const events: unknown[] = [];
      const record = (r: { events: Array<{ gameMs: number; kind: string; agentId: string | null; data: unknown }> }) =>
        events.push(...r.events.map((e) => [e.gameMs, e.kind, e.agentId, e.data]));
      // Bedtimes, midnight, the small hours (one 6-second step at a time: 600 steps an hour), the plan requests and the morning.
      await town.loop.runLockstep(town.gameMs + 5 * GAME_MS_PER_HOUR, 20_000, record);
      const before = { ...town.sim.scheduleCounts };
      await town.loop.runLockstep(town.gameMs + GAME_MS_PER_HOUR, 6_000, record);
      const smallHours = { ran: town.sim.scheduleCounts.ran - before.ran, passed: town.sim.scheduleCounts.passed - before.passed };
      await town.loop.runLockstep(town.gameMs + 9 * GAME_MS_PER_HOUR, 20_000, record);
      return { town, events, smallHours };
    };
    const reference = await night(true);
    const passing = await night(false);
    try {
      expect(reference.events.length).toBeGreaterThan(1000);
      expect(passing.events).toEqual(reference.events);
      expect(passing.town.sim.getState()).toEqual(reference.town.sim.getState());
      // 1:00–2:00, the town asleep: the reference runs 60 schedules a step (36,000); turning minutes alone would run
      // each sleeper once a game minute (3,600); passing them over to their next boundary runs a handful.
      const agents = passing.town.sim.agents().length;
      expect(reference.smallHours.ran).toBe(agents * 600);
      expect(passing.smallHours.ran).toBeLessThan(agents);
      expect(passing.smallHours.ran + passing.smallHours.passed).toBe(agents * 600);
    } finally {
      await reference.town.close();
      await passing.town.close();
    }
  }, 300_000);
});
