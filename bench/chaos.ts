// Chaos benchmarks: `npm run bench -- chaos` (1) and `npm run bench -- outage` (2).
// 1. kill -9 at random moments, 20 times during an offline run and 20 times during an LLM run (the stub
//    over real HTTP): the server is `npm start`'s entry point in a process of its own, its world file read
//    from outside before each kill (tests/chaos/killAndResume.ts). Reports the kills, the rows seen
//    committed and lost after the restarts (must be 0), and the resume time (spawn to serving).
//    Then the forced-GC soak of bench/nodeSoak.ts (10 minutes on this Node).
// 2. An LLM endpoint that fails 30% of calls, then is gone for a minute, then returns, under a live
//    25-agent town at 1x (tests/chaos/llmOutage.ts).
// 1 also runs bench/hardening.ts: a full disk over seeds, and the rooms an anonymous client can make.
// `npm run bench -- restart`: 100 restarts of the shipped town, each timed from spawn to the town running.
import { performance } from 'node:perf_hooks';
import { OpenAIStub } from '../tests/fakes/openaiStub';
import { installTownResponders } from '../tests/fakes/townResponders';
import { killAndResume, type KillRunResult } from '../tests/chaos/killAndResume';
import { runLlmOutage } from '../tests/chaos/llmOutage';
import { tempDir } from '../tests/helpers';
import { clonePersonas } from './fixtures';
import { percentile } from './sim';
import { benchNodeSoak } from './nodeSoak';
import { benchHardening } from './hardening';

const KILLS = 20;
/** A quarter of the kills at a random moment of the start-up or resume, the rest up to 5 s into serving. */
const MOMENTS = { duringStart: 0.25, startMs: [300, 2500] as [number, number], servingMs: [200, 5000] as [number, number] };

function summarise(name: string, r: KillRunResult): Record<string, number> {
  const failed = r.checks.filter(
    (c) =>
      c.integrity !== 'ok' ||
      !c.gapFree ||
      c.dangling > 0 ||
      c.rolledBackGameMs > 0 ||
      c.behindShownGameMs > 0 ||
      c.logWentBackGameMs > 0 ||
      c.worldStarts !== 1 ||
      c.seedsTwice > 0,
  );
  const killedServing = r.cycles.filter((c) => c.wasReady).length;
  console.log(
    `  ${name}: ${r.cycles.length} kills (${killedServing} while serving, the rest during start-up or resume), ` +
      `${r.seenEvents} events and ${r.seenMemories} memories seen committed, ` +
      `${r.lostRows.length} lost${r.lostRows.length ? ` (${r.lostRows.slice(0, 5).join(', ')}…)` : ''}, ` +
      `${failed.length} of ${r.checks.length} restart checks failed; ` +
      `resume ms (spawn to serving): ${r.resumeMs.map((m) => m.toFixed(0)).join(' ')}; ` +
      `of which opening the world (first log line to resumed): ${r.openMs.join(' ')}; ` +
      `spawn to started (seen in /healthz, 100 ms polls): ${r.startedMs.map((m) => m.toFixed(0)).join(' ')}`,
  );
  if (failed.length) console.log(`  failed checks: ${JSON.stringify(failed)}`);
  return {
    [`chaos.kills.${name}`]: r.cycles.length,
    [`chaos.lost_rows.${name}`]: r.lostRows.length,
    [`chaos.failed_checks.${name}`]: failed.length,
    [`chaos.seen_rows.${name}`]: r.seenEvents + r.seenMemories,
    [`chaos.resume_p50_ms.${name}`]: percentile(r.resumeMs, 50),
    // Tens of restarts: the slowest, not a p99.
    [`chaos.resume_max_ms.${name}`]: Math.max(...r.resumeMs),
    [`chaos.open_max_ms.${name}`]: Math.max(...r.openMs),
  };
}

export async function benchChaos(): Promise<Record<string, number>> {
  const out = await benchKills();
  // The runtime soak: a forced full collection every second for 10 minutes (BENCH_GC_SOAK_MINUTES).
  Object.assign(out, await benchNodeSoak());
  // Issue 21: a full disk survived, and what an anonymous client can make of the matchmaking routes.
  Object.assign(out, await benchHardening());
  return out;
}

