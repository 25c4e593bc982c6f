// Against a real OpenAI-compatible endpoint: runs only when OPENAI_BASE_URL is set (with OPENAI_API_KEY
// and LLM_MODEL as needed), and says so when it is skipped.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { OpenAIChatModel } from '../../server/src/llm/OpenAIChatModel';
import { TurnReply } from '../../server/src/agent/prompts';
import { z } from 'zod';

const config = loadConfig();
const endpoint = config.llm.baseURL;

describe.runIf(endpoint)(`a real endpoint (${endpoint ?? 'OPENAI_BASE_URL not set'})`, () => {
  it('answers a converse request with JSON valid against its schema', async () => {
    const model = new OpenAIChatModel({
      baseURL: endpoint!,
      apiKey: config.llm.apiKey,
      models: { default: config.llm.model },
      responseFormat: config.llm.responseFormat,
      timeoutMs: config.llm.timeoutMs,
    });
    const { $schema: _drop, ...schema } = z.toJSONSchema(TurnReply) as Record<string, unknown>;
    const reply = await model.complete({
      purpose: 'converse',
      agentId: null,
      schemaName: 'converse_reply',
      schema,
      maxTokens: 100,
      messages: [{ role: 'user', content: 'You meet a neighbour at the cafe. Say one friendly line; end=false.' }],
    });
    expect(TurnReply.safeParse(reply.json).success).toBe(true);
  }, 120_000);
});

describe.skipIf(endpoint)('a real endpoint', () => {
  it('is skipped: set OPENAI_BASE_URL (and OPENAI_API_KEY, LLM_MODEL) to run it', () => {
    console.log('real-endpoint test skipped: OPENAI_BASE_URL is not set');
    expect(endpoint).toBeUndefined();
  });
});
