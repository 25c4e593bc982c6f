// Replies by request: the hash of everything that decides an answer (model, purpose, messages,
// schema, temperature) maps to the reply text, in the world's SQLite file. A rerun with the same
// seed and cache replays exactly, making no calls. Hits cost nothing and are recorded as cached.
import { createHash } from 'node:crypto';
import type { CallLog, ChatModel, ChatRequest, ChatResponse, Purpose, ResponseCacheStore } from './types';
import { parseJsonReply } from './OpenAIChatModel';
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
  const material = JSON.stringify([
    model,
    request.purpose,
    request.messages,
    request.schemaName,
    request.schema,
    request.temperature ?? 0,
    request.maxTokens ?? null,
  ]);
  return createHash('sha256').update(material).digest('hex');
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
    const key = cacheKey(model, request);
    const hit = this.options.store.get(key);
    if (hit !== undefined) {
      const stored = JSON.parse(hit) as { text: string; model: string };
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
        json: parseJsonReply(stored.text),
        text: stored.text,
        model: stored.model,
        usage: { promptTokens: 0, completionTokens: 0 },
        latencyMs: 0,
        cached: true,
      };
    }
    this.misses++;
    const response = await this.inner.complete(request, signal);
    this.options.store.put(key, JSON.stringify({ text: response.text, model: response.model }));
    return response;
  }
}