/** The kills alone (`npx tsx bench/chaos.ts kills`): restart to serving, as `npm start` runs, 20 times offline and 20 on the LLM. */
export async function benchKills(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const t0 = performance.now();
  const offline = await killAndResume({
    kills: KILLS,
    seed: 2026,
    dataDir: tempDir('smalltown-chaos-'),
    env: { START_TIME: '2026-02-13T08:00', CLOCK_RATE: '600' },
    moments: MOMENTS,
  });
  Object.assign(out, summarise('offline', offline));

  const stub = installTownResponders(await new OpenAIStub({ latencyMs: 100 }).start());
  let llm: KillRunResult;
  try {
    const env = { START_TIME: '2026-02-13T08:00', CLOCK_RATE: '600', OPENAI_BASE_URL: stub.url, OPENAI_API_KEY: 'chaos', LLM_MODEL: 'stub-model' };
    // The first kill lands while the new world seeds its residents' memories through the LLM.
    llm = await killAndResume({
      kills: KILLS,
      seed: 2027,
      dataDir: tempDir('smalltown-chaos-'),
      env,
      moments: MOMENTS,
      killFirstWhen: () => (stub.stats.bySchema.importance_reply ?? 0) >= 3,
    });
  } finally {
    await stub.close();
  }
  Object.assign(out, summarise('llm', llm));
  const resumes = [...offline.resumeMs, ...llm.resumeMs];
  out['chaos.kills'] = offline.cycles.length + llm.cycles.length;
  out['chaos.lost_rows'] = offline.lostRows.length + llm.lostRows.length;
  out['chaos.resume_p50_ms'] = percentile(resumes, 50);
  // 40 restarts: the slowest, not a p99.
  out['chaos.resume_max_ms'] = Math.max(...resumes);
  out['chaos.open_max_ms'] = Math.max(...offline.openMs, ...llm.openMs);
  // Serving comes first; a new world whose first start a kill cut short is started anew after it (in the background).
  out['chaos.started_max_ms'] = Math.max(...offline.startedMs, ...llm.startedMs);
  console.log(`  kills took ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  return out;
}

/**
 * Restart to running on the shipped town, `restarts` times (`npm run bench -- restart`): each process killed (-9) a
 * moment after its town runs again, then started anew. Spawn to started (the town running, seen in /healthz every
 * 20 ms) and spawn to serving (HTTP accepting), with nothing lost, as for the kills above.
 */
export async function benchRestarts(restarts: number): Promise<Record<string, number>> {
  const r = await killAndResume({
    kills: restarts,
    seed: 2028,
    dataDir: tempDir('smalltown-restarts-'),
    env: { START_TIME: '2026-02-13T08:00', CLOCK_RATE: '600' },
    moments: { duringStart: 0, startMs: [0, 0], servingMs: [300, 1000] },
    pollMs: 20,
  });
  // The first start makes the world; every later one resumes it.
  const toRunning = r.startedMs;
  console.log(
    `  ${toRunning.length} restarts to running, ms: p50 ${percentile(toRunning, 50).toFixed(0)}, p99 ${percentile(toRunning, 99).toFixed(0)}, ` +
      `max ${Math.max(...toRunning).toFixed(0)}; ${r.lostRows.length} rows lost`,
  );
  return {
    'chaos.restarts': toRunning.length,
    'chaos.resume_p99_ms': percentile(toRunning, 99),
    'chaos.restart.to_running_p50_ms': percentile(toRunning, 50),
    'chaos.restart.to_running_max_ms': Math.max(...toRunning),
    'chaos.restart.to_serving_p99_ms': percentile(r.resumeMs, 99),
    'chaos.restart.lost_rows': r.lostRows.length,
  };
}

export async function benchOutage(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};

  // The endpoint: healthy while the town plans its morning, then 30% faults for half a minute, gone for a minute, back.
  const outage = await runLlmOutage({
    healthyMs: 20_000,
    faultyMs: 30_000,
    outageMs: 60_000,
    faultRate: 0.3,
    recoveryLimitMs: 60_000,
    watchAfterMs: 10_000,
    rate: 60,
    llm: { timeoutMs: 10_000, maxRetries: 3, concurrency: 8 },
    hangMs: 15_000,
    personasDir: clonePersonas(25),
  });
  console.log(`  LLM outage: ${JSON.stringify({ ...outage, stub: { requests: outage.stub.requests, faults: outage.stub.faults } })}`);
  out['llm_outage.max_stall_ms'] = outage.maxStallMs;
  out['llm_outage.max_stall_ms.faulty'] = outage.phases.faulty.maxStallMs;
  out['llm_outage.max_stall_ms.outage'] = outage.phases.outage.maxStallMs;
  out['llm_outage.max_stall_ms.after_return'] = outage.phases.after.maxStallMs;
  out['llm_outage.game_minutes.faulty_30s'] = outage.phases.faulty.gameMinutes;
  out['llm_outage.game_minutes.outage_60s'] = outage.phases.outage.gameMinutes;
  out['llm_outage.fallbacks'] = outage.fallbacksMade;
  out['llm_outage.fallbacks_logged'] = outage.fallbacksLogged;
  out['llm_outage.fallbacks.outage'] = outage.phases.outage.fallbacks;
  out['llm_outage.operation_failures'] = outage.operationFailures.length;
  out['llm_outage.recovery_first_good_call_ms'] = outage.recovery.firstGoodCallMs ?? -1;
  out['llm_outage.recovery_clock_running_ms'] = outage.recovery.clockRunningMs ?? -1;
  out['llm_outage.recovery_interview_ms'] = outage.recovery.interviewMs;
  out['llm_outage.recovery_interview_by_llm'] = Number(outage.recovery.interviewByLlm);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const which = process.argv[2];
  (which === 'outage' ? benchOutage() : which === 'kills' ? benchKills() : benchChaos()).then((r) => console.table(r));
}
