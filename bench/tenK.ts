// A town of ten thousand (issue 24 §3): `npm run bench -- tenk`. The generated town of 10,000 people
// (seed 1, written once under bench/out/) measured as the town of 1,000 is (bench/server.ts, bench/sim.ts):
// - served as `npm start` serves it, a new world at 7:00 (offline mind, 1× at 10 Hz, CLOCK_POLICY=wait):
//   start-up, the morning's hold, resident memory, the speed the clock keeps, CPU;
// - the served morning in process (bench/servedTown.ts: the room's tick at 10 Hz, the clock at 1×, plans in
//   the background as the server makes them): tick times, and the bytes of the patches a spectator of the
//   whole town receives.
// - the page (bench/client.ts): its load, and its frame rate at whole-town zoom and zoomed in, served the
//   town as `npm start` serves it. Run alone with `npx tsx bench/tenK.ts`.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance, PerformanceObserver, constants as perfConstants } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';
import { loadConfig } from '../server/src/config';
import { Town } from '../server/src/town/Town';
import { OfflineMind } from '../server/src/agent/offlineMind';
import { OFFLINE_RUNTIME_SETTINGS } from '../server/src/agent/context';
import { loadOfflineEmbedder } from '../server/src/llm/OfflineEmbedder';
import { createLogger } from '../server/src/town/logger';
import { GAME_MS_PER_MINUTE } from '../server/src/protocol/time';
import { percentile } from './sim';
import { driveServedTown, type ServedRun } from './servedTown';
import { measureServer } from './server';
import { generatedTown, startServerProcess } from './bigTown';
import { benchBigTownPage } from './client';

const AGENTS = Number(process.env.TENK_AGENTS ?? 10_000);
/** Game minutes of the served morning (from 6:30: waking, plans, commutes). */
const SIM_GAME_MINUTES = Number(process.env.TENK_SIM_GAME_MINUTES ?? 60);
/** Wall minutes after which the served morning ends even if the clock has not got through it (held by minds). */
const SIM_WALL_LIMIT_MS = Number(process.env.TENK_SIM_WALL_MINUTES ?? 15) * 60_000;
const OUT_DIR = path.resolve(import.meta.dirname, 'out');
/**
 * TENK_SEEDED=1: the sim half starts from a copy of a world already seeded at 6:30 (kept under bench/out/ after
 * the first run seeds it), so a rerun measures the steps without waiting many minutes for the seeding again.
 * `sim.town_open_ms` is then the resume of that copy, not a first start.
 */
const REUSE_SEEDED = process.env.TENK_SEEDED === '1';

/** `<name>_p99_<unit>` over 1,000 samples or more; fewer say what they can: `<name>_max_<unit>`. */
function p99OrMax(name: string, unit: string, agents: number, values: number[]): Record<string, number> {
  return values.length >= 1000
    ? { [`${name}_p99_${unit}.agents_${agents}`]: percentile(values, 99) }
    : { [`${name}_max_${unit}.agents_${agents}`]: Math.max(...values) };
}

/**
 * The generated town served from 6:30 (waking, plans, commutes) as the server serves it (bench/servedTown.ts): the
 * room's tick at 10 Hz on a real interval, the clock at 1× with its holds, plans made in the background and the
 * routine made between ticks for whoever wakes before its plan. Each tick timed, and its patch to a whole-town spectator encoded.
 */
