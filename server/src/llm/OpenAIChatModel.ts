// The ChatModel adapter for any OpenAI-compatible endpoint, through the openai SDK. The reply's keys and
// limits are always said in the prompt; the schema also goes as structured output (json_schema), or the
// server is asked for json_object, or for nothing (plain), as a probe of the endpoint at the first call
// found out ('auto') or LLM_RESPONSE_FORMAT says. It reads the JSON out of the reply tolerantly
// (replyJson.ts) and throws when there is none. It does not retry: RetryingChatModel does, so that each
// retry is seen and counted.
import OpenAI, { APIConnectionTimeoutError, APIConnectionError, APIError } from 'openai';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, Purpose } from './types';
import { abortedBy, LlmHttpError, LlmNetworkError, LlmReplyError, LlmTimeoutError } from './errors';
import { extractJson } from './replyJson';
import { describeShape } from './schemaShape';
import { systemClock, type WallClock } from '../core/wallClock';

export type ResponseFormatMode = 'json_schema' | 'json_object' | 'none';
/** 'auto': probe the endpoint once, at the first call, for the first mode it honours. */
export type ResponseFormatSetting = ResponseFormatMode | 'auto';

export interface OpenAIChatModelOptions {
  baseURL: string;
  apiKey?: string;
  /** The model for each purpose, falling back to `default`. */
  models: { default: string } & Partial<Record<Purpose, string>>;
  responseFormat?: ResponseFormatSetting;
  timeoutMs?: number;
  /** Told which mode the probe found, and why (the town logs it). */
  onProbe?: (mode: ResponseFormatMode, detail: string) => void;
  /** Wall time for latencies and Retry-After dates (tests pass a ManualClock). */
  clock?: WallClock;
}

const PROBE_SCHEMA = {
  type: 'object',
  properties: { colour: { type: 'string', enum: ['red', 'green', 'blue'] }, count: { type: 'integer', minimum: 1, maximum: 9 } },
  required: ['colour', 'count'],
  additionalProperties: false,
};

