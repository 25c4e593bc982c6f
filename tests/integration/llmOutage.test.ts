// An LLM endpoint that fails 30% of its calls, then disappears, then returns, under a live town on a
// real Colyseus server (the stub over real HTTP). Compressed here (LLM_OUTAGE_MS, default 4 s, of
// outage); `npm run bench -- chaos` runs it with the real minute. The clock never stalls for good,
// every fallback the mind makes is in the log, no operation fails outright, and the town recovers by itself.
import { describe, expect, it } from 'vitest';
import { runLlmOutage } from '../chaos/llmOutage';

const OUTAGE_MS = Number(process.env.LLM_OUTAGE_MS ?? 4000);

describe('an LLM endpoint that fails, disappears and returns', () => {
  it('never stalls the clock for good, counts every fallback, and recovers by itself', async () => {
    const r = await runLlmOutage({
      healthyMs: 2000,
      faultyMs: 4000,
      outageMs: OUTAGE_MS,
      faultRate: 0.3,
      recoveryLimitMs: 20_000,
      watchAfterMs: 1500,
      rate: 3600,
      llm: { timeoutMs: 1000, maxRetries: 1, concurrency: 8 },
      hangMs: 3000,
      personasDir: 'personas',
    });
    const summary = JSON.stringify({ ...r, stub: undefined });
    console.log(`LLM outage: ${summary}`);
    // The faults were served, and the outage cost calls that fell back.
    expect(
      Object.values(r.stub.faults).reduce((a, b) => a + b, 0),
      summary,
    ).toBeGreaterThan(0);
    expect(r.phases.outage.fallbacks, summary).toBeGreaterThan(0);
    expect(r.fallbacksByPurpose.interview, summary).toBeGreaterThan(0);
    expect(r.interviewAnswer.length).toBeGreaterThan(0);
    // Every fallback is counted: the mind's count is the log's, and nothing failed past its fallback.
    expect(r.fallbacksLogged).toBe(r.fallbacksMade);
    expect(r.operationFailures).toEqual([]);
    // Recovered by itself: a good call after the return, the clock moving with nothing holding it.
    expect(r.recovery.firstGoodCallMs, summary).not.toBeNull();
    expect(r.recovery.clockRunningMs, summary).not.toBeNull();
    expect(r.recovery.interviewByLlm, summary).toBe(true);
    expect(r.phases.after.gameMinutes).toBeGreaterThan(0);
    expect(r.phases.after.maxStallMs, summary).toBeLessThan(10_000);
    // It stalled at most while calls ran out their retries, never for good.
    expect(r.maxStallMs, summary).toBeLessThan(OUTAGE_MS + 20_000);
  }, 90_000);
});
