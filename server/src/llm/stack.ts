// Stacks the wrappers around an adapter, outermost first:
//   cache     a hit returns at once: no budget, no queue, no request (and is logged as cached);
//   budget    a spent budget holds new calls until it is raised;
//   retry     each retry goes back through the queue, so it waits its turn and counts against limits;
//   scheduler concurrency cap, RPM/TPM limits, round-robin across agents;
//   recorder  logs every request that reaches the endpoint, with its outcome;
//   adapter   the OpenAI-compatible endpoint.
import type { CallLog, ChatModel, Purpose, ResponseCacheStore } from './types';
import { CachingChatModel } from './CachingChatModel';
import { BudgetChatModel, type BudgetLimits } from './BudgetChatModel';
import { RetryingChatModel, type RetryReport } from './RetryingChatModel';
import { SchedulingChatModel } from './SchedulingChatModel';
import { RecordingChatModel } from './RecordingChatModel';
import type { Pricing } from './pricing';
import type { EndpointFigures } from './RoutingChatModel';
import type { WallClock } from '../core/wallClock';

export interface StackOptions {
  modelFor: (purpose: Purpose) => string;
  cache: ResponseCacheStore | null;
  log: CallLog;
  pricing: Pricing;
  budget: BudgetLimits;
  concurrency: number;
  requestsPerMinute: number;
  tokensPerMinute: number;
  maxRetries: number;
  gameNow?: () => number | null;
  onRetry?: (report: RetryReport) => void;
  onBudgetPause?: (message: string) => void;
  onBudgetResume?: () => void;
  /** Wall time for latencies, windows and record stamps. */
  clock?: WallClock;
  /** Injected for tests. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface ChatStack {
  model: ChatModel;
  budget: BudgetChatModel;
  scheduler: SchedulingChatModel;
  cache: CachingChatModel | null;
  /** The prices the stack charges with (for what a piece of work cost, e.g. a preview). */
  pricing: Pricing;
  /** The response-format mode the adapter uses (null until its probe answered), for /healthz. */
  responseFormat?: () => string | null;
  /** Per-endpoint figures, when calls are spread over several endpoints (LLM_ENDPOINTS). */
  endpoints?: () => EndpointFigures[];
}

export function buildChatStack(adapter: ChatModel, o: StackOptions): ChatStack {
  const recorder = new RecordingChatModel(adapter, { log: o.log, pricing: o.pricing, modelFor: o.modelFor, gameNow: o.gameNow, clock: o.clock });
  const scheduler = new SchedulingChatModel(recorder, {
    concurrency: o.concurrency,
    requestsPerMinute: o.requestsPerMinute,
    tokensPerMinute: o.tokensPerMinute,
    clock: o.clock,
  });
  const retry = new RetryingChatModel(scheduler, { maxRetries: o.maxRetries, onRetry: o.onRetry, sleep: o.sleep, random: o.random });
  const budget = new BudgetChatModel(retry, o.budget, o.pricing, { onPause: o.onBudgetPause, onResume: o.onBudgetResume });
  const cache = o.cache ? new CachingChatModel(budget, { store: o.cache, modelFor: o.modelFor, log: o.log, gameNow: o.gameNow, clock: o.clock }) : null;
  return { model: cache ?? budget, budget, scheduler, cache, pricing: o.pricing };
}
