// An LLM endpoint that fails a share of its calls, then disappears, then returns, under a live town
// (a real Colyseus server ticking in real time, CLOCK_POLICY=wait, the stub over real HTTP). Measured
// from outside the mind: how long the game clock stood still at most, how many fallbacks the mind made
// against how many the log holds, how many operations failed outright, and how soon after the endpoint
// returned the town had a good call and a moving clock again. The test runs it compressed; the
// benchmark with the real minute.
import { performance } from 'node:perf_hooks';
import { OpenAIStub } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';
import { LlmMind } from '../../server/src/agent/LlmMind';
import type { Logger } from '../../server/src/town/logger';
import { startTestTown } from '../helpers';

export interface OutageOptions {
  /** How long the town runs on a healthy endpoint first (its residents plan their day). */
  healthyMs: number;
  /** How long the endpoint fails `faultRate` of its calls (500, 429, timeouts, malformed JSON), then how long it is gone. */
  faultyMs: number;
  outageMs: number;
  faultRate: number;
  /** After it returns: how long to wait at most for the town to recover, and to watch it go on once it has. */
  recoveryLimitMs: number;
  watchAfterMs: number;
  /** Game ms per real ms. */
  rate: number;
  llm: { timeoutMs: number; maxRetries: number; concurrency: number };
  /** How long the stub's 'timeout' fault hangs (past the call's timeout, so it times out). */
  hangMs: number;
  /** The town's persona folder. */
  personasDir: string;
  seed?: number;
}

export interface PhaseFigures {
  realMs: number;
  gameMinutes: number;
  /** The longest the game clock stood still (real ms), and what held it then. */
  maxStallMs: number;
  stallHolds: string[];
  /** Requests the endpoint was sent (recorder rows), and those that failed. */
  calls: number;
  failedCalls: number;
  fallbacks: number;
}

