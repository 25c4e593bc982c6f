// The latency of an inference server that batches, for the OpenAI-compatible stub: a request waits in a
// queue for one of `slots` sequences the server runs at once, spends its time to first token (a fixed part
// plus the prompt's prefill), then writes its tokens, each taking longer the more sequences share the
// batch. That is how vLLM's continuous batching (and Ollama with OLLAMA_NUM_PARALLEL) behaves: decoding
// an 8B model is bound by memory bandwidth, so one step reads the weights once for the whole batch and a
// step with b sequences costs a little more than a step with one; throughput rises with the batch up to a
// knee, past which waiting requests only queue.
//
// The model runs in virtual time: `submit` and `advance` take the time, `nextEventMs` says when the next
// request ends, so a test can drive it without timers and the stub can drive it with them.

export interface LatencyModel {
  /** Sequences the server runs at once (vLLM's max_num_seqs at the throughput knee; Ollama's OLLAMA_NUM_PARALLEL). */
  slots: number;
  /** Fixed part of the time to first token: HTTP, scheduling, the first sampling step. */
  firstTokenMs: number;
  /** Prefill time per prompt token. */
  prefillMsPerToken: number;
  /** Time per output token with one sequence running. */
  decodeMsPerToken: number;
  /** Per-token time × (1 + batchSlowdown × (b − 1)) with b sequences running. */
  batchSlowdown: number;
}

/**
 * Llama-3.1-8B (BF16) on one A100 under vLLM, from published sweeps (1,024-token prompts, 128-token replies):
 * about 75 tokens/s for a lone request (13 ms a token, 77% of the card's memory-bandwidth ceiling), 6.6×
 * the throughput at 8 requests with little latency cost, and on an H100 time per output token 6.5 ms at 1,
 * 10.9 ms at 16 and no more throughput past 16 (only queueing). Hence 13 ms a token, 16 slots, and a per-token
 * time 4% longer for each other sequence in the batch (×1.28 at 8, ×1.6 at 16). Time to first token: tens of
 * ms at low load (14 ms for 1,024 tokens on the H100, about three times that on the A100): 15 ms plus
 * 0.04 ms a prompt token. Sources: johnmusgrave.com "vLLM throughput-latency sweep on NVIDIA A100";
 * InferenceBench's concurrency-sweep recipe (vLLM 0.21, H100 80 GB); see BENCHMARKS.md "Several LLM endpoints".
 */
export const VLLM_8B_A100: LatencyModel = { slots: 16, firstTokenMs: 15, prefillMsPerToken: 0.04, decodeMsPerToken: 13, batchSlowdown: 0.04 };

interface Job {
  id: number;
  arrivedMs: number;
  /** Time to first token left (ms). */
  prefillLeftMs: number;
  tokensLeft: number;
}

export interface Finished {
  id: number;
  arrivedMs: number;
  finishedMs: number;
}

export interface BatchFigures {
  /** Requests taken. */
  requests: number;
  /** Requests that waited for a slot. */
  queued: number;
  longestQueue: number;
  mostRunning: number;
  outputTokens: number;
  /**
   * Σ over requests of (time to first token + tokens × per-token time at a full batch) ÷ slots: the least wall
   * time this server needs for the requests it served, since its throughput is highest with every slot full.
   */
  fullBatchBoundMs: number;
}

/** Time per output token with `running` sequences in the batch. */
export function perTokenMs(model: LatencyModel, running: number): number {
  return model.decodeMsPerToken * (1 + model.batchSlowdown * Math.max(0, running - 1));
}

/** A lone request's latency: time to first token plus its tokens at batch 1. */
export function loneLatencyMs(model: LatencyModel, promptTokens: number, outputTokens: number): number {
  return model.firstTokenMs + promptTokens * model.prefillMsPerToken + outputTokens * model.decodeMsPerToken;
}

export class BatchServer {
  readonly figures: BatchFigures = { requests: 0, queued: 0, longestQueue: 0, mostRunning: 0, outputTokens: 0, fullBatchBoundMs: 0 };
  private readonly running: Job[] = [];
  private readonly queue: Job[] = [];
  private nowMs: number;
  private nextId = 1;

  constructor(
    readonly model: LatencyModel,
    startMs = 0,
  ) {
    if (!(model.slots >= 1) || model.decodeMsPerToken < 0 || model.prefillMsPerToken < 0 || model.firstTokenMs < 0 || model.batchSlowdown < 0)
      throw new Error(`latency model: slots must be ≥ 1 and every time ≥ 0 (got ${JSON.stringify(model)})`);
    this.nowMs = startMs;
  }

