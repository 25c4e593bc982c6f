// The LLM path against a model that keeps failing, over real HTTP to the faulty model double: the
// response-format probe (cut off, unfit, failing transport, re-probed on a schedule), an ask whose
// transport retries are spent, a reply cut off twice, a cache that replays repaired asks, and replies
// that fit the schema but name places, people or evidence not in town.
import { afterEach, describe, expect, it } from 'vitest';
import { workingContext } from '../helpers';
import { OpenAIStub, SAME_BODY_429, type Fault } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';
import { OpenAIChatModel, type ResponseFormatMode } from '../../server/src/llm/OpenAIChatModel';
import { buildChatStack } from '../../server/src/llm/stack';
import { ArrayCallLog, MapResponseCache } from '../../server/src/llm/memoryStores';
import { Pricing } from '../../server/src/llm/pricing';
import { cacheKey } from '../../server/src/llm/CachingChatModel';
import { LlmMind } from '../../server/src/agent/LlmMind';
import type { FallbackReport, MendReport } from '../../server/src/agent/llmAsk';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonas } from '../../server/src/world/persona';
import { ManualClock } from '../../server/src/core/wallClock';
import type { MindContext } from '../../server/src/agent/mind';
import type { Memory, MemoryId } from '../../server/src/store/types';
import type { AgentId } from '../../server/src/world/types';
import type { ChatRequest } from '../../server/src/llm/types';
import { formatCheck, runLlmCheck } from '../../scripts/llmCheck';

const map = loadTownMap('maps/town.tmj');
const personas = loadPersonas('personas', map, () => {});
const isabella = personas.find((p) => p.id === 'isabella')!;
const claire = personas.find((p) => p.id === 'claire')!;
const startMs = Date.UTC(2026, 1, 13, 10);
const ctx: MindContext = workingContext(isabella, personas, map, startMs);
const memories: Memory[] = ['Isabella made coffee', 'Isabella talked with Claire', 'Isabella decorated the cafe'].map((description, i) => ({
  id: (i + 1) as MemoryId,
  agentId: isabella.id as AgentId,
  kind: 'observation',
  description,
  createdGameMs: startMs - 3_600_000,
  lastAccessedGameMs: startMs,
  importance: 4,
  triple: null,
  evidenceIds: [],
}));
const noSleep = async () => undefined;

let stubs: OpenAIStub[] = [];
afterEach(async () => {
  await Promise.all(stubs.map((s) => s.close()));
  stubs = [];
});

async function startStub(options: ConstructorParameters<typeof OpenAIStub>[0] = {}): Promise<OpenAIStub> {
  const stub = installTownResponders(await new OpenAIStub({ hangMs: 400, ...options }).start());
  stubs.push(stub);
  return stub;
}

function adapterFor(stub: OpenAIStub, extra: Partial<ConstructorParameters<typeof OpenAIChatModel>[0]> = {}) {
  const probes: Array<{ mode: ResponseFormatMode; detail: string }> = [];
  const adapter = new OpenAIChatModel({
    baseURL: stub.url,
    models: { default: 'stub-model' },
    responseFormat: 'auto',
    timeoutMs: 250,
    sleep: noSleep,
    onProbe: (mode, detail) => probes.push({ mode, detail }),
    ...extra,
  });
  return { adapter, probes };
}

function mindOver(stub: OpenAIStub, options: { cache?: MapResponseCache; maxRetries?: number; adapter?: OpenAIChatModel } = {}) {
  const adapter =
    options.adapter ?? new OpenAIChatModel({ baseURL: stub.url, models: { default: 'stub-model' }, responseFormat: 'json_schema', timeoutMs: 250 });
  const cache = options.cache ?? new MapResponseCache();
  const stack = buildChatStack(adapter, {
    modelFor: () => 'stub-model',
    cache,
    log: new ArrayCallLog(),
    pricing: new Pricing({}),
    budget: { tokens: 0, usd: 0 },
    concurrency: 4,
    requestsPerMinute: 0,
    tokensPerMinute: 0,
    maxRetries: options.maxRetries ?? 3,
    sleep: noSleep,
  });
  const mends: MendReport[] = [];
  const fallbacks: FallbackReport[] = [];
  const mind = new LlmMind({ model: stack.model, label: 'test', onMend: (m) => mends.push(m), onFallback: (f) => fallbacks.push(f) });
  return { mind, cache, mends, fallbacks };
}

