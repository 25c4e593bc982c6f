// The ChatModel adapter for any OpenAI-compatible endpoint, through the openai SDK. It sends the
// output schema as structured output (json_schema) by default, or as json_object / plain JSON for
// servers without it; it parses the reply as JSON and throws on anything else. It does not retry:
// RetryingChatModel does, so that each retry is seen and counted.
import OpenAI, { APIConnectionTimeoutError, APIConnectionError, APIError } from 'openai';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, Purpose } from './types';
import { LlmHttpError, LlmNetworkError, LlmReplyError, LlmTimeoutError } from './errors';
import { systemClock, type WallClock } from '../core/wallClock';

export type ResponseFormatMode = 'json_schema' | 'json_object' | 'none';

export interface OpenAIChatModelOptions {
  baseURL: string;
  apiKey?: string;
  /** The model for each purpose, falling back to `default`. */
  models: { default: string } & Partial<Record<Purpose, string>>;
  responseFormat?: ResponseFormatMode;
  timeoutMs?: number;
  /** Wall time for latencies and Retry-After dates (tests pass a ManualClock). */
  clock?: WallClock;
}

/** Strips ```json fences and surrounding prose the way a careful reader would, then parses. */
export function parseJsonReply(text: string): unknown {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(text);
  const body = (fenced ? fenced[1] : text).trim();
  try {
    return JSON.parse(body);
  } catch {
    throw new LlmReplyError(`the reply is not JSON: ${body.slice(0, 120)}`, text);
  }
}

export class OpenAIChatModel implements ChatModel {
  private readonly client: OpenAI;
  private readonly mode: ResponseFormatMode;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: OpenAIChatModelOptions) {
    this.mode = options.responseFormat ?? 'json_schema';
    this.timeoutMs = options.timeoutMs ?? 60_000;
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now();
    this.client = new OpenAI({ baseURL: options.baseURL, apiKey: options.apiKey ?? 'unused', maxRetries: 0, timeout: this.timeoutMs });
  }

  modelFor(purpose: Purpose): string {
    return this.options.models[purpose] ?? this.options.models.default;
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const model = this.modelFor(request.purpose);
    const messages = this.withSchemaInstructions(request);
    const started = this.now();
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    try {
      completion = await this.client.chat.completions.create(
        {
          model,
          messages,
          temperature: request.temperature ?? 0,
          ...(request.maxTokens ? { max_tokens: request.maxTokens } : {}),
          ...(this.mode === 'json_schema'
            ? { response_format: { type: 'json_schema' as const, json_schema: { name: request.schemaName, schema: request.schema, strict: true } } }
            : this.mode === 'json_object'
              ? { response_format: { type: 'json_object' as const } }
              : {}),
        },
        { signal, timeout: this.timeoutMs },
      );
    } catch (error) {
      throw translateError(error, this.timeoutMs, this.now());
    }
    const text = completion.choices[0]?.message?.content ?? '';
    if (!text) throw new LlmReplyError('the reply is empty', text);
    return {
      json: parseJsonReply(text),
      text,
      model: completion.model || model,
      usage: { promptTokens: completion.usage?.prompt_tokens ?? 0, completionTokens: completion.usage?.completion_tokens ?? 0 },
      latencyMs: this.now() - started,
      cached: false,
    };
  }

  /** Without structured outputs the schema travels in the prompt, so the model still knows the shape. */
  private withSchemaInstructions(request: ChatRequest): ChatMessage[] {
    if (this.mode === 'json_schema') return request.messages;
    const instruction = `Reply with one JSON object only, no prose, matching this JSON Schema:\n${JSON.stringify(request.schema)}`;
    const [first, ...rest] = request.messages;
    return first?.role === 'system'
      ? [{ role: 'system', content: `${first.content}\n${instruction}` }, ...rest]
      : [{ role: 'system', content: instruction }, ...request.messages];
  }
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
