// An in-process OpenAI-compatible server for tests and benchmarks, over real HTTP. It checks each
// request (a model is named; a json_schema response format carries a named schema), answers with
// content valid against the request's schema (or from a responder registered for a schema name), and
// can inject latency and faults: 500, 429 with Retry-After, timeouts and malformed JSON, at a rate that
// can change while it runs; and it can disappear (its port refuses connections) and come back.
// As the faulty model double it also makes, at a set rate, each mistake seen in real models (MISTAKES:
// prose around the JSON, a thinking block, trailing commas, a pretty-printed reply cut at max_tokens,
// missing and extra keys, wrong types, numbers out of range, the wrong count of items, empty content, a
// refusal, a place, person or evidence number not in the prompt), on first replies only or on repair
// turns too, and on the start-up probe too; a 429 that repeats for every request with the same body;
// and it can refuse response formats it lacks.
// Its latency is either fixed (`latencyMs`, every reply after the same time) or a server's that batches
// (`latencyModel`, batchServer.ts): a queue for a few slots, a time to first token that grows with the
// prompt, and a time per written token that grows with the batch.
import http from 'node:http';
import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { BatchServer, type BatchFigures, type Finished, type LatencyModel } from './batchServer';

export const TRANSPORT_FAULTS = ['500', '429', 'timeout'] as const;
/** A 429 served again to every later request with the very same body (a server whose limit is keyed by request). */
export const SAME_BODY_429 = '429_same_body' as const;
export const MISTAKES = [
  'prose',
  'think',
  'trailing_comma',
  'cut_off',
  'missing_key',
  'extra_key',
  'wrong_type',
  'out_of_range',
  'wrong_count',
  'empty',
  'refusal',
  'unknown_place',
  'unknown_person',
  'unknown_evidence',
] as const;
export type Mistake = (typeof MISTAKES)[number];
export type Fault = (typeof TRANSPORT_FAULTS)[number] | typeof SAME_BODY_429 | 'malformed' | Mistake;
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = { [k: string]: unknown };

export interface StubRequest {
  model: string;
  schemaName: string | null;
  schema: Schema | null;
  messages: Array<{ role: string; content: string }>;
}

export interface StubOptions {
  /** Every reply after this long (the fixed-latency mode), whatever its length and the load. */
  latencyMs?: number;
  /** Instead: latency as a batching server's, from its queue, the prompt, the tokens written and the batch (batchServer.ts). */
  latencyModel?: LatencyModel;
  /** Faults served to the next requests, in order; each entry is used once. */
  faults?: Fault[];
  /** Chance per request of a random fault (seeded), after the queued ones. */
  faultRate?: number;
  seed?: number;
  /** How long a 'timeout' fault hangs before answering anyway. */
  hangMs?: number;
  embeddingDimension?: number;
  /**
   * The faulty model double: chance per request of one of `mistakes` (default: every mistake and the
   * transport faults 500, 429, a 429 that repeats for the same body and a stalled response), drawn from
   * the seeded stream.
   */
  mistakeRate?: number;
  mistakes?: readonly Fault[];
  /** Whether repair turns (a request that carries an assistant reply) may be faulty too (default false). */
  faultyRepairs?: boolean;
  /** Whether the response-format probe ("[probe v1]") may be faulty too (default false). */
  faultyProbe?: boolean;
  /**
   * Draw each request's fault from (seed, its body, how many times that body came before) instead of one
   * stream in arrival order: with requests in flight side by side, the same run meets the same faults.
   */
  drawsByBody?: boolean;
  /** Response formats the server knows; a request asking for another is refused with 400 (default: both). */
  formats?: ReadonlyArray<'json_schema' | 'json_object'>;
}

export interface StubStats {
  requests: number;
  ok: number;
  faults: Record<Fault, number>;
  violations: string[];
  bySchema: Record<string, number>;
  embeddings: number;
}