export async function benchTownSteps(agents: number, gameMinutes: number): Promise<Record<string, number>> {
  const town = generatedTown(agents, OUT_DIR);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-bench-tenk-'));
  const config = loadConfig({}, { dataDir, logLevel: 'silent', mapFile: town.mapFile, personasDir: town.personasDir, startTime: '2026-02-13T06:30' });
  const openTown = () =>
    Town.open(config, { mind: new OfflineMind(), embedder: loadOfflineEmbedder(), logger: createLogger('silent'), runtimeSettings: OFFLINE_RUNTIME_SETTINGS });
  const worldFile = path.join(dataDir, `${config.world}.sqlite`);
  const seeded = path.join(OUT_DIR, `seeded-${agents}-0630.sqlite`);
  if (REUSE_SEEDED && !fs.existsSync(seeded)) {
    // Seeded once and closed at once (its snapshot at 6:30, nothing stepped), then kept.
    await (await openTown()).close();
    fs.copyFileSync(worldFile, `${seeded}.part`);
    fs.renameSync(`${seeded}.part`, seeded);
    for (const f of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, f), { recursive: true, force: true });
  }
  if (REUSE_SEEDED) fs.copyFileSync(seeded, worldFile);
  const opened = performance.now();
  const t = await openTown();
  const openMs = performance.now() - opened;
  const walked = new Set<string>();
  const counts0 = { ...t.sim.scheduleCounts };
  const paths0 = { ...t.sim.world.fields.stats };
  const waits0 = { ...t.sim.budgetWaits };
  let run: ServedRun;
  const heapSampler = await startHeapSampling();
  // The garbage collections of the served morning (all, in ticks or between): young-generation and major, and their pauses.
  const gc = { minor: 0, major: 0, pauses: [] as number[] };
  const gcObserver = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
      if (kind === perfConstants.NODE_PERFORMANCE_GC_MINOR) gc.minor++;
      else if (kind === perfConstants.NODE_PERFORMANCE_GC_MAJOR) gc.major++;
      gc.pauses.push(e.duration);
    }
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  try {
    run = await driveServedTown(t, {
      untilGameMs: t.gameMs + gameMinutes * GAME_MS_PER_MINUTE,
      wallLimitMs: SIM_WALL_LIMIT_MS,
      onTick: () => {
        for (const a of t.sim.agents()) if (a.movement) walked.add(a.spec.id);
      },
    });
  } finally {
    gcObserver.disconnect();
    await heapSampler?.();
    // As a server stops: the plans still queued are dropped (TownLoop.stop), the rest finished, the state saved.
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const ticks = run.tickMs.length;
  // TENK_TICKS_OUT=file: each tick's wall and CPU ms, for a look at the slow ones.
  if (process.env.TENK_TICKS_OUT) fs.writeFileSync(process.env.TENK_TICKS_OUT, JSON.stringify({ wallMs: run.tickMs, cpuMs: run.tickCpuMs }));
  const seconds = run.wallMs / 1000;
  const patchBytes = run.patchBytes.reduce((s, b) => s + b, 0);
  const figures = {
    // Each tick of the served loop (the step, the room's sync, the log's writes), wall and CPU: the served tick, not
    // the sim core alone (bench/sim.ts's sim.core_step_*). A p99 only over 1,000 ticks or more (TENK_SIM_GAME_MINUTES=100).
    [`server.tick_p50_ms.agents_${agents}`]: percentile(run.tickMs, 50),
    ...p99OrMax(`server.tick`, 'ms', agents, run.tickMs),
    [`server.tick_max_ms.agents_${agents}`]: Math.max(...run.tickMs),
    [`server.tick_cpu_p50_ms.agents_${agents}`]: percentile(run.tickCpuMs, 50),
    ...p99OrMax(`server.tick_cpu`, 'ms', agents, run.tickCpuMs),
    [`server.tick_cpu_mean_ms.agents_${agents}`]: run.tickCpuMs.reduce((s, v) => s + v, 0) / ticks,
    // Garbage collections while served (Node's gc performance entries): a pause in a tick is in its wall time.
    [`sim.gc_minor.agents_${agents}`]: gc.minor,
    [`sim.gc_major.agents_${agents}`]: gc.major,
    [`sim.gc_pause_p90_ms.agents_${agents}`]: percentile(gc.pauses, 90),
    [`sim.gc_pause_max_ms.agents_${agents}`]: Math.max(0, ...gc.pauses),
    [`sim.gc_pause_total_ms.agents_${agents}`]: gc.pauses.reduce((s, v) => s + v, 0),
    // From one tick's start to the next (100 ms asked): background cognition between ticks stretches it.
    ...p99OrMax(`server.tick_gap`, 'ms', agents, run.tickGapMs),
    [`sim.steps.agents_${agents}`]: ticks,
    // The tick's budget (town/tickInputs.ts tickBudget): agents' turns put off to a later tick, and the longest an action waited (game s).
    [`sim.budget_waits_per_step.agents_${agents}`]: (t.sim.budgetWaits.turns - waits0.turns) / ticks,
    [`sim.budget_wait_max_game_s.agents_${agents}`]: t.sim.budgetWaits.longestGameMs / 1000,
    [`sim.walked.agents_${agents}`]: walked.size,
    // Agents' schedules run per step (the rest passed over as quiet: sim/schedule.ts QuietSchedule).
    [`sim.schedules_run_per_step.agents_${agents}`]: (t.sim.scheduleCounts.ran - counts0.ran) / ticks,
    // Path searches (world/distanceFields.ts): tiles a step's bounded and whole-field searches reached, and whole fields dropped.
    [`sim.path_tiles_searched_per_step.agents_${agents}`]: (t.sim.world.fields.stats.tilesSearched - paths0.tilesSearched) / ticks,
    // …of which searched between ticks for the walks about to start (sim/walksAhead.ts), and the share of walks' searches so taken.
    [`sim.path_tiles_searched_ahead_per_step.agents_${agents}`]: (t.sim.world.fields.stats.aheadTiles - paths0.aheadTiles) / ticks,
    [`sim.paths_ahead_taken_per_step.agents_${agents}`]: (t.sim.world.fields.stats.aheadTaken - paths0.aheadTaken) / ticks,
    [`sim.path_searches_per_step.agents_${agents}`]: (t.sim.world.fields.stats.searches - paths0.searches) / ticks,
    [`sim.path_fields_dropped.agents_${agents}`]: t.sim.world.fields.stats.fieldsDropped - paths0.fieldsDropped,
    // In process, started in the foreground (seed memories included): what a server does before its clock runs.
    [`sim.town_open_ms.agents_${agents}`]: openMs,
    [`sim.served_wall_ms.agents_${agents}`]: run.wallMs,
    // 1 = the clock kept 1× (60 game ms a wall ms); the holds say why not.
    [`sim.speed.agents_${agents}`]: run.gameMs / run.wallMs / 60,
    [`sim.held_for_minds_ms.agents_${agents}`]: run.heldMs['waiting-for-minds'],
    // The whole process (ticks, cognition, the log's writes) as a share of one core.
    [`sim.cpu_pct.agents_${agents}`]: (100 * run.cpuMs) / run.wallMs,
    // A spectator watching the whole town receives every patch: the bytes per real second.
    [`net.bytes_per_s.agents_${agents}`]: patchBytes / seconds,
    // …and the `news` messages (lines said, feed items) on top of the patches.
    [`net.message_bytes_per_s.agents_${agents}`]: run.messageBytes / seconds,
    // …holding these many lines said and feed items a second.
    [`net.lines_per_s.agents_${agents}`]: run.linesTold / seconds,
    [`net.feed_items_per_s.agents_${agents}`]: run.itemsTold / seconds,
    // What a whole-town spectator receives in all: the patches and the messages on top of them (§3: ≤ 100 KB/s).
    [`net.spectator_bytes_per_s.agents_${agents}`]: (patchBytes + run.messageBytes) / seconds,
    ...p99OrMax(`net.patch`, 'bytes', agents, run.patchBytes),
    ...p99OrMax(`net.patch_encode`, 'ms', agents, run.encodeMs),
    [`net.first_state_bytes.agents_${agents}`]: run.firstStateBytes,
  };
  // A morning in which few walk would measure an idle town: the benchmark says so instead (the figures on stderr).
  if (walked.size < agents * 0.1) {
    console.error(figures);
    throw new Error(`only ${walked.size} of ${agents} walked in the morning: the benchmark measures too idle a town`);
  }
  return figures;
}

