// `npm run model:serve`: a real GGUF model over the OpenAI-compatible API, met by the town's own HTTP adapter.
// With json_schema honoured the adapter's probe finds it and the reply fits the schema; with it ignored the
// server constrains nothing (the model writes freely) and says so in its counts. Embeddings over HTTP are the
// in-process embedder's vectors.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from '../../scripts/modelServe';
import { OpenAIChatModel } from '../../server/src/llm/OpenAIChatModel';
import { EmbeddedEmbedder } from '../../server/src/llm/embedded';
import { testModel } from '../models';

const chat = testModel('smollm2', 'the model:serve test');
const embedderFile = testModel('minilm', 'the model:serve embeddings test');

const SCHEMA = {
  type: 'object',
  properties: { mood: { type: 'string', enum: ['happy', 'tired', 'busy'] }, hours: { type: 'integer', minimum: 0, maximum: 12 } },
  required: ['mood', 'hours'],
  additionalProperties: false,
};

describe.skipIf(!chat || !embedderFile)('model:serve', () => {
  let honoured: ModelServer;
  let ignored: ModelServer;
  beforeAll(async () => {
    honoured = await startModelServer({ model: chat!, embedder: embedderFile!, port: 0, sequences: 1 });
    ignored = await startModelServer({ model: chat!, port: 0, sequences: 1, jsonSchema: false });
  }, 120_000);
  afterAll(async () => {
    await honoured?.close();
    await ignored?.close();
  });

  it('lists its model, and the town adapter probes json_schema and gets a reply that fits', async () => {
    const models = (await (await fetch(`${honoured.url}/models`)).json()) as { data: Array<{ id: string }> };
    expect(models.data.map((m) => m.id)).toContain('SmolLM2-135M-Instruct.Q4_1.gguf');
    const probes: string[] = [];
    const adapter = new OpenAIChatModel({ baseURL: honoured.url, models: { default: 'any' }, onProbe: (mode) => probes.push(mode), timeoutMs: 300_000 });
    const reply = await adapter.complete({
      purpose: 'interview',
      agentId: 'isabella',
      schemaName: 'day',
      schema: SCHEMA,
      maxTokens: 40,
      messages: [{ role: 'user', content: 'Isabella worked at the cafe all day. How does she feel, and how many hours did she work?' }],
    });
    expect(probes).toEqual(['json_schema']);
    const json = reply.json as { mood: string; hours: number };
    expect(['happy', 'tired', 'busy']).toContain(json.mood);
    expect(Number.isInteger(json.hours)).toBe(true);
    expect(reply.usage.completionTokens).toBeGreaterThan(0);
    expect(honoured.stats.constrained).toBe(honoured.stats.requests);
  }, 300_000);

  it('with --json-schema off, constrains nothing: the model writes freely', async () => {
    const res = await fetch(`${ignored.url}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ role: 'user', content: 'Say hello.' }],
        max_tokens: 12,
        response_format: { type: 'json_schema', json_schema: { name: 'day', schema: SCHEMA } },
      }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { choices: Array<{ message: { content: string }; finish_reason: string }> };
    expect(typeof body.choices[0]!.message.content).toBe('string');
    expect(ignored.stats).toEqual({ requests: 1, constrained: 0 });
  }, 300_000);

  it('answers bad requests with 400 and the field, and serves the embedder', async () => {
    const bad = await fetch(`${honoured.url}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"messages": []}' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/messages/);
    const res = await fetch(`${honoured.url}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: ['a party at the cafe'] }),
    });
    const body = (await res.json()) as { data: Array<{ embedding: number[] }> };
    const local = await (await EmbeddedEmbedder.open(embedderFile!)).embed(['a party at the cafe']);
    expect(body.data[0]!.embedding.length).toBe(384);
    body.data[0]!.embedding.forEach((x, i) => expect(x).toBeCloseTo(local[0]![i]!, 5));
  }, 120_000);
});
