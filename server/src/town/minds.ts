// Picks the mind and the embedder from the settings: the LLM when an endpoint is configured, the
// offline mind otherwise. The choice is logged and shown in /healthz and the UI.
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
import type { EndpointChange } from '../llm/RoutingChatModel';
import { Pricing } from '../llm/pricing';
import { acceptorFor, LlmMind, type FallbackReport, type MendReport } from '../agent/LlmMind';
import { purgeInvalidReplies } from '../llm/CachingChatModel';

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

export function buildMinds(config: Config, logger: Logger): Minds {
  const llm = config.llm;
  const embedder: Embedder =
    llm.baseURL && llm.embeddingModel
      ? new OpenAIEmbedder({
          baseURL: llm.baseURL,
          apiKey: llm.apiKey,
          model: llm.embeddingModel,
          dimension: llm.embeddingDimension ?? 1536,
          timeoutMs: llm.timeoutMs,
        })
      : loadOfflineEmbedder();
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
      // A cached reply is valid by construction: entries from older code or another schema are dropped.
      const purged = purgeInvalidReplies(hooks.db.responseCache, acceptorFor);
      if (purged > 0) logger.info(`dropped ${purged} cached LLM replies that no longer pass their schema`);
      // With LLM_ENDPOINTS, one adapter per endpoint under the router; the scheduler above keeps their summed concurrency.
      const endpoints = llm.endpoints.map((e) => ({
        name: safeHost(e.baseURL),
        model: adapterFor(e.baseURL, e.apiKey ?? llm.apiKey, e.model ?? llm.model),
        concurrency: e.concurrency ?? llm.concurrency,
        weight: e.weight,
      }));
      const adapter = routed ? endpoints[0].model : adapterFor(llm.baseURL!, llm.apiKey, llm.model);
      const pricing = new Pricing(llm.prices, (model) => logger.warn(`no price for model '${model}': its calls count as $0 (set LLM_PRICES)`));
      const stack = buildChatStack(routed ? endpoints : adapter, {
        modelFor: (p) => adapter.modelFor(p),
        cache: hooks.db.responseCache,
        log: hooks.db.callLog,
        pricing,
        budget: { tokens: llm.budgetTokens, usd: llm.budgetUsd },
        concurrency: routed ? endpoints.reduce((n, e) => n + e.concurrency, 0) : llm.concurrency,
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
      stack.responseFormat = () => adapter.responseFormat;
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
