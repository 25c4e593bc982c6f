// The ChatModel adapter for any OpenAI-compatible endpoint, through the openai SDK. The reply's keys and
// limits are always said in the prompt; the schema also goes as structured output (json_schema), or the
// server is asked for json_object, or for nothing (plain), as a probe of the endpoint at the first call
// found out ('auto') or LLM_RESPONSE_FORMAT says. The probe is itself robust to a faulty model: a
// cut-off reply gets a bigger budget, an unfit one a repair turn, and a mode is given up only after two
// samples; its transport failures are retried with backoff, and an endpoint that never answers leaves a
// provisional mode and a re-probe soon, never a probe per ask. The mode found is probed again on a
// schedule. It reads the JSON out of the reply tolerantly (replyJson.ts) and throws when there is none.
// Asks are not retried here: RetryingChatModel does, so that each retry is seen and counted.
import OpenAI, { APIConnectionTimeoutError, APIConnectionError, APIError } from 'openai';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, Purpose } from './types';
import { abortedBy, isRetryable, LlmAbortedError, LlmHttpError, LlmNetworkError, LlmReplyError, LlmTimeoutError } from './errors';
import { realSleep, untilAborted } from './RetryingChatModel';
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
  /** In 'auto': probe the endpoint again this long after a probe that found a mode (default 1 h; 0 never). */
  reprobeAfterMs?: number;
  /** In 'auto': probe again this long after a probe the endpoint never answered (default 60 s). */
  reprobeUnreachableMs?: number;
  /** Transport retries of each probe request, with exponential backoff from `probeBackoffMs` (default 4, 500 ms). */
  probeRetries?: number;
  probeBackoffMs?: number;
  /** Injected for tests: the probe's backoff waits. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** The mode the probe settles on when the endpoint never answered it: every server takes a plain request. */
const PROVISIONAL_MODE: ResponseFormatMode = 'none';
const PROBE_QUESTIONS = [
  'Pick a colour (red, green or blue) and a count from 1 to 9. [probe v1]',
  'Choose one colour out of red, green and blue, and a whole number between 1 and 9. [probe v1]',
];

