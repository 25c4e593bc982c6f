// Several LLM endpoints behind one RoutingChatModel, over real HTTP to three in-process OpenAI-compatible
// stubs: calls go to the least loaded, an endpoint that dies is taken out without losing a call, and it
// is tried again and taken back once it answers.
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIStub } from '../fakes/openaiStub';
import { OpenAIChatModel } from '../../server/src/llm/OpenAIChatModel';
import { RoutingChatModel, FIRST_OUT_MS } from '../../server/src/llm/RoutingChatModel';
import { RetryingChatModel } from '../../server/src/llm/RetryingChatModel';
import type { ChatRequest } from '../../server/src/llm/types';
import { loadConfig, ConfigError } from '../../server/src/config';

const request = (i: number): ChatRequest => ({
  purpose: 'converse',
  agentId: `agent-${i % 50}`,
  messages: [
    { role: 'system', content: 'You are someone in town. [converse v1]' },
    { role: 'user', content: `Say line ${i}.` },
  ],
  schemaName: 'converse_reply',
  schema: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'], additionalProperties: false },
});

let stubs: OpenAIStub[] = [];
afterEach(async () => {
  await Promise.all(stubs.map((s) => s.close()));
  stubs = [];
});

async function endpoints(latencies: number[], concurrency = 4) {
  stubs = await Promise.all(latencies.map((latencyMs) => new OpenAIStub({ latencyMs }).start()));
  return stubs.map((s, i) => ({
    name: `stub-${i}`,
    model: new OpenAIChatModel({ baseURL: s.url, apiKey: 'k', models: { default: 'stub-model' }, timeoutMs: 2000, responseFormat: 'json_schema' }),
    concurrency,
  }));
}

/** `workers` callers, each making calls one after another until `stop()` says so; every answer is kept. */
function callers(model: { complete: RoutingChatModel['complete'] }, workers: number) {
  let next = 0;
  let running = true;
  const answered: number[] = [];
  const failed: unknown[] = [];
  const done = Promise.all(
    Array.from({ length: workers }, async () => {
      while (running) {
        const i = next++;
        try {
          await model.complete(request(i));
          answered.push(i);
        } catch (error) {
          failed.push(error);
        }
      }
    }),
  );
  return {
    answered,
    failed,
    asked: () => next,
    stop: async () => {
      running = false;
      await done;
    },
  };
}

describe('calls spread over several endpoints', () => {
  it('go to the least loaded: a fast endpoint serves more than a slow one', async () => {
    // Room for every caller at each endpoint: only the choice of endpoint keeps calls off the slow one.
    const router = new RoutingChatModel(await endpoints([10, 10, 400], 100));
    const run = callers(router, 8);
    await new Promise((r) => setTimeout(r, 2500));
    await run.stop();
    expect(run.failed).toEqual([]);
    const served = stubs.map((s) => s.stats.ok);
    // Round robin would give each a third; by load, each fast one serves several times the slow one.
    expect(served[0]).toBeGreaterThan(2 * served[2]);
    expect(served[1]).toBeGreaterThan(2 * served[2]);
    expect(served[2]).toBeGreaterThan(0);
    const figures = router.figures();
    expect(figures.map((f) => f.ok)).toEqual(served);
    expect(figures.every((f) => f.state === 'up' && f.inFlight === 0)).toBe(true);
  }, 30_000);

  it('lose no call when one dies, and take it back once it answers again', async () => {
    const router = new RoutingChatModel(await endpoints([30, 30, 30]));
    // The stack's retry wrapper above the router, as in production (it is not needed while one endpoint is up).
    const model = new RetryingChatModel(router, { maxRetries: 3 });
    const run = callers(model, 9);
    await new Promise((r) => setTimeout(r, 800));
    const before = stubs[1].stats.ok;
    expect(before).toBeGreaterThan(0);
    await stubs[1].disappear();
    await new Promise((r) => setTimeout(r, 1000));
    const out = router.figures()[1];
    expect(out.state).toBe('out');
    expect(out.takenOut).toBeGreaterThanOrEqual(1);
    expect(out.failed).toBeGreaterThanOrEqual(1);
    // While it is out the others carry every call.
    const whileOut = stubs[1].stats.ok;
    await new Promise((r) => setTimeout(r, 500));
    expect(stubs[1].stats.ok).toBe(whileOut);
    await stubs[1].reappear();
    // Tried again after its time out (2 s, doubling while it keeps failing), then back in.
    await new Promise((r) => setTimeout(r, 4 * FIRST_OUT_MS + 1000));
    await run.stop();
    expect(run.failed).toEqual([]);
    expect(run.answered.length).toBe(run.asked());
    expect(new Set(run.answered).size).toBe(run.asked());
    const back = router.figures()[1];
    expect(back.state).toBe('up');
    expect(stubs[1].stats.ok).toBeGreaterThan(whileOut + 5);
  }, 30_000);

  it('pass the error up when every endpoint is out, so the retry wrapper waits', async () => {
    const router = new RoutingChatModel(await endpoints([10, 10]));
    await Promise.all(stubs.map((s) => s.disappear()));
    await expect(router.complete(request(1))).rejects.toThrow();
    expect(router.figures().map((f) => f.state)).toEqual(['out', 'out']);
  }, 30_000);
});

describe('LLM_ENDPOINTS', () => {
  it('takes a JSON list of endpoints, and names the field of a bad one', () => {
    const config = loadConfig({
      LLM_ENDPOINTS: JSON.stringify([{ baseURL: 'http://gpu1:8000/v1', model: 'm', concurrency: 16, weight: 2 }, { baseURL: 'http://gpu2:8000/v1' }]),
    });
    expect(config.llm.endpoints).toEqual([
      { baseURL: 'http://gpu1:8000/v1', model: 'm', concurrency: 16, weight: 2 },
      { baseURL: 'http://gpu2:8000/v1', weight: 1 },
    ]);
    expect(() => loadConfig({ LLM_ENDPOINTS: '[{"baseURL": "gpu1"}]' })).toThrow(/LLM_ENDPOINTS \(0\.baseURL\)/);
    expect(() => loadConfig({ LLM_ENDPOINTS: '[{"baseURL": "http://a/v1", "concurency": 4}]' })).toThrow(/LLM_ENDPOINTS/);
    expect(() => loadConfig({ LLM_ENDPOINTS: 'gpu1,gpu2' })).toThrow(ConfigError);
  });
});