  get inFlight(): number {
    return this.running.length + this.queue.length;
  }

  /** Takes a request at `nowMs` (after advancing to it); returns its id and whatever finished on the way. */
  submit(promptTokens: number, outputTokens: number, nowMs: number): { id: number; finished: Finished[] } {
    const finished = this.advance(nowMs);
    const m = this.model;
    const ttftMs = m.firstTokenMs + Math.max(0, promptTokens) * m.prefillMsPerToken;
    const job: Job = { id: this.nextId++, arrivedMs: this.nowMs, prefillLeftMs: ttftMs, tokensLeft: Math.max(0, outputTokens) };
    this.figures.requests++;
    this.figures.outputTokens += job.tokensLeft;
    this.figures.fullBatchBoundMs += (ttftMs + job.tokensLeft * perTokenMs(m, m.slots)) / m.slots;
    if (this.running.length < m.slots) this.running.push(job);
    else {
      this.queue.push(job);
      this.figures.queued++;
      this.figures.longestQueue = Math.max(this.figures.longestQueue, this.queue.length);
    }
    this.figures.mostRunning = Math.max(this.figures.mostRunning, this.running.length);
    // A request with nothing to do ends at once.
    finished.push(...this.advance(this.nowMs));
    return { id: job.id, finished };
  }

  /** Drops a request (its client went away), freeing its slot. */
  cancel(id: number, nowMs: number): Finished[] {
    const finished = this.advance(nowMs);
    const m = this.model;
    for (const list of [this.running, this.queue]) {
      const i = list.findIndex((j) => j.id === id);
      if (i < 0) continue;
      // What it will not be served no longer counts toward the bound.
      const [j] = list.splice(i, 1);
      this.figures.fullBatchBoundMs -= (j.prefillLeftMs + j.tokensLeft * perTokenMs(m, m.slots)) / m.slots;
      this.figures.outputTokens -= j.tokensLeft;
    }
    this.admit();
    return finished;
  }

  /** When the next running request ends, or null when none runs. */
  nextEventMs(): number | null {
    const step = this.nextStepMs();
    return step === null ? null : this.nowMs + step;
  }

  /** Runs the batch up to `toMs`; returns the requests that ended, in order. */
  advance(toMs: number): Finished[] {
    const finished: Finished[] = [];
    for (;;) {
      const step = this.nextStepMs();
      const left = toMs - this.nowMs;
      if (step === null || step > left) {
        if (left > 0) this.progress(left);
        this.nowMs = Math.max(this.nowMs, toMs);
        return finished;
      }
      this.progress(step);
      this.nowMs += step;
      for (let i = 0; i < this.running.length;) {
        const j = this.running[i];
        if (j.prefillLeftMs <= 1e-9 && j.tokensLeft <= 1e-9) {
          this.running.splice(i, 1);
          finished.push({ id: j.id, arrivedMs: j.arrivedMs, finishedMs: this.nowMs });
        } else i++;
      }
      this.admit();
    }
  }

  private admit(): void {
    while (this.running.length < this.model.slots && this.queue.length > 0) this.running.push(this.queue.shift()!);
    this.figures.mostRunning = Math.max(this.figures.mostRunning, this.running.length);
  }

  /** Time until the first running request ends a phase (its prefill, or its last token), at the current batch. */
  private nextStepMs(): number | null {
    if (this.running.length === 0) return null;
    const tokenMs = perTokenMs(this.model, this.running.length);
    let best = Infinity;
    for (const j of this.running) best = Math.min(best, j.prefillLeftMs > 1e-9 ? j.prefillLeftMs : j.tokensLeft * tokenMs);
    return Math.max(0, best);
  }

  /** Every running request goes `ms` further: its prefill first, then its tokens at the batch's per-token time. */
  private progress(ms: number): void {
    const tokenMs = perTokenMs(this.model, this.running.length);
    for (const j of this.running) {
      if (j.prefillLeftMs > 1e-9) j.prefillLeftMs = Math.max(0, j.prefillLeftMs - ms);
      else if (tokenMs > 0) j.tokensLeft = Math.max(0, j.tokensLeft - ms / tokenMs);
      else j.tokensLeft = 0;
    }
  }
}
