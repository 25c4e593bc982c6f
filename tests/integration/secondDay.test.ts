// A live town whose mind is slower than its clock, across midnight: the second game day lives like the first.
// The soak (the generated town of 1,000 served at 300×) showed day 2 almost dead: plans, asked for ahead of
// waking, waited at the back of the queue behind a steady stream of observations, so their agents stayed
// busy (perceiving nothing) all day, and next morning could not ask for the next day's plan.
import { describe, expect, it } from 'vitest';
import { Town } from '../../server/src/town/Town';
import { GAME_MS_PER_DAY, GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import { tempDir, openOfflineTown } from '../helpers';
import { generateTown } from '../../scripts/generateTown';

const openTown = openOfflineTown;

/** The generated town's size, and the clock's game ms a tick: at 100 ms a tick, 3 game minutes. */
const AGENTS = 30;
const RATE = 1800;
/** The test yields one turn of the event loop every this many ticks: the pump hands cognition one request a turn. */
const TICKS_A_TURN = 4;

/**
 * Ticks the live loop from midnight for two game days, yielding to the pump one turn in TICKS_A_TURN ticks: the
 * mind keeps up with a fraction of what the agents ask (a big town on a busy machine, as the soak was). Returns
 * the memories made in 6:00–22:00 of each day and the second day's plans that were made (not the routine).
 */
async function twoDays(seed: number, clockPolicy: 'wait' | 'run'): Promise<{ day1: number; day2: number; plans2: number }> {
  const gen = generateTown({ agents: AGENTS, outDir: tempDir(), seed });
  const town = await openTown({ startTime: '2026-02-13T00:00', seed, rate: RATE, clockPolicy, mapFile: gen.mapFile, personasDir: gen.personasDir });
  const start = town.gameMs;
  for (let ticks = 1; town.gameMs < start + 2 * GAME_MS_PER_DAY; ticks++) {
    town.loop.tick(100);
    if (ticks % TICKS_A_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
    if (ticks > 100_000) throw new Error(`stuck at ${new Date(town.gameMs).toISOString()} (holds: ${town.holds.list().join(', ')})`);
  }
  const rows = town.db.db.prepare('SELECT kind, created_ms AS t FROM memories WHERE created_ms > ?').all(start) as Array<{ kind: string; t: number }>;
  const inDay = (day: number, t: number) =>
    t >= start + day * GAME_MS_PER_DAY + 6 * GAME_MS_PER_HOUR && t < start + day * GAME_MS_PER_DAY + 22 * GAME_MS_PER_HOUR;
  const result = {
    day1: rows.filter((r) => inDay(0, r.t)).length,
    day2: rows.filter((r) => inDay(1, r.t)).length,
    // A plan operation remembers the plan it made at the moment it was asked for (before waking on day 2).
    plans2: rows.filter((r) => r.kind === 'plan' && r.t >= start + GAME_MS_PER_DAY).length,
  };
  await town.close();
  return result;
}

describe('a live town whose mind is slower than its clock', () => {
  it("lives its second game day like its first: every agent's next plan is made, and day 2 remembers as much", async () => {
    for (const seed of [1, 2, 3]) {
      const r = await twoDays(seed, 'wait');
      expect(r.plans2, `seed ${seed}: ${JSON.stringify(r)}`).toBe(AGENTS);
      expect(r.day1, `seed ${seed}: ${JSON.stringify(r)}`).toBeGreaterThan(40 * AGENTS);
      expect(r.day2 / r.day1, `seed ${seed}: ${JSON.stringify(r)}`).toBeGreaterThan(0.8);
    }
  }, 120_000);

  it('the control: a clock that never waits (CLOCK_POLICY=run) starves the plans, and day 2 is nearly dead', async () => {
    const r = await twoDays(1, 'run');
    expect(r.plans2, JSON.stringify(r)).toBeLessThan(AGENTS / 2);
    expect(r.day2 / r.day1, JSON.stringify(r)).toBeLessThan(0.5);
  }, 60_000);
});
