// A run's budget, in tokens and dollars. When it is spent, calls wait (the town pauses) and
// `onPause` says so once; `raise` lifts the limit and lets them go.
import type { ChatModel, ChatRequest, ChatResponse } from './types';
import type { Pricing } from './pricing';
import { abortedBy } from './errors';
import { untilAborted } from './RetryingChatModel';

export interface BudgetLimits {
  /** 0 = no limit. */
  tokens: number;
  /** 0 = no limit. */
  usd: number;
}

export class BudgetChatModel implements ChatModel {
  spentTokens = 0;
  spentUsd = 0;
  private waiting: Array<() => void> = [];
  private pausedNotified = false;

  constructor(
    private readonly inner: ChatModel,
    readonly limits: BudgetLimits,
    private readonly pricing: Pricing,
    private readonly hooks: { onPause?: (message: string) => void; onResume?: () => void } = {},
  ) {}

  get paused(): boolean {
    return (this.limits.tokens > 0 && this.spentTokens >= this.limits.tokens) || (this.limits.usd > 0 && this.spentUsd >= this.limits.usd);
  }

  describe(): string {
    const parts: string[] = [];
    if (this.limits.tokens > 0) parts.push(`${this.spentTokens.toLocaleString('en')} of ${this.limits.tokens.toLocaleString('en')} tokens`);
    if (this.limits.usd > 0) parts.push(`$${this.spentUsd.toFixed(4)} of $${this.limits.usd}`);
    return parts.join(', ') || 'no limit';
  }

  /** Raises the limits (to absolute values) and releases the waiting calls if the budget allows. */
  raise(limits: Partial<BudgetLimits>): void {
    if (limits.tokens !== undefined) this.limits.tokens = limits.tokens;
    if (limits.usd !== undefined) this.limits.usd = limits.usd;
    if (!this.paused) {
      this.pausedNotified = false;
      const go = this.waiting;
      this.waiting = [];
      go.forEach((f) => f());
      this.hooks.onResume?.();
    }
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    while (this.paused) {
      if (!this.pausedNotified) {
        this.pausedNotified = true;
        this.hooks.onPause?.(`LLM budget spent: ${this.describe()}. Raise LLM_BUDGET_TOKENS / LLM_BUDGET_USD (or the operator's budget control) to resume.`);
      }
      await untilAborted(new Promise<void>((resolve) => this.waiting.push(resolve)), signal);
    }
    if (signal?.aborted) throw abortedBy(signal);
    const response = await this.inner.complete(request, signal);
    this.spentTokens += response.usage.promptTokens + response.usage.completionTokens;
    this.spentUsd += this.pricing.cost(response.model, response.usage.promptTokens, response.usage.completionTokens);
    return response;
  }
}
