// Transport retries: what can succeed on a second try of the same request (5xx, 429, timeouts, network
// errors), with exponential backoff and jitter, waiting at least as long as the server's Retry-After. A
// 400, 401 or 404 fails at once. A reply that came back but is unusable is a content failure and is never
// re-sent as is: the mind's repair turn (agent/LlmMind.ts) deals with it. Every retry is reported.
import type { ChatModel, ChatRequest, ChatResponse } from './types';
import { abortedBy, isRetryable, LlmHttpError } from './errors';

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
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  onRetry?: (report: RetryReport) => void;
}

/** A timer that also ends (cleared) when `signal` aborts, so a stopped backoff holds nothing open. */
export const realSleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const onAbort = () => (clearTimeout(timer), resolve());
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** `wait`, or an LlmAbortedError as soon as `signal` aborts (a backoff is not sat out by a town that is closing). */
export function untilAborted<T>(wait: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return wait;
  if (signal.aborted) return Promise.reject(abortedBy(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortedBy(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    wait.then(
      (value) => (signal.removeEventListener('abort', onAbort), resolve(value)),
      (error: unknown) => (signal.removeEventListener('abort', onAbort), reject(error)),
    );
  });
}

/**
 * `run` until it succeeds, a failure is not retryable, `maxRetries` are spent or `signal` aborts: the one
 * retry policy of the LLM stack (chat completions here, embeddings in OpenAIEmbedder.ts).
 */
export async function withRetries<T>(
  run: () => Promise<T>,
  options: RetryOptions,
  signal?: AbortSignal,
  onRetry?: (attempt: number, error: Error, delayMs: number) => void,
): Promise<T> {
  const { maxRetries, baseDelayMs = 500, maxDelayMs = 30_000, sleep = realSleep, random = Math.random } = options;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortedBy(signal);
    try {
      return await run();
    } catch (error) {
      if (signal?.aborted) throw abortedBy(signal);
      if (!(error instanceof Error) || !isRetryable(error) || attempt > maxRetries) throw error;
      const backoff = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempt - 1)) * (0.5 + random() / 2);
      const asked = error instanceof LlmHttpError && error.retryAfterMs !== null ? error.retryAfterMs : 0;
      const delayMs = Math.max(backoff, asked);
      onRetry?.(attempt, error, delayMs);
      await untilAborted(sleep(delayMs, signal), signal);
    }
  }
}

export class RetryingChatModel implements ChatModel {
  constructor(
    private readonly inner: ChatModel,
    private readonly options: RetryOptions,
  ) {}

  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    return withRetries(
      () => this.inner.complete(request, signal),
      this.options,
      signal,
      (attempt, error, delayMs) => this.options.onRetry?.({ request, attempt, error, delayMs }),
    );
  }
}
