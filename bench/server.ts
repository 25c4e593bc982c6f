// A generated town of 1,000 people served as `npm start` serves it (a server process, offline mind,
// 1× at 10 Hz), from 7:00: start-up time; how long the clock waits for minds while every awake resident
// gets its day planned (CLOCK_POLICY=wait); over those 90 s of the morning (waking, commutes, work, talk):
// resident memory per agent, the speed the clock keeps, the server's CPU, and how long /healthz takes
// to answer (a proxy for how long the event loop is held). Run alone with `npx tsx bench/server.ts`.
import { performance } from 'node:perf_hooks';
import { percentile } from './sim';
import { generatedTown, startServerProcess } from './bigTown';

const AGENTS = 1000;
const RUN_S = 90;

/** The shipped town of 10, for what a server holds whatever its size: its RSS after 20 s from 7:00. */
async function shippedTownRssMb(): Promise<number> {
  const server = await startServerProcess({ mapFile: 'maps/town.tmj', personasDir: 'personas' }, { START_TIME: '2026-02-13T07:00' });
  try {
    let rss = 0;
    for (let i = 0; i < 20; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      rss = Math.max(rss, server.rssMb());
    }
    return rss;
  } finally {
    await server.close();
  }
}

export async function benchServer(): Promise<Record<string, number>> {
  const baseline = await shippedTownRssMb();
  const figures = await measureServer(generatedTown(AGENTS), AGENTS);
  const rssMb = figures[`server.rss_mb.agents_${AGENTS}`];
  return {
    ...figures,
    // What each agent adds, over the server with the shipped town of 10.
    [`server.rss_mb_per_added_agent.agents_${AGENTS}`]: (rssMb - baseline) / (figures[`server.agents.agents_${AGENTS}`] - 10),
    'server.rss_mb.agents_10': baseline,
  };
}

/** A new world of `town` at 7:00 served by its own process for RUN_S seconds: the figures above, keyed by `agents`. */
export async function measureServer(town: { mapFile: string; personasDir: string }, agents: number, startLimitMs?: number): Promise<Record<string, number>> {
  const server = await startServerProcess(town, { START_TIME: '2026-02-13T07:00' }, startLimitMs);
  try {
    // A new world at 7:00: everyone awake or about to wake, and no plans yet. Every 100 ms the clock's holds
    // are read; the time it spent waiting for minds is the morning's hold (from the first ask to the last).
    const ready = performance.now();
    // A new world's first start (every resident's seed memories) goes on after /healthz answers, the clock
    // held 'starting': start-up is until that hold is gone.
    // A reading may fail while the first start holds the event loop for seconds at a time (a kept-alive
    // connection the server closes as it is reused): the server is asked again while it lives.
    const starting = () =>
      server.health().then(
        (h) => h.holds.includes('starting'),
        () => true,
      );
    while (await starting()) {
      if (server.exited()) throw new Error(`the server exited while starting: ${server.stderrTail()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const startedMs = server.startupMs + (performance.now() - ready);
    // The CPU the server used to get there (user + system): what a loaded machine does not stretch as it does the wall time.
    const startedCpuMs = server.cpuMs();
    const start = (await server.health()).gameMs;
    let plansMs = -1;
    let holdMs = 0;
    let last = performance.now();
    const h0 = await server.health();
    const cpu0 = server.cpuMs();
    const t0 = performance.now();
    const rss: number[] = [];
    const answers: number[] = [];
    while (performance.now() - t0 < RUN_S * 1000) {
      await new Promise((r) => setTimeout(r, 100));
      const a = performance.now();
      const h = await server.health();
      answers.push(performance.now() - a);
      if (h.holds.includes('waiting-for-minds')) holdMs += a - last;
      last = a;
      if (plansMs < 0 && h.gameMs >= start + 60_000) plansMs = a - ready;
      rss.push(server.rssMb());
    }
    const h1 = await server.health();
    const wallMs = performance.now() - t0;
    const rssMb = Math.max(...rss);
    return {
      // From spawning the process to /healthz answering with every agent in town.
      [`server.startup_ms.agents_${agents}`]: server.startupMs,
      // …and to the end of a new world's first start (seed memories), when the clock may run.
      [`server.started_ms.agents_${agents}`]: startedMs,
      [`server.started_cpu_ms.agents_${agents}`]: startedCpuMs,
      // From /healthz answering until the clock passed 7:01 (a minute at 1×, when nothing holds it).
      [`server.first_plans_ms.agents_${agents}`]: plansMs,
      // How long the clock waited for minds over the first RUN_S seconds of the new world's morning.
      [`server.morning_hold_ms.agents_${agents}`]: holdMs,
      [`server.rss_mb.agents_${agents}`]: rssMb,
      [`server.rss_mb_per_agent.agents_${agents}`]: rssMb / h1.agents,
      [`server.agents.agents_${agents}`]: h1.agents,
      // 1 = the clock kept 1× (60 game ms per real ms); below, cognition held it back.
      [`server.speed.agents_${agents}`]: (h1.gameMs - h0.gameMs) / wallMs / 60,
      [`server.cpu_pct.agents_${agents}`]: (100 * (server.cpuMs() - cpu0)) / wallMs,
      [`server.healthz_p99_ms.agents_${agents}`]: percentile(answers, 99),
    };
  } finally {
    await server.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchServer().then((r) => console.table(r));
}