describe('the response-format probe', () => {
  it('gives a cut-off probe reply a bigger budget and keeps json_schema', async () => {
    const stub = await startStub({ faults: ['cut_off'], faultyProbe: true });
    const { adapter, probes } = adapterFor(stub);
    expect(await adapter.probe()).toBe('json_schema');
    expect(stub.stats.faults.cut_off).toBe(1);
    expect(stub.stats.bySchema.probe_reply).toBe(2);
    expect(probes).toHaveLength(1);
    expect(probes[0].detail).toMatch(/honoured json_schema/);
  });

  it('repairs an unfit probe reply, and takes a second sample before giving a mode up', async () => {
    // Sample 1: a refusal, its repair a refusal; sample 2: clean.
    const stub = await startStub({ faults: ['refusal', 'refusal'], faultyProbe: true, faultyRepairs: true });
    const { adapter, probes } = adapterFor(stub);
    expect(await adapter.probe()).toBe('json_schema');
    expect(stub.stats.bySchema.probe_reply).toBe(3);
    expect(probes[0].detail).toMatch(/second sample/);
  });

  it('retries a failing probe with backoff once, and does not probe again per ask', async () => {
    const stub = await startStub({ faults: ['500', '429'], faultyProbe: true });
    const { adapter, probes } = adapterFor(stub);
    const { mind, fallbacks } = mindOver(stub, { adapter });
    for (let i = 0; i < 5; i++) await mind.interview(ctx, `What is on your mind (${i})?`, memories);
    expect(fallbacks).toEqual([]);
    expect(adapter.responseFormat).toBe('json_schema');
    // Two failures and one answer; then five asks, no probe among them.
    expect(stub.stats.bySchema.probe_reply).toBe(3);
    expect(stub.stats.bySchema.interview_reply).toBe(5);
    expect(probes).toHaveLength(1);
  });

  it('with an endpoint that never answers the probe: a provisional mode, logged, and one probe again later, not one per ask', async () => {
    const stub = await startStub({ faults: Array<Fault>(5).fill('500'), faultyProbe: true });
    const clock = new ManualClock();
    const { adapter, probes } = adapterFor(stub, { clock, probeRetries: 4, reprobeUnreachableMs: 60_000 });
    const { mind, fallbacks } = mindOver(stub, { adapter });
    for (let i = 0; i < 4; i++) await mind.interview(ctx, `Question ${i}?`, memories);
    expect(stub.stats.bySchema.probe_reply).toBe(5);
    expect(adapter.responseFormat).toBe('none');
    expect(probes).toEqual([{ mode: 'none', detail: expect.stringMatching(/did not answer the probe.*probing again in 60 s/) }]);
    expect(fallbacks).toEqual([]);
    clock.advance(61_000);
    await mind.interview(ctx, 'Question 5?', memories);
    expect(adapter.responseFormat).toBe('json_schema');
    expect(stub.stats.bySchema.probe_reply).toBe(6);
    expect(probes[1].detail).toMatch(/honoured json_schema \(again; it was none\)/);
  });

  it('probes the mode found again on its schedule', async () => {
    const stub = await startStub();
    const clock = new ManualClock();
    const { adapter, probes } = adapterFor(stub, { clock, reprobeAfterMs: 3_600_000 });
    const { mind } = mindOver(stub, { adapter });
    await mind.interview(ctx, 'One?', memories);
    clock.advance(1_800_000);
    await mind.interview(ctx, 'Two?', memories);
    expect(stub.stats.bySchema.probe_reply).toBe(1);
    clock.advance(1_800_001);
    await mind.interview(ctx, 'Three?', memories);
    expect(stub.stats.bySchema.probe_reply).toBe(2);
    expect(probes.map((p) => p.mode)).toEqual(['json_schema', 'json_schema']);
  });
});