/** Deterministic content valid against a JSON Schema subset (object, array, string, number, boolean, enum, anyOf). */
export function sampleFromSchema(schema: Schema, path = '$', rng: () => number = () => 0.5): Json {
  if (Array.isArray(schema.enum)) return schema.enum[0] as Json;
  if (schema.const !== undefined) return schema.const as Json;
  const anyOf = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (anyOf) return sampleFromSchema(anyOf.find((s) => s.type !== 'null') ?? anyOf[0], path, rng);
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== 'null') : (schema.type as string | undefined);
  switch (type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const out: Record<string, Json> = {};
      for (const [k, s] of Object.entries(props)) out[k] = sampleFromSchema(s, `${path}.${k}`, rng);
      return out;
    }
    case 'array': {
      const min = Number(schema.minItems ?? 1);
      const max = Number(schema.maxItems ?? Math.max(min, 3));
      const n = Math.max(min, Math.min(max, 3));
      return Array.from({ length: n }, (_, i) => sampleFromSchema((schema.items ?? {}) as Schema, `${path}[${i}]`, rng));
    }
    case 'integer':
    case 'number': {
      const min = Number(schema.minimum ?? 1);
      const max = Number(schema.maximum ?? Math.max(min, 10));
      const v = min + (max - min) * rng();
      return type === 'integer' ? Math.round(v) : v;
    }
    case 'boolean':
      return false;
    case 'string': {
      if (schema.pattern === '^\\d{1,2}:\\d{2}$') return '09:00';
      const text = `sample ${path.replace(/[^a-z]+/gi, ' ').trim()}`;
      return text.length >= Number(schema.minLength ?? 0) ? text : text.padEnd(Number(schema.minLength), 'x');
    }
    default:
      return null;
  }
}

export class OpenAIStub {
  readonly stats: StubStats = { requests: 0, ok: 0, faults: {} as Record<Fault, number>, violations: [], bySchema: {}, embeddings: 0 };
  readonly responders = new Map<string, (req: StubRequest) => Json>();
  url = '';
  private server: http.Server | null = null;
  private rngState: number;
  private readonly faults: Fault[];
  private readonly sockets = new Set<import('node:net').Socket>();
  private readonly options: StubOptions;
  private readonly batch: BatchServer | null;
  private readonly batchWaiters = new Map<number, () => void>();
  /** Bodies refused with a 429 that repeats for the same body. */
  private readonly limitedBodies = new Set<string>();
  /** With `drawsByBody`: how many times each body (by hash) was seen. */
  private readonly bodiesSeen = new Map<string, number>();
  private batchTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(options: StubOptions = {}) {
    this.options = { ...options };
    if (options.latencyMs && options.latencyModel) throw new Error('OpenAIStub: latencyMs or latencyModel, not both');
    this.batch = options.latencyModel ? new BatchServer(options.latencyModel, performance.now()) : null;
    this.rngState = options.seed ?? 1;
    this.faults = [...(options.faults ?? [])];
  }

  /** Answer requests whose schema is named `schemaName` with `fn`'s content. */
  respond(schemaName: string, fn: (req: StubRequest) => Json): this {
    this.responders.set(schemaName, fn);
    return this;
  }

  queueFaults(...faults: Fault[]): void {
    this.faults.push(...faults);
  }

