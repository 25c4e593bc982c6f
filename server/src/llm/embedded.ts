// The embedded mind: a GGUF model run in this process by node-llama-cpp (llama.cpp's prebuilt binaries), as
// a ChatModel adapter under the same stack as an endpoint (cache, budget, retry, scheduler, recorder), and a
// GGUF sentence embedder as an Embedder. Inference runs on llama.cpp's own threads: the event loop (the
// tick, the rooms, HTTP) waits on nothing while the model works.
//
// One context holds several sequences; each ask takes a free one (asks beyond them wait here, in order), so
// the scheduler's concurrency cap is set to the sequence count. With the grammar on, each purpose's reply
// is constrained to its JSON schema at generation (llama.cpp's GBNF, built by node-llama-cpp from the
// schema): the reply always parses and has the schema's shape, but nothing makes it true or sensible, and
// a reply cut off by its token budget is still cut off. The same validation runs after it as for any
// endpoint. With the grammar off the model writes freely and only the prompt asks for JSON.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChatMessage, ChatModel, ChatRequest, ChatResponse, Embedder, JsonSchema, Purpose } from './types';
import { abortedBy, LlmReplyError, LlmTimeoutError } from './errors';
import { extractJson } from './replyJson';
import { withSchemaInstructions } from './OpenAIChatModel';
import { modelFileProblem } from './modelFile';
import type { LlmModelLive } from '../protocol/inspection';
import type { Llama, LlamaContext, LlamaContextSequence, LlamaGrammar, LlamaModel, LlamaEmbeddingContext, ChatHistoryItem } from 'node-llama-cpp';

export interface EmbeddedSettings {
  /** The .gguf file. */
  file: string;
  /** CPU threads for inference; 0: every core but one (the server keeps one). */
  threads: number;
  /** Tokens of context for each sequence. */
  contextSize: number;
  /** Asks the model serves at once (sequences of one context). */
  sequences: number;
  /** Layers offloaded to a GPU; 0 runs on the CPU alone. */
  gpuLayers: number;
  /** Constrain each reply to its JSON schema at generation. */
  grammar: boolean;
  /** Longest one ask may take, ms. */
  timeoutMs: number;
}

/** What /healthz, the start-up line, the inspector and the report say about the model. */
export type EmbeddedModelFigures = LlmModelLive;

let llamaLoading: Promise<Llama> | null = null;

/** llama.cpp, loaded once per process from node-llama-cpp's prebuilt binaries (never built, never downloaded). */
export function loadLlama(gpu: boolean): Promise<Llama> {
  llamaLoading ??= (async () => {
    const { getLlama, LlamaLogLevel } = await import('node-llama-cpp');
    try {
      return await getLlama({ gpu: gpu ? 'auto' : false, build: 'never', logLevel: LlamaLogLevel.error, progressLogs: false });
    } catch (error) {
      llamaLoading = null;
      throw new Error(`node-llama-cpp could not load llama.cpp (no usable prebuilt binary for this machine?): ${(error as Error).message}`);
    }
  })();
  return llamaLoading;
}

