// `npm run model:serve -- --model <file.gguf> [--port 8080] [--json-schema off] [--embedder <file.gguf>]`:
// a GGUF model served over an OpenAI-compatible API (chat completions, models, and embeddings with
// --embedder), on the same embedded adapter the town uses. One model can then serve several towns and
// processes (OPENAI_BASE_URL=http://127.0.0.1:8080/v1, or LLM_ENDPOINTS). With --json-schema off the
// server ignores response_format, so the model writes freely and the client meets its own mistakes.
import express from 'express';
import type http from 'node:http';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { EmbeddedChatModel, EmbeddedEmbedder } from '../server/src/llm/embedded';
import { LlmTimeoutError } from '../server/src/llm/errors';

export interface ModelServerOptions {
  model: string;
  embedder?: string;
  port?: number;
  host?: string;
  /** Honour response_format (a grammar from json_schema, a JSON grammar for json_object); false: ignore it. */
  jsonSchema?: boolean;
  sequences?: number;
  threads?: number;
  contextSize?: number;
  timeoutMs?: number;
}

export interface ModelServer {
  url: string;
  /** Chat completions served, and those that asked for a response format the server applied. */
  stats: { requests: number; constrained: number };
  close(): Promise<void>;
}

const Message = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });
const ChatBody = z.object({
  model: z.string().optional(),
  messages: z.array(Message).min(1),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).max(2).optional(),
  stream: z.boolean().optional(),
  response_format: z
    .union([
      z.object({ type: z.literal('text') }),
      z.object({ type: z.literal('json_object') }),
      z.object({ type: z.literal('json_schema'), json_schema: z.object({ name: z.string().optional(), schema: z.record(z.string(), z.unknown()) }).loose() }),
    ])
    .optional(),
});
const EmbeddingsBody = z.object({ model: z.string().optional(), input: z.union([z.string(), z.array(z.string()).min(1)]) });

export async function startModelServer(o: ModelServerOptions): Promise<ModelServer> {
  const model = await EmbeddedChatModel.open({
    file: o.model,
    threads: o.threads ?? 0,
    contextSize: o.contextSize ?? 4096,
    sequences: o.sequences ?? 2,
    gpuLayers: 0,
    grammar: o.jsonSchema ?? true,
    timeoutMs: o.timeoutMs ?? 600_000,
  });
  const embedder = o.embedder ? await EmbeddedEmbedder.open(o.embedder) : null;
  const name = model.modelFor('plan');
  const stats = { requests: 0, constrained: 0 };
  const app = express();
  app.use(express.json({ limit: '4mb' }));
  app.get('/v1/models', (_req, res) => {
    res.json({
      object: 'list',
      data: [
        { id: name, object: 'model', owned_by: 'smalltown', created: 0 },
        ...(embedder ? [{ id: embedder.model, object: 'model', owned_by: 'smalltown', created: 0 }] : []),
      ],
    });
  });

  app.post('/v1/chat/completions', chatCompletions(model, name, o.jsonSchema !== false, stats));
  app.post('/v1/embeddings', embeddings(embedder));
  app.use((_req, res) => fail(res, 404, 'not found: this server has /v1/models, /v1/chat/completions and /v1/embeddings'));
  app.use((error: Error & { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) =>
    fail(res, error.status && error.status < 500 ? error.status : 500, error.message),
  );

  const server: http.Server = await new Promise((resolve, reject) => {
    const s = app.listen(o.port ?? 8080, o.host ?? '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : o.port;
  return {
    url: `http://${o.host ?? '127.0.0.1'}:${port}/v1`,
    stats,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await model.close();
    },
  };
}

/** An OpenAI-style error body. */
function fail(res: express.Response, status: number, message: string, type = 'invalid_request_error') {
  return res.status(status).json({ error: { message, type, code: null } });
}

const badRequest = (error: z.ZodError) => `bad request: ${error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`;

/** POST /v1/chat/completions: one whole reply, constrained by response_format when `honourFormat`; aborted when the client goes. */
function chatCompletions(model: EmbeddedChatModel, name: string, honourFormat: boolean, stats: ModelServer['stats']): express.RequestHandler {
  return async (req, res) => {
    const body = ChatBody.safeParse(req.body);
    if (!body.success) return void fail(res, 400, badRequest(body.error));
    const b = body.data;
    if (b.stream) return void fail(res, 400, 'stream: this server answers whole replies only');
    const format = honourFormat ? b.response_format : undefined;
    const grammar =
      format?.type === 'json_schema' ? await model.grammarFor(format.json_schema.schema) : format?.type === 'json_object' ? await model.jsonGrammar() : null;
    stats.requests++;
    if (grammar) stats.constrained++;
    const aborted = new AbortController();
    res.on('close', () => {
      if (!res.writableEnded) aborted.abort();
    });
    try {
      const reply = await model.generate(
        b.messages,
        { grammar, maxTokens: b.max_completion_tokens ?? b.max_tokens, temperature: b.temperature },
        aborted.signal,
      );
      res.json({
        id: `chatcmpl-${stats.requests}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: name,
        choices: [{ index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: reply.finishReason, logprobs: null }],
        usage: {
          prompt_tokens: reply.usage.promptTokens,
          completion_tokens: reply.usage.completionTokens,
          total_tokens: reply.usage.promptTokens + reply.usage.completionTokens,
        },
      });
    } catch (error) {
      if (aborted.signal.aborted) return;
      if (error instanceof LlmTimeoutError) return void fail(res, 504, error.message, 'timeout');
      fail(res, 500, error instanceof Error ? error.message : String(error), 'server_error');
    }
  };
}

/** POST /v1/embeddings, or a 404 that says how to start the server with an embedder. */
function embeddings(embedder: EmbeddedEmbedder | null): express.RequestHandler {
  return async (req, res) => {
    if (!embedder) return void fail(res, 404, 'no embedder: start the server with --embedder <file.gguf>');
    const body = EmbeddingsBody.safeParse(req.body);
    if (!body.success) return void fail(res, 400, badRequest(body.error));
    const input = typeof body.data.input === 'string' ? [body.data.input] : body.data.input;
    const vectors = await embedder.embed(input);
    res.json({
      object: 'list',
      model: embedder.model,
      data: vectors.map((v, index) => ({ object: 'embedding', index, embedding: [...v] })),
      usage: { prompt_tokens: 0, total_tokens: 0 },
    });
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      model: { type: 'string' },
      embedder: { type: 'string' },
      port: { type: 'string', default: '8080' },
      host: { type: 'string', default: '127.0.0.1' },
      'json-schema': { type: 'string', default: 'on' },
      sequences: { type: 'string', default: '2' },
      threads: { type: 'string', default: '0' },
      context: { type: 'string', default: '4096' },
    },
  });
  if (!values.model) throw new Error('--model: give the .gguf file to serve (npm run models:fetch puts test models in models/)');
  if (!['on', 'off'].includes(values['json-schema']!)) throw new Error(`--json-schema: 'on' or 'off', not '${values['json-schema']}'`);
  const server = await startModelServer({
    model: values.model,
    embedder: values.embedder,
    port: Number(values.port),
    host: values.host,
    jsonSchema: values['json-schema'] === 'on',
    sequences: Number(values.sequences),
    threads: Number(values.threads),
    contextSize: Number(values.context),
  });
  console.log(`serving ${values.model} at ${server.url} (response_format ${values['json-schema'] === 'on' ? 'honoured' : 'ignored'})`);
  console.log(`run a town on it:  OPENAI_BASE_URL=${server.url} LLM_MODEL=any npm start`);
  const stop = () => void server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
