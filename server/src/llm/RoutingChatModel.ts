// Spreads calls over several endpoints (vLLM or Ollama replicas, a hosted and a local server), each an
// adapter with its own concurrency and an optional weight. A call goes to the least loaded endpoint
// that is up (calls in flight over concurrency × weight, ties to the first listed) and waits in one
// queue, in order, while every endpoint is full. An endpoint that fails a call with a network error, a
// timeout, a 5xx or a 429 is taken out (for its Retry-After, else 2 s doubling to a minute) and the call
// goes to another one at once, so no call is lost while one endpoint is up; once its time is out the
// endpoint is tried again with one call, and back in on success. A reply that is not JSON is the
// model's answer, not the endpoint's failure: it goes up to the retry wrapper like any other error.
import type { ChatModel, ChatRequest, ChatResponse } from './types';
import { LlmHttpError, LlmNetworkError, LlmTimeoutError } from './errors';
import { systemClock, type WallClock } from '../core/wallClock';
import type { LlmEndpointLive } from '../protocol/inspection';

export interface RoutedEndpoint {
  /** Shown in /healthz and logs: the host, never the key. */
  name: string;
  model: ChatModel;
  concurrency: number;
  /** Share of the load relative to the others (default 1). */
  weight?: number;
}

/** Per-endpoint figures (the protocol's type: /healthz and the inspector show them as they are). */
export type EndpointFigures = LlmEndpointLive;

export const FIRST_OUT_MS = 2_000;
export const LONGEST_OUT_MS = 60_000;
/** Answered calls per endpoint whose latencies the percentiles are taken over (a ring: memory stays bounded). */
export const LATENCY_WINDOW = 1_000;

/** An endpoint taken out (with the error and how long) or back in, for the event log. */
export type EndpointChange = { name: string; state: 'out'; error: string; outMs: number } | { name: string; state: 'back' };

interface Slot {
  ep: Required<RoutedEndpoint>;
  f: EndpointFigures;
  latencySumMs: number;
  /** The last LATENCY_WINDOW latencies, a ring written at `latencyNext`. */
  latencies: number[];
  latencyNext: number;
  /** Consecutive failures, for the doubling time out. */
  failures: number;
}

interface Waiter {
  resolve: (slot: Slot) => void;
  reject: (error: unknown) => void;
  signal?: AbortSignal;
}

/** Whether a failure is the endpoint's (take it out, send the call elsewhere) rather than the reply's. */
export function isEndpointFailure(error: unknown): boolean {
  if (error instanceof LlmNetworkError || error instanceof LlmTimeoutError) return true;
  return error instanceof LlmHttpError && (error.status === 429 || error.status >= 500);
}

export class RoutingChatModel implements ChatModel {
  private readonly slots: Slot[];
  private readonly waiting: Waiter[] = [];
  private readonly clock: WallClock;
  private timer: ReturnType<typeof setTimeout> | null = null;

  private readonly onChange?: (change: EndpointChange) => void;

  constructor(endpoints: RoutedEndpoint[], options: { clock?: WallClock; onChange?: (change: EndpointChange) => void } = {}) {
    if (endpoints.length === 0) throw new Error('RoutingChatModel: at least one endpoint');
    this.clock = options.clock ?? systemClock;
    this.onChange = options.onChange;
    this.slots = endpoints.map((e) => {
      const ep = { ...e, weight: e.weight ?? 1 };
      if (!(ep.concurrency >= 1) || !(ep.weight > 0)) throw new Error(`endpoint ${e.name}: concurrency must be ≥ 1 and weight > 0`);
      return {
        ep,
        latencySumMs: 0,
        latencies: [],
        latencyNext: 0,
        failures: 0,
        f: {
          name: ep.name,
          state: 'up',
          inFlight: 0,
          concurrency: ep.concurrency,
          weight: ep.weight,
          calls: 0,
          ok: 0,
          failed: 0,
          takenOut: 0,
          broughtBack: 0,
          meanLatencyMs: 0,
          latencyP50Ms: 0,
          latencyP99Ms: 0,
          promptTokens: 0,
          completionTokens: 0,
          outUntilMs: 0,
          lastError: null,
        },
      };
    });
  }

