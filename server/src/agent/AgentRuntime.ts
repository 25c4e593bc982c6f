// Runs the sim's OperationRequests: asynchronous cognition over the memory stream, one operation per
// agent at a time (the sim guarantees it). Each operation lives in operations/; this class dispatches
// them, collects the Inputs they hand back to the sim, and tracks what is in flight.
//
// An operation has two phases. While the sim waits on it (a plan, a conversation's lines, the decisions
// an observation leads to) it is "blocking", and the agent is busy. Once it has sent what the sim needs
// it frees the agent (`done`, or `conversationEnd`) and goes on in the background: summaries, memories,
// relationships, reflection. That tail writes only the agent's own append-only records (the reflection
// counter is reset before any await), so it may overlap the agent's next operation; the clock waits
// on blocking work closely and on background work loosely (town/loop.ts), which keeps more
// independent work in flight. Lockstep runs await both phases, so they stay deterministic.
import type { AgentId } from '../protocol/ids';
import type { Memory } from '../store/types';
import type { Input, OperationRequest } from '../sim/types';
import { CognitionContext, type AgentRuntimeDeps, type RuntimeSettings } from './context';
import { AgentMemory } from './memory';
import { planDay } from './operations/plan';
import { Observer } from './operations/observe';
import { converse } from './operations/converse';
import { interview, seed, whisper, type SeedOptions } from './operations/interview';
import { planFromRoutine } from './offlinePlanning';
import { planMomentAt, wakingDay } from '../world/clockText';
import { ownClockGameMs } from '../protocol/lateness';

/**
 * A plan asked for this close to its agent's waking (or after it: a new world's first morning, an agent
 * added mid-day) is one the sim would hold the clock for while a queue of others is made: such an agent
 * gets the persona's routine for the day at once (`quickPlan`), and the plan made as usual replaces it.
 */
export const QUICK_PLAN_WITHIN_GAME_MINUTES = 30;

interface Running {
  gameMs: number;
  /** The sim still waits on it (false once it has freed its agents and runs in the background). */
  blocking: boolean;
}

