// Shares the endpoint: at most `concurrency` calls in flight, requests-per-minute and
// tokens-per-minute limits, and fairness across agents: waiting calls are served round-robin by
// agent, so one agent with many calls cannot starve the others.
import type { ChatModel, ChatRequest, ChatResponse } from './types';
import { systemClock, type WallClock } from '../core/wallClock';
import { abortedBy } from './errors';

export interface SchedulerOptions {
  concurrency: number;
  /** 0 = no limit. */
  requestsPerMinute?: number;
  /** 0 = no limit. */
  tokensPerMinute?: number;
  /** Wall time for the per-minute windows (tests pass a ManualClock). */
  clock?: WallClock;
  setTimer?: (fn: () => void, ms: number) => unknown;
}

interface Job {
  request: ChatRequest;
  signal?: AbortSignal;
  estimate: number;
  resolve: (r: ChatResponse) => void;
  reject: (e: unknown) => void;
  /** Called when it leaves the queue to run. */
  started?: () => void;
}

/** Rough tokens of a request before it is sent: 4 characters a token, plus the completion budget. */
export function estimateTokens(request: ChatRequest): number {
  const chars = request.messages.reduce((s, m) => s + m.content.length, 0) + JSON.stringify(request.schema).length;
  return Math.ceil(chars / 4) + (request.maxTokens ?? 256);
}

export class SchedulingChatModel implements ChatModel {
  private readonly queues = new Map<string, Job[]>();
  /** Agents with waiting calls, in serving order. */
  private readonly ring: string[] = [];
  private running = 0;
  private readonly starts: Array<{ at: number; tokens: number }> = [];
  private timerSet = false;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  maxRunning = 0;

  constructor(
    private readonly inner: ChatModel,
    private readonly options: SchedulerOptions,
  ) {
    const clock = options.clock ?? systemClock;
    this.now = () => clock.now();
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  }

  get inFlight(): number {
    return this.running;
  }
  get queued(): number {
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  complete(request: ChatRequest, signal?: AbortSignal): Promise<ChatResponse> {
    if (signal?.aborted) return Promise.reject(abortedBy(signal));
    return new Promise((resolve, reject) => {
      const key = request.agentId ?? '(town)';
      let q = this.queues.get(key);
      if (!q) this.queues.set(key, (q = []));
      if (q.length === 0) this.ring.push(key);
      const job: Job = { request, signal, estimate: estimateTokens(request), resolve, reject };
      q.push(job);
      // A call stopped while it waits for its turn leaves the queue at once (a town closing does not wait for it).
      if (signal) {
        const onAbort = () => this.dequeue(key, job) && reject(abortedBy(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        job.started = () => signal.removeEventListener('abort', onAbort);
      }
      this.pump();
    });
  }

  /** Takes a job out of its agent's queue; false when it had already started. */
  private dequeue(key: string, job: Job): boolean {
    const q = this.queues.get(key);
    const i = q ? q.indexOf(job) : -1;
    if (!q || i < 0) return false;
    q.splice(i, 1);
    if (q.length === 0) this.ring.splice(this.ring.indexOf(key), 1);
    return true;
  }

  private pump(): void {
    while (this.running < this.options.concurrency && this.ring.length > 0) {
      const wait = this.rateWaitMs(this.peek().estimate);
      if (wait > 0) {
        if (!this.timerSet) {
          this.timerSet = true;
          this.setTimer(() => {
            this.timerSet = false;
            this.pump();
          }, wait);
        }
        return;
      }
      const key = this.ring.shift()!;
      const q = this.queues.get(key)!;
      const job = q.shift()!;
      if (q.length > 0) this.ring.push(key);
      this.start(job);
    }
  }

  private peek(): Job {
    return this.queues.get(this.ring[0])![0];
  }

  /** How long until one more call of `tokens` fits both per-minute windows. */
  private rateWaitMs(tokens: number): number {
    const now = this.now();
    while (this.starts.length && now - this.starts[0].at >= 60_000) this.starts.shift();
    const rpm = this.options.requestsPerMinute ?? 0;
    const tpm = this.options.tokensPerMinute ?? 0;
    let wait = 0;
    if (rpm > 0 && this.starts.length >= rpm) wait = Math.max(wait, this.starts[this.starts.length - rpm].at + 60_000 - now);
    if (tpm > 0) {
      let used = this.starts.reduce((s, x) => s + x.tokens, 0);
      for (let i = 0; used + tokens > tpm && i < this.starts.length; i++) {
        used -= this.starts[i].tokens;
        wait = Math.max(wait, this.starts[i].at + 60_000 - now);
      }
    }
    return wait;
  }

  private start(job: Job): void {
    job.started?.();
    this.running++;
    this.maxRunning = Math.max(this.maxRunning, this.running);
    const entry = { at: this.now(), tokens: job.estimate };
    this.starts.push(entry);
    this.inner.complete(job.request, job.signal).then(
      (response) => {
        // Correct the estimate with what the call really used.
        entry.tokens = response.usage.promptTokens + response.usage.completionTokens;
        this.running--;
        job.resolve(response);
        this.pump();
      },
      (error: unknown) => {
        this.running--;
        job.reject(error);
        this.pump();
      },
    );
  }
}
