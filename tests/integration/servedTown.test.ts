// The benchmark of the big towns' steps (bench/servedTown.ts) drives the town as the server does: the room's
// tick on a real interval, the routine given at once to an agent that wakes before its plan comes, plans made in
// the background. A lockstep run (what the bench did before) waits for every plan before its next step: with
// ten thousand residents at 6:30 it never got past its first. Here a mind whose plans never come tells them apart.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { OFFLINE_RUNTIME_SETTINGS } from '../../server/src/agent/context';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import type { DayPlanning, MindContext } from '../../server/src/agent/mind';
import type { Memory } from '../../server/src/store/types';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { createLogger } from '../../server/src/town/logger';
import { Town } from '../../server/src/town/Town';
import { dayIndex, GAME_MS_PER_MINUTE } from '../../server/src/protocol/time';
import { QUICK_PLANS_PER_TURN } from '../../server/src/town/quickPlans';
import { generateTown } from '../../scripts/generateTown';
import { driveServedTown } from '../../bench/servedTown';
import { openOfflineTown, tempDir } from '../helpers';

/** The offline mind, but its day plans wait until `release` is called. */
class HeldPlansMind extends OfflineMind {
  asked = 0;
  made = 0;
  release: () => void = () => {};
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));

  override async planDay(ctx: MindContext, day: number, memories: Memory[], yesterday: Memory[] | null): Promise<DayPlanning> {
    this.asked++;
    await this.gate;
    this.made++;
    return super.planDay(ctx, day, memories, yesterday);
  }
}

async function openHeldTown(mind: HeldPlansMind): Promise<Town> {
  // 25 game minutes a tick at 10 Hz: the morning in a few seconds.
  const config = loadConfig({}, { dataDir: tempDir(), logLevel: 'silent', startTime: '2026-02-13T05:45', rate: 1500, clockPolicy: 'wait' });
  return Town.open(config, { mind, embedder: loadOfflineEmbedder(), logger: createLogger('silent'), runtimeSettings: OFFLINE_RUNTIME_SETTINGS });
}

describe('the served town as the benchmarks drive it', () => {
  it('runs the morning on the routine while no plan has come, where a lockstep run waits at its first step', async () => {
    const mind = new HeldPlansMind();
    const town = await openHeldTown(mind);
    const start = town.gameMs;
    const walked = new Set<string>();
    try {
      const run = await driveServedTown(town, {
        untilGameMs: start + 150 * GAME_MS_PER_MINUTE,
        wallLimitMs: 30_000,
        onTick: (t) => {
          for (const a of t.sim.agents()) if (a.movement) walked.add(a.spec.id);
        },
      });
      // The clock got through the morning (to 8:15) without a plan made.
      expect(run.gameMs).toBeGreaterThanOrEqual(150 * GAME_MS_PER_MINUTE);
      expect(mind.asked).toBeGreaterThan(0);
      expect(mind.made).toBe(0);
      const today = dayIndex(town.gameMs);
      // Everyone up by 8:00 is up, on the routine for today (one of the ten sleeps to 9:00).
      const early = town.sim.agents().filter((a) => a.spec.wakeMinute <= 8 * 60);
      expect(early.length).toBeGreaterThanOrEqual(9);
      for (const a of early) {
        expect(a.asleep, a.spec.id).toBe(false);
        expect(a.plan?.day, a.spec.id).toBe(today);
      }
      expect(walked.size).toBeGreaterThan(town.sim.agents().length / 2);
      expect(run.tickMs.length).toBe(run.tickCpuMs.length);
      expect(run.patchBytes.length).toBeGreaterThan(0);
      expect(run.firstStateBytes).toBeGreaterThan(1000);
    } finally {
      mind.release();
      await town.close();
    }
  }, 60_000);

  it('(control) a lockstep run of the same town waits at its first plans', async () => {
    const mind = new HeldPlansMind();
    const town = await openHeldTown(mind);
    const start = town.gameMs;
    const running = town.loop.runLockstep(start + 150 * GAME_MS_PER_MINUTE, 6_000);
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(mind.asked).toBeGreaterThan(0);
      expect(town.gameMs - start).toBeLessThan(30 * GAME_MS_PER_MINUTE);
    } finally {
      town.loop.stop();
      mind.release();
      await running;
      await town.close();
    }
  }, 60_000);

  it("makes a new world's first routines between its ticks, not in them", async () => {
    const dir = tempDir('smalltown-served-');
    generateTown({ agents: 80, outDir: dir, seed: 2 });
    // 9:00: most of the eighty are up, with no plan yet.
    const town = await openOfflineTown({ mapFile: path.join(dir, 'town.tmj'), personasDir: path.join(dir, 'personas'), startTime: '2026-02-13T09:00' });
    try {
      const planned = () => town.sim.agents().filter((a) => a.plan !== null).length;
      // Ticks that never yield to the event loop make no routine (and no plan): a tick of a town of ten thousand
      // would otherwise make thousands.
      for (let i = 0; i < 3; i++) town.loop.tick(100);
      const awake = town.sim.agents().filter((a) => !a.asleep);
      expect(awake.length).toBeGreaterThan(4 * QUICK_PLANS_PER_TURN);
      expect(planned()).toBe(0);
      // Nobody holds the clock meanwhile: whoever waits for the routine gets it between the next ticks.
      expect(town.holds.list()).not.toContain('waiting-for-minds');
      // A turn of the event loop makes a few; the next tick takes them up.
      await new Promise((resolve) => setImmediate(resolve));
      town.loop.tick(100);
      expect(planned()).toBeGreaterThan(0);
      expect(planned()).toBeLessThanOrEqual(QUICK_PLANS_PER_TURN);
      // Turn by turn, every one up has its routine within a few ticks (full plans come later, in the background).
      for (let i = 0; i < 4 * Math.ceil(awake.length / QUICK_PLANS_PER_TURN) && awake.some((a) => a.plan === null); i++) {
        await new Promise((resolve) => setImmediate(resolve));
        town.loop.tick(100);
      }
      for (const a of town.sim.agents()) if (!a.asleep) expect(a.plan?.day, a.spec.id).toBe(a.planRequestedDay);
      expect(town.holds.list()).not.toContain('waiting-for-minds');
    } finally {
      await town.close();
    }
  }, 120_000);
});
