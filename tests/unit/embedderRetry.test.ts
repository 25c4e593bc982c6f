// The embedder's HTTP path takes the stack's one retry policy (withRetries): a batch that meets a 503 or a
// 429 is sent again after the backoff (at least the server's Retry-After), and a 400 fails at once.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIEmbedder } from '../../server/src/llm/OpenAIEmbedder';
import { LlmHttpError } from '../../server/src/llm/errors';

let server: http.Server | null = null;

/** An /embeddings endpoint that answers with `statuses` in turn (then 200), and counts the requests. */
async function endpoint(statuses: Array<{ status: number; headers?: Record<string, string> }>): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const fault = statuses[requests++];
      if (fault) {
        res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
        return res.end(JSON.stringify({ error: { message: `status ${fault.status}`, type: 'server_error', code: null } }));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          model: 'm',
          data: [{ object: 'embedding', index: 0, embedding: [3, 4] }],
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => requests };
}

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = null;
});

describe('the embedder over HTTP', () => {
  it('retries a 503 and a 429 with the backoff, waiting at least the Retry-After', async () => {
    const e = await endpoint([{ status: 503 }, { status: 429, headers: { 'retry-after-ms': '900' } }]);
    const waits: number[] = [];
    const embedder = new OpenAIEmbedder({
      baseURL: e.url,
      model: 'm',
      dimension: 2,
      retry: { sleep: async (ms) => void waits.push(ms), random: () => 0 },
      onRetry: () => {},
    });
    const [v] = await embedder.embed(['hello']);
    expect([...v!]).toEqual([0.6000000238418579, 0.800000011920929]);
    expect(e.requests()).toBe(3);
    // The first backoff (500 ms × 0.5 with no jitter), then the server's 900 ms over the second's 500 (1,000 × 0.5).
    expect(waits).toEqual([250, 900]);
  });

  it('fails at once on a 400 (the control: nothing a retry can mend), and after the retries it is allowed', async () => {
    const bad = await endpoint([{ status: 400 }]);
    const embedder = new OpenAIEmbedder({ baseURL: bad.url, model: 'm', dimension: 2, retry: { sleep: async () => {} } });
    await expect(embedder.embed(['hello'])).rejects.toBeInstanceOf(LlmHttpError);
    expect(bad.requests()).toBe(1);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    const down = await endpoint([{ status: 503 }, { status: 503 }, { status: 503 }]);
    const twice = new OpenAIEmbedder({ baseURL: down.url, model: 'm', dimension: 2, retry: { maxRetries: 2, sleep: async () => {} } });
    await expect(twice.embed(['hello'])).rejects.toMatchObject({ status: 503 });
    expect(down.requests()).toBe(3);
  });
});
