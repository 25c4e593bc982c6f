// A town on the LLM mind, over real HTTP to the OpenAI-compatible stub: every purpose, every fault
// kind, the recorder's counts against the stub's, and the efficiency bound on calls per agent-day.
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
import { tempDir, threePersonas } from '../helpers';
import { interviewTown } from '../../server/src/analysis/believability';
import { parseClock } from '../../server/src/world/clockText';
import { planOfKept } from '../../server/src/protocol/plan';
import { ACTIONS_DECOMPOSED } from '../../server/src/agent/operations/plan';

describe('a 3-agent game day on the LLM mind', () => {
  let stub: OpenAIStub;
  let town: Town;

  beforeAll(async () => {
    stub = installTownResponders(await new OpenAIStub({ faults: ['500', '429', 'timeout', 'malformed'], hangMs: 1500 }).start());
    const config = loadConfig(
      {},
      {
        dataDir: tempDir(),
        personasDir: threePersonas(),
        startTime: '2026-02-13T00:00',
        logLevel: 'silent',
        llm: { baseURL: stub.url, apiKey: 'test', model: 'stub-model', timeoutMs: 1000, maxRetries: 4, concurrency: 8 },
      },
    );
    const minds = await buildMinds(config, createLogger('silent'));
    town = await Town.open(config, {
      embedder: minds.embedder,
      createMind: minds.createMind,
      logger: createLogger('silent'),
      runtimeSettings: { reflectionThreshold: 60 },
    });
    const start = town.gameMs;
    await town.loop.runLockstep(start + 9 * 3_600_000, 30_000);
    // Everyone awake hears it: a reason to react.
    town.commands.inject('Hobbs Cafe is closed today for a private party', null, 'test');
    await town.loop.runLockstep(start + GAME_MS_PER_DAY, 30_000);
    await town.commands.interview(asAgentId('claire'), 'What are you looking forward to?', 'test');
    // Into the next morning: everyone plans day 2, revising their status from day 1.
    await town.loop.runLockstep(start + GAME_MS_PER_DAY + 9 * 3_600_000, 30_000);
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
    const rows = town.db.db.prepare('SELECT outcome, count(*) AS n FROM llm_calls WHERE cached = 0 GROUP BY outcome').all() as Array<{
      outcome: string;
      n: number;
    }>;
    const total = rows.reduce((s, r) => s + r.n, 0);
    // The response-format probe's requests (once, at the first call) are the adapter's own, not calls of the town.
    const probes = stub.stats.bySchema.probe_reply ?? 0;
    expect(probes).toBeGreaterThan(0);
    expect(total).toBe(stub.stats.requests - probes);
    expect(rows.find((r) => r.outcome === 'ok')!.n).toBe(stub.stats.requests - probes - 4);
    expect(stub.stats.violations).toEqual([]);
  });

  it('plans, talks, reflects and remembers through the LLM', () => {
    const plans = town.db.db.prepare("SELECT count(*) FROM events WHERE kind = 'plan.made'").pluck().get() as number;
    expect(plans).toBeGreaterThanOrEqual(3);
    expect(town.db.memories.recent(asAgentId('isabella'), 500).some((m) => m.kind === 'thought')).toBe(true);
    expect(town.db.db.prepare("SELECT count(*) FROM events WHERE kind = 'conversation.utterance'").pluck().get() as number).toBeGreaterThan(0);
    // Plans made by the LLM send agents to real places.
    const plan = planOfKept(town.sim.agent('isabella')!.plan!);
    expect(plan.actions.every((a) => town.map.arenasByAddress.has(a.address) || town.map.objectsByAddress.has(a.address))).toBe(true);
  });

  it('decides whether to react and whom to talk to in the importance call, with no call of its own', () => {
    expect(stub.stats.bySchema.appraise_reply).toBeGreaterThan(0);
    const talks = town.db.events.read(0, Number.MAX_SAFE_INTEGER, 1_000_000).filter((e) => e.kind === 'conversation.start');
    expect(talks.length).toBeGreaterThan(0);
    expect(talks.every((e) => e.kind === 'conversation.start' && e.data.basis !== undefined)).toBe(true);
  });

  it('decomposes the day in parts, none of whose replies must hold the whole day', () => {
    // The second day's prompts repeat the first's, so the cache answers them: the stub saw day 1.
    const blocks = stub.stats.bySchema.decompose_blocks;
    expect(blocks).toBe(3);
    expect(stub.stats.bySchema.decompose_actions).toBeGreaterThanOrEqual(2 * blocks);
    const plan = planOfKept(town.sim.agent('claire')!.plan!);
    const claire = town.personas.get('claire')!;
    const last = plan.actions[plan.actions.length - 1];
    expect(plan.actions[0].startMinute).toBe(parseClock(claire.wakeAt));
    expect(last.startMinute + last.durationMinutes).toBe(parseClock(claire.sleepAt));
  });

  it('hands each plan to the sim at once, and its decomposed actions after it as a re-plan of that day from the agent\u2019s minute', () => {
    const events = town.db.events.read(0, Number.MAX_SAFE_INTEGER, 1_000_000);
    const decomposed = events.filter((e) => e.kind === 'plan.made' && 'reason' in e.data && e.data.reason === ACTIONS_DECOMPOSED);
    expect(new Set(decomposed.map((e) => e.agentId))).toEqual(new Set(town.sim.agents().map((a) => a.spec.id)));
    for (const e of decomposed) {
      const dayPlan = events.find(
        (p) => p.kind === 'plan.made' && 'broadStrokes' in p.data && p.agentId === e.agentId && p.data.day === (e.data as { day: number }).day,
      );
      expect(dayPlan, `${e.agentId}'s plan before its actions`).toBeDefined();
      expect(dayPlan!.seq).toBeLessThan(e.seq);
      const { fromMinute, actions } = e.data as { fromMinute: number; actions: Array<{ startMinute: number }> };
      expect(actions[0]!.startMinute).toBeGreaterThanOrEqual(fromMinute);
    }
  });

  it('revises relationships after talks and every status on the second morning', () => {
    const events = town.db.events.read(0, Number.MAX_SAFE_INTEGER, 1_000_000);
    expect(events.some((e) => e.kind === 'relationship.revised' && /friend/.test(e.data.summary))).toBe(true);
    const revised = events.filter((e) => e.kind === 'status.revised');
    expect(new Set(revised.map((e) => e.agentId))).toEqual(new Set(['isabella', 'claire', 'omar']));
    expect(town.runtime.statusOf(asAgentId('omar'))).toBe('Thinking over yesterday, and keen to get on with today.');
  });

  it('runs the interview benchmark against the stub: its deaf answers (name and first memory) mostly fail, grounded ones pass', async () => {
    const report = await interviewTown(town);
    expect(report.results).toHaveLength(3 * 10);
    // The stub answers every question with its name and its first memory: town news most of the time,
    // which fits anyone's records as well as its own, and never the situation a reaction asks about.
    expect(report.overall).toBeLessThan(0.5);
    expect(report.results.filter((r) => r.category === 'reactions' && r.failure === 'does not take up the situation').length).toBeGreaterThan(0);
    expect(report.results.some((r) => /records as well as its own/.test(r.failure ?? ''))).toBe(true);
    // Isabella's first memory is her own plan for the party: grounded in her records, and hers alone.
    expect(report.results.find((r) => r.agentId === 'isabella' && r.category === 'plans')!.passed).toBe(true);
    console.log('interview pass rates (stub):', JSON.stringify(report.passRate), 'controls:', report.controlPassRate);
  });

  it('stays within 100 chat calls per agent per game day', () => {
    const summary = town.db.summariseCalls();
    // The run covers a day and the next morning's plans.
    const agentDays = (3 * 33) / 24;
    console.log(
      `LLM calls per agent-day: ${(summary.calls / agentDays).toFixed(1)}, tokens per ` +
        `agent-day: ${((summary.promptTokens + summary.completionTokens) / agentDays).toFixed(0)}`,
      JSON.stringify(summary.byPurpose),
    );
    expect(summary.calls / agentDays).toBeLessThanOrEqual(100);
  });
});

