// A 25-agent game day against the faulty model double, 20% of first replies faulty (every real-model
// mistake and the transport faults, repairs clean), next to the same day on a clean double: at most 1%
// of asks fall back, and the invitation spreads as it does in the clean run. (The control that fails,
// a double whose repairs are faulty too, is llm:check's in llmMistakes.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import { runFaultyDay, type FaultyDay } from '../fakes/faultyDay';
import { MISTAKES } from '../fakes/openaiStub';

describe('a 25-agent game day with 20% of first replies faulty', () => {
  let clean: FaultyDay;
  let faulty: FaultyDay;
  beforeAll(async () => {
    [clean, faulty] = await Promise.all([runFaultyDay(0), runFaultyDay(0.2)]);
    for (const [name, d] of [
      ['clean', clean],
      ['faulty_20', faulty],
    ] as const) {
      const { faults: _faults, ...figures } = d;
      console.log(`faulty day ${name}: ${JSON.stringify(figures)}`);
    }
  }, 600_000);

  it('meets every real-model mistake and transport fault', () => {
    for (const kind of MISTAKES) {
      expect(faulty.faults[kind] ?? 0, kind).toBeGreaterThan(0);
    }
    expect(clean.faults).toEqual({});
  });

  it('falls back on at most 1% of asks, through repairs', () => {
    expect(clean.fallbacks).toBe(0);
    expect(faulty.fallbackShare).toBeLessThanOrEqual(0.01);
    expect(faulty.repairs).toBeGreaterThan(0);
    expect(faulty.requestsPerAsk).toBeGreaterThan(clean.requestsPerAsk);
  });

  it('spreads the invitation as the clean run does', () => {
    expect(clean.heardOfParty).toBeGreaterThan(0);
    expect(faulty.heardOfParty).toBeGreaterThanOrEqual(Math.floor(clean.heardOfParty * 0.75));
  });
});
