// A 25-agent game day against the faulty model double with 20% of replies faulty (every real-model
// mistake, names not in town, the transport faults and a 429 that repeats for the same body), repair
// turns and the response-format probe faulty at the same rate (its first reply cut off, for certain),
// next to the same day on a clean double: at most 1% of asks fall back, most day plans go on to ask for
// their actions, and the invitation reaches most of those it reaches in the clean run. (The control that fails, a
// double whose every reply and repair is a refusal, is llm:check's in llmMistakes.test.ts.)
import { beforeAll, describe, expect, it } from 'vitest';
import { runFaultyDay, type FaultyDay } from '../fakes/faultyDay';
import { MISTAKES, SAME_BODY_429 } from '../fakes/openaiStub';

describe('a 25-agent game day with 20% of replies faulty, repairs and probe included', () => {
  let clean: FaultyDay;
  let faulty: FaultyDay;
  beforeAll(async () => {
    [clean, faulty] = await Promise.all([runFaultyDay(0), runFaultyDay(0.2, { faultyRepairs: true, faultyProbe: true, firstFaults: ['cut_off'] })]);
    for (const [name, d] of [
      ['clean', clean],
      ['faulty_20', faulty],
    ] as const) {
      const { faults: _faults, ...figures } = d;
      console.log(`faulty day ${name}: ${JSON.stringify(figures)}`);
    }
  }, 900_000);

  it('meets every real-model mistake and transport fault, and a probe cut off', () => {
    for (const kind of [...MISTAKES, SAME_BODY_429]) {
      expect(faulty.faults[kind] ?? 0, kind).toBeGreaterThan(0);
    }
    expect(faulty.probeRequests).toBeGreaterThanOrEqual(2);
    expect(clean.faults).toEqual({});
  });

  it('falls back on at most 1% of asks, through repairs', () => {
    expect(clean.fallbacks).toBe(0);
    expect(faulty.fallbackShare).toBeLessThanOrEqual(0.01);
    expect(faulty.repairs).toBeGreaterThan(0);
    expect(faulty.semanticMendsPerAgentDay).toBeGreaterThan(0);
    expect(faulty.requestsPerAsk).toBeGreaterThan(clean.requestsPerAsk);
  });

  it('asks for the actions of most day plans', () => {
    expect(clean.decomposedShare).toBe(1);
    expect(faulty.decomposedShare).toBeGreaterThan(0.9);
  });

  // How far a faulty day spreads it varies with the faults drawn: over seeds 1..3 the clean day reached 20 each time
  // and the faulty day 14, 20 and 14 (before the news an agent tells covered two days, 19, 7 and 14).
  it('spreads the invitation to most of those the clean run reaches', () => {
    expect(clean.heardOfParty).toBeGreaterThan(0);
    expect(faulty.heardOfParty).toBeGreaterThanOrEqual(Math.floor(clean.heardOfParty * 0.6));
  });
});
