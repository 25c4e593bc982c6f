// The ChatModel stack over real HTTP, against the in-process OpenAI-compatible stub.
import { performance } from 'node:perf_hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIStub } from '../fakes/openaiStub';
import { OpenAIChatModel, type ResponseFormatMode } from '../../server/src/llm/OpenAIChatModel';
import { RetryingChatModel } from '../../server/src/llm/RetryingChatModel';
import { SchedulingChatModel } from '../../server/src/llm/SchedulingChatModel';
import { BudgetChatModel } from '../../server/src/llm/BudgetChatModel';
import { buildChatStack } from '../../server/src/llm/stack';
import { ArrayCallLog, MapResponseCache } from '../../server/src/llm/memoryStores';
import { Pricing } from '../../server/src/llm/pricing';
import { LlmHttpError, LlmReplyError } from '../../server/src/llm/errors';
import type { ChatModel, ChatRequest, ChatResponse } from '../../server/src/llm/types';

const schema = {
  type: 'object',
  properties: { line: { type: 'string', minLength: 1 }, end: { type: 'boolean' } },
  required: ['line', 'end'],
  additionalProperties: false,
};
const request = (over: Partial<ChatRequest> = {}): ChatRequest => ({
  purpose: 'converse',
  agentId: 'isabella',
  messages: [
    { role: 'system', content: 'You are Isabella. [converse v1]' },
    { role: 'user', content: 'Say hello.' },
  ],
  schemaName: 'converse_reply',
  schema,
  maxTokens: 50,
  ...over,
});

let stub: OpenAIStub;
afterEach(async () => stub?.close());

async function adapter(mode: ResponseFormatMode = 'json_schema', timeoutMs = 2000): Promise<OpenAIChatModel> {
  return new OpenAIChatModel({ baseURL: stub.url, apiKey: 'test', models: { default: 'stub-model', plan: 'stub-planner' }, responseFormat: mode, timeoutMs });
}
const noSleep = async () => undefined;

describe('OpenAIChatModel', () => {
  for (const mode of ['json_schema', 'json_object', 'none'] as const) {
    it(`gets a reply valid against the schema in ${mode} mode`, async () => {
      stub = await new OpenAIStub().start();
      stub.respond('converse_reply', () => ({ line: 'Hello!', end: false }));
      const reply = await (await adapter(mode)).complete(request());
      expect(reply.json).toEqual({ line: 'Hello!', end: false });
      expect(reply.model).toBe('stub-model');
      expect(reply.usage.promptTokens).toBeGreaterThan(0);
      expect(stub.stats.violations).toEqual([]);
    });
  }

  it('names the model per purpose', async () => {
    stub = await new OpenAIStub().start();
    const reply = await (await adapter()).complete(request({ purpose: 'plan', schemaName: 'plan_reply' }));
    expect(reply.model).toBe('stub-planner');
  });

  it('never returns malformed JSON as an answer', async () => {
    stub = await new OpenAIStub({ faults: ['malformed'] }).start();
    await expect((await adapter()).complete(request())).rejects.toBeInstanceOf(LlmReplyError);
  });

  it('reports HTTP errors with the Retry-After the server asked for', async () => {
    stub = await new OpenAIStub({ faults: ['429'] }).start();
    const error = await (await adapter()).complete(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LlmHttpError);
    expect((error as LlmHttpError).status).toBe(429);
    expect((error as LlmHttpError).retryAfterMs).toBe(50);
  });
});

