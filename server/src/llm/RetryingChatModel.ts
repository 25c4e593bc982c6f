// Transport retries: what can succeed on a second try of the same request (5xx, 429, timeouts, network
// errors), with exponential backoff and jitter, waiting at least as long as the server's Retry-After. A
// 400, 401 or 404 fails at once. A reply that came back but is unusable is a content failure and is never
// re-sent as is: the mind's repair turn (agent/LlmMind.ts) deals with it. Every retry is reported.
import type { ChatModel, ChatRequest, ChatResponse } from './types';
import { isRetryable, LlmHttpError } from './errors';

export interface RetryReport {
  request: ChatRequest;
  attempt: number;
  error: Error;
  delayMs: number;
}

export interface RetryOptions {
  maxRetries: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Injected for tests. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  onRetry?: (report: RetryReport) => void;
}

export const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class RetryingChatModel implements ChatModel {
  constructor(
    private readonly inner: ChatModel,
    private readonly options: RetryOptions,
  ) {}

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const { maxRetries, baseDelayMs = 500, maxDelayMs = 30_000, sleep = realSleep, random = Math.random } = this.options;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.inner.complete(request, signal);
      } catch (error) {
        if (!(error instanceof Error) || !isRetryable(error) || attempt > maxRetries || signal?.aborted) throw error;
        const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)) * (0.5 + random() / 2);
        const asked = error instanceof LlmHttpError && error.retryAfterMs !== null ? error.retryAfterMs : 0;
        const delayMs = Math.max(backoff, asked);
        this.options.onRetry?.({ request, attempt, error, delayMs });
        await sleep(delayMs);
      }
    }
  }
}
