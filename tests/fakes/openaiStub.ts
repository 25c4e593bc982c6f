// An in-process OpenAI-compatible server for tests and benchmarks, over real HTTP. It checks each
// request (a model is named; a json_schema response format carries a named schema), answers with
// content valid against the request's schema (or from a responder registered for a schema name), and
// can inject latency and faults: 500, 429 with Retry-After, timeouts and malformed JSON, at a rate that
// can change while it runs; and it can disappear (its port refuses connections) and come back.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault = '500' | '429' | 'timeout' | 'malformed';
type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Schema = { [k: string]: unknown };

export interface StubRequest {
  model: string;
  schemaName: string | null;
  schema: Schema | null;
  messages: Array<{ role: string; content: string }>;
}

export interface StubOptions {
  latencyMs?: number;
  /** Faults served to the next requests, in order; each entry is used once. */
  faults?: Fault[];
  /** Chance per request of a random fault (seeded), after the queued ones. */
  faultRate?: number;
  seed?: number;
  /** How long a 'timeout' fault hangs before answering anyway. */
  hangMs?: number;
  embeddingDimension?: number;
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
  readonly stats: StubStats = { requests: 0, ok: 0, faults: { '500': 0, '429': 0, timeout: 0, malformed: 0 }, violations: [], bySchema: {}, embeddings: 0 };
  readonly responders = new Map<string, (req: StubRequest) => Json>();
  url = '';
  private server: http.Server | null = null;
  private rngState: number;
  private readonly faults: Fault[];
  private readonly sockets = new Set<import('node:net').Socket>();
  private readonly options: StubOptions;

  constructor(options: StubOptions = {}) {
    this.options = { ...options };
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

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private random(): number {
    this.rngState = (Math.imul(this.rngState, 1664525) + 1013904223) >>> 0;
    return this.rngState / 4294967296;
  }

  private nextFault(): Fault | null {
    if (this.faults.length) return this.faults.shift()!;
    if (this.options.faultRate && this.random() < this.options.faultRate)
      return (['500', '429', 'timeout', 'malformed'] as const)[Math.floor(this.random() * 4)];
    return null;
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
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
    // Without structured outputs, the purpose tag the prompts carry ("[plan v1]") names the schema.
    const tag = /\[(\w+) v\d+\]/.exec(messages.map((m) => m.content).join('\n'))?.[1];
    const schemaName = format?.json_schema?.name ?? (tag ? `${tag}_reply` : null);
    const schema = format?.json_schema?.schema ?? extractSchema(messages);
    if (schemaName) this.stats.bySchema[schemaName] = (this.stats.bySchema[schemaName] ?? 0) + 1;
    const fault = this.nextFault();
    if (fault) this.stats.faults[fault]++;
    if (fault === '500') return this.error(res, 500, 'injected server error');
    if (fault === '429') return this.error(res, 429, 'injected rate limit', { 'retry-after': '1', 'retry-after-ms': '50' });
    if (fault === 'timeout') await new Promise((r) => setTimeout(r, this.options.hangMs ?? 2000));
    if (this.options.latencyMs) await new Promise((r) => setTimeout(r, this.options.latencyMs));
    const request: StubRequest = { model, schemaName, schema, messages };
    const responder = schemaName ? this.responders.get(schemaName) : undefined;
    const content =
      fault === 'malformed'
        ? 'Sure! Here is your answer: {not json'
        : JSON.stringify(responder ? responder(request) : schema ? sampleFromSchema(schema) : { ok: true });
    if (!res.destroyed) this.stats.ok += fault === 'malformed' ? 0 : 1;
    const promptTokens = Math.ceil(messages.reduce((s, m) => s + m.content.length, 0) / 4);
    this.json(res, 200, {
      id: `chatcmpl-${this.stats.requests}`,
      object: 'chat.completion',
      created: 0,
      model,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
      usage: { prompt_tokens: promptTokens, completion_tokens: Math.ceil(content.length / 4), total_tokens: promptTokens + Math.ceil(content.length / 4) },
    });
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

/** In json_object / none modes the schema travels in the system prompt, after "JSON Schema:". */
function extractSchema(messages: Array<{ content: string }>): Schema | null {
  for (const m of messages) {
    const i = m.content.indexOf('JSON Schema:\n');
    if (i >= 0) {
      try {
        return JSON.parse(m.content.slice(i + 'JSON Schema:\n'.length).split('\n')[0]) as Schema;
      } catch {
        return null;
      }
    }
  }
  return null;
}