function defaultThreads(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

async function loadModel(llama: Llama, file: string, gpuLayers: number): Promise<LlamaModel> {
  try {
    return await llama.loadModel({ modelPath: path.resolve(file), gpuLayers, useMmap: true });
  } catch (error) {
    throw new Error(`'${file}': llama.cpp could not load it as a model: ${(error as Error).message}`);
  }
}

/** The chat model in process. `open` checks and loads the file; nothing else is touched before it succeeds. */
export class EmbeddedChatModel implements ChatModel {
  private readonly free: LlamaContextSequence[];
  private readonly waiting: Array<(s: LlamaContextSequence) => void> = [];
  private readonly grammars = new Map<string, Promise<LlamaGrammar | null>>();
  private readonly name: string;
  private promptTokens = 0;
  private completionTokens = 0;
  private promptMs = 0;
  private generationMs = 0;
  private asks = 0;

  private constructor(
    private readonly llama: Llama,
    private readonly model: LlamaModel,
    private readonly context: LlamaContext,
    private readonly settings: EmbeddedSettings,
    private readonly threads: number,
    private readonly bytes: number,
  ) {
    this.name = path.basename(settings.file);
    this.free = Array.from({ length: settings.sequences }, () => context.getSequence());
  }

  static async open(settings: EmbeddedSettings): Promise<EmbeddedChatModel> {
    const problem = modelFileProblem(settings.file);
    if (problem) throw new Error(`LLM_MODEL_FILE: ${problem}`);
    const llama = await loadLlama(settings.gpuLayers > 0);
    const model = await loadModel(llama, settings.file, settings.gpuLayers);
    const threads = settings.threads || defaultThreads();
    let context: LlamaContext;
    try {
      context = await model.createContext({ contextSize: settings.contextSize, sequences: settings.sequences, threads });
    } catch (error) {
      await model.dispose();
      throw new Error(
        `LLM_MODEL_FILE: '${settings.file}': no room for ${settings.sequences} sequences of ${settings.contextSize} tokens ` +
          `(${(error as Error).message}); lower LLM_SEQUENCES or LLM_CONTEXT_SIZE`,
      );
    }
    return new EmbeddedChatModel(llama, model, context, settings, threads, fs.statSync(settings.file).size);
  }

  modelFor(_purpose: Purpose): string {
    return this.name;
  }

  /** How replies are shaped: 'grammar' (constrained to the schema) or 'none' (free text, JSON asked for in the prompt). */
  get responseFormat(): string {
    return this.settings.grammar ? 'grammar' : 'none';
  }

  figures(): EmbeddedModelFigures {
    const general = this.model.fileInfo.metadata?.general as { architecture?: string } | undefined;
    return {
      file: this.name,
      bytes: this.bytes,
      architecture: general?.architecture ?? 'unknown',
      quantisation: quantisationOf(this.model),
      contextSize: this.settings.contextSize,
      sequences: this.settings.sequences,
      threads: this.threads,
      gpuLayers: this.settings.gpuLayers,
      grammar: this.settings.grammar,
      promptTokensPerS: this.promptMs > 0 ? round1((this.promptTokens * 1000) / this.promptMs) : null,
      generationTokensPerS: this.generationMs > 0 ? round1((this.completionTokens * 1000) / this.generationMs) : null,
      asks: this.asks,
      running: this.settings.sequences - this.free.length,
      waiting: this.waiting.length,
    };
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const grammar = this.settings.grammar ? await this.grammarFor(request.grammarShape ?? request.schema) : null;
    const messages = withSchemaInstructions(request, grammar ? 'json_schema' : 'none');
    const reply = await this.generate(messages, { grammar, maxTokens: request.maxTokens, temperature: request.temperature }, signal);
    const base = { ...reply, model: this.name, cached: false };
    try {
      const extracted = extractJson(reply.text);
      return { ...base, json: extracted.json, thinkingChars: extracted.thinkingChars, notes: extracted.notes };
    } catch (error) {
      if (reply.finishReason === 'length') return { ...base, json: null, thinkingChars: reply.text.length, notes: ['cut off before any JSON'] };
      throw error instanceof LlmReplyError ? error : new LlmReplyError(String(error), reply.text);
    }
  }

  /**
   * One reply to `messages` (the chat template of the model's file applied), on a free sequence: the text, the
   * tokens it took, and 'length' when the budget cut it off. `grammar` (from grammarFor) constrains it.
   */
  async generate(
    messages: ChatMessage[],
    o: { grammar?: LlamaGrammar | null; maxTokens?: number; temperature?: number },
    signal?: AbortSignal,
  ): Promise<{ text: string; usage: { promptTokens: number; completionTokens: number }; latencyMs: number; finishReason: string }> {
    if (signal?.aborted) throw abortedBy(signal);
    const sequence = await this.acquire(signal);
    const timeout = AbortSignal.timeout(this.settings.timeoutMs);
    const stop = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const { LlamaChat } = await import('node-llama-cpp');
    const chat = new LlamaChat({ contextSequence: sequence, autoDisposeSequence: false });
    try {
      const history: ChatHistoryItem[] = messages.map((m) =>
        m.role === 'system'
          ? { type: 'system', text: m.content }
          : m.role === 'user'
            ? { type: 'user', text: m.content }
            : { type: 'model', response: [m.content] },
      );
      history.push({ type: 'model', response: [] });
      const before = sequence.tokenMeter.getState();
      const started = performance.now();
      let firstToken: number | null = null;
      const reply = await chat.generateResponse(history, {
        ...(o.grammar ? { grammar: o.grammar } : {}),
        maxTokens: o.maxTokens ?? 512,
        temperature: o.temperature ?? 0,
        seed: 1,
        // Tiny models at temperature 0 loop ("1.1.1.1…"); a light penalty on recent tokens breaks the loops.
        repeatPenalty: { lastTokens: 64, penalty: 1.1 },
        signal: stop,
        stopOnAbortSignal: false,
        onTextChunk: () => {
          firstToken ??= performance.now();
        },
      });
      const ended = performance.now();
      const used = sequence.tokenMeter.diff(before);
      this.asks++;
      this.promptTokens += used.usedInputTokens;
      this.completionTokens += used.usedOutputTokens;
      this.promptMs += (firstToken ?? ended) - started;
      this.generationMs += ended - (firstToken ?? ended);
      return {
        text: reply.response,
        usage: { promptTokens: used.usedInputTokens, completionTokens: used.usedOutputTokens },
        latencyMs: Math.round(ended - started),
        finishReason: reply.metadata.stopReason === 'maxTokens' ? 'length' : 'stop',
      };
    } catch (error) {
      if (signal?.aborted) throw abortedBy(signal);
      if (timeout.aborted) throw new LlmTimeoutError(this.settings.timeoutMs);
      throw error;
    } finally {
      chat.dispose({ disposeSequence: false });
      this.release(sequence);
    }
  }

  async close(): Promise<void> {
    await this.context.dispose();
    await this.model.dispose();
  }

  /** Any JSON object (for response_format json_object), built once. */
  jsonGrammar(): Promise<LlamaGrammar | null> {
    let g = this.grammars.get('json');
    if (!g) {
      g = this.llama.getGrammarFor('json').catch(() => null);
      this.grammars.set('json', g);
    }
    return g;
  }

  /** The schema's grammar, built once per schema; null (the prompt alone asks for JSON) for a schema GBNF cannot express. */
  grammarFor(schema: JsonSchema): Promise<LlamaGrammar | null> {
    const key = JSON.stringify(schema);
    let g = this.grammars.get(key);
    if (g) {
      // Most recently used last: the oldest goes first when the cache is full (narrowed schemas differ by agent and hour).
      this.grammars.delete(key);
      this.grammars.set(key, g);
      return g;
    }
    // Compact JSON: a small model left to itself indents every line, which costs it a third of its tokens.
    g = this.llama
      .createGrammarForJsonSchema(grammarSchema(schema) as never)
      .then((json) =>
        this.llama.createGrammar({
          grammar: compactJsonGrammar(json.grammar),
          stopGenerationTriggers: json.stopGenerationTriggers,
          trimWhitespaceSuffix: true,
        }),
      )
      .catch(() => null);
    this.grammars.set(key, g);
    while (this.grammars.size > GRAMMAR_CACHE_SIZE) this.grammars.delete(this.grammars.keys().next().value!);
    return g;
  }

  private acquire(signal?: AbortSignal): Promise<LlamaContextSequence> {
    const s = this.free.pop();
    if (s) return Promise.resolve(s);
    return new Promise((resolve, reject) => {
      const waiter = (seq: LlamaContextSequence) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(seq);
      };
      const onAbort = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(abortedBy(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
  }

  private release(sequence: LlamaContextSequence): void {
    const next = this.waiting.shift();
    if (next) next(sequence);
    else this.free.push(sequence);
  }
}

/** The embedded sentence embedder: a GGUF encoder (BERT-like, mean-pooled), unit-length vectors. */
export class EmbeddedEmbedder implements Embedder {
  readonly model: string;
  private closed = false;

  private constructor(
    private readonly llamaModel: LlamaModel,
    private readonly context: LlamaEmbeddingContext,
    readonly dimension: number,
  ) {
    // The world records this: a world embedded by another file refuses to open with this one.
    this.model = `gguf:${path.basename(llamaModel.filename ?? 'embedder.gguf')}`;
  }

  static async open(file: string, threads = 1): Promise<EmbeddedEmbedder> {
    const problem = modelFileProblem(file);
    if (problem) throw new Error(`EMBEDDER_FILE: ${problem}`);
    const llama = await loadLlama(false);
    const model = await loadModel(llama, file, 0);
    const context = await model.createEmbeddingContext({ contextSize: Math.min(512, model.trainContextSize), threads });
    return new EmbeddedEmbedder(model, context, model.embeddingVectorSize);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const text of texts) {
      if (this.closed) throw new Error('the embedder is closed');
      // The encoder's window is 512 tokens; a longer memory is embedded from its start.
      const tokens = this.llamaModel.tokenize(text).slice(0, 500);
      const { vector } = await this.context.getEmbeddingFor(tokens);
      out.push(unit(vector));
    }
    return out;
  }

  close(): void {
    this.closed = true;
  }
}

/** The longest clock time a grammar lets a reply write for `^\\d{1,2}:\\d{2}$` ("10:30 am"; the mind reads the forms). */
const CLOCK_MAX_LENGTH = 8;
/** Longest string and array a grammar lets a reply write where the schema sets no bound (tiny models run on until the budget ends). */
const GRAMMAR_MAX_LENGTH = 400;
const GRAMMAR_MAX_ITEMS = 24;

/**
 * The schema as the grammar is built from it (JSON-Schema GBNF has no `pattern`): a clock time is held to a few
 * characters (an enum of every five minutes made each generated token about twice as slow), and strings and arrays with no
 * upper bound get one. Validation (and the mind's reading of "7am" or "07:00") still uses the schema as it is.
 */
/**
 * A JSON-schema GBNF grammar (node-llama-cpp's) with its whitespace between tokens held to one optional space:
 * no new lines, no indentation. Only the whitespace rules change, so what the JSON can say is the same.
 */
export function compactJsonGrammar(gbnf: string): string {
  return gbnf
    .split('\n')
    .map((line) => {
      const m = /^((comma-)?whitespace-[\w-]*rule) ::= /.exec(line);
      if (!m) return line;
      return `${m[1]} ::= ${m[2] ? '"," ' : ''}[ ]?`;
    })
    .join('\n');
}

/** Grammars kept built: one per schema (and per narrowed schema of a day's decompose). */
const GRAMMAR_CACHE_SIZE = 128;

export function grammarSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(grammarSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const s = schema as Record<string, unknown>;
  // An enum (a narrowed reply's places and times, agent/replyShape.ts) is a grammar already: kept as it is.
  if (Array.isArray(s.enum)) return { enum: s.enum };
  if (s.type === 'string' && s.pattern === '^\\d{1,2}:\\d{2}$') return { type: 'string', maxLength: CLOCK_MAX_LENGTH };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) if (k !== 'pattern') out[k] = grammarSchema(v);
  if (s.type === 'string' && s.enum === undefined && s.maxLength === undefined) out.maxLength = GRAMMAR_MAX_LENGTH;
  if (s.type === 'array' && s.maxItems === undefined) out.maxItems = GRAMMAR_MAX_ITEMS;
  return out;
}

function unit(v: readonly number[]): Float32Array {
  const out = Float32Array.from(v);
  let n = 0;
  for (const x of out) n += x * x;
  n = Math.sqrt(n) || 1;
  for (let i = 0; i < out.length; i++) out[i]! /= n;
  return out;
}

function quantisationOf(model: LlamaModel): string {
  const type = (model.fileInfo.metadata?.general as { file_type?: number } | undefined)?.file_type;
  return type === undefined ? 'unknown' : (FILE_TYPES[type] ?? `type ${type}`);
}

/** llama.cpp's file types (llama_ftype), by number. */
const FILE_TYPES: Record<number, string> = {
  0: 'F32',
  1: 'F16',
  2: 'Q4_0',
  3: 'Q4_1',
  7: 'Q8_0',
  8: 'Q5_0',
  9: 'Q5_1',
  10: 'Q2_K',
  11: 'Q3_K_S',
  12: 'Q3_K_M',
  13: 'Q3_K_L',
  14: 'Q4_K_S',
  15: 'Q4_K_M',
  16: 'Q5_K_S',
  17: 'Q5_K_M',
  18: 'Q6_K',
  32: 'BF16',
};

const round1 = (x: number) => Math.round(x * 10) / 10;