describe('an ask whose transport retries are spent', () => {
  it('is sent again in another form (never the same body), not fallen back', async () => {
    const stub = await startStub({ faults: [SAME_BODY_429] });
    const { mind, fallbacks, mends } = mindOver(stub, { maxRetries: 2 });
    const answer = await mind.interview(ctx, 'What are you doing today?', memories);
    expect(answer).toMatch(/^I'm Isabella Rivera/);
    expect(fallbacks).toEqual([]);
    // The first body: once and two retries, all refused; then the other form, answered.
    expect(stub.stats.faults[SAME_BODY_429]).toBe(3);
    expect(stub.stats.requests).toBe(4);
    expect(mind.tallyOf('interview')).toMatchObject({ asks: 1, requests: 2, reformed: 1, fellBack: 0 });
    expect(mends.some((m) => /schema in the prompt/.test(m.note))).toBe(true);
  });
});

describe('a reply cut off again after the bigger budget', () => {
  it('is a failure that goes to a repair turn, never an answer', async () => {
    const stub = await startStub({ faults: ['cut_off', 'cut_off'] });
    const { mind, mends } = mindOver(stub);
    const answer = await mind.interview(ctx, 'What are you looking forward to?', memories);
    // The responder's whole answer, not the half that jsonrepair closed.
    expect(answer).toBe("I'm Isabella Rivera. I remember this: Isabella made coffee");
    expect(mind.tallyOf('interview')).toMatchObject({ requests: 3, longer: 1, repaired: 1, valid: 0 });
    expect(mends.find((m) => m.how === 'repair')!.note).toMatch(/cut off at \d+ tokens/);
  });
});

describe('the cache', () => {
  const request: ChatRequest = {
    purpose: 'interview',
    agentId: 'isabella',
    messages: [{ role: 'user', content: 'Hi' }],
    schemaName: 'interview_reply',
    schema: { type: 'object' },
    maxTokens: 300,
    temperature: 0,
  };

  it('keys on what decides the answer, not on the token budget', () => {
    expect(cacheKey('m', { ...request, maxTokens: 323 })).toBe(cacheKey('m', request));
    expect(cacheKey('m', { ...request, temperature: 0.7 })).not.toBe(cacheKey('m', request));
    expect(cacheKey('m2', request)).not.toBe(cacheKey('m', request));
  });

  for (const faults of [['refusal'], ['cut_off'], [SAME_BODY_429]] as Fault[][]) {
    it(`replays an ask helped past ${faults[0]} with no request, under its first request's key`, async () => {
      const stub = await startStub({ faults });
      const cache = new MapResponseCache();
      const first = mindOver(stub, { cache });
      const answer = await first.mind.interview(ctx, 'Who did you see today?', memories);
      expect(first.fallbacks).toEqual([]);
      expect(cache.map.size).toBe(1);
      const before = stub.stats.requests;
      // A fresh mind (fresh token budgets) over the same cache, as a rerun of the world.
      const rerun = mindOver(stub, { cache });
      expect(await rerun.mind.interview(ctx, 'Who did you see today?', memories)).toBe(answer);
      expect(stub.stats.requests).toBe(before);
    });
  }
});

describe('replies that fit the schema but not the town', () => {
  it('a place not on the map goes to a repair turn with the places, and the repaired day is decomposed', async () => {
    const stub = await startStub();
    // The hour blocks name a place that does not exist, until a repair turn lists the real ones.
    const real = stub.responders.get('decompose_blocks')!;
    stub.respond('decompose_blocks', (r) => {
      const answer = real(r) as { blocks: Array<{ place: string }> };
      if (!r.messages.some((m) => m.role === 'assistant')) answer.blocks[1].place = 'Atlantis Mall: food court';
      return answer;
    });
    const cache = new MapResponseCache();
    const { mind, mends, fallbacks } = mindOver(stub, { cache });
    const { plan, refinement } = await mind.planDay(ctx, Math.floor(startMs / 86_400_000), memories, null);
    // The day's actions come after the plan, decomposed from its blocks.
    expect((await refinement!).length).toBeGreaterThan(0);
    expect(fallbacks).toEqual([]);
    const repair = mends.find((m) => m.how === 'repair')!;
    expect(repair.note).toMatch(/\$\.blocks\[1\]\.place: "Atlantis Mall: food court" is not a place in town/);
    expect(stub.stats.bySchema.decompose_blocks).toBe(2);
    expect(stub.stats.bySchema.decompose_actions).toBeGreaterThan(0);
    expect(plan.hourBlocks.length).toBe(4);
    expect(mind.dayPlans).toEqual({ asked: 1, decomposed: 1 });
    expect(mind.tallyOf('decompose').semanticMends).toBe(1);
    // The repaired answer is what is cached, never the one naming Atlantis.
    expect([...cache.map.values()].some((v) => v.includes('Atlantis'))).toBe(false);
  });

  it('a place still not on the map after the repair turns is dropped, counted, and not cached', async () => {
    const stub = await startStub();
    const real = stub.responders.get('decompose_blocks')!;
    stub.respond('decompose_blocks', (r) => {
      const answer = real(r) as { blocks: Array<{ place: string }> };
      answer.blocks[1].place = 'Atlantis Mall: food court';
      return answer;
    });
    const cache = new MapResponseCache();
    const { mind, fallbacks } = mindOver(stub, { cache });
    const { plan, refinement } = await mind.planDay(ctx, Math.floor(startMs / 86_400_000), memories, null);
    await refinement;
    expect(fallbacks).toEqual([]);
    expect(stub.stats.bySchema.decompose_blocks).toBe(3);
    expect(plan.hourBlocks.length).toBe(3);
    expect(mind.tallyOf('decompose').semanticMends).toBe(1);
    expect([...cache.map.values()].some((v) => v.includes('Atlantis'))).toBe(false);
  });

  it('evidence numbers out of the list go to a repair turn, and the insight is kept', async () => {
    const stub = await startStub({ faults: ['unknown_evidence'] });
    const { mind, mends } = mindOver(stub);
    const insights = await mind.reflectInsights(ctx, 'What matters?', memories);
    expect(insights).toHaveLength(1);
    expect(insights[0].evidence).toEqual([1, 2]);
    expect(mends.find((m) => m.how === 'repair')!.note).toMatch(/99 is not a statement's number; the statements are numbered 1 to 3/);
    expect(mind.tallyOf('reflect')).toMatchObject({ repaired: 1, semanticMends: 1 });
  });

  it('a speaker not in the conversation goes to a repair turn with the two names', async () => {
    const stub = await startStub({ faults: ['unknown_person'] });
    const { mind, mends } = mindOver(stub);
    const cctx: MindContext = { ...ctx, agent: { ...ctx.agent, persona: claire } };
    const lines = await mind.converseWhole(
      [
        { ctx, partner: claire, relationship: null, memories, news: [] },
        { ctx: cctx, partner: isabella, relationship: null, memories: [], news: [] },
      ],
      6,
    );
    expect(lines[0].speaker).toBe(isabella.id);
    expect(lines).toHaveLength(3);
    expect(mends.find((m) => m.how === 'repair')!.note).toMatch(
      /"Zed Quillfeather" is not in this conversation; the speakers are Isabella Rivera and Claire Moreau/,
    );
  });
});

describe('llm:check reports what happened', () => {
  it('varies each repeat, counts HTTP requests and bigger budgets, and asks decompose when plan fails', async () => {
    // The first ask (importance) meets a 500 then a cut-off reply; plan never answers usably.
    const stub = await startStub({ faults: ['500', 'cut_off'] });
    stub.respond('plan_reply', () => ({ currently: '' }));
    const interviews: string[] = [];
    const real = stub.responders.get('interview_reply')!;
    stub.respond('interview_reply', (r) => (interviews.push(r.messages.map((m) => m.content).join('\n')), real(r)));
    const report = await runLlmCheck({ baseURL: stub.url, model: 'stub-model', repeat: 2, sleep: noSleep });
    const row = (purpose: string) => report.rows.find((r) => r.purpose === purpose)!;
    // Two scenes: two different interview bodies, not one sent twice.
    expect(interviews).toHaveLength(2);
    expect(new Set(interviews).size).toBe(2);
    expect(row('importance')).toMatchObject({ longer: 1 });
    expect(row('importance').httpRequests).toBe(row('importance').requests + 1);
    expect(report.probeRequests).toBe(1);
    expect(row('plan')).toMatchObject({ asks: 2, fellBack: 2 });
    expect(row('decompose').asks).toBeGreaterThanOrEqual(4);
    expect(row('decompose').fellBack).toBe(0);
    expect(formatCheck(report)).toMatch(/bigger budget \| fell back \| requests \| HTTP requests/);
  });
});
