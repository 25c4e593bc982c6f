// A rerun of a cached world replays: the same town, seed and day over a response cache filled by a first
// run (against the faulty model double, so that repaired, lengthened and re-sent asks are among them)
// makes zero requests, counted at the HTTP double; its control, the same rerun with the cache cleared,
// makes requests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIStub } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { buildMinds } from '../../server/src/town/minds';
import { createLogger } from '../../server/src/town/logger';
import { GAME_MS_PER_DAY } from '../../server/src/protocol/time';
import { MapResponseCache } from '../../server/src/llm/memoryStores';
import type { WorldDb } from '../../server/src/store/WorldDb';
import type { LlmMind } from '../../server/src/agent/LlmMind';
import { clonePersonas } from '../../bench/fixtures';

const AGENTS = 5;
let stub: OpenAIStub;

/** One game day of a new world (its own file) whose LLM stack caches in `cache`; what its mind tallied. */
async function runDay(cache: MapResponseCache): Promise<{ requests: number; asks: number; fallbacks: number; repaired: number; longer: number }> {
  const before = stub.stats.requests;
  const config = loadConfig(
    {},
    {
      dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-replay-')),
      personasDir: clonePersonas(AGENTS),
      startTime: '2026-02-13T00:00',
      logLevel: 'silent',
      seed: 7,
      conversationMode: 'whole',
      llm: { baseURL: stub.url, apiKey: 'test', model: 'stub-model', concurrency: 8, timeoutMs: 1000, maxRetries: 2 },
    },
  );
  const minds = await buildMinds(config, createLogger('silent'));
  // The world's own file is new; its replies come from (and go to) the shared cache, as a copied world's would.
  const town = await Town.open(config, {
    embedder: minds.embedder,
    createMind: (hooks) => minds.createMind({ ...hooks, db: Object.create(hooks.db, { responseCache: { value: cache } }) as WorldDb }),
    logger: createLogger('silent'),
  });
  try {
    await town.loop.runLockstep(town.gameMs + GAME_MS_PER_DAY, 10_000);
    const tallies = [...(town.mind as LlmMind).tally.values()];
    const sum = (k: 'asks' | 'fellBack' | 'repaired' | 'longer') => tallies.reduce((s, t) => s + t[k], 0);
    return { requests: stub.stats.requests - before, asks: sum('asks'), fallbacks: sum('fellBack'), repaired: sum('repaired'), longer: sum('longer') };
  } finally {
    await town.close();
  }
}

describe('a rerun of a cached world', () => {
  const cache = new MapResponseCache();
  let first: Awaited<ReturnType<typeof runDay>>;
  beforeAll(async () => {
    // Content mistakes only (a transport fault's outcome depends on timing, a content one on the body alone).
    stub = installTownResponders(
      await new OpenAIStub({
        mistakeRate: 0.2,
        seed: 3,
        mistakes: ['prose', 'cut_off', 'missing_key', 'refusal', 'empty', 'wrong_type', 'unknown_place', 'unknown_person', 'unknown_evidence'],
      }).start(),
    );
    first = await runDay(cache);
  }, 240_000);
  afterAll(async () => stub?.close());

  it('the first run was helped past faults and made requests', () => {
    expect(first.requests).toBeGreaterThan(first.asks / 2);
    expect(first.repaired).toBeGreaterThan(0);
    expect(first.longer).toBeGreaterThan(0);
    expect(first.fallbacks).toBe(0);
  });

  it('replays the whole day with zero requests', async () => {
    const rerun = await runDay(cache);
    expect(rerun.asks).toBe(first.asks);
    expect(rerun.requests).toBe(0);
  }, 240_000);

  it('control: with the cache cleared, the same rerun makes requests', async () => {
    const cleared = await runDay(new MapResponseCache());
    expect(cleared.requests).toBeGreaterThan(0);
  }, 240_000);
});
