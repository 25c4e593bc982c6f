// Counts what a few calls cost: tokens, dollars and cache hits, for one piece of work such as the
// persona editor's plan preview. Stacks on top of the town's ChatModel, so its calls still go through
// the cache, budget, scheduler and recorder; `agentId` tags them in the call log (e.g. "preview:nadia").
import type { ChatModel, ChatRequest, ChatResponse } from './types';
import type { Pricing } from './pricing';

export interface Meter {
  calls: number;
  cachedCalls: number;
  promptTokens: number;
  completionTokens: number;
  usd: number;
}

export class MeteredChatModel implements ChatModel {
  readonly meter: Meter = { calls: 0, cachedCalls: 0, promptTokens: 0, completionTokens: 0, usd: 0 };

  constructor(
    private readonly inner: ChatModel,
    private readonly pricing: Pricing,
    private readonly agentId: string | null,
  ) {}

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    const response = await this.inner.complete({ ...request, agentId: this.agentId }, signal);
    const m = this.meter;
    m.calls++;
    if (response.cached) m.cachedCalls++;
    else {
      m.promptTokens += response.usage.promptTokens;
      m.completionTokens += response.usage.completionTokens;
      m.usd += this.pricing.cost(response.model, response.usage.promptTokens, response.usage.completionTokens);
    }
    return response;
  }
}