  /** Per-endpoint figures, for /healthz, the inspector and the report. */
  figures(): EndpointFigures[] {
    return this.slots.map((s) => {
      const sorted = [...s.latencies].sort((a, b) => a - b);
      const at = (p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : 0);
      return { ...s.f, latencyP50Ms: at(0.5), latencyP99Ms: at(0.99) };
    });
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    for (;;) {
      const slot = await this.acquire(signal);
      const started = this.clock.now();
      slot.f.calls++;
      try {
        const response = await slot.ep.model.complete(request, signal);
        const latencyMs = this.clock.now() - started;
        slot.f.ok++;
        slot.latencySumMs += latencyMs;
        slot.f.meanLatencyMs = slot.latencySumMs / slot.f.ok;
        slot.latencies[slot.latencyNext] = latencyMs;
        slot.latencyNext = (slot.latencyNext + 1) % LATENCY_WINDOW;
        slot.f.promptTokens += response.usage.promptTokens;
        slot.f.completionTokens += response.usage.completionTokens;
        slot.failures = 0;
        if (slot.f.state !== 'up') {
          slot.f.broughtBack++;
          this.onChange?.({ name: slot.ep.name, state: 'back' });
        }
        slot.f.state = 'up';
        slot.f.outUntilMs = 0;
        return response;
      } catch (error) {
        slot.f.failed++;
        slot.f.lastError = error instanceof Error ? error.message : String(error);
        if (signal?.aborted || !isEndpointFailure(error)) throw error;
        this.takeOut(slot, error);
        // Every endpoint out: the error goes up (the retry wrapper waits and asks again).
        if (this.slots.every((s) => s.f.state === 'out')) throw error;
      } finally {
        slot.f.inFlight--;
        this.dispatch();
      }
    }
  }

  private takeOut(slot: Slot, error: unknown): void {
    slot.failures++;
    const asked = error instanceof LlmHttpError ? error.retryAfterMs : null;
    const outMs = asked ?? Math.min(LONGEST_OUT_MS, FIRST_OUT_MS * 2 ** (slot.failures - 1));
    // One outage counts once: a failed trial call keeps it out, it does not take it out again.
    const wasUp = slot.f.state === 'up';
    if (wasUp) slot.f.takenOut++;
    slot.f.state = 'out';
    slot.f.outUntilMs = this.clock.now() + outMs;
    // Logged when it leaves service, not again for each failed trial while it stays out.
    if (wasUp) this.onChange?.({ name: slot.ep.name, state: 'out', error: slot.f.lastError ?? 'error', outMs });
    this.schedule();
  }

  /** The least loaded endpoint with room: up ones, or one out whose time is over, for a single trial call. */
  private pick(): Slot | null {
    const now = this.clock.now();
    let best: Slot | null = null;
    let bestLoad = Infinity;
    for (const s of this.slots) {
      if (s.f.state === 'out' && now >= s.f.outUntilMs) s.f.state = 'trying';
      const room = s.f.state === 'trying' ? (s.f.inFlight === 0 ? 1 : 0) : s.f.state === 'up' ? s.ep.concurrency - s.f.inFlight : 0;
      if (room <= 0) continue;
      const load = (s.f.inFlight + 1) / (s.ep.concurrency * s.ep.weight);
      if (load < bestLoad) ((best = s), (bestLoad = load));
    }
    return best;
  }

  private acquire(signal?: AbortSignal): Promise<Slot> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.waiting.length === 0) {
      const slot = this.pick();
      if (slot) {
        slot.f.inFlight++;
        return Promise.resolve(slot);
      }
    }
    return new Promise<Slot>((resolve, reject) => {
      const waiter: Waiter = { resolve, reject, signal };
      this.waiting.push(waiter);
      signal?.addEventListener(
        'abort',
        () => {
          const i = this.waiting.indexOf(waiter);
          if (i >= 0) (this.waiting.splice(i, 1), reject(signal.reason));
        },
        { once: true },
      );
      this.schedule();
    });
  }

  /** Hands free room to the waiting calls, in order. */
  private dispatch(): void {
    while (this.waiting.length > 0) {
      const slot = this.pick();
      if (!slot) break;
      slot.f.inFlight++;
      this.waiting.shift()!.resolve(slot);
    }
    this.schedule();
  }

  /** While calls wait and an endpoint is out, look again when its time is over. */
  private schedule(): void {
    if (this.timer || this.waiting.length === 0) return;
    const next = Math.min(...this.slots.filter((s) => s.f.state === 'out').map((s) => s.f.outUntilMs));
    if (!Number.isFinite(next)) return;
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.dispatch();
      },
      Math.max(1, next - this.clock.now()),
    );
    this.timer.unref?.();
  }
}
