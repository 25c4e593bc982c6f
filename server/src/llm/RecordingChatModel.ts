// Logs every call that reaches the endpoint, successful or not: agent, purpose, model, tokens,
// latency, cost, and the outcome. Sits right above the adapter, so its rows are the endpoint's requests
// (with several endpoints, one recorder above each, naming it on its rows).
import type { CallLog, ChatModel, ChatRequest, ChatResponse, Purpose } from './types';
import type { Pricing } from './pricing';
import { systemClock, type WallClock } from '../core/wallClock';

export interface RecordingOptions {
  log: CallLog;
  pricing: Pricing;
  modelFor: (purpose: Purpose) => string;
  gameNow?: () => number | null;
  /** Wall time for latencies and record stamps (tests pass a ManualClock). */
  clock?: WallClock;
  /** The endpoint's name, on each row, when the recorder sits on one of several (LLM_ENDPOINTS). */
  endpoint?: string;
}

export class RecordingChatModel implements ChatModel {
  constructor(
    private readonly inner: ChatModel,
    private readonly options: RecordingOptions,
  ) {}

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const clock = this.options.clock ?? systemClock;
    const started = clock.now();
    const base = { agentId: request.agentId, purpose: request.purpose, gameMs: this.options.gameNow?.() ?? null, endpoint: this.options.endpoint ?? null };
    try {
      const r = await this.inner.complete(request, signal);
      const cost = this.options.pricing.cost(r.model, r.usage.promptTokens, r.usage.completionTokens);
      this.options.log.record({
        ...base,
        model: r.model,
        promptTokens: r.usage.promptTokens,
        completionTokens: r.usage.completionTokens,
        latencyMs: r.latencyMs,
        costUsd: cost,
        cached: false,
        outcome: 'ok',
        wallMs: clock.now(),
      });
      return r;
    } catch (error) {
      this.options.log.record({
        ...base,
        model: this.options.modelFor(request.purpose),
        promptTokens: 0,
        completionTokens: 0,
        latencyMs: clock.now() - started,
        costUsd: 0,
        cached: false,
        outcome: error instanceof Error ? error.name : 'Error',
        wallMs: clock.now(),
      });
      throw error;
    }
  }
}
