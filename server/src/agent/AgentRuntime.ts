// Runs the sim's OperationRequests: asynchronous cognition over the memory stream, one operation per
// agent at a time (the sim guarantees it). Each operation lives in operations/; this class dispatches
// them, collects the Inputs they hand back to the sim, and tracks what is in flight.
import type { AgentId } from '../protocol/ids';
import type { Memory } from '../store/types';
import type { Input, OperationRequest } from '../sim/types';
import { CognitionContext, type AgentRuntimeDeps, type RuntimeSettings } from './context';
import { AgentMemory } from './memory';
import { planDay } from './operations/plan';
import { Observer } from './operations/observe';
import { converse } from './operations/converse';
import { interview, seed, whisper } from './operations/interview';

export class AgentRuntime {
  private readonly c: CognitionContext;
  private readonly memory: AgentMemory;
  private readonly observer: Observer;
  private readonly inbox: Input[] = [];
  private readonly running = new Map<Promise<unknown>, number>();

  constructor(deps: AgentRuntimeDeps) {
    this.c = new CognitionContext(deps);
    this.memory = new AgentMemory(this.c);
    this.observer = new Observer(this.c, this.memory);
  }

  get settings(): RuntimeSettings {
    return this.c.settings;
  }

  get inFlight(): number {
    return this.running.size;
  }

  /** Live mode: runs the request in the background; its Inputs arrive through `drainInputs` as they come. */
  submit(request: OperationRequest): void {
    const p = this.run(request, (input) => this.inbox.push(input)).then(
      (inputs) => void this.inbox.push(...inputs),
      () => undefined,
    );
    this.running.set(p, request.gameMs);
    void p.finally(() => this.running.delete(p));
  }

  /** Game time at which the oldest operation still in flight was asked for, or null. */
  oldestInFlightGameMs(): number | null {
    let oldest: number | null = null;
    for (const t of this.running.values()) if (oldest === null || t < oldest) oldest = t;
    return oldest;
  }

  drainInputs(): Input[] {
    return this.inbox.splice(0, this.inbox.length);
  }

  /** Resolves when every submitted operation has finished. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.keys()]);
  }

  /**
   * Runs one operation. Inputs that should show at once (a conversation's lines) go to `stream`;
   * the rest are returned. Always ends with the Inputs that free the agents, even on failure.
   */
  async run(request: OperationRequest, stream?: (input: Input) => void): Promise<Input[]> {
    const out: Input[] = [];
    const send = stream ?? ((input: Input) => void out.push(input));
    try {
      switch (request.kind) {
        case 'plan':
          out.push(await planDay(this.c, this.memory, request.agentId, request.day, request.gameMs));
          break;
        case 'observe':
          out.push(...(await this.observer.observe(request.agentId, request.observations, request.gameMs)));
          break;
        case 'converse':
          await converse(this.c, this.memory, request.conversationId, request.initiator, request.partner, request.gameMs, send);
          break;
        default: {
          const never: never = request;
          throw new Error(`unknown operation ${JSON.stringify(never)}`);
        }
      }
    } catch (error) {
      this.c.deps.onError?.(request, error);
    }
    if (request.kind === 'converse') out.push({ kind: 'conversationEnd', conversationId: request.conversationId });
    else out.push({ kind: 'done', agentId: request.agentId });
    return out;
  }

  seed(agentId: AgentId, gameMs: number): Promise<void> {
    return seed(this.c, this.memory, agentId, gameMs);
  }

  whisper(agentId: AgentId, text: string, gameMs: number): Promise<Memory> {
    return whisper(this.c, this.memory, agentId, text, gameMs);
  }

  interview(agentId: AgentId, question: string, gameMs: number): Promise<{ answer: string; memories: Memory[] }> {
    return interview(this.c, this.memory, agentId, question, gameMs);
  }

  /** Stores every observation still waiting for a batch (at shutdown, so none is lost). */
  flushObservations(gameMs: number): Promise<void> {
    return this.observer.flush(gameMs);
  }
}
