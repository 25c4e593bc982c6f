// The ports through which cognition reaches a language model and an embedder.
// Adapters (OpenAI-compatible, offline) implement them; wrappers (scheduler, budget, cache,
// recorder) implement them too and stack on top of one another.

export const PURPOSES = ['importance', 'plan', 'decompose', 'react', 'converse', 'summarise', 'reflect', 'interview'] as const;
export type Purpose = (typeof PURPOSES)[number];

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A JSON Schema object (draft 2020-12 subset that OpenAI structured outputs accept). */
export type JsonSchema = { [key: string]: unknown };

export interface ChatRequest {
  purpose: Purpose;
  /** The agent on whose behalf the call is made; `null` for town-level calls. Used for fairness and accounting. */
  agentId: string | null;
  messages: ChatMessage[];
  /** Name of the output schema, sent as `json_schema.name`. */
  schemaName: string;
  /** JSON Schema of the reply's content. */
  schema: JsonSchema;
  /** Upper bound on completion tokens. */
  maxTokens?: number;
  /** Sampling temperature; 0 for reproducible runs. */
  temperature?: number;
  /**
   * Whether a parsed reply is usable (the caller's schema check, with its tolerance). The cache keeps and
   * serves only replies it accepts; not part of the cache key.
   */
  accept?: (json: unknown) => boolean;
  /**
   * Set on a follow-up of one ask (a repair turn, a bigger budget, another form): the ask's first request.
   * An accepted reply is cached under the first request's key, so that a rerun replays the ask with no request.
   */
  firstRequest?: ChatRequest;
  /** Send the whole JSON Schema in the prompt whatever the response format (a re-sent ask's other form). */
  schemaInPrompt?: boolean;
  /**
   * `schema` narrowed to the town and the day (agent/replyShape.ts): the embedded model's grammar is built from it,
   * so a small model can only write the town's names and times. An endpoint gets `schema` as declared.
   */
  grammarShape?: JsonSchema;
}

export interface TokenUsage {
  promptTokens: number;
  completionTokens: number;
}

export interface ChatResponse {
  /** The reply parsed as JSON. Still unvalidated: callers validate it with their own zod schema. */
  json: unknown;
  /** The raw text of the reply. */
  text: string;
  model: string;
  usage: TokenUsage;
  latencyMs: number;
  /** True when the answer came from the cache and cost nothing. */
  cached: boolean;
  /** Why the model stopped: 'stop', or 'length' when the token budget cut the reply off. */
  finishReason?: string;
  /** Characters the reply spent thinking (a <think> block) before its answer. */
  thinkingChars?: number;
  /** What the extraction mended in the reply's syntax (prose around the JSON, a thinking block, trailing commas…). */
  notes?: string[];
}

export interface ChatModel {
  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse>;
}

export interface Embedder {
  /** Recorded in each world; a world refuses to open with a different model or dimension. */
  readonly model: string;
  readonly dimension: number;
  /** Unit-length vectors, one per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Stops the requests in flight and refuses new ones (the process is stopping); an embedder with none has nothing to do. */
  close?(): void;
}

/** One row of the LLM call log. */
export interface LlmCallRecord {
  agentId: string | null;
  purpose: Purpose;
  model: string;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  costUsd: number;
  cached: boolean;
  /** 'ok', or the error class name of a call that failed. */
  outcome: string;
  /** Game time of the call, when known. */
  gameMs: number | null;
  /** Wall-clock time (ms since epoch) the call finished. */
  wallMs: number;
  /** The endpoint that served it, with several (LLM_ENDPOINTS); null or absent with one. */
  endpoint?: string | null;
}

/** Where the call recorder writes (SQLite in production, an array in tests). */
export interface CallLog {
  record(call: LlmCallRecord): void;
}

/** Where the response cache keeps replies (SQLite in production, a Map in tests). */
export interface ResponseCacheStore {
  get(key: string): string | undefined;
  put(key: string, value: string): void;
  delete(key: string): void;
  /** Every entry, for purging those no longer valid when a world opens. */
  entries(): Iterable<[string, string]>;
}
