// Embeddings from an OpenAI-compatible /embeddings endpoint: batched, normalised to unit length,
// checked for the world's dimension, and cached in the world's file by model and text hash. A batch that
// fails in a way a second try can mend (5xx, 429, timeouts, network) is retried by the stack's one policy
// (RetryingChatModel.ts withRetries: backoff with jitter, at least the server's Retry-After).
import { hash } from 'node:crypto';
import OpenAI from 'openai';
import type { Embedder } from './types';
import { abortedBy } from './errors';
import { translateError } from './OpenAIChatModel';
import { withRetries, type RetryOptions } from './RetryingChatModel';

export interface EmbeddingCache {
  getEmbeddings(model: string, hashes: string[]): Map<string, Float32Array>;
  putEmbeddings(model: string, entries: Array<[string, Float32Array]>): void;
}

export interface OpenAIEmbedderOptions {
  baseURL: string;
  apiKey?: string;
  model: string;
  dimension: number;
  batchSize?: number;
  timeoutMs?: number;
  /** Transport retries of a batch (default 3), as for chat; `sleep` and `random` are for tests. */
  retry?: Partial<RetryOptions>;
  onRetry?: (attempt: number, error: Error, delayMs: number) => void;
}

export const textHash = (text: string) => hash('sha256', text, 'hex');

export class OpenAIEmbedder implements Embedder {
  readonly model: string;
  readonly dimension: number;
  requests = 0;
  private readonly client: OpenAI;
  private cache: EmbeddingCache | null = null;

  private readonly timeoutMs: number;

  constructor(private readonly options: OpenAIEmbedderOptions) {
    this.timeoutMs = options.timeoutMs ?? 60_000;
    this.model = options.model;
    this.dimension = options.dimension;
    this.client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey ?? 'unused', maxRetries: 0, timeout: this.timeoutMs });
  }

  private readonly stop = new AbortController();

  /** Aborts the requests in flight (and their retries) and refuses new ones: the process is stopping. */
  close(): void {
    this.stop.abort();
  }

  /** The world's file, once it is open. */
  useCache(cache: EmbeddingCache): void {
    this.cache = cache;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const hashes = texts.map(textHash);
    const found = this.cache?.getEmbeddings(this.model, hashes) ?? new Map<string, Float32Array>();
    const missing = [...new Set(hashes.filter((h) => !found.has(h)))];
    const textOf = new Map(hashes.map((h, i) => [h, texts[i]]));
    const batch = this.options.batchSize ?? 64;
    for (let i = 0; i < missing.length; i += batch) {
      const chunk = missing.slice(i, i + batch);
      const signal = this.stop.signal;
      const reply = await withRetries(
        () => {
          this.requests++;
          return this.client.embeddings.create({ model: this.model, input: chunk.map((h) => textOf.get(h)!) }, { signal }).catch((error: unknown) => {
            throw signal.aborted ? abortedBy(signal) : translateError(error, this.timeoutMs, Date.now());
          });
        },
        { maxRetries: 3, ...this.options.retry },
        signal,
        this.options.onRetry,
      );
      const fresh: Array<[string, Float32Array]> = reply.data.map((d) => {
        if (d.embedding.length !== this.dimension)
          throw new Error(`embedding model '${this.model}' returned ${d.embedding.length} dimensions; EMBEDDING_DIMENSION says ${this.dimension}`);
        return [chunk[d.index], unitLength(Float32Array.from(d.embedding))];
      });
      for (const [h, v] of fresh) found.set(h, v);
      this.cache?.putEmbeddings(this.model, fresh);
    }
    return hashes.map((h) => found.get(h)!);
  }
}

function unitLength(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  if (n === 0) {
    v[0] = 1;
    return v;
  }
  const inv = 1 / Math.sqrt(n);
  return v.map((x) => x * inv);
}
