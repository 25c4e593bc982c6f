// While a town ticks live, what cognition queues between ticks (memories, decisions, statuses) is written between
// ticks (town/persistence.ts BETWEEN_TICKS_WRITE_MS), not in the next tick's commit; the step's own events stay in it.
import { describe, expect, it } from 'vitest';
import { isSimEvent } from '../../server/src/history/fold';
import type { EventInput, LoggedEvent } from '../../server/src/protocol/events';
import type { Town } from '../../server/src/town/Town';
import { BETWEEN_TICKS_WRITE_MS } from '../../server/src/town/persistence';
import { OfflineMind } from '../../server/src/agent/offlineMind';
import type { Acquaintance, Appraisal, MindContext } from '../../server/src/agent/mind';
import type { Observation } from '../../server/src/sim/types';
import { OFFLINE_RUNTIME_SETTINGS } from '../../server/src/agent/context';
import { loadOfflineEmbedder } from '../../server/src/llm/OfflineEmbedder';
import { loadConfig } from '../../server/src/config';
import { Town as TownClass } from '../../server/src/town/Town';
import { createLogger } from '../../server/src/town/logger';
import { openOfflineTown, tempDir } from '../helpers';

/**
 * The offline mind as an endpoint that mends a reply now and then: each appraisal of what an agent saw logs a note (as
 * Town's onMend does, in the middle of an operation) and then waits on the endpoint, so a step's operations span timers
 * with events queued.
 */
class MendingMind extends OfflineMind {
  mended: () => void = () => {};
  override async appraise(ctx: MindContext, observations: Observation[], company: Acquaintance[]): Promise<Appraisal> {
    this.mended();
    await new Promise((resolve) => setTimeout(resolve, BETWEEN_TICKS_WRITE_MS * 2));
    return super.appraise(ctx, observations, company);
  }
}

interface Written {
  inTick: LoggedEvent[];
  between: LoggedEvent[];
}

/** Ticks the town live at 10× for `ticks` ticks, leaving the event loop a tick's gap between them, and sorts each written batch by where it was written. */
async function tickLive(town: Town, ticks: number): Promise<Written> {
  const written: Written = { inTick: [], between: [] };
  let inTick = false;
  const stop = town.log.onEvents((events) => (inTick ? written.inTick : written.between).push(...events));
  for (let i = 0; i < ticks; i++) {
    inTick = true;
    town.loop.tick(1_000);
    inTick = false;
    await new Promise((resolve) => setTimeout(resolve, BETWEEN_TICKS_WRITE_MS + 10));
  }
  stop();
  return written;
}

describe('the log between live ticks', () => {
  it("writes cognition's events between ticks and the step's in the tick, losing none", async () => {
    const town = await openOfflineTown({ startTime: '2026-02-13T08:00', rate: 600 });
    const written = await tickLive(town, 120);
    const between = written.between.filter((e) => !isSimEvent(e));
    // The morning's observations became memories, and most were written between ticks.
    const memories = [...written.inTick, ...written.between].filter((e) => e.kind === 'memory.created');
    expect(memories.length).toBeGreaterThan(50);
    expect(between.filter((e) => e.kind === 'memory.created').length).toBeGreaterThan(memories.length / 2);
    // What the sim folds is written only with its step (a replay's state at a step is its commit's).
    expect(written.between.filter(isSimEvent)).toEqual([]);
    expect(written.inTick.filter(isSimEvent).length).toBeGreaterThan(100);
    // Nothing lost or written twice: the listeners heard every committed event once, in one gap-free sequence.
    const all = [...written.inTick, ...written.between].sort((a, b) => a.seq - b.seq);
    expect(new Set(all.map((e) => e.seq)).size).toBe(all.length);
    expect(all.at(-1)!.seq - all[0].seq + 1).toBe(all.length);
    expect(town.db.events.lastSeq()).toBe(all.at(-1)!.seq);
    await town.close();
  }, 60_000);

  it('control: with nobody told of queued events, every memory waits for a tick', async () => {
    const town = await openOfflineTown({ startTime: '2026-02-13T08:00', rate: 600 });
    town.log.onQueued(() => {});
    const written = await tickLive(town, 60);
    expect(written.inTick.filter((e) => e.kind === 'memory.created').length).toBeGreaterThan(20);
    expect(written.between).toEqual([]);
    await town.close();
  }, 60_000);

  it("writes nothing outside a lockstep run's steps, even where its operations wait on timers", async () => {
    const config = loadConfig({}, { dataDir: tempDir(), logLevel: 'silent', startTime: '2026-02-13T08:00' });
    const mind = new MendingMind();
    const town = await TownClass.open(config, {
      mind,
      embedder: loadOfflineEmbedder(),
      logger: createLogger('silent'),
      runtimeSettings: OFFLINE_RUNTIME_SETTINGS,
    });
    // Ticked live first, so that the between-ticks writes are on.
    await tickLive(town, 5);
    // A step's commit marks the clock (TownLoop.afterStep); a between-ticks write does not.
    const unmarked: string[] = [];
    const flush = town.log.flush.bind(town.log);
    town.log.flush = (clockGameMs?: number) => {
      const logged = flush(clockGameMs);
      if (clockGameMs === undefined) unmarked.push(...logged.map((e) => e.kind));
      return logged;
    };
    const note = { purpose: 'importance', how: 'repaired', note: 'a test' };
    mind.mended = () => town.log.queue([{ gameMs: town.gameMs, kind: 'llm.mend', agentId: null, data: note } as EventInput]);
    let mends = 0;
    town.log.onEvents((events) => (mends += events.filter((e) => e.kind === 'llm.mend').length));
    await town.loop.runLockstep(town.gameMs + 30 * 60_000, 10_000);
    // All written, each with its step (before the run's next step: a run gives the same log every time).
    expect(mends).toBeGreaterThan(10);
    expect(unmarked).toEqual([]);
    await town.close();
  }, 60_000);
});