  async start(): Promise<this> {
    await this.listen(0);
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}/v1`;
    return this;
  }

  private async listen(port: number): Promise<void> {
    const server = http.createServer((req, res) => void this.handle(req, res));
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    this.server = server;
  }

  /** Chance per request of a random fault from now on (0 stops them). */
  setFaultRate(rate: number): void {
    this.options.faultRate = rate;
  }

  /** Gone: the port refuses connections and requests in flight are cut, until `reappear`. */
  async disappear(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = null;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const s of this.sockets) s.destroy();
    await closed;
  }

  /** Back on the same port and address. */
  async reappear(): Promise<void> {
    if (this.server) return;
    const port = Number(new URL(this.url).port);
    await this.listen(port);
  }

  /** The batching server's figures (requests, queued, the full-batch bound…), with `latencyModel`. */
  get batchFigures(): BatchFigures | null {
    return this.batch ? { ...this.batch.figures } : null;
  }

  async close(): Promise<void> {
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private random(): number {
    this.rngState = (Math.imul(this.rngState, 1664525) + 1013904223) >>> 0;
    return this.rngState / 4294967296;
  }

  /** Chance per request of a model mistake from now on (0 stops them). */
  setMistakeRate(rate: number): void {
    this.options.mistakeRate = rate;
  }

  private nextFault(repairTurn: boolean, raw: string): Fault | null {
    if (this.faults.length) return this.faults.shift()!;
    const random = this.options.drawsByBody ? this.drawsFor(raw) : () => this.random();
    if (this.options.faultRate && random() < this.options.faultRate) return (['500', '429', 'timeout', 'malformed'] as const)[Math.floor(random() * 4)];
    if (this.options.mistakeRate && (!repairTurn || this.options.faultyRepairs) && random() < this.options.mistakeRate) {
      const pool = this.options.mistakes ?? [...MISTAKES, ...TRANSPORT_FAULTS, SAME_BODY_429];
      return pool[Math.floor(random() * pool.length)];
    }
    return null;
  }

  /** Uniform draws in [0, 1) from the seed, the body and its occurrence (eight of them, then they repeat). */
  private drawsFor(raw: string): () => number {
    const body = createHash('sha256').update(raw).digest('hex');
    const n = this.bodiesSeen.get(body) ?? 0;
    this.bodiesSeen.set(body, n + 1);
    const bytes = createHash('sha256')
      .update(`${this.options.seed ?? 1}|${n}|${body}`)
      .digest();
    let i = 0;
    return () => bytes.readUInt32BE((i++ % 8) * 4) / 4294967296;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown>;
    const raw = Buffer.concat(chunks).toString('utf8');
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return this.error(res, 400, 'request body is not JSON');
    }
    const route = (req.url ?? '').replace(/^\/v1/, '');
    if (req.method === 'POST' && route === '/embeddings') return this.embeddings(body, res);
    if (req.method !== 'POST' || route !== '/chat/completions') return this.error(res, 404, `no route ${req.method} ${req.url}`);
    this.stats.requests++;
    const model = typeof body.model === 'string' ? body.model : '';
    const messages = Array.isArray(body.messages) ? (body.messages as StubRequest['messages']) : [];
    const format = body.response_format as { type?: string; json_schema?: { name?: string; schema?: Schema } } | undefined;
    const violation = !model
      ? 'no model named'
      : messages.length === 0
        ? 'no messages'
        : format?.type === 'json_schema' && (!format.json_schema?.schema || !format.json_schema.name)
          ? 'json_schema without a named schema'
          : null;
    if (violation) {
      this.stats.violations.push(violation);
      return this.error(res, 400, violation);
    }
    if (format?.type && format.type !== 'text' && !(this.options.formats ?? ['json_schema', 'json_object']).includes(format.type as 'json_schema')) {
      return this.error(res, 400, `response_format ${format.type} is not supported`);
    }
    // Without structured outputs, the purpose tag the prompts carry ("[plan v1]") names the schema.
    const tag = /\[(\w+) v\d+\]/.exec(messages.map((m) => m.content).join('\n'))?.[1];
    const named = /JSON Schema "(\w+)":\n/.exec(messages.map((m) => m.content).join('\n'))?.[1];
    const schemaName = format?.json_schema?.name ?? named ?? (tag ? `${tag}_reply` : null);
    const schema = format?.json_schema?.schema ?? extractSchema(messages);
    if (schemaName) this.stats.bySchema[schemaName] = (this.stats.bySchema[schemaName] ?? 0) + 1;
    const repairTurn = messages.some((m) => m.role === 'assistant');
    const fault = this.limitedBodies.has(raw) ? SAME_BODY_429 : tag === 'probe' && !this.options.faultyProbe ? null : this.nextFault(repairTurn, raw);
    if (fault) this.stats.faults[fault] = (this.stats.faults[fault] ?? 0) + 1;
    if (fault === '500') return this.error(res, 500, 'injected server error');
    if (fault === '429') return this.error(res, 429, 'injected rate limit', { 'retry-after': '1', 'retry-after-ms': '50' });
    if (fault === SAME_BODY_429) {
      this.limitedBodies.add(raw);
      return this.error(res, 429, 'injected rate limit (this request again)', { 'retry-after': '1', 'retry-after-ms': '50' });
    }
    if (fault === 'timeout') await new Promise((r) => setTimeout(r, this.options.hangMs ?? 2000));
    if (this.options.latencyMs) await new Promise((r) => setTimeout(r, this.options.latencyMs));
    const request: StubRequest = { model, schemaName, schema, messages };
    const responder = schemaName ? this.responders.get(schemaName) : undefined;
    const answer = responder ? responder(request) : schema ? sampleFromSchema(schema) : { ok: true };
    const maxTokens = typeof body.max_tokens === 'number' ? body.max_tokens : null;
    const { content, finishReason } =
      fault === 'malformed'
        ? { content: 'Sure! Here is your answer: (the JSON did not come out)', finishReason: 'stop' }
        : makeMistake(fault as Mistake | null, answer, maxTokens);
    const promptTokens = Math.ceil(messages.reduce((s, m) => s + m.content.length, 0) / 4);
    // The batching server writes the reply it has chosen: its length sets how long the request runs.
    if (this.batch) await this.inBatch(promptTokens, Math.ceil(content.length / 4), res);
    if (!res.destroyed) this.stats.ok += fault === 'malformed' ? 0 : 1;
    this.json(res, 200, {
      id: `chatcmpl-${this.stats.requests}`,
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, finish_reason: finishReason, message: { role: 'assistant', content } }],
      usage: { prompt_tokens: promptTokens, completion_tokens: Math.ceil(content.length / 4), total_tokens: promptTokens + Math.ceil(content.length / 4) },
    });
  }

  /** Waits while the batching server queues and runs this request; a client that goes away frees its slot. */
  private async inBatch(promptTokens: number, outputTokens: number, res: http.ServerResponse): Promise<void> {
    const batch = this.batch!;
    const { id, finished } = batch.submit(promptTokens, outputTokens, performance.now());
    const done = new Promise<void>((resolve) => this.batchWaiters.set(id, resolve));
    const onClose = () => {
      if (!this.batchWaiters.has(id)) return;
      this.batchWaiters.get(id)!();
      this.batchWaiters.delete(id);
      this.settle(batch.cancel(id, performance.now()));
    };
    res.on('close', onClose);
    this.settle(finished);
    await done;
    res.off('close', onClose);
  }

  /** Answers the requests that ended and sets a timer for the next end. */
  private settle(finished: Finished[]): void {
    for (const f of finished) {
      this.batchWaiters.get(f.id)?.();
      this.batchWaiters.delete(f.id);
    }
    if (this.batchTimer) clearTimeout(this.batchTimer);
    this.batchTimer = null;
    const next = this.batch!.nextEventMs();
    if (next === null) return;
    this.batchTimer = setTimeout(() => this.settle(this.batch!.advance(performance.now())), Math.max(0, Math.ceil(next - performance.now())));
    this.batchTimer.unref?.();
  }

  private embeddings(body: Record<string, unknown>, res: http.ServerResponse): void {
    this.stats.embeddings++;
    const input = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
    const d = this.options.embeddingDimension ?? 16;
    const data = input.map((text, index) => {
      const v = Array.from({ length: d }, (_, k) => Math.sin((text.length + 1) * (k + 1) + [...text].reduce((s, c) => s + c.charCodeAt(0), 0)));
      return { object: 'embedding', index, embedding: v };
    });
    this.json(res, 200, { object: 'list', data, model: body.model, usage: { prompt_tokens: input.length, total_tokens: input.length } });
  }

  private error(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
    this.json(res, status, { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } }, headers);
  }

  private json(res: http.ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
    if (res.destroyed) return;
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(payload));
  }
}

/** The reply as a model that makes `mistake` would write it (the valid answer when null). */
export function makeMistake(mistake: Mistake | null, answer: Json, maxTokens: number | null): { content: string; finishReason: string } {
  const compact = JSON.stringify(answer);
  const done = (content: string) => ({ content, finishReason: 'stop' });
  switch (mistake) {
    case null:
      return done(compact);
    case 'prose':
      return done(`Sure! Here is the JSON you asked for:\n${compact}\nLet me know if you need anything else.`);
    case 'think':
      return done(`<think>\nThe user wants JSON. Let me think about what fits best here, step by step.\n</think>\n${compact}`);
    case 'trailing_comma':
      return done(JSON.stringify(answer, null, 2).replace(/\n(\s*)([}\]])/g, ',\n$1$2'));
    case 'cut_off': {
      // Pretty-printed with wide indents: long enough to hit the budget, cut where it does (or at half).
      const pretty = JSON.stringify(answer, null, 8);
      const limit = Math.min(Math.floor(pretty.length / 2), (maxTokens ?? Infinity) * 4);
      return { content: pretty.slice(0, limit), finishReason: 'length' };
    }
    case 'empty':
      return done('');
    case 'refusal':
      return done("I'm sorry, but I can't help with that request.");
    default:
      return done(JSON.stringify(mutate(mistake, structuredClone(answer))));
  }
}

/** Missing and extra keys, wrong types, numbers out of range, the wrong count: on the first place each fits. */
function mutate(mistake: Mistake, answer: Json): Json {
  if (answer === null || typeof answer !== 'object' || Array.isArray(answer)) return answer;
  const keys = Object.keys(answer);
  const firstArray = (o: Json): Json[] | null => {
    if (Array.isArray(o)) return o;
    if (o && typeof o === 'object') for (const v of Object.values(o)) if (Array.isArray(v)) return v;
    return null;
  };
  const numbers = (o: Json, visit: (holder: { [k: string]: Json } | Json[], key: string | number, n: number) => void): void => {
    if (Array.isArray(o)) o.forEach((v, i) => (typeof v === 'number' ? visit(o, i, v) : numbers(v, visit)));
    else if (o && typeof o === 'object') for (const [k, v] of Object.entries(o)) typeof v === 'number' ? visit(o, k, v) : numbers(v, visit);
  };
  switch (mistake) {
    case 'missing_key':
      delete answer[keys[keys.length - 1]];
      return answer;
    case 'extra_key':
      return { ...answer, confidence: 0.9, note: 'I hope this helps.' };
    case 'wrong_type': {
      let changed = false;
      numbers(answer, (holder, key, n) => {
        (holder as Record<string | number, Json>)[key] = String(n);
        changed = true;
      });
      if (!changed) answer[keys[0]] = typeof answer[keys[0]] === 'string' ? [answer[keys[0]]] : JSON.stringify(answer[keys[0]]);
      return answer;
    }
    case 'out_of_range':
      numbers(answer, (holder, key, n) => ((holder as Record<string | number, Json>)[key] = n * 10 + 7));
      return answer;
    case 'wrong_count': {
      const list = firstArray(answer);
      if (list && list.length > 1) list.pop();
      else if (list) list.push(structuredClone(list[0] ?? null), structuredClone(list[0] ?? null));
      return answer;
    }
    case 'unknown_place':
      setFirst(answer, ['place'], (v) => (typeof v === 'string' ? 'Atlantis Mall: food court' : v));
      return answer;
    case 'unknown_person':
      setFirst(answer, ['speaker', 'talkTo'], () => 'Zed Quillfeather');
      return answer;
    case 'unknown_evidence':
      setFirst(answer, ['evidence'], (v) => (Array.isArray(v) ? [...v, 99] : v));
      return answer;
    default:
      return answer;
  }
}

/** Replaces the value of the first key (depth first) among `keys`; the answer is left as it was when none is found. */
function setFirst(o: Json, keys: string[], to: (v: Json) => Json): boolean {
  if (Array.isArray(o)) return o.some((v) => setFirst(v, keys, to));
  if (!o || typeof o !== 'object') return false;
  for (const [k, v] of Object.entries(o)) {
    if (keys.includes(k) && v !== null) {
      o[k] = to(v);
      return true;
    }
    if (setFirst(v, keys, to)) return true;
  }
  return false;
}

/** In json_object / none modes the schema travels in the system prompt, after 'JSON Schema "name":'. */
function extractSchema(messages: Array<{ content: string }>): Schema | null {
  for (const m of messages) {
    const found = /JSON Schema(?: "\w+")?:\n/.exec(m.content);
    if (found) {
      try {
        return JSON.parse(m.content.slice(found.index + found[0].length).split('\n')[0]) as Schema;
      } catch {
        return null;
      }
    }
  }
  return null;
}