export class OpenAIChatModel implements ChatModel {
  private readonly client: OpenAI;
  private mode: ResponseFormatMode | null;
  private probing: Promise<ResponseFormatMode> | null = null;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: OpenAIChatModelOptions) {
    const setting = options.responseFormat ?? 'auto';
    this.mode = setting === 'auto' ? null : setting;
    this.timeoutMs = options.timeoutMs ?? 60_000;
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now();
    this.client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey ?? 'unused', maxRetries: 0, timeout: this.timeoutMs });
  }

  modelFor(purpose: Purpose): string {
    return this.options.models[purpose] ?? this.options.models.default;
  }

  /** The response-format mode in use; null until the probe (in 'auto') has answered. */
  get responseFormat(): ResponseFormatMode | null {
    return this.mode;
  }

  /**
   * Finds the first mode the endpoint honours with a tiny request each: json_schema (the reply fits the
   * schema), then json_object (the server accepts it and replies with JSON), else plain. A transport
   * failure (the endpoint down) is thrown, not taken as an answer, and the next call probes again.
   */
  probe(signal?: AbortSignal): Promise<ResponseFormatMode> {
    if (this.mode) return Promise.resolve(this.mode);
    this.probing ??= this.runProbe(signal).then(
      (mode) => (this.mode = mode),
      (error: unknown) => {
        this.probing = null;
        throw error;
      },
    );
    return this.probing;
  }

  private async runProbe(signal?: AbortSignal): Promise<ResponseFormatMode> {
    const request: ChatRequest = {
      purpose: 'importance',
      agentId: null,
      schemaName: 'probe_reply',
      schema: PROBE_SCHEMA,
      maxTokens: 400,
      messages: [{ role: 'user', content: 'Pick a colour (red, green or blue) and a count from 1 to 9. [probe v1]' }],
    };
    const fits = (json: unknown) => {
      const o = json as { colour?: unknown; count?: unknown } | null;
      return !!o && ['red', 'green', 'blue'].includes(String(o.colour)) && Number.isInteger(o.count) && Object.keys(o).length === 2;
    };
    const reasons: string[] = [];
    for (const mode of ['json_schema', 'json_object'] as const) {
      try {
        const reply = await this.send(request, mode, signal);
        if (mode === 'json_schema' ? fits(reply.json) : reply.json !== null && typeof reply.json === 'object') {
          this.options.onProbe?.(mode, `the endpoint honoured ${mode}${reasons.length ? ` (${reasons.join('; ')})` : ''}`);
          return mode;
        }
        reasons.push(`${mode}: the reply did not fit`);
      } catch (error) {
        if (error instanceof LlmHttpError && error.retryable) throw error;
        if (!(error instanceof LlmHttpError || error instanceof LlmReplyError)) throw error;
        reasons.push(`${mode}: ${error.message.slice(0, 80)}`);
      }
    }
    this.options.onProbe?.('none', `plain JSON in the prompt (${reasons.join('; ')})`);
    return 'none';
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    return this.send(request, this.mode ?? (await this.probe(signal)), signal);
  }

  private async send(request: ChatRequest, mode: ResponseFormatMode, signal?: AbortSignal): Promise<ChatResponse> {
    const model = this.modelFor(request.purpose);
    const messages = withSchemaInstructions(request, mode);
    const started = this.now();
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(
        {
          model,
          messages,
          temperature: request.temperature ?? 0,
          ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
          ...(mode === 'json_schema'
            ? { response_format: { type: 'json_schema' as const, json_schema: { name: request.schemaName, schema: request.schema, strict: true } } }
            : mode === 'json_object'
              ? { response_format: { type: 'json_object' as const } }
              : {}),
        },
        { signal, timeout: this.timeoutMs },
      );
    } catch (error) {
      // Stopped by the caller (the town closing), not timed out: not to be retried.
      if (signal?.aborted) throw abortedBy(signal);
      throw translateError(error, this.timeoutMs, this.now());
    }
    const choice = completion.choices[0];
    const text = choice?.message?.content ?? '';
    const finishReason = choice?.finish_reason ?? 'stop';
    const base = {
      text,
      model: completion.model || model,
      usage: { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 },
      latencyMs: this.now() - started,
      cached: false,
      finishReason,
    };
    try {
      const extracted = extractJson(text);
      return { ...base, json: extracted.json, thinkingChars: extracted.thinkingChars, notes: extracted.notes };
    } catch (error) {
      // Cut off before any JSON (a long thinking block): the caller retries with a bigger budget.
      if (finishReason === 'length') return { ...base, json: null, thinkingChars: text.length, notes: ['cut off before any JSON'] };
      throw error;
    }
  }
}

/**
 * The reply's keys and limits, said in the prompt in every mode (servers that ignore json_schema still
 * see them); without structured outputs the whole JSON Schema travels too.
 */
export function withSchemaInstructions(request: ChatRequest, mode: ResponseFormatMode): ChatMessage[] {
  const shape = `Reply with one JSON object only, no prose: ${describeShape(request.schema)}`;
  const instruction = mode === 'json_schema' ? shape : `${shape}\nIt must match the JSON Schema "${request.schemaName}":\n${JSON.stringify(request.schema)}`;
  const [first, ...rest] = request.messages;
  return first?.role === 'system'
    ? [{ role: 'system', content: `${first.content}\n${instruction}` }, ...rest]
    : [{ role: 'system', content: instruction }, ...request.messages];
}

function retryAfterMs(headers: Headers | undefined, nowMs: number): number | null {
  if (!headers) return null;
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const s = headers.get('retry-after');
  if (!s) return null;
  if (Number.isFinite(Number(s))) return Number(s) * 1000;
  const date = Date.parse(s);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

function translateError(error: unknown, timeoutMs: number, nowMs: number): Error {
  if (error instanceof APIConnectionTimeoutError) return new LlmTimeoutError(timeoutMs);
  if (error instanceof APIError && typeof error.status === 'number')
    return new LlmHttpError(error.status, error.message, retryAfterMs(error.headers as Headers | undefined, nowMs));
  if (error instanceof APIConnectionError) return new LlmNetworkError(error.message);
  if (error instanceof Error && error.name === 'AbortError') return new LlmTimeoutError(timeoutMs);
  return error instanceof Error ? error : new Error(String(error));
}
