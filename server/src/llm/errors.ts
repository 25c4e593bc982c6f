// Errors of the LLM layer. None of them is ever turned into an answer.

/**
 * The endpoint answered, but with no JSON in it (empty, a refusal, prose only). A content failure: not
 * retried as is (the same request would get the same answer at temperature 0); the mind asks for a repair.
 */
export class LlmReplyError extends Error {
  constructor(
    message: string,
    readonly text: string,
  ) {
    super(message);
    this.name = 'LlmReplyError';
  }
}

/** The call took longer than its timeout. Retryable. */
export class LlmTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`no reply within ${timeoutMs} ms`);
    this.name = 'LlmTimeoutError';
  }
}

/** An HTTP error from the endpoint, with what retrying needs to know. */
export class LlmHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Delay the server asked for (Retry-After / retry-after-ms), in ms. */
    readonly retryAfterMs: number | null,
  ) {
    super(`HTTP ${status}: ${message}`);
    this.name = 'LlmHttpError';
  }
  get retryable(): boolean {
    return this.status === 408 || this.status === 409 || this.status === 429 || this.status >= 500;
  }
}

/** Network failures (connection refused, reset): retryable. */
export class LlmNetworkError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlmNetworkError';
  }
}

/**
 * The call was given up because its caller stopped (the town closing): never retried, never answered by
 * a fallback. The operation it belonged to ends, and nothing it would have written is written.
 */
export class LlmAbortedError extends Error {
  constructor(reason = 'the town is closing') {
    super(`LLM call stopped: ${reason}`);
    this.name = 'LlmAbortedError';
  }
}

/** The error a call stopped by `signal` fails with: the signal's reason when it is one of ours. */
export function abortedBy(signal: AbortSignal): LlmAbortedError {
  return signal.reason instanceof LlmAbortedError ? signal.reason : new LlmAbortedError();
}

/** Transport failures a second try of the same request can get past (429, 5xx, timeouts, network). */
export function isRetryable(error: unknown): boolean {
  if (error instanceof LlmHttpError) return error.retryable;
  return error instanceof LlmTimeoutError || error instanceof LlmNetworkError;
}
