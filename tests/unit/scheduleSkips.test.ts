// The schedule passes over quiet agents (sim/schedule.ts QuietSchedule): a town that does so must live
// exactly the day a town that runs every agent's schedule every step lives, event for event.
import { describe, expect, it } from 'vitest';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import type { Town } from '../../server/src/town/Town';
import { openOfflineTown } from '../helpers';

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
});
