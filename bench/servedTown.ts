// A town driven as the server drives it, for the benchmarks that time its steps: the room's tick on a real
// interval (`TownLoop.tick` with the wall time that passed, then `syncTick` into the room's schema state, as
// TownRoom does), cognition working through its queue between ticks (plans in the background, the routine
// given at once to an agent that wakes before its plan comes), the clock at its rate with its holds. No
// lockstep: what is timed is what a spectator of `npm start` gets. Each tick's patch is encoded as the room
// encodes it (patch rate = tick rate), and the broadcasts (lines said, feed) as the room sends them.
import { performance } from 'node:perf_hooks';
import { Encoder } from '@colyseus/schema';
import { getMessageBytes, Protocol } from '@colyseus/core';
import type { Town } from '../server/src/town/Town';
import { HOLD_REASONS, type HoldReason } from '../server/src/town/holds';
import { createTownState, syncTick, townNews } from '../server/src/rooms/stateSync';

export interface ServedRunOptions {
  /** Game time at which the run ends. */
  untilGameMs: number;
  /** Wall time after which it ends anyway (a clock held by slow minds), ms. */
  wallLimitMs: number;
  /** Called after each tick (the room's state synced). */
  onTick?: (town: Town) => void;
}

export interface ServedRun {
  /** Wall ms of each tick: the loop's step and the room's sync (what holds the event loop for the tick). */
  tickMs: number[];
  /** CPU ms (user + system) of each tick. */
  tickCpuMs: number[];
  /** Wall ms from one tick's start to the next (the interval, stretched by background cognition between ticks). */
  tickGapMs: number[];
  /** Wall ms encoding each tick's patch. */
  encodeMs: number[];
  /** Bytes of each tick's patch as sent (one byte of framing included). */
  patchBytes: number[];
  /** Bytes of the `news` messages (lines said, feed items) every viewer gets besides the patches. */
  messageBytes: number;
  /** Lines said and feed items those messages held. */
  linesTold: number;
  itemsTold: number;
  /** Bytes of the full state a new spectator receives at the start. */
  firstStateBytes: number;
  wallMs: number;
  /** Game ms the clock advanced. */
  gameMs: number;
  /** Wall ms during which the clock was held, by reason. */
  heldMs: Record<HoldReason, number>;
  /** The process's CPU ms over the run (ticks and the cognition between them). */
  cpuMs: number;
}

/** Runs the started town live, as its room would, until `untilGameMs` of game time or `wallLimitMs` of wall time. */
export async function driveServedTown(town: Town, options: ServedRunOptions): Promise<ServedRun> {
  await town.whenStarted();
  const state = createTownState(town);
  const encoder = new Encoder(state);
  const firstStateBytes = encoder.encodeAll().length;
  encoder.discardChanges();
  const run: ServedRun = {
    tickMs: [],
    tickCpuMs: [],
    tickGapMs: [],
    encodeMs: [],
    patchBytes: [],
    messageBytes: 0,
    linesTold: 0,
    itemsTold: 0,
    firstStateBytes,
    wallMs: 0,
    gameMs: 0,
    heldMs: Object.fromEntries(HOLD_REASONS.map((r) => [r, 0])) as Record<HoldReason, number>,
    cpuMs: 0,
  };
  const nameOf = (id: string) => town.personas.get(id)?.name ?? town.sim.agent(id)?.spec.name ?? id;
  const unsubscribe = town.log.onEvents((events) => {
    const news = townNews(events, nameOf);
    if (!news) return;
    run.messageBytes += getMessageBytes.raw(Protocol.ROOM_DATA, 'news', news).length;
    run.linesTold += news.lines.length;
    run.itemsTold += news.feed.length;
  });
  // One spectator watches the whole town (the room's onJoin): the idle hold does not apply.
  town.holds.watchers(1, town.wallClock.now());
  const startGameMs = town.clock.gameMs;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let lastTickWallMs = town.wallClock.now();
  let lastTickStart: number | null = null;
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        try {
          const now = town.wallClock.now();
          const delta = now - lastTickWallMs;
          lastTickWallMs = now;
          for (const r of town.holds.list()) run.heldMs[r] += delta;
          const start = performance.now();
          if (lastTickStart !== null) run.tickGapMs.push(start - lastTickStart);
          lastTickStart = start;
          const c0 = process.cpuUsage();
          syncTick(state, town, town.loop.tick(delta));
          const c = process.cpuUsage(c0);
          const ticked = performance.now();
          run.tickMs.push(ticked - start);
          run.tickCpuMs.push((c.user + c.system) / 1000);
          // The room sends a patch only when something changed; the clock's time changes every tick.
          const patch = encoder.hasChanges ? encoder.encode().length + 1 : 0;
          encoder.discardChanges();
          run.encodeMs.push(performance.now() - ticked);
          if (patch > 0) run.patchBytes.push(patch);
          options.onTick?.(town);
          if (town.clock.gameMs >= options.untilGameMs || performance.now() - t0 >= options.wallLimitMs) {
            clearInterval(timer);
            resolve();
          }
        } catch (error) {
          clearInterval(timer);
          reject(error as Error);
        }
      }, 1000 / town.config.tickHz);
    });
  } finally {
    unsubscribe();
  }
  const c = process.cpuUsage(cpu0);
  run.cpuMs = (c.user + c.system) / 1000;
  run.wallMs = performance.now() - t0;
  run.gameMs = town.clock.gameMs - startGameMs;
  return run;
}
