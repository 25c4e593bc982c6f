// A 25-agent game day on the LLM mind over real HTTP to the faulty model double: `mistakeRate` of first
// replies carry one real-model mistake (or a transport fault); repair turns and the start-up probe are
// clean, or faulty at the same rate (`faultyRepairs`, `faultyProbe`). What the issue's
// tests and the bench read of it: how many asks fell back, requests per ask, repairs, calls and tokens
// per agent-day, and how far the shipped invitation (Isabella's Valentine's Day party) spread.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OpenAIStub, type Fault } from './openaiStub';
import { installTownResponders } from './townResponders';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { buildMinds } from '../../server/src/town/minds';
import { createLogger } from '../../server/src/town/logger';
import { GAME_MS_PER_DAY } from '../../server/src/protocol/time';
import type { LlmMind } from '../../server/src/agent/LlmMind';
import { clonePersonas } from '../../bench/fixtures';

export interface FaultyDay {
  agents: number;
  asks: number;
  requests: number;
  fallbacks: number;
  repairs: number;
  mends: number;
  fallbackShare: number;
  requestsPerAsk: number;
  repairsPerAgentDay: number;
  callsPerAgentDay: number;
  tokensPerAgentDay: number;
  /** Agents (Isabella aside) holding a memory of the party by the day's end. */
  heardOfParty: number;
  faults: Record<string, number>;
  /** Day plans whose actions were asked for (decompose_actions), of those asked for. */
  decomposedShare: number;
  /** Replies that named something not in town, repaired or used without it, per agent-day. */
  semanticMendsPerAgentDay: number;
  /** Requests of the response-format probe. */
  probeRequests: number;
}

export interface FaultyDayOptions {
  seed?: number;
  agents?: number;
  faultyRepairs?: boolean;
  faultyProbe?: boolean;
  /** Faults served first, in order: the first request of the day is the response-format probe's. */
  firstFaults?: Fault[];
}

export async function runFaultyDay(mistakeRate: number, options: FaultyDayOptions = {}): Promise<FaultyDay> {
  const { seed = 1, agents = 25, faultyRepairs = false, faultyProbe = false, firstFaults = [] } = options;
  const stub = installTownResponders(
    await new OpenAIStub({ mistakeRate, seed, hangMs: 1500, faultyRepairs, faultyProbe, faults: firstFaults, drawsByBody: true }).start(),
  );
  const config = loadConfig(
    {},
    {
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-faulty-')),
      personasDir: clonePersonas(agents),
      startTime: '2026-02-13T00:00',
      logLevel: 'silent',
      seed,
      conversationMode: 'whole',
      llm: { baseURL: stub.url, apiKey: 'test', model: 'stub-model', concurrency: 32, timeoutMs: 1000, maxRetries: 4 },
    },
  );
  const minds = await buildMinds(config, createLogger('silent'));
  const town = await Town.open(config, { embedder: minds.embedder, createMind: minds.createMind, logger: createLogger('silent') });
  try {
    // The invitation, told to the host as a whisper (a memory) at the start, so that talk can carry it.
    const host = town.sim.agents().find((a) => a.spec.id.startsWith('isabella'))!.spec.id;
    await town.commands.whisper(host, "Isabella is hosting a Valentine's Day party at Hobbs Cafe on February 14 at 5pm", 'test');
    await town.loop.runLockstep(town.gameMs + GAME_MS_PER_DAY, 10_000);
    const mind = town.mind as LlmMind;
    const tallies = [...mind.tally.values()];
    const asks = tallies.reduce((s, t) => s + t.asks, 0);
    const requests = tallies.reduce((s, t) => s + t.requests, 0);
    const fallbacks = [...mind.fallbacks.values()].reduce((s, n) => s + n, 0);
    const repairs = tallies.reduce((s, t) => s + t.repaired, 0);
    const calls = town.db.summariseCalls();
    const heard = town.sim
      .agents()
      .filter((a) => !a.spec.id.startsWith('isabella') && town.db.memories.recent(a.spec.id, 5000).some((m) => /party/i.test(m.description))).length;
    return {
      agents,
      asks,
      requests,
      fallbacks,
      repairs,
      mends: tallies.reduce((s, t) => s + t.mended, 0),
      fallbackShare: fallbacks / Math.max(1, asks),
      requestsPerAsk: (stub.stats.requests - (stub.stats.bySchema.probe_reply ?? 0)) / Math.max(1, asks),
      repairsPerAgentDay: repairs / agents,
      callsPerAgentDay: calls.calls / agents,
      tokensPerAgentDay: (calls.promptTokens + calls.completionTokens) / agents,
      heardOfParty: heard,
      faults: { ...stub.stats.faults },
      decomposedShare: mind.dayPlans.decomposed / Math.max(1, mind.dayPlans.asked),
      semanticMendsPerAgentDay: tallies.reduce((s, t) => s + t.semanticMends, 0) / agents,
      probeRequests: stub.stats.bySchema.probe_reply ?? 0,
    };
  } finally {
    await town.close();
    await stub.close();
  }
}