describe('RetryingChatModel', () => {
  it('recovers from every transport fault, honouring Retry-After', async () => {
    stub = await new OpenAIStub({ faults: ['500', '429', 'timeout'], hangMs: 800 }).start();
    const delays: number[] = [];
    const errors: string[] = [];
    const model = new RetryingChatModel(await adapter('json_schema', 300), {
      maxRetries: 5,
      baseDelayMs: 1,
      sleep: noSleep,
      random: () => 0,
      onRetry: (r) => (delays.push(r.delayMs), errors.push(r.error.name)),
    });
    const reply = await model.complete(request());
    expect(reply.json).toMatchObject({ end: false });
    expect(errors).toEqual(['LlmHttpError', 'LlmHttpError', 'LlmTimeoutError']);
    // The 429 asked for 50 ms (retry-after-ms); the exponential backoff alone would have been 1 ms.
    expect(delays[1]).toBe(50);
    expect(stub.stats.faults).toEqual({ '500': 1, '429': 1, timeout: 1 });
  });

  it('does not retry a 400', async () => {
    // A server that knows no response format refuses json_schema with a 400.
    stub = await new OpenAIStub({ formats: [] }).start();
    const model = new RetryingChatModel(await adapter(), { maxRetries: 3, sleep: noSleep });
    await expect(model.complete(request())).rejects.toMatchObject({ status: 400 });
    expect(stub.stats.requests).toBe(1);
  });

  it('gives up after its retries with the last error, not an answer', async () => {
    stub = await new OpenAIStub({ faults: ['500', '500', '500'] }).start();
    const model = new RetryingChatModel(await adapter(), { maxRetries: 2, sleep: noSleep });
    await expect(model.complete(request())).rejects.toMatchObject({ status: 500 });
    expect(stub.stats.requests).toBe(3);
  });

  it('never re-sends the same request after a content failure (the mind repairs it instead)', async () => {
    stub = await new OpenAIStub({ faults: ['malformed'] }).start();
    const model = new RetryingChatModel(await adapter(), { maxRetries: 3, sleep: noSleep });
    await expect(model.complete(request())).rejects.toBeInstanceOf(LlmReplyError);
    expect(stub.stats.requests).toBe(1);
  });
});

/** A model that answers after `delayMs` and counts how many calls run at once. */
class SlowModel implements ChatModel {
  running = 0;
  maxRunning = 0;
  order: string[] = [];
  constructor(private readonly delayMs: number) {}
  async complete(r: ChatRequest): Promise<ChatResponse> {
    this.running++;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    this.order.push(r.agentId ?? '');
    await new Promise((res) => setTimeout(res, this.delayMs));
    this.running--;
    return { json: {}, text: '{}', model: 'm', usage: { promptTokens: 10, completionTokens: 10 }, latencyMs: this.delayMs, cached: false };
  }
}

describe('SchedulingChatModel', () => {
  it('never exceeds its concurrency cap and serves agents round-robin', async () => {
    const inner = new SlowModel(5);
    const scheduler = new SchedulingChatModel(inner, { concurrency: 2 });
    const calls = [
      ...Array.from({ length: 20 }, () => scheduler.complete(request({ agentId: 'greedy' }))),
      scheduler.complete(request({ agentId: 'patient' })),
    ];
    await Promise.all(calls);
    expect(inner.maxRunning).toBe(2);
    // The agent that queued one call is served among the first few, not after the greedy one's twenty.
    expect(inner.order.indexOf('patient')).toBeLessThanOrEqual(3);
  });

  it('spaces requests to the requests-per-minute limit', async () => {
    let now = 0;
    const timers: Array<{ at: number; fn: () => void }> = [];
    const inner = new SlowModel(0);
    const scheduler = new SchedulingChatModel(inner, {
      concurrency: 10,
      requestsPerMinute: 2,
      clock: { now: () => now },
      setTimer: (fn, ms) => timers.push({ at: now + ms, fn }),
    });
    const done: number[] = [];
    for (let i = 0; i < 3; i++) void scheduler.complete(request()).then(() => done.push(now));
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toEqual([0, 0]);
    expect(timers[0].at).toBe(60_000);
    now = 60_000;
    timers.shift()!.fn();
    await new Promise((r) => setTimeout(r, 20));
    expect(done).toEqual([0, 0, 60_000]);
  });
});

describe('BudgetChatModel', () => {
  it('pauses when the budget is spent and resumes when it is raised', async () => {
    const messages: string[] = [];
    const budget = new BudgetChatModel(new SlowModel(0), { tokens: 30, usd: 0 }, new Pricing(), { onPause: (m) => messages.push(m) });
    await budget.complete(request());
    await budget.complete(request());
    expect(budget.paused).toBe(true);
    let third = false;
    const pending = budget.complete(request()).then(() => (third = true));
    await new Promise((r) => setTimeout(r, 20));
    expect(third).toBe(false);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(/LLM budget spent: 40 of 30 tokens.*LLM_BUDGET_TOKENS/);
    budget.raise({ tokens: 1000 });
    await pending;
    expect(third).toBe(true);
  });
});

