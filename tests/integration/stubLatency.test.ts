// The stub's batching latency over real HTTP, through the project's own OpenAI client: a longer reply
// takes longer, and a request past the server's slots waits for one (batchServer.ts has the model).
import { afterEach, describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { OpenAIStub } from '../fakes/openaiStub';
import type { LatencyModel } from '../fakes/batchServer';
import { OpenAIChatModel } from '../../server/src/llm/OpenAIChatModel';
import type { ChatRequest } from '../../server/src/llm/types';

const MODEL: LatencyModel = { slots: 2, firstTokenMs: 20, prefillMsPerToken: 0, decodeMsPerToken: 1, batchSlowdown: 0.5 };

const request = (words: number): ChatRequest => ({
  purpose: 'converse',
  agentId: 'a',
  messages: [{ role: 'user', content: `Say ${words} words. [converse v1]` }],
  schemaName: 'converse_reply',
  schema: { type: 'object', properties: { line: { type: 'string' } }, required: ['line'], additionalProperties: false },
});

let stub: OpenAIStub | null = null;
afterEach(async () => {
  await stub?.close();
  stub = null;
});

async function start(options: ConstructorParameters<typeof OpenAIStub>[0]) {
  stub = await new OpenAIStub(options).start();
  // The reply is as long as asked: "Say N words" writes N words (about 2 tokens each at 4 characters a token).
  stub.respond('converse_reply', (r) => ({ line: 'word '.repeat(Number(/Say (\d+) words/.exec(r.messages.map((m) => m.content).join('\n'))![1])).trim() }));
  return new OpenAIChatModel({ baseURL: stub.url, apiKey: 'k', models: { default: 'stub-model' }, timeoutMs: 10_000, responseFormat: 'json_schema' });
}

const timed = async (p: Promise<unknown>) => {
  const t0 = performance.now();
  await p;
  return performance.now() - t0;
};

describe('the stub as a batching server', () => {
  it('takes longer for a longer reply', async () => {
    const model = await start({ latencyModel: MODEL });
    await model.complete(request(1)); // the connection's set-up, out of the figures
    const short = await timed(model.complete(request(5)));
    const long = await timed(model.complete(request(300)));
    // 300 words ≈ 380 tokens at 1 ms: about 0.4 s; 5 words ≈ 10 tokens: tens of ms.
    expect(long).toBeGreaterThan(350);
    expect(long - short).toBeGreaterThan(250);
    expect(stub!.batchFigures!.outputTokens).toBeGreaterThan(380);
  }, 20_000);

  it('queues a request past its slots until one is free', async () => {
    const model = await start({ latencyModel: MODEL });
    // Long replies (500 words ≈ 625 tokens: about 1 s in a batch of two), so that the three arrive while the first two
    // still run, even on a loaded machine where the requests reach the server some hundreds of ms apart.
    const [first, , last] = (await Promise.all([request(500), request(500), request(500)].map((r) => timed(model.complete(r))))).sort((x, y) => x - y);
    // The one that came third waited for a slot, then ran alone (≈ 0.65 s more).
    expect(stub!.batchFigures!.queued).toBe(1);
    expect(last).toBeGreaterThan(first + 300);
    expect(stub!.batchFigures!.mostRunning).toBe(2);
  }, 20_000);

  it('keeps the fixed-latency mode: every reply after the same time', async () => {
    const model = await start({ latencyMs: 150 });
    await model.complete(request(1));
    const [short, long] = [await timed(model.complete(request(5))), await timed(model.complete(request(300)))];
    expect(Math.abs(long - short)).toBeLessThan(100);
    expect(stub!.batchFigures).toBeNull();
    expect(() => new OpenAIStub({ latencyMs: 100, latencyModel: MODEL })).toThrow(/not both/);
  }, 20_000);
});