/** The endpoint did not answer a probe request, its transport retries spent. */
class ProbeUnreachable extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause });
  }
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
  /** Wall time at which the found (or provisional) mode is probed again, in 'auto'; null never. */
  private nextProbeAtMs: number | null = null;
  private readonly auto: boolean;
  /** Requests the probe sent, retries included (for reports; they are not asks). */
  probeRequests = 0;
  private readonly timeoutMs: number;
  private readonly now: () => number;

  constructor(private readonly options: OpenAIChatModelOptions) {
    const setting = options.responseFormat ?? 'auto';
    this.mode = setting === 'auto' ? null : setting;
    this.auto = setting === 'auto';
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
   * Finds the first mode the endpoint honours: json_schema (the reply fits the schema), then json_object
   * (the server accepts it and replies with JSON), else plain. Each mode gets two samples (two wordings of
   * one small question), each with a bigger budget when cut off and one repair turn, before it is given
   * up; a 400 gives it up at once. Transport failures are retried with backoff; when they are spent the
   * endpoint is taken as unreachable: a provisional mode, and another probe after `reprobeUnreachableMs`.
   * Concurrent callers share one probe. Every choice is reported to `onProbe` with its reason.
   */
  probe(signal?: AbortSignal): Promise<ResponseFormatMode> {
    if (this.mode && !this.probeDue()) return Promise.resolve(this.mode);
    this.probing ??= this.runProbe(signal).then(
      (mode) => {
        this.probing = null;
        return (this.mode = mode);
      },
      (error: unknown) => {
        this.probing = null;
        throw error;
      },
    );
    return this.probing;
  }

  private probeDue(): boolean {
    return this.auto && this.nextProbeAtMs !== null && this.now() >= this.nextProbeAtMs;
  }

  private async runProbe(signal?: AbortSignal): Promise<ResponseFormatMode> {
    const again = this.mode ? ` (again; it was ${this.mode})` : '';
    const reasons: string[] = [];
    const settle = (mode: ResponseFormatMode, detail: string, afterMs: number) => {
      this.nextProbeAtMs = afterMs > 0 ? this.now() + afterMs : null;
      const next = afterMs > 0 ? `; probing again in ${Math.round(afterMs / 1000)} s` : '';
      this.options.onProbe?.(mode, `${detail}${again}${next}`);
      return mode;
    };
    const every = this.options.reprobeAfterMs ?? 3_600_000;
    try {
      for (const mode of ['json_schema', 'json_object'] as const) {
        for (const [i, question] of PROBE_QUESTIONS.entries()) {
          const outcome = await this.probeSample(mode, question, signal);
          if (outcome === 'fits') {
            const sampled = i > 0 ? ` at the second sample` : '';
            return settle(mode, `the endpoint honoured ${mode}${sampled}${reasons.length ? ` (${reasons.join('; ')})` : ''}`, every);
          }
          reasons.push(`${mode} sample ${i + 1}: ${outcome.slice(0, 80)}`);
          if (outcome.startsWith('refused')) break;
        }
      }
    } catch (error) {
      if (!(error instanceof ProbeUnreachable)) throw error;
      const wait = this.options.reprobeUnreachableMs ?? 60_000;
      // Keep a mode found earlier; else the provisional one. Asks go on meanwhile, and are not probes.
      return settle(
        this.mode ?? PROVISIONAL_MODE,
        `the endpoint did not answer the probe (${error.message.slice(0, 80)}): ${this.mode ?? PROVISIONAL_MODE} for now`,
        wait,
      );
    }
    return settle('none', `plain JSON in the prompt (${reasons.join('; ')})`, every);
  }

  /** One sample of a mode: 'fits', or why not ('refused: …' when the server refuses the mode). */
  private async probeSample(mode: ResponseFormatMode, question: string, signal?: AbortSignal): Promise<'fits' | string> {
    const fits = (json: unknown) => {
      if (mode !== 'json_schema') return json !== null && typeof json === 'object' && !Array.isArray(json);
      const o = json as { colour?: unknown; count?: unknown } | null;
      return !!o && ['red', 'green', 'blue'].includes(String(o.colour)) && Number.isInteger(o.count) && Object.keys(o).length === 2;
    };
    let request: ChatRequest = {
      purpose: 'importance',
      agentId: null,
      schemaName: 'probe_reply',
      schema: PROBE_SCHEMA,
      maxTokens: 400,
      messages: [{ role: 'user', content: question }],
    };
    let repaired = false;
    let lengthened = false;
    for (;;) {
      let problem: string;
      let text = '';
      try {
        const reply = await this.sendProbe(request, mode, signal);
        if (reply === 'refused') return `refused: ${mode}`;
        text = reply.text;
        if (reply.finishReason === 'length' && !lengthened) {
          lengthened = true;
          request = { ...request, maxTokens: 4 * (request.maxTokens ?? 400) };
          continue;
        }
        if (reply.finishReason !== 'length' && fits(reply.json)) return 'fits';
        problem = reply.finishReason === 'length' ? 'the reply was cut off twice' : 'the reply did not fit';
      } catch (error) {
        if (!(error instanceof LlmReplyError)) throw error;
        problem = error.message;
        text = error.text;
      }
      if (repaired) return problem;
      repaired = true;
      request = {
        ...request,
        messages: [
          ...request.messages,
          { role: 'assistant', content: text.slice(0, 2000) || '(an empty reply)' },
          { role: 'user', content: `That reply cannot be used: ${problem}. Reply again with the JSON object only.` },
        ],
      };
    }
  }

  /** A probe request with its own transport retries; 'refused' when the server refuses the mode (a 4xx). */
  private async sendProbe(request: ChatRequest, mode: ResponseFormatMode, signal?: AbortSignal): Promise<ChatResponse | 'refused'> {
    const retries = this.options.probeRetries ?? 4;
    const base = this.options.probeBackoffMs ?? 500;
    const sleep = this.options.sleep ?? realSleep;
    for (let attempt = 0; ; attempt++) {
      this.probeRequests++;
      try {
        return await this.send(request, mode, signal);
      } catch (error) {
        if (error instanceof LlmAbortedError || signal?.aborted) throw error;
        if (error instanceof LlmHttpError && !error.retryable) return 'refused';
        if (!isRetryable(error)) throw error;
        if (attempt >= retries) throw new ProbeUnreachable(error as Error);
        const asked = error instanceof LlmHttpError && error.retryAfterMs !== null ? error.retryAfterMs : 0;
        await untilAborted(sleep(Math.max(asked, base * 2 ** attempt), signal), signal);
      }
    }
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const mode = this.mode && !this.probeDue() ? this.mode : await this.probe(signal);
    return this.send(request, mode, signal);
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
  const instruction =
    mode === 'json_schema' && !request.schemaInPrompt
      ? shape
      : `${shape}\nIt must match the JSON Schema "${request.schemaName}":\n${JSON.stringify(request.schema)}`;
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

/** An SDK error as the stack's errors (what retries and reports read): timeouts, HTTP statuses with Retry-After, network errors. */
export function translateError(error: unknown, timeoutMs: number, nowMs: number): Error {
  if (error instanceof APIConnectionTimeoutError) return new LlmTimeoutError(timeoutMs);
  if (error instanceof APIError && typeof error.status === 'number')
    return new LlmHttpError(error.status, error.message, retryAfterMs(error.headers as Headers | undefined, nowMs));
  if (error instanceof APIConnectionError) return new LlmNetworkError(error.message);
  if (error instanceof Error && error.name === 'AbortError') return new LlmTimeoutError(timeoutMs);
  return error instanceof Error ? error : new Error(String(error));
}
