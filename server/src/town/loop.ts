// The town's one loop. Live: the room calls `tick` with the real time that passed, and operations run
// in the background. Lockstep (headless runs, the operator's "step"; lockstep.ts): the sim steps every few game
// seconds and each step's operations are awaited before the next, so a run gives the same result
// every time. Only one of them runs at a time: while a lockstep run goes, `tick` does nothing.
// What a tick takes on is in tickInputs.ts, what it writes in persistence.ts (and storageFaults.ts when a write
// fails), the routines for late plans in quickPlans.ts, the path searches between ticks in searchAhead.ts.
import type { Config } from '../config';
import { GAME_MS_PER_MINUTE } from '../protocol/time';
import { planMomentAt } from '../world/clockText';
import type { Simulation } from '../sim/Simulation';
import type { SimClock } from '../sim/clock';
import type { Input, OperationRequest } from '../sim/types';
import type { AgentId } from '../protocol/ids';
import { emptyResult } from '../sim/state';
import type { AgentRuntime } from '../agent/AgentRuntime';
import type { WorldDb } from '../store/WorldDb';
import type { ClockHolds } from './holds';
import type { TownLog } from './log';
import type { StorageProblem, StorageState } from './storage';
import { StorageFaults } from './storageFaults';
import { TownPersistence, type TickResult } from './persistence';
import { QuickPlans } from './quickPlans';
import { SearchAhead } from './searchAhead';
import { LOCKSTEP_GAME_MS, stepInLockstep } from './lockstep';
import { BUDGET_TICK_WALL_MS, PLAN_INPUTS_PER_TICK, tickBudget, tickInputsOf } from './tickInputs';

/** How far game time may run ahead of the oldest operation the sim waits on, with CLOCK_POLICY=wait. */
export const MAX_MIND_LAG_GAME_MINUTES = 30;
/** How far game time may run ahead of the oldest background thought (summaries, memories, reflection) or plan. */
export const MAX_BACKGROUND_LAG_GAME_MINUTES = 180;

export interface LoopParts {
  config: Pick<Config, 'clockPolicy' | 'snapshotEveryGameMinutes' | 'snapshotThinAfterGameHours' | 'snapshotKeepEveryGameMinutes'>;
  sim: Simulation;
  clock: SimClock;
  runtime: AgentRuntime;
  db: WorldDb;
  log: TownLog;
  holds: ClockHolds;
  /** Whether the file takes writes: a refused write holds the clock ('storage') until one succeeds. */
  storage: StorageState;
}

export class TownLoop {
  private pending: Input[] = [];
  private lockstep: Promise<void> | null = null;
  /** Live mode: requests not yet handed to cognition (see `pump`). */
  private readonly queued: OperationRequest[] = [];
  private pumping = false;
  private readonly drainedWaiters: Array<() => void> = [];
  /** Set when the town closes: no step runs after it. */
  private stopped = false;
  private readonly persistence: TownPersistence;
  private readonly quickPlans: QuickPlans;
  private readonly searchAhead: SearchAhead;
  /**
   * What a lockstep run (the operator's "step") changed, handed to the room with the next live tick: the room shows
   * agents as ticks report them, so without this the page kept their actions from before the step.
   */
  private steppedAside: { changed: Set<AgentId>; added: AgentId[]; removed: AgentId[] } | null = null;

  constructor(private readonly p: LoopParts) {
    const stopped = () => this.stopped;
    const lockstepRunning = () => this.lockstep !== null;
    const faults = new StorageFaults(p);
    this.persistence = new TownPersistence({ ...p, faults, stopped, lockstepRunning });
    this.quickPlans = new QuickPlans({ ...p, enqueue: (input) => this.pending.push(input) });
    this.searchAhead = new SearchAhead({ ...p, waitingInputs: () => [this.pending, p.runtime.waitingInputs], stopped, lockstepRunning });
  }

  /** Inputs from outside cognition (operators, arrivals), applied by the next step. */
  enqueue(...inputs: Input[]): void {
    this.pending.push(...inputs);
  }

  /** Throws while a lockstep run goes (a second one is refused) or while a new world still starts. */
  refuseSecondLockstep(): void {
    if (this.lockstep) throw new Error('the town is already running a lockstep run');
    if (this.p.holds.has('starting')) throw new Error("the town is still starting (seeding its residents' memories); step once it runs");
  }

  /** Whether an input waits for the next step (queued by an operator, not yet applied). */
  hasPending(test: (input: Input) => boolean): boolean {
    return this.pending.some(test);
  }

  /** Why the world file refuses writes (the town waits), or null while it takes them. */
  get storageProblem(): StorageProblem | null {
    return this.p.storage.problem;
  }

  /** Whether a lockstep run is going (live ticks wait for it). */
  get lockstepRunning(): boolean {
    return this.lockstep !== null;
  }

