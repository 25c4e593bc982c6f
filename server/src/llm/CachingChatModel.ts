// Replies by ask: the hash of everything that decides an answer (model, purpose, messages, schema,
// temperature; not the token budget, which only bounds it) maps to the reply text, in the world's SQLite
// file. A follow-up of an ask (repair turn, bigger budget, another form) stores its accepted reply under
// the ask's first request's key, so a rerun with the same seed and cache replays exactly, making no
// calls. Hits cost nothing and are recorded as cached. Only replies the request accepts (its schema and
// town checks) and that were not cut off are kept, so a cached reply is valid by construction;
// `purgeInvalidReplies` drops older entries that are not.
import { hash } from 'node:crypto';
import type { CallLog, ChatModel, ChatRequest, ChatResponse, Purpose, ResponseCacheStore } from './types';
import { extractJson } from './replyJson';
import { systemClock, type WallClock } from '../core/wallClock';

export interface CachingOptions {
  store: ResponseCacheStore;
  /** Which model a purpose goes to: part of the key, so changing models does not reuse answers. */
  modelFor: (purpose: Purpose) => string;
  /** Cache hits are logged here, flagged cached. */
  log?: CallLog;
  gameNow?: () => number | null;
  /** Wall time for record stamps. */
  clock?: WallClock;
}

export function cacheKey(model: string, request: ChatRequest): string {
  const material = JSON.stringify([model, request.purpose, request.messages, request.schemaName, request.schema, request.temperature ?? 0]);
  return hash('sha256', material, 'hex');
}

export class CachingChatModel implements ChatModel {
  hits = 0;
  misses = 0;
  constructor(
    private readonly inner: ChatModel,
    private readonly options: CachingOptions,
  ) {}

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const model = this.options.modelFor(request.purpose);
    const key = cacheKey(model, request.firstRequest ?? request);
    const hit = this.options.store.get(key);
    const stored = hit === undefined ? null : readEntry(hit, request.accept);
    if (hit !== undefined && !stored) this.options.store.delete(key);
    if (stored) {
      this.hits++;
      this.options.log?.record({
        agentId: request.agentId,
        purpose: request.purpose,
        model: stored.model,
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: 0,
        costUsd: 0,
        cached: true,
        outcome: 'ok',
        gameMs: this.options.gameNow?.() ?? null,
        wallMs: (this.options.clock ?? systemClock).now(),
      });
      return {
        json: stored.json,
        text: stored.text,
        model: stored.model,
        usage: { promptTokens: 0, completionTokens: 0 },
        latencyMs: 0,
        cached: true,
      };
    }
    this.misses++;
    const response = await this.inner.complete(request, signal);
    const usable = response.finishReason !== 'length' && (request.accept?.(response.json) ?? true);
    if (usable) this.options.store.put(key, JSON.stringify({ text: response.text, model: response.model, schemaName: request.schemaName }));
    return response;
  }
}

interface CacheEntry {
  text: string;
  model: string;
  schemaName?: string;
  json: unknown;
}

/** A stored entry with its JSON, or null when it cannot be read or `accept` refuses it. */
function readEntry(value: string, accept?: (json: unknown) => boolean): CacheEntry | null {
  try {
    const entry = JSON.parse(value) as Omit<CacheEntry, 'json'>;
    const json = extractJson(entry.text).json;
    return accept && !accept(json) ? null : { ...entry, json };
  } catch {
    return null;
  }
}

/**
 * Drops every cached reply that its schema (found by the name stored with it) no longer accepts, or
 * that has no known schema. Run when a world opens; returns how many were dropped.
 */
export function purgeInvalidReplies(store: ResponseCacheStore, acceptFor: (schemaName: string) => ((json: unknown) => boolean) | undefined): number {
  let dropped = 0;
  for (const [key, value] of store.entries()) {
    let schemaName: string | undefined;
    try {
      schemaName = (JSON.parse(value) as { schemaName?: string }).schemaName;
    } catch {
      schemaName = undefined;
    }
    const accept = schemaName === undefined ? undefined : acceptFor(schemaName);
    if (!accept || !readEntry(value, accept)) {
      store.delete(key);
      dropped++;
    }
  }
  return dropped;
}
