// Picks the mind and the embedder from the settings: the LLM over an endpoint when one is configured, the
// LLM in this process when LLM_MODEL_FILE names a GGUF file, the offline mind otherwise; the embedder over
// the endpoint, a GGUF sentence embedder (EMBEDDER_FILE, or models/ when `npm run models:fetch` put one
// there), or the word vectors. The choice is logged and shown in /healthz and the UI.
import { redactUrl, type Config } from '../config';
import type { Logger } from './logger';
import type { Embedder } from '../llm/types';
import type { WorldDb } from '../store/WorldDb';
import type { WallClock } from '../core/wallClock';
import type { Mind } from '../agent/mind';
import { OfflineMind } from '../agent/offlineMind';
import { OFFLINE_RUNTIME_SETTINGS, type RuntimeSettings } from '../agent/context';
import { loadOfflineEmbedder } from '../llm/OfflineEmbedder';
import { OpenAIEmbedder } from '../llm/OpenAIEmbedder';
import { OpenAIChatModel } from '../llm/OpenAIChatModel';
import { buildChatStack, type ChatStack } from '../llm/stack';
import type { EndpointChange, RoutedEndpoint } from '../llm/RoutingChatModel';
import { Pricing } from '../llm/pricing';
import { LlmMind } from '../agent/LlmMind';
import { acceptorFor, type FallbackReport, type MendReport } from '../agent/llmAsk';
import { purgeInvalidReplies } from '../llm/CachingChatModel';
import { EmbeddedChatModel, EmbeddedEmbedder } from '../llm/embedded';
import { DEFAULT_EMBEDDER_FILE } from '../llm/modelFile';
import { recordedEmbedder } from '../store/worldFile';
import type { ChatModel, Purpose } from '../llm/types';
import fs from 'node:fs';
import path from 'node:path';

/** What the town tells the mind it builds, once the world's file is open. */
export interface MindHooks {
  db: WorldDb;
  gameNow(): number;
  wallClock: WallClock;
  onFallback(report: FallbackReport): void;
  onMend(report: MendReport): void;
  onBudgetPause(message: string): void;
  onBudgetResume(): void;
  /** With several endpoints: one taken out or back in. */
  onEndpointChange?(change: EndpointChange): void;
}

export interface MindBundle {
  mind: Mind;
  runtimeSettings: Partial<RuntimeSettings>;
  /** The LLM stack, when there is one (budget, scheduler and cache controls). */
  stack: ChatStack | null;
}

export interface Minds {
  embedder: Embedder;
  /** Builds the mind once the world's file is open (the LLM stack caches and logs there). */
  createMind(hooks: MindHooks): MindBundle;
  label: string;
}

/** With an endpoint, observations wait for a batch of ten before one importance call rates them all. */
export const LLM_RUNTIME_SETTINGS: Partial<RuntimeSettings> = { importanceBatchSize: 10 };

/** Loads what the settings name (a model file is read and loaded here, before any world file is opened). */
export async function buildMinds(config: Config, logger: Logger): Promise<Minds> {
  const llm = config.llm;
  const embedder = await buildEmbedder(config, logger);
  if (llm.modelFile) return embeddedMinds(config, logger, embedder);
  if (!llm.baseURL && llm.endpoints.length === 0) {
    logger.info('no OPENAI_BASE_URL: running on the offline mind');
    return { embedder, label: 'offline', createMind: () => ({ mind: new OfflineMind(), runtimeSettings: OFFLINE_RUNTIME_SETTINGS, stack: null }) };
  }
  const routed = llm.endpoints.length > 0;
  const label = routed ? `llm: ${llm.endpoints.length} endpoints` : `llm: ${llm.model} @ ${safeHost(llm.baseURL!)}`;
  if (routed) {
    for (const e of llm.endpoints)
      logger.info(`LLM endpoint: ${e.model ?? llm.model} at ${redactUrl(e.baseURL)} (concurrency ${e.concurrency ?? llm.concurrency}, weight ${e.weight})`);
  } else logger.info(`running on the LLM mind: ${llm.model} at ${redactUrl(llm.baseURL!)} (${llm.responseFormat}, concurrency ${llm.concurrency})`);
  return {
    embedder,
    label,
    createMind(hooks) {
      if (embedder instanceof OpenAIEmbedder) embedder.useCache(hooks.db);
      const adapterFor = (baseURL: string, apiKey: string | undefined, model: string) =>
        new OpenAIChatModel({
          baseURL,
          apiKey,
          models: { default: model, ...llm.models },
          responseFormat: llm.responseFormat,
          timeoutMs: llm.timeoutMs,
          clock: hooks.wallClock,
          onProbe: (mode, detail) => logger.info(`LLM response format (${safeHost(baseURL)}): ${mode}: ${detail}`),
        });
      if (llm.responseFormat !== 'auto') logger.info(`LLM response format: ${llm.responseFormat} (LLM_RESPONSE_FORMAT)`);
      // With LLM_ENDPOINTS, one adapter per endpoint under the router; the scheduler above keeps their summed concurrency.
      const endpoints = llm.endpoints.map((e) => ({
        name: safeHost(e.baseURL),
        model: adapterFor(e.baseURL, e.apiKey ?? llm.apiKey, e.model ?? llm.model),
        concurrency: e.concurrency ?? llm.concurrency,
        weight: e.weight,
      }));
      const adapter = routed ? endpoints[0].model : adapterFor(llm.baseURL!, llm.apiKey, llm.model);
      const stack = llmStack(routed ? endpoints : adapter, config, logger, hooks, {
        concurrency: routed ? endpoints.reduce((n, e) => n + e.concurrency, 0) : llm.concurrency,
        modelFor: (p) => adapter.modelFor(p),
      });
      stack.responseFormat = () => adapter.responseFormat;
      const mind = new LlmMind({ model: stack.model, label, onFallback: hooks.onFallback, onMend: hooks.onMend });
      return { mind, runtimeSettings: LLM_RUNTIME_SETTINGS, stack };
    },
  };
}