  /** Live mode: advance by a real-time delta, step the sim, and hand new requests to the runtime. */
  tick(realDeltaMs: number): TickResult {
    // Stopped, or a new world still starting (its residents' seed memories): nothing steps.
    if (this.lockstep || this.stopped || this.p.holds.has('starting')) return { ...emptyResult(), logged: [] };
    const { sim, clock, holds } = this.p;
    this.updateWaitingHold();
    const before = clock.gameMs;
    const gameMs = clock.advance(realDeltaMs, holds.held);
    this.searchAhead.lastAdvanceGameMs = gameMs - before;
    // The budget follows the clock's rate, not the time this tick advances: a late tick (a slow one before it) would
    // otherwise get a bigger budget, and be slower in turn.
    const result = sim.step(gameMs, this.takeTickInputs(), tickBudget(Math.min(gameMs - before, clock.rate * BUDGET_TICK_WALL_MS)));
    // The walks whose searches the budget gave up are searched first between ticks; their agents walk at a later tick.
    this.searchAhead.searchFirst(sim.searchLater);
    // Agents about to wake with no plan get their routine for the next step while the queue is worked through.
    for (const r of result.requests) if (r.kind === 'plan') this.quickPlans.awaitPlan(r.agentId, r.day, r.gameMs);
    this.quickPlans.takeDue(gameMs);
    this.queued.push(...result.requests);
    this.pump();
    this.searchAhead.finishFieldsLater();
    const ticked = this.persistence.commitStep(result);
    this.persistence.checkpointLater();
    this.searchAhead.afterTick();
    return this.withSteppedAside(ticked);
  }

  /** A tick's result with what lockstep runs changed since the last tick (agents gone since are left out). */
  private withSteppedAside(ticked: TickResult): TickResult {
    const aside = this.steppedAside;
    if (!aside) return ticked;
    this.steppedAside = null;
    const { sim } = this.p;
    const changed = new Set([...aside.changed, ...ticked.changed].filter((id) => sim.agent(id)));
    const added = [...aside.added, ...ticked.added].filter((id) => sim.agent(id));
    return { ...ticked, changed, added, removed: [...aside.removed, ...ticked.removed] };
  }

  /** Keeps what a lockstep step changed for the next live tick (withSteppedAside). */
  private setAside(r: TickResult): void {
    const aside = (this.steppedAside ??= { changed: new Set(), added: [], removed: [] });
    for (const id of r.changed) aside.changed.add(id);
    aside.added.push(...r.added);
    aside.removed.push(...r.removed);
  }

  /**
   * Hands the queued requests to cognition one per turn of the event loop. An operation of the offline
   * mind never waits on I/O, so it runs to its end in the turn it starts: a step of a big town that asks
   * for a hundred plans would otherwise hold the event loop, and the room's ticks, until all are made.
   */
  private pump(): void {
    if (this.pumping) return;
    if (this.queued.length === 0 && !this.quickPlans.hasReady) {
      for (const resolve of this.drainedWaiters.splice(0)) resolve();
      return;
    }
    this.pumping = true;
    setImmediate(() => {
      this.pumping = false;
      // The routines due first: they are quick, and they get the waking out of bed.
      if (this.quickPlans.hasReady) {
        this.quickPlans.giveReady();
        this.searchAhead.searchLater();
        this.pump();
        return;
      }
      // What the sim waits on first (observations, conversations); plans after, as an agent that wakes
      // before its plan comes has the routine (updateWaitingHold): a thousand plans asked at once would
      // otherwise keep the morning's observations queued past MAX_MIND_LAG_GAME_MINUTES.
      const urgent = this.queued.findIndex((r) => r.kind !== 'plan');
      const next = this.queued.splice(urgent >= 0 ? urgent : 0, 1)[0];
      if (next) this.p.runtime.submit(next);
      if (next?.kind === 'plan') this.searchAhead.searchLater();
      this.pump();
    });
  }

  /** The inputs for a live tick (tickInputsOf): the rest wait for the next. */
  private takeTickInputs(): Input[] {
    const { taken, waiting } = tickInputsOf([...this.pending.splice(0), ...this.p.runtime.drainInputs()], PLAN_INPUTS_PER_TICK);
    this.pending = waiting;
    return taken;
  }

  /** Resolves once every queued request has been handed to cognition. */
  private queueDrained(): Promise<void> {
    if (this.queued.length === 0 && !this.quickPlans.hasReady && !this.pumping) return Promise.resolve();
    return new Promise((resolve) => this.drainedWaiters.push(resolve));
  }

  /**
   * Lockstep: steps the sim every `stepGameMs` up to `untilGameMs`, awaiting each step's operations
   * before the next. Operations already in flight finish first. A second run while one goes is refused.
   */
  async runLockstep(untilGameMs: number, stepGameMs = LOCKSTEP_GAME_MS, onStep?: (r: TickResult) => void): Promise<void> {
    this.refuseSecondLockstep();
    const run = this.lockstepRun(untilGameMs, stepGameMs, onStep);
    this.lockstep = run;
    try {
      await run;
    } finally {
      this.lockstep = null;
    }
  }