describe('a 3-agent evening with whole conversations (CONVERSATION_MODE=whole)', () => {
  let stub: OpenAIStub;
  let town: Town;

  beforeAll(async () => {
    stub = installTownResponders(await new OpenAIStub().start());
    const config = loadConfig(
      {},
      {
        dataDir: tempDir(),
        personasDir: threePersonas(),
        startTime: '2026-02-14T16:00',
        conversationMode: 'whole',
        logLevel: 'silent',
        llm: { baseURL: stub.url, apiKey: 'test', model: 'stub-model', concurrency: 8 },
      },
    );
    const minds = await buildMinds(config, createLogger('silent'));
    town = await Town.open(config, { embedder: minds.embedder, createMind: minds.createMind, logger: createLogger('silent') });
    await town.loop.runLockstep(town.gameMs + 6 * 3_600_000, 30_000);
  }, 120_000);

  afterAll(async () => {
    await town?.close();
    await stub?.close();
  });

  it('writes each conversation in one call, and the sim shows its lines one by one', () => {
    expect(town.runtime.settings.conversationMode).toBe('whole');
    expect(stub.stats.bySchema.converse_whole).toBeGreaterThan(0);
    expect(stub.stats.bySchema.converse_reply ?? 0).toBe(0);
    const events = town.db.events.read(0, Number.MAX_SAFE_INTEGER, 1_000_000);
    const utterances = events.filter((e) => e.kind === 'conversation.utterance');
    expect(utterances.length).toBeGreaterThanOrEqual(3 * stub.stats.bySchema.converse_whole);
    expect(new Set(utterances.map((e) => e.gameMs)).size).toBe(utterances.length);
  });

  it('re-plans the day of a listener who accepted the party in a talk', () => {
    const replans = town.db.events
      .read(0, Number.MAX_SAFE_INTEGER, 1_000_000)
      .filter((e) => e.kind === 'plan.made' && 'reason' in e.data && /^I will go to the party at Hobbs Cafe at \d\d:00\.$/.test(e.data.reason));
    expect(replans.length).toBeGreaterThan(0);
    const first = replans[0];
    const hour = Number(first.kind === 'plan.made' && 'reason' in first.data ? first.data.reason.slice(-6, -4) : -1);
    expect(first.data).toMatchObject({ fromMinute: hour * 60 });
    const listener = town.sim.agent(first.agentId!)!;
    expect(planOfKept(listener.plan!).actions).toContainEqual(
      expect.objectContaining({ startMinute: hour * 60, description: 'going to the party', address: 'Hobbs Cafe: cafe' }),
    );
  });
});