/** The wrappers over an adapter (or a router over several), logging to the world's file and caching in it. */
function llmStack(
  adapter: ChatModel | RoutedEndpoint[],
  config: Config,
  logger: Logger,
  hooks: MindHooks,
  o: { concurrency: number; modelFor: (p: Purpose) => string; free?: string },
): ChatStack {
  const llm = config.llm;
  // A cached reply is valid by construction: entries from older code or another schema are dropped.
  const purged = purgeInvalidReplies(hooks.db.responseCache, acceptorFor);
  if (purged > 0) logger.info(`dropped ${purged} cached LLM replies that no longer pass their schema`);
  // A model in this process costs no money: its calls are priced at $0 unless LLM_PRICES says otherwise.
  const prices = o.free ? { [o.free]: { inputPerMTok: 0, outputPerMTok: 0 }, ...llm.prices } : llm.prices;
  const pricing = new Pricing(prices, (model) => logger.warn(`no price for model '${model}': its calls count as $0 (set LLM_PRICES)`));
  return buildChatStack(adapter, {
    modelFor: o.modelFor,
    cache: hooks.db.responseCache,
    log: hooks.db.callLog,
    pricing,
    budget: { tokens: llm.budgetTokens, usd: llm.budgetUsd },
    concurrency: o.concurrency,
    requestsPerMinute: llm.rpm,
    tokensPerMinute: llm.tpm,
    maxRetries: llm.maxRetries,
    gameNow: hooks.gameNow,
    clock: hooks.wallClock,
    onRetry: (r) => logger.debug(`retrying ${r.request.purpose} for ${r.request.agentId ?? 'town'} in ${Math.round(r.delayMs)} ms: ${r.error.message}`),
    onBudgetPause: hooks.onBudgetPause,
    onBudgetResume: hooks.onBudgetResume,
    onEndpointChange: hooks.onEndpointChange,
  });
}

async function buildEmbedder(config: Config, logger: Logger): Promise<Embedder> {
  const llm = config.llm;
  if (llm.baseURL && llm.embeddingModel)
    return new OpenAIEmbedder({
      baseURL: llm.baseURL,
      apiKey: llm.apiKey,
      model: llm.embeddingModel,
      dimension: llm.embeddingDimension ?? 1536,
      timeoutMs: llm.timeoutMs,
      retry: { maxRetries: llm.maxRetries },
      onRetry: (attempt, error, delayMs) => logger.debug(`retrying embeddings (try ${attempt + 1}) in ${Math.round(delayMs)} ms: ${error.message}`),
    });
  const file = embedderFileFor(config, logger);
  if (!file) return loadOfflineEmbedder();
  const embedder = await EmbeddedEmbedder.open(file);
  logger.info(`embedder: ${file} (${embedder.dimension} dimensions, in this process)`);
  return embedder;
}

/**
 * EMBEDDER_FILE as set, or with 'auto' (npm start, unset) the one in models/ when it is there. An existing world
 * embedded otherwise keeps its own embedder: vectors of two embedders are never mixed in one world.
 */
function embedderFileFor(config: Config, logger: Logger): string | null {
  const setting = config.embedderFile;
  if (!setting || setting === 'none') return null;
  if (setting !== 'auto') return setting;
  if (!fs.existsSync(DEFAULT_EMBEDDER_FILE)) return null;
  const wanted = `gguf:${path.basename(DEFAULT_EMBEDDER_FILE)}`;
  for (const w of config.worlds) {
    const recorded = recordedEmbedder(path.join(config.dataDir, `${w.name}.sqlite`));
    if (recorded && recorded !== wanted) {
      logger.info(
        `embedder: the world '${w.name}' was embedded by '${recorded}': it keeps it ` +
          `(EMBEDDER_FILE=${DEFAULT_EMBEDDER_FILE} with a new WORLD uses the sentence embedder)`,
      );
      return null;
    }
  }
  return DEFAULT_EMBEDDER_FILE;
}

/** The LLM mind on a GGUF model in this process: the same stack as over an endpoint, its concurrency the model's sequences. */
async function embeddedMinds(config: Config, logger: Logger, embedder: Embedder): Promise<Minds> {
  const llm = config.llm;
  const model = await EmbeddedChatModel.open({
    file: llm.modelFile!,
    threads: llm.threads,
    contextSize: llm.contextSize,
    sequences: llm.sequences,
    gpuLayers: llm.gpuLayers,
    grammar: llm.grammar === 'on',
    timeoutMs: llm.timeoutMs,
  });
  const f = model.figures();
  const label = `llm: ${f.file} (embedded)`;
  logger.info(
    `running on the embedded LLM mind: ${llm.modelFile} (${f.architecture}, ${f.quantisation}, ${(f.bytes / 1e6).toFixed(0)} MB; ` +
      `${f.sequences} sequences of ${f.contextSize} tokens, ${f.threads} threads, ${f.gpuLayers} GPU layers, grammar ${llm.grammar})`,
  );
  return {
    embedder,
    label,
    createMind(hooks) {
      const stack = llmStack(model, config, logger, hooks, { concurrency: llm.sequences, modelFor: (p) => model.modelFor(p), free: f.file });
      stack.responseFormat = () => model.responseFormat;
      stack.embedded = () => model.figures();
      const mind = new LlmMind({ model: stack.model, label, onFallback: hooks.onFallback, onMend: hooks.onMend });
      return { mind, runtimeSettings: LLM_RUNTIME_SETTINGS, stack };
    },
  };
}

function safeHost(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