  /**
   * Runs `work` while no step runs and no operation is in flight (a rename): live ticks do nothing
   * meanwhile, as during a lockstep run, and the inputs cognition handed back wait in `pending`.
   */
  async exclusive<T>(work: () => Promise<T> | T): Promise<T> {
    this.refuseSecondLockstep();
    let release = () => {};
    this.lockstep = new Promise<void>((resolve) => (release = resolve));
    try {
      await this.queueDrained();
      await this.p.runtime.idle();
      this.pending.push(...this.p.runtime.drainInputs());
      return await work();
    } finally {
      this.lockstep = null;
      release();
    }
  }

  private async lockstepRun(untilGameMs: number, stepGameMs: number, onStep?: (r: TickResult) => void): Promise<void> {
    const parts = { ...this.p, persistence: this.persistence, stopped: () => this.stopped, drained: () => this.queueDrained() };
    const each = (r: TickResult) => {
      this.setAside(r);
      onStep?.(r);
    };
    this.pending.push(...(await stepInLockstep({ ...parts, takePending: () => this.pending.splice(0) }, untilGameMs, stepGameMs, each)));
  }

  /**
   * Saves a snapshot of the state now, in one go (at a first start, a rename, a close, in a headless run's
   * batch). A sliced one still being serialised is abandoned: this one is newer.
   */
  saveSnapshot(): void {
    this.persistence.saveSnapshot();
  }

  /** Rewrites the inputs waiting for the next step (only inside `exclusive`: a rename). */
  rewritePending(rewrite: (input: Input) => Input): void {
    this.pending = this.pending.map(rewrite);
  }

  /**
   * With CLOCK_POLICY=wait, game time waits for cognition: while an awake agent has no plan for the
   * day yet, while an operation the sim waits on has been in flight for more than
   * MAX_MIND_LAG_GAME_MINUTES of game time (so a slow endpoint slows the town instead of cutting
   * conversations short), and while background thought or a queued plan lags by more than MAX_BACKGROUND_LAG_GAME_MINUTES.
   */
  private updateWaitingHold(): void {
    const { config, clock, runtime, sim, holds } = this.p;
    if (config.clockPolicy !== 'wait') return;
    const lagsBy = (t: number | null, minutes: number) => t !== null && clock.gameMs - t > minutes * GAME_MS_PER_MINUTE;
    // A queued request counts as in flight: it waits for its turn. A plan does not block (AgentRuntime.submit):
    // an agent that wakes before its plan comes gets the routine (below); it lags as background thought does.
    let oldest = runtime.oldestInFlightGameMs();
    // A queued plan lags like one in flight (background), and is bounded too: its agent stays busy until it comes (it
    // perceives nothing and cannot ask for the next day's plan), and the pump hands plans over only when nothing else
    // waits, so a steady stream of observations would otherwise keep it queued for good (a dead second day).
    let oldestBackground = runtime.oldestBackgroundGameMs();
    for (const r of this.queued) {
      if (r.kind !== 'plan') oldest = oldest === null || r.gameMs < oldest ? r.gameMs : oldest;
      else oldestBackground = oldestBackground === null || r.gameMs < oldestBackground ? r.gameMs : oldestBackground;
    }
    const lagging = lagsBy(oldest, MAX_MIND_LAG_GAME_MINUTES) || lagsBy(oldestBackground, MAX_BACKGROUND_LAG_GAME_MINUTES);
    let waitingForPlan = false;
    for (const a of sim.agents()) {
      // Asleep, never asked, or holding the plan it asked for: nothing to wait for (most of a big town, most of the time).
      if (a.asleep || a.planRequestedDay === null || a.plan?.day === a.planRequestedDay) continue;
      // Given the routine, or to be given it between the next ticks: nothing to wait for either.
      if (this.quickPlans.covers(a.spec.id, a.planRequestedDay)) continue;
      const { day, minute } = planMomentAt(clock.gameMs, a.spec.wakeMinute, a.spec.sleepMinute);
      if (a.planRequestedDay !== day || minute < a.spec.wakeMinute) continue;
      // Awake with its plan still queued or in the making (a slow or busy mind): the routine until it comes.
      if (!this.quickPlans.give(a.spec.id, day, clock.gameMs)) waitingForPlan = true;
    }
    holds.mindsWaiting(lagging || waitingForPlan);
  }

  /**
   * At close: the step in progress is the last (a lockstep run ends after it), and live ticks do nothing. Plans
   * still queued are dropped, not made (a town of ten thousand stopped in its morning would otherwise make
   * thousands first): their agents ask again when the world resumes (the `restarted` input), as after a kill.
   */
  stop(): void {
    this.stopped = true;
    this.quickPlans.dropQueued();
    const kept = this.queued.filter((r) => r.kind !== 'plan');
    this.queued.splice(0, this.queued.length, ...kept);
  }

  /** Takes the inputs no step has applied yet (at shutdown they are dropped with the process). */
  async settle(): Promise<void> {
    await this.lockstep;
    await this.persistence.snapshotInProgress;
    await this.queueDrained();
    await this.p.runtime.idle();
    this.pending.push(...this.p.runtime.drainInputs());
  }
}
