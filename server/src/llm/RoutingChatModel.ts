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

export interface RoutedEndpoint {
  /** Shown in /healthz and logs: the host, never the key. */
  name: string;
  model: ChatModel;
  concurrency: number;
  /** Share of the load relative to the others (default 1). */
  weight?: number;
}

export interface EndpointFigures {
  name: string;
  state: 'up' | 'out' | 'trying';
  inFlight: number;
  concurrency: number;
  weight: number;
  calls: number;
  ok: number;
  failed: number;
  /** Times it was taken out. */
  takenOut: number;
  meanLatencyMs: number;
  /** Wall ms until which it is out (0 when up). */
  outUntilMs: number;
  lastError: string | null;
}

export const FIRST_OUT_MS = 2_000;
export const LONGEST_OUT_MS = 60_000;

interface Slot {
  ep: Required<RoutedEndpoint>;
  f: EndpointFigures;
  latencySumMs: number;
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

  constructor(endpoints: RoutedEndpoint[], options: { clock?: WallClock } = {}) {
    if (endpoints.length === 0) throw new Error('RoutingChatModel: at least one endpoint');
    this.clock = options.clock ?? systemClock;
    this.slots = endpoints.map((e) => {
      const ep = { ...e, weight: e.weight ?? 1 };
      if (!(ep.concurrency >= 1) || !(ep.weight > 0)) throw new Error(`endpoint ${e.name}: concurrency must be ≥ 1 and weight > 0`);
      return {
        ep,
        latencySumMs: 0,
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
          meanLatencyMs: 0,
          outUntilMs: 0,
          lastError: null,
        },
      };
    });
  }

  /** Per-endpoint figures, for /healthz, the inspector and the report. */
  figures(): EndpointFigures[] {
    return this.slots.map((s) => ({ ...s.f }));
  }

  async complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    for (;;) {
      const slot = await this.acquire(signal);
      const started = this.clock.now();
      slot.f.calls++;
      try {
        const response = await slot.ep.model.complete(request, signal);
        slot.f.ok++;
        slot.latencySumMs += this.clock.now() - started;
        slot.f.meanLatencyMs = slot.latencySumMs / slot.f.ok;
        slot.failures = 0;
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
    if (slot.f.state !== 'out') slot.f.takenOut++;
    slot.f.state = 'out';
    slot.f.outUntilMs = this.clock.now() + outMs;
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
