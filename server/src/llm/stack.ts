// Stacks the wrappers around an adapter, outermost first:
//   cache     a hit returns at once: no budget, no queue, no request (and is logged as cached);
//   budget    a spent budget holds new calls until it is raised;
//   retry     each retry goes back through the queue, so it waits its turn and counts against limits;
//   scheduler concurrency cap, RPM/TPM limits, round-robin across agents;
//   router    with several endpoints (LLM_ENDPOINTS): the least loaded, a failing one taken out;
//   recorder  logs every request that reaches an endpoint, with its outcome (one above each endpoint);
//   adapter   the OpenAI-compatible endpoint.
// Above them all, the stack's own stop: `close()` aborts every call in flight, queued, waiting for budget
// or sitting out a retry's backoff, and refuses new ones, each with LlmAbortedError (a town closing).
import type { CallLog, ChatModel, ChatRequest, ChatResponse, Purpose, ResponseCacheStore } from './types';
import { LlmAbortedError } from './errors';
import { CachingChatModel } from './CachingChatModel';
import { BudgetChatModel, type BudgetLimits } from './BudgetChatModel';
import { RetryingChatModel, type RetryReport } from './RetryingChatModel';
import { SchedulingChatModel } from './SchedulingChatModel';
import { RecordingChatModel } from './RecordingChatModel';
import type { Pricing } from './pricing';
import { RoutingChatModel, type EndpointChange, type EndpointFigures, type RoutedEndpoint } from './RoutingChatModel';
import type { WallClock } from '../core/wallClock';
import type { EmbeddedModelFigures } from './embedded';

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
  /** An endpoint taken out or back in (with several). */
  onEndpointChange?: (change: EndpointChange) => void;
  /** Wall time for latencies, windows and record stamps. */
  clock?: WallClock;
  /** Injected for tests. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
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
  /** The model in this process (LLM_MODEL_FILE): its file, quantisation, speed and queue. */
  embedded?: () => EmbeddedModelFigures;
  /** Per-endpoint figures, when calls are spread over several endpoints (LLM_ENDPOINTS). */
  endpoints?: () => EndpointFigures[];
  /** Stops every call now and refuses new ones (LlmAbortedError), whatever the endpoint does: the town is closing. */
  close(reason?: string): void;
}

/** Gives every call a signal of its own that aborts when the caller's does or when the stack is closed. */
export class StoppableChatModel implements ChatModel {
  private readonly stop = new AbortController();

  constructor(private readonly inner: ChatModel) {}

  close(reason = 'the town is closing'): void {
    if (!this.stop.signal.aborted) this.stop.abort(new LlmAbortedError(reason));
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    // One controller per call, unlinked when it ends: nothing gathers on the stack's long-lived signal.
    const call = new AbortController();
    const sources = signal ? [this.stop.signal, signal] : [this.stop.signal];
    const onAbort = (event: Event) => call.abort((event.target as AbortSignal).reason);
    for (const s of sources) {
      if (s.aborted) call.abort(s.reason);
      else s.addEventListener('abort', onAbort, { once: true });
    }
    try {
      return await this.inner.complete(request, call.signal);
    } finally {
      for (const s of sources) s.removeEventListener('abort', onAbort);
    }
  }
}

/** The stack over one adapter, or over several endpoints behind a router (each with its own recorder). */
export function buildChatStack(adapter: ChatModel | RoutedEndpoint[], o: StackOptions): ChatStack {
  const record = (model: ChatModel, endpoint?: string) =>
    new RecordingChatModel(model, { log: o.log, pricing: o.pricing, modelFor: o.modelFor, gameNow: o.gameNow, clock: o.clock, endpoint });
  const router = Array.isArray(adapter)
    ? new RoutingChatModel(
        adapter.map((e) => ({ ...e, model: record(e.model, e.name) })),
        { clock: o.clock, onChange: o.onEndpointChange },
      )
    : null;
  const recorder = router ?? record(adapter as ChatModel);
  const scheduler = new SchedulingChatModel(recorder, {
    concurrency: o.concurrency,
    requestsPerMinute: o.requestsPerMinute,
    tokensPerMinute: o.tokensPerMinute,
    clock: o.clock,
  });
  const retry = new RetryingChatModel(scheduler, { maxRetries: o.maxRetries, onRetry: o.onRetry, sleep: o.sleep, random: o.random });
  const budget = new BudgetChatModel(retry, o.budget, o.pricing, { onPause: o.onBudgetPause, onResume: o.onBudgetResume });
  const cache = o.cache ? new CachingChatModel(budget, { store: o.cache, modelFor: o.modelFor, log: o.log, gameNow: o.gameNow, clock: o.clock }) : null;
  const stoppable = new StoppableChatModel(cache ?? budget);
  return {
    model: stoppable,
    budget,
    scheduler,
    cache,
    pricing: o.pricing,
    ...(router ? { endpoints: () => router.figures() } : {}),
    close: (reason) => stoppable.close(reason),
  };
}