export class AgentRuntime {
  private readonly c: CognitionContext;
  private readonly memory: AgentMemory;
  private readonly observer: Observer;
  private readonly inbox: Input[] = [];
  private readonly running = new Map<Promise<unknown>, Running>();

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
    // The sim needs a plan only when its agent wakes (the loop holds the clock for that), so planning ahead does not block.
    const entry: Running = { gameMs: request.gameMs, blocking: request.kind !== 'plan' };
    const p = this.run(
      request,
      (input) => this.inbox.push(input),
      () => (entry.blocking = false),
    ).then(
      (inputs) => void this.inbox.push(...inputs),
      () => undefined,
    );
    this.running.set(p, entry);
    void p.finally(() => this.running.delete(p));
  }

  /**
   * The routine plan for a plan request due within QUICK_PLAN_WITHIN_GAME_MINUTES of its agent's waking
   * (about a quarter of a millisecond, no retrieval, nothing stored), else null. The request still runs.
   */
  quickPlan(request: OperationRequest): Input | null {
    // An agent whose persona is gone (removed as the request was made) gets no plan here; the operation says why.
    if (request.kind !== 'plan' || !this.c.deps.personas.has(request.agentId)) return null;
    const persona = this.c.persona(request.agentId);
    const { wakeMinute, sleepMinute } = wakingDay(persona.wakeAt, persona.sleepAt);
    const { day, minute } = planMomentAt(ownClockGameMs(request.agentId, request.gameMs), wakeMinute, sleepMinute);
    if (day !== request.day || minute < wakeMinute - QUICK_PLAN_WITHIN_GAME_MINUTES) return null;
    return {
      kind: 'plan',
      agentId: request.agentId,
      plan: planFromRoutine(persona, this.c.deps.map, this.c.deps.seed, request.day, [], undefined, this.c.everyone().haunts),
    };
  }

  /** Game time at which the oldest operation the sim still waits on was asked for, or null. */
  oldestInFlightGameMs(): number | null {
    return this.oldest(true);
  }

  /** Game time at which the oldest operation running in the background (agents freed) was asked for, or null. */
  oldestBackgroundGameMs(): number | null {
    return this.oldest(false);
  }

  private oldest(blocking: boolean): number | null {
    let oldest: number | null = null;
    for (const r of this.running.values()) if (r.blocking === blocking && (oldest === null || r.gameMs < oldest)) oldest = r.gameMs;
    return oldest;
  }

  /** The inputs waiting for `drainInputs`, not taken (the loop looks at the plans among them to search their walks ahead). */
  get waitingInputs(): readonly Input[] {
    return this.inbox;
  }

  drainInputs(): Input[] {
    return this.inbox.splice(0, this.inbox.length);
  }

  /** Resolves when every submitted operation has finished, background included. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.keys()]);
  }

  /**
   * Runs one operation. Inputs go to `stream` as they come (a conversation's lines show at once), or are
   * returned. The Input that frees the agents (`done`, `conversationEnd`) is sent exactly once, as soon
   * as the sim need not wait (then `release` is called), or at the end, even on failure.
   */
  async run(request: OperationRequest, stream?: (input: Input) => void, release?: () => void): Promise<Input[]> {
    const out: Input[] = [];
    const send = stream ?? ((input: Input) => void out.push(input));
    let freed = false;
    const free = () => {
      if (freed) return;
      freed = true;
      send(request.kind === 'converse' ? { kind: 'conversationEnd', conversationId: request.conversationId } : { kind: 'done', agentId: request.agentId });
      release?.();
    };
    try {
      switch (request.kind) {
        case 'plan':
          await planDay(this.c, this.memory, request.agentId, request.day, request.gameMs, send, free);
          break;
        case 'observe':
          await this.observer.observe(request.agentId, request.observations, request.company, request.gameMs, send, free);
          break;
        case 'converse':
          await converse(this.c, this.memory, request.conversationId, request.initiator, request.partner, request.gameMs, send, free);
          break;
        default: {
          const never: never = request;
          throw new Error(`unknown operation ${JSON.stringify(never)}`);
        }
      }
    } catch (error) {
      this.c.deps.onError?.(request, error);
    }
    free();
    return out;
  }

  /** Seeds these residents' memories: rated together, written in order, a slice at a time (operations/interview.ts). */
  seed(agentIds: AgentId[], gameMs: number, options: SeedOptions = {}): Promise<void> {
    return seed(this.c, this.memory, agentIds, gameMs, options);
  }

  whisper(agentId: AgentId, text: string, gameMs: number): Promise<Memory> {
    return whisper(this.c, this.memory, agentId, text, gameMs);
  }

  interview(agentId: AgentId, question: string, gameMs: number): Promise<{ answer: string; memories: Memory[] }> {
    return interview(this.c, this.memory, agentId, question, gameMs);
  }

  /** Summed importance of the agent's memories since its last reflection (reflection comes at REFLECTION_THRESHOLD). */
  reflectionProgress(agentId: AgentId): number {
    return this.memory.pendingImportance(agentId);
  }

  /** The agent's status now: the persona file's `currently` as last revised. */
  statusOf(agentId: AgentId): string {
    return this.c.status(agentId);
  }

  /** Stores every observation still waiting for a batch (at shutdown, so none is lost). */
  /** An agent renamed while nothing runs (town/commands.ts): what cognition keeps of it in memory follows the new id. */
  renameAgent(from: string, to: string): void {
    if (this.running.size > 0) throw new Error('an agent can be renamed only while no operation runs');
    this.c.renameAgent(from, to);
    this.memory.renameAgent(from, to);
  }

  flushObservations(gameMs: number): Promise<void> {
    return this.observer.flush(gameMs);
  }
}
