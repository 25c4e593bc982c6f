// Against a real OpenAI-compatible endpoint: runs `npm run llm:check`'s check (every purpose, the app's
// real prompts, a small built-in world) only when OPENAI_BASE_URL is set (with OPENAI_API_KEY and
// LLM_MODEL as needed), and says plainly when it is skipped.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/src/config';
import { failingPurposes, formatCheck, runLlmCheck } from '../../scripts/llmCheck';

const config = loadConfig();
const endpoint = config.llm.baseURL;
if (!endpoint) console.log('real-endpoint test skipped: OPENAI_BASE_URL is not set (set it, with OPENAI_API_KEY and LLM_MODEL, to run llm:check here)');

describe.runIf(endpoint)(`a real endpoint (${endpoint ?? 'OPENAI_BASE_URL not set'})`, () => {
  it('passes llm:check: no purpose falls back on more than a fifth of its asks', async () => {
    const report = await runLlmCheck({
      baseURL: endpoint!,
      apiKey: config.llm.apiKey,
      model: config.llm.model,
      responseFormat: config.llm.responseFormat,
      timeoutMs: config.llm.timeoutMs,
      repeat: 1,
    });
    console.log(formatCheck(report));
    expect(failingPurposes(report, 0.2)).toEqual([]);
  }, 600_000);
});
