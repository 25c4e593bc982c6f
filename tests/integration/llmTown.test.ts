// A town on the LLM mind, over real HTTP to the OpenAI-compatible stub: every purpose, every fault
// kind, the recorder's counts against the stub's, and the efficiency bound on calls per agent-day.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIStub } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { buildMinds } from '../../server/src/town/minds';
import { createLogger } from '../../server/src/town/logger';
import { asAgentId } from '../../server/src/world/types';
import { GAME_MS_PER_DAY } from '../../server/src/protocol/time';
import { PURPOSES } from '../../server/src/llm/types';
import { tempDir } from '../helpers';

/** Three of the shipped personas, with their relationships trimmed to one another. */
export function threePersonas(ids = ['isabella', 'claire', 'omar']): string {
  const dir = tempDir('smalltown-personas-');
  for (const id of ids) {
    const doc = YAML.parse(fs.readFileSync(`personas/${id}.yaml`, 'utf8')) as { relationships: Record<string, string> };
    doc.relationships = Object.fromEntries(Object.entries(doc.relationships).filter(([k]) => ids.includes(k)));
    fs.writeFileSync(path.join(dir, `${id}.yaml`), YAML.stringify(doc));
  }
  return dir;
}

describe('a 3-agent game day on the LLM mind', () => {
  let stub: OpenAIStub;
  let town: Town;

  beforeAll(async () => {
    stub = installTownResponders(await new OpenAIStub({ faults: ['500', '429', 'timeout', 'malformed'], hangMs: 1500 }).start());
    const config = loadConfig({}, { dataDir: tempDir(), personasDir: threePersonas(), startTime: '2026-02-13T00:00', logLevel: 'silent', llm: { baseURL: stub.url, apiKey: 'test', model: 'stub-model', timeoutMs: 1000, maxRetries: 4, concurrency: 8 } });
    const minds = buildMinds(config, createLogger('silent'));
    town = await Town.open(config, { embedder: minds.embedder, createMind: minds.createMind, logger: createLogger('silent'), runtimeSettings: { reflectionThreshold: 60 } });
    const start = town.gameMs;
    await town.loop.runLockstep(start + 9 * 3_600_000, 30_000);
    // Everyone awake hears it: a reason to react.
    town.commands.inject('Hobbs Cafe is closed today for a private party', null, 'test');
    await town.loop.runLockstep(start + GAME_MS_PER_DAY, 30_000);
    await town.commands.interview(asAgentId('claire'), 'What are you looking forward to?', 'test');
  }, 120_000);

  afterAll(async () => {
    await town?.close();
    await stub?.close();
  });

  it('runs on the LLM and says so', () => {
    expect(town.mind.label).toMatch(/^llm: stub-model @ 127\.0\.0\.1:\d+$/);
  });

  it('exercises every purpose', () => {
    const calls = town.db.summariseCalls();
    for (const purpose of PURPOSES) expect(calls.byPurpose[purpose]?.calls ?? 0, purpose).toBeGreaterThan(0);
  });

  it('recovers from every fault kind, and the recorder counts what the stub served', () => {
    expect(stub.stats.faults).toEqual({ '500': 1, '429': 1, timeout: 1, malformed: 1 });
    const rows = town.db.db.prepare('SELECT outcome, count(*) AS n FROM llm_calls WHERE cached = 0 GROUP BY outcome').all() as Array<{ outcome: string; n: number }>;
    const total = rows.reduce((s, r) => s + r.n, 0);
    expect(total).toBe(stub.stats.requests);
    expect(rows.find((r) => r.outcome === 'ok')!.n).toBe(stub.stats.requests - 4);
    expect(stub.stats.violations).toEqual([]);
  });

  it('plans, talks, reflects and remembers through the LLM', () => {
    const plans = town.db.db.prepare("SELECT count(*) FROM events WHERE kind = 'plan.made'").pluck().get() as number;
    expect(plans).toBeGreaterThanOrEqual(3);
    expect(town.db.memories.recent(asAgentId('isabella'), 500).some((m) => m.kind === 'thought')).toBe(true);
    expect(town.db.db.prepare("SELECT count(*) FROM events WHERE kind = 'conversation.utterance'").pluck().get() as number).toBeGreaterThan(0);
    // Plans made by the LLM send agents to real places.
    const plan = town.sim.agent('isabella')!.plan!;
    expect(plan.actions.every((a) => town.map.arenasByAddress.has(a.address) || town.map.objectsByAddress.has(a.address))).toBe(true);
  });

  it('stays within 100 chat calls per agent per game day', () => {
    const summary = town.db.summariseCalls();
    console.log(`LLM calls per agent-day: ${(summary.calls / 3).toFixed(1)}, tokens per agent-day: ${((summary.promptTokens + summary.completionTokens) / 3).toFixed(0)}`, JSON.stringify(summary.byPurpose));
    expect(summary.calls / 3).toBeLessThanOrEqual(100);
  });
});