/**
 * TENK_HEAP_SAMPLE=file: a sampling heap profile of the served morning (bytes allocated by call site, 1 in ~64 KB),
 * counting what lived past a young-generation collection (promoted: what the major collections then sweep) and, with
 * TENK_HEAP_SAMPLE_MINOR=1, the short-lived too. Open it in Chrome's memory tab, or sum it by function.
 */
async function startHeapSampling(): Promise<(() => Promise<void>) | null> {
  const file = process.env.TENK_HEAP_SAMPLE;
  if (!file) return null;
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 65_536,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: process.env.TENK_HEAP_SAMPLE_MINOR === '1',
  });
  return async () => {
    const { profile } = await session.post('HeapProfiler.stopSampling');
    fs.writeFileSync(file, JSON.stringify(profile));
    session.disconnect();
  };
}

export async function benchTenK(): Promise<Record<string, number>> {
  // TENK_PART=server, sim or client runs one part (each opens the town of 10,000: many minutes on a loaded machine).
  const part = process.env.TENK_PART ?? 'all';
  const load = os.loadavg()[0];
  const town = generatedTown(AGENTS, OUT_DIR);
  const server = part === 'all' || part === 'server' ? await measureServer(town, AGENTS, 45 * 60_000) : {};
  const sim = part === 'all' || part === 'sim' ? await benchTownSteps(AGENTS, SIM_GAME_MINUTES) : {};
  const client = part === 'all' || part === 'client' ? await benchPage(town) : {};
  return { [`tenk.loadavg_1m.agents_${AGENTS}`]: Math.max(load, os.loadavg()[0]), ...server, ...sim, ...client };
}

/** The page, on the town served as `npm start` serves it (a new world at 8:30, when most are up and about). */
async function benchPage(town: { mapFile: string; personasDir: string }): Promise<Record<string, number>> {
  const server = await startServerProcess(town, { START_TIME: '2026-02-13T08:30' }, 45 * 60_000);
  try {
    return await benchBigTownPage(server.url, AGENTS);
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchTenK().then((r) => console.table(r));
}