describe('the whole stack', () => {
  it('records every request the endpoint saw, and a rerun with the cache makes no calls', async () => {
    stub = await new OpenAIStub({ faults: ['500', 'malformed'] }).start();
    const log = new ArrayCallLog();
    const cache = new MapResponseCache();
    const make = async () =>
      buildChatStack(await adapter(), {
        modelFor: () => 'stub-model',
        cache,
        log,
        pricing: new Pricing({ 'stub-model': { inputPerMTok: 1, outputPerMTok: 2 } }),
        budget: { tokens: 0, usd: 0 },
        concurrency: 4,
        requestsPerMinute: 0,
        tokensPerMinute: 0,
        maxRetries: 3,
        sleep: noSleep,
      });
    const first = await make();
    const prompts = ['one', 'two', 'three'].map((t) => request({ messages: [{ role: 'user', content: t }] }));
    const answers = await Promise.all(prompts.map((p) => first.model.complete(p).catch(() => first.model.complete(p))));
    expect(log.rows.filter((r) => !r.cached)).toHaveLength(stub.stats.requests);
    expect(
      log.rows
        .filter((r) => r.outcome !== 'ok')
        .map((r) => r.outcome)
        .sort(),
    ).toEqual(['LlmHttpError', 'LlmReplyError']);
    expect(log.rows.find((r) => r.outcome === 'ok')!.costUsd).toBeGreaterThan(0);

    const requestsBefore = stub.stats.requests;
    const second = await make();
    const again = await Promise.all(prompts.map((p) => second.model.complete(p)));
    expect(stub.stats.requests).toBe(requestsBefore);
    expect(again.map((a) => a.json)).toEqual(answers.map((a) => a.json));
    expect(again.every((a) => a.cached)).toBe(true);
    expect(log.rows.filter((r) => r.cached)).toHaveLength(3);
  });
});

describe('closing the stack', () => {
  it('stops at once every call in flight, queued, waiting on the budget or sitting out a backoff, and refuses new ones', async () => {
    // Over real HTTP, the stub takes the first call and never answers; with one call at a time, the next two queue.
    stub = await new OpenAIStub({ faults: ['timeout'], hangMs: 600_000 }).start();
    const make = (model: ChatModel, budget = { tokens: 0, usd: 0 }) =>
      buildChatStack(model, {
        modelFor: () => 'stub-model',
        cache: null,
        log: new ArrayCallLog(),
        pricing: new Pricing({}),
        budget,
        concurrency: 1,
        requestsPerMinute: 0,
        tokensPerMinute: 0,
        maxRetries: 6,
        random: () => 1,
      });
    const outcome = (p: Promise<unknown>) =>
      p.then(
        () => 'answered',
        (e: Error) => e.name,
      );
    const http = make(await adapter('json_schema', 600_000));
    const overHttp = ['a', 'b', 'c'].map((agentId) => outcome(http.model.complete(request({ agentId }))));
    // An endpoint that answers 500 every time: the call sits out its backoffs (0.5 s, 1 s, 2 s … 32 s).
    const failing = make({ complete: async () => Promise.reject(new LlmHttpError(500, 'down', null)) });
    const backingOff = outcome(failing.model.complete(request()));
    // A spent budget holds its calls: the first answer spends the one token allowed.
    const answer: ChatResponse = { json: {}, text: '{}', model: 'm', usage: { promptTokens: 5, completionTokens: 5 }, latencyMs: 1, cached: false };
    const spent = make({ complete: async () => answer }, { tokens: 1, usd: 0 });
    await spent.model.complete(request());
    const held = outcome(spent.model.complete(request()));
    await new Promise((r) => setTimeout(r, 300));
    expect(stub.stats.requests).toBe(1);
    expect(spent.budget.paused).toBe(true);

    const started = performance.now();
    for (const stack of [http, failing, spent]) stack.close();
    expect(await Promise.all([...overHttp, backingOff, held])).toEqual(Array(5).fill('LlmAbortedError'));
    expect(performance.now() - started).toBeLessThan(200);
    expect(stub.stats.requests).toBe(1);
    await expect(http.model.complete(request())).rejects.toThrow(/LLM call stopped: the town is closing/);
  });
});