export interface OutageResult {
  phases: { healthy: PhaseFigures; faulty: PhaseFigures; outage: PhaseFigures; after: PhaseFigures };
  /** The longest stall once the endpoint first failed (the healthy start, when everyone plans, not counted). */
  maxStallMs: number;
  /** Fallbacks the mind made, and `llm.fallback` events the log holds. */
  fallbacksMade: number;
  fallbacksLogged: number;
  fallbacksByPurpose: Record<string, number>;
  /** Operations that failed outright (an error past every fallback): none may. */
  operationFailures: string[];
  /** From the endpoint's return: the first good call, the clock moving with no hold, and an operator's question answered (by the LLM or not). */
  recovery: { firstGoodCallMs: number | null; clockRunningMs: number | null; interviewMs: number; interviewByLlm: boolean };
  holdsAtEnd: string[];
  /** The answer to the question asked during the outage (the offline mind's, after the fallback). */
  interviewAnswer: string;
  stub: OpenAIStub['stats'];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runLlmOutage(o: OutageOptions): Promise<OutageResult> {
  const stub = installTownResponders(await new OpenAIStub({ latencyMs: 50, hangMs: o.hangMs, seed: o.seed ?? 1 }).start());
  const warnings: string[] = [];
  const logger: Logger = { debug: () => undefined, info: () => undefined, warn: (m) => void warnings.push(m), error: (m) => void warnings.push(m) };
  const server = await startTestTown(
    {
      personasDir: o.personasDir,
      startTime: '2026-02-13T08:30',
      rate: o.rate,
      clockPolicy: 'wait',
      llm: { baseURL: stub.url, apiKey: 'outage', model: 'stub-model', ...o.llm },
    },
    { logger },
  );
  const town = server.town;
  const mind = town.mind;
  if (!(mind instanceof LlmMind)) throw new Error('the town is not on the LLM mind');
  const fallbacksMade = () => [...mind.fallbacks.values()].reduce((a, b) => a + b, 0);
  const callRows = (sinceWallMs: number) =>
    town.db.db
      .prepare("SELECT count(*) AS calls, coalesce(sum(outcome != 'ok'), 0) AS failed FROM llm_calls WHERE cached = 0 AND wall_ms >= ?")
      .get(sinceWallMs) as { calls: number; failed: number };

  let maxStallMs = 0;
  let lastMove = { realMs: performance.now(), gameMs: town.clock.gameMs };
  /** Watches the clock for `ms` (or until `until` says so), every 50 ms. */
  const watch = async (ms: number, until?: () => boolean): Promise<PhaseFigures> => {
    const t0 = performance.now();
    const wall0 = Date.now();
    const game0 = town.clock.gameMs;
    const fallbacks0 = fallbacksMade();
    let phaseStall = 0;
    let stallHolds: string[] = [];
    /** What held the clock during the stall going on now. */
    let holding = new Set<string>();
    while (performance.now() - t0 < ms && !until?.()) {
      await sleep(50);
      const now = performance.now();
      if (town.clock.gameMs !== lastMove.gameMs) {
        lastMove = { realMs: now, gameMs: town.clock.gameMs };
        holding = new Set();
      } else for (const h of town.holds.list()) holding.add(h);
      if (now - lastMove.realMs > phaseStall) [phaseStall, stallHolds] = [now - lastMove.realMs, [...holding]];
      maxStallMs = Math.max(maxStallMs, phaseStall);
    }
    const rows = callRows(wall0);
    return {
      realMs: performance.now() - t0,
      gameMinutes: (town.clock.gameMs - game0) / 60_000,
      maxStallMs: phaseStall,
      stallHolds,
      calls: rows.calls,
      failedCalls: rows.failed,
      fallbacks: fallbacksMade() - fallbacks0,
    };
  };

  try {
    const healthy = await watch(o.healthyMs);
    maxStallMs = 0;
    stub.setFaultRate(o.faultRate);
    const faulty = await watch(o.faultyMs);
    await stub.disappear();
    // An operator asks a question while the endpoint is gone: at least one call is sure to meet the outage.
    const someone = town.sim.agents()[0]!.spec.id;
    const interview = town.commands.interview(someone, 'What are you doing right now?', 'outage');
    const outage = await watch(o.outageMs);
    const answer = await interview;
    await stub.reappear();
    stub.setFaultRate(0);
    const back = Date.now();
    const backPerf = performance.now();
    // Stalls after the return count from the return.
    lastMove = { realMs: backPerf, gameMs: town.clock.gameMs };
    const gameAtReturn = town.clock.gameMs;
    let firstGoodCallMs: number | null = null;
    let clockRunningMs: number | null = null;
    const recovered = () => {
      const good = town.db.db.prepare("SELECT min(wall_ms) FROM llm_calls WHERE outcome = 'ok' AND cached = 0 AND wall_ms >= ?").pluck().get(back) as
        | number
        | null;
      if (good !== null && firstGoodCallMs === null) firstGoodCallMs = good - back;
      if (clockRunningMs === null && town.holds.list().length === 0 && town.clock.gameMs !== gameAtReturn) clockRunningMs = performance.now() - backPerf;
      return firstGoodCallMs !== null && clockRunningMs !== null;
    };
    // An operator's question right after the return: how soon the LLM answers again (not the fallback).
    const asked = performance.now();
    const interviewFallbacks = mind.fallbacks.get('interview') ?? 0;
    const answerAfter = town.commands.interview(someone, 'Is everything all right?', 'outage').then(() => ({
      ms: performance.now() - asked,
      byLlm: (mind.fallbacks.get('interview') ?? 0) === interviewFallbacks,
    }));
    const after = await watch(o.recoveryLimitMs, recovered);
    const on = await watch(o.watchAfterMs);
    recovered();
    const merged: PhaseFigures = {
      realMs: after.realMs + on.realMs,
      gameMinutes: after.gameMinutes + on.gameMinutes,
      maxStallMs: Math.max(after.maxStallMs, on.maxStallMs),
      stallHolds: after.maxStallMs >= on.maxStallMs ? after.stallHolds : on.stallHolds,
      calls: after.calls + on.calls,
      failedCalls: after.failedCalls + on.failedCalls,
      fallbacks: after.fallbacks + on.fallbacks,
    };
    const holdsAtEnd = town.holds.list();
    const interviewAfterReturn = await answerAfter;
    // Count once nothing is in flight: pause, let the operations end, and let a tick write what they queued.
    town.commands.pause('outage');
    await town.runtime.idle();
    await sleep(300);
    const fallbacksLogged = town.db.db.prepare("SELECT count(*) FROM events WHERE kind = 'llm.fallback'").pluck().get() as number;
    return {
      phases: { healthy, faulty, outage, after: merged },
      maxStallMs,
      fallbacksMade: fallbacksMade(),
      fallbacksLogged,
      fallbacksByPurpose: Object.fromEntries(mind.fallbacks),
      operationFailures: warnings.filter((w) => /^operation \w+ failed/.test(w)),
      recovery: { firstGoodCallMs, clockRunningMs, interviewMs: interviewAfterReturn.ms, interviewByLlm: interviewAfterReturn.byLlm },
      holdsAtEnd,
      interviewAnswer: answer.answer,
      stub: stub.stats,
    };
  } finally {
    await server.close();
    await stub.close();
  }
}
