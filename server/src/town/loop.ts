// The town's one loop. Live: the room calls `tick` with the real time that passed, and operations run
// in the background. Lockstep (headless runs, the operator's "step"): the sim steps every few game
// seconds and each step's operations are awaited before the next, so a run gives the same result
// every time. Only one of them runs at a time: while a lockstep run goes, `tick` does nothing.
import type { Config } from '../config';
import type { LoggedEvent } from '../protocol/events';
import { GAME_MS_PER_MINUTE } from '../protocol/time';
import { planMomentAt } from '../world/clockText';
import { ownClockGameMs } from '../protocol/lateness';
import type { Simulation } from '../sim/Simulation';
import type { SimClock } from '../sim/clock';
import type { Input, OperationRequest, StepResult } from '../sim/types';
import { captureState, emptyResult, type StepBudget } from '../sim/state';
import type { AgentRuntime } from '../agent/AgentRuntime';
import type { WorldDb } from '../store/WorldDb';
import type { SavedTown } from '../history/stateAt';
import type { ClockHolds } from './holds';
import type { AgentId } from '../protocol/ids';
import type { TownLog } from './log';
import { isStorageFault, type StorageProblem, type StorageState } from './storage';
import { deflateInSlices, SnapshotBuffers } from './snapshots';
import { performance } from 'node:perf_hooks';
import type { WalkAhead } from '../sim/walksAhead';

/** How far game time may run ahead of the oldest operation the sim waits on, with CLOCK_POLICY=wait. */
export const MAX_MIND_LAG_GAME_MINUTES = 30;
/** How far game time may run ahead of the oldest background thought (summaries, memories, reflection) or plan. */
export const MAX_BACKGROUND_LAG_GAME_MINUTES = 180;
/** Game time between two lockstep steps, unless the caller says otherwise. */
export const LOCKSTEP_GAME_MS = 10_000;
/**
 * Routines made at most this many a turn of the event loop, between ticks (each a fraction of a millisecond to
 * one): a new world's first morning, when thousands are up before any plan is made, no longer makes them all in
 * one tick of seconds; they come as fast as the ticks leave time for.
 */
export const QUICK_PLANS_PER_TURN = 8;
/**
 * Plans (made or routine) a live tick applies at most; the plans past it, and the later inputs of their agents, wait
 * in order for the next tick (tickInputsOf). Each plan is logged with the walk it starts (~0.3–1 ms of the tick's
 * commit at 10,000): a new world of 10,000 at 6:30 handed a tick hundreds of routines at once (ticks of 100–230 ms in
 * the commit alone). A town of 25 or 1,000 never has this many in one tick; a lockstep run (scenarios, batches)
 * applies all.
 */
export const PLAN_INPUTS_PER_TICK = 32;
/**
 * Live ticks between two checkpoints of the world file's WAL, each run between ticks (WorldDb.checkpointOnlyWhenAsked):
 * about once a game minute at 1×, as often as SQLite's own 1,000 pages came in the morning of 10,000.
 */
export const CHECKPOINT_EVERY_TICKS = 10;
/**
 * Walks searched ahead between live ticks (sim/walksAhead.ts): the next actions that begin within this much game time,
 * looked at for a tenth of the town after each tick (so each agent once in WALKS_AHEAD_SLICES ticks: a game minute at
 * 1×, well inside the horizon), and the walks of the plans waiting to be applied.
 */
export const WALKS_AHEAD_GAME_MS = 90_000;
export const WALKS_AHEAD_SLICES = 10;
/** Wall ms of path searches ahead in one turn of the event loop at most (a commute at 10,000 is ~1–3 ms). */
const WALKS_AHEAD_TURN_MS = 6;
/**
 * What a live tick starts at most (sim/state.ts StepBudget), for each game minute it advances the clock: a tick at 1×
 * (6 game seconds) starts 80 walks and searches 100,000 tiles at most, and gives 500 agents their first turn in a new
 * or resumed world (the town of 10,000's first tick took 110–170 ms for all; now 34–42, and its next 19 ticks ~5 ms
 * more than the ticks after them); no tick less (a held clock's included), and
 * none more than a tick of 100 ms at the clock's rate (a late tick's budget grew with its lateness). The town of
 * 10,000 searched ~32,000 tiles in a mean tick of its morning, but a commute wave started ~300 walks and searched
 * 690,000 tiles (~25 ms) in one; spread over the next ticks, its last walkers start up to 2.5 game minutes late.
 * A search that would pass the tiles left is given up where it passes them and searched between ticks (one
 * commute's search reached up to 400,000 tiles). A town of 1,000 rarely reaches the budget; a lockstep run
 * (scenarios, batches) has none.
 */
export const TICK_BUDGET_PER_GAME_MINUTE: StepBudget = { firstTurns: 5_000, walks: 800, searchTiles: 1_000_000 };
/** The game time a tick at 1× advances (at 10 Hz): the least a tick's budget is worked out for. */
const ONE_X_TICK_GAME_MS = 6_000;
/** The most wall time a tick's budget is worked out for, at the clock's rate: a tick at 10 Hz. */
const BUDGET_TICK_WALL_MS = 100;
/**
 * What cognition and operators queue between live ticks (memories, decisions, statuses, operators' records) is written
 * this long after the first of it comes, between ticks, not with the next tick's step: at 10,000 their packing and
 * inserts were a third of a busy tick's commit. One write per this many wall ms at most, so the log's commits stay
 * few; what comes after the last one goes with the tick, as before. A lockstep run writes everything with its steps.
 */
export const BETWEEN_TICKS_WRITE_MS = 20;
/** An agent whose plan has not come this long before it wakes (on its own clock) gets the routine for the day. */
export const QUICK_PLAN_LEAD_GAME_MINUTES = 5;

export interface TickResult extends StepResult {
  /** Events as written to the log, with their sequence numbers. */
  logged: LoggedEvent[];
}

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
  private lastSnapshotGameMs: number;
  private lockstep: Promise<void> | null = null;
  /** Live mode: requests not yet handed to cognition (see `pump`). */
  private readonly queued: OperationRequest[] = [];
  private pumping = false;
  /** A turn of the event loop is booked to search the whole distance fields waiting (finishFieldsLater). */
  private finishingFields = false;
  /** Agent@day given the routine while its plan was still coming (once each; cleared when it gets long). */
  private readonly quickPlanned = new Set<string>();
  /** planKey's last key for each agent (ids come and go with renames: cleared as quickPlanned is). */
  private readonly planKeys = new Map<string, { day: number; key: string }>();
  /** Plans asked for and not yet come, with the game time from which their agent gets the routine meanwhile. */
  private quickDue: Array<{ agentId: AgentId; day: number; dueGameMs: number }> = [];
  /** Routines due, made by the pump between ticks, the earliest due first. */
  private quickReady: Array<{ agentId: AgentId; day: number }> = [];
  /** The agent@day keys in `quickDue` and `quickReady`. */
  private readonly quickQueued = new Set<string>();
  private readonly drainedWaiters: Array<() => void> = [];
  /** Set when the town closes: no step runs after it. */
  private stopped = false;
  /** The snapshot being serialised in slices (town/snapshots.ts), if one is. */
  private snapshotting: Promise<void> | null = null;
  /** Reused by each snapshot in turn (one at a time: startSnapshot). */
  private readonly snapshotBuffers = new SnapshotBuffers();
  /** Bumped by each snapshot saved at once: a sliced one begun before it is abandoned (it would be older). */
  private snapshotGeneration = 0;
  /** The last sliced snapshot's write was refused by the disk: the town is not running well again until one is written. */
  private snapshotRefused = false;
  /** Whether the last flush of the log succeeded (a sliced snapshot written after a refusal may then end the wait). */
  private flushOk = true;
  /**
   * A failure between ticks that is not the disk's (a bug), thrown by the next step as one in it would be: a sliced
   * snapshot's, a checkpoint's, or a between-ticks write's.
   */
  private snapshotError: unknown = null;
  /** A between-ticks write of the log is booked (writeBetweenTicks). */
  private writeBooked = false;
  /** Walks to search ahead: those of plans waiting to be applied first (the next tick needs them), then of next actions. */
  private readonly walksAhead = { ofPlans: [] as WalkAhead[], ofActions: [] as WalkAhead[], slice: 0, sliceDue: false, booked: false, lastAdvanceGameMs: 0 };
  /** The plans whose walks were already worked out. */
  private readonly plansLookedAt = new WeakSet<Input>();
  /** Live ticks since the WAL's last checkpoint was booked; null before the first live tick (commits checkpoint until then). */
  private ticksSinceCheckpoint: number | null = null;

  constructor(private readonly p: LoopParts) {
    this.lastSnapshotGameMs = p.clock.gameMs;
    p.log.onQueued(() => this.writeBetweenTicks());
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
    this.walksAhead.lastAdvanceGameMs = gameMs - before;
    // The budget follows the clock's rate, not the time this tick advances: a late tick (a slow one before it) would
    // otherwise get a bigger budget, and be slower in turn.
    const result = sim.step(gameMs, this.takeTickInputs(), tickBudget(Math.min(gameMs - before, clock.rate * BUDGET_TICK_WALL_MS)));
    // The walks whose searches the budget gave up are searched first between ticks; their agents walk at a later tick.
    if (sim.searchLater.length > 0) this.walksAhead.ofPlans.unshift(...sim.searchLater);
    // Agents about to wake with no plan get their routine for the next step while the queue is worked through.
    for (const r of result.requests) if (r.kind === 'plan') this.awaitPlan(r.agentId, r.day, r.gameMs);
    this.takeDueQuickPlans(gameMs);
    this.queued.push(...result.requests);
    this.pump();
    this.finishFieldsLater();
    const ticked = this.afterStep(result);
    this.checkpointLater();
    this.lookAhead();
    return ticked;
  }

  /** After a tick: the next actions of a slice of the town whose walks begin soon, worked out and searched between ticks. */
  private lookAhead(): void {
    this.walksAhead.sliceDue = true;
    this.searchAheadLater();
  }

  /**
   * Books a turn of the event loop to search walks ahead: the walks of plans handed over since (routines, made
   * plans) first, then the next actions', for up to WALKS_AHEAD_TURN_MS; another turn while some are left.
   */
  private searchAheadLater(): void {
    const ahead = this.walksAhead;
    if (ahead.booked || this.stopped) return;
    ahead.booked = true;
    setImmediate(() => {
      ahead.booked = false;
      if (this.stopped || this.lockstep) return;
      const { sim, clock, runtime } = this.p;
      if (ahead.sliceDue) {
        // What the last slice left unsearched is older than what this one finds: it goes.
        ahead.ofActions = sim.walksOfNextActions(WALKS_AHEAD_GAME_MS, ahead.slice, WALKS_AHEAD_SLICES);
        ahead.slice = (ahead.slice + 1) % WALKS_AHEAD_SLICES;
        ahead.sliceDue = false;
      }
      // The plans not looked at yet, of those waiting (read where they wait: the lists are thousands long in a big
      // town's morning, and copied at each turn they were its biggest garbage, 1.6 GB in the 10,000's hour).
      const fresh: Input[] = [];
      for (const list of [this.pending, runtime.waitingInputs])
        for (const input of list) if (input.kind === 'plan' && !this.plansLookedAt.has(input)) (this.plansLookedAt.add(input), fresh.push(input));
      if (fresh.length > 0) ahead.ofPlans.push(...sim.walksOfPlans(fresh, clock.gameMs + ahead.lastAdvanceGameMs));
      const started = performance.now();
      while (performance.now() - started < WALKS_AHEAD_TURN_MS) {
        const walk = ahead.ofPlans.shift() ?? ahead.ofActions.shift();
        if (!walk) return;
        sim.world.fields.searchAhead(walk.from, walk.to);
      }
      this.searchAheadLater();
    });
  }

  /**
   * Writes what cognition and operators queued, BETWEEN_TICKS_WRITE_MS after it came, while the town ticks live (not
   * before its first live tick, nor during a lockstep run or a batch). A batch the disk refuses stays queued for the
   * tick's commit, which holds the clock and says why.
   */
  private writeBetweenTicks(): void {
    if (this.writeBooked || this.stopped || this.lockstep || this.ticksSinceCheckpoint === null) return;
    this.writeBooked = true;
    setTimeout(() => {
      this.writeBooked = false;
      const { log, db } = this.p;
      if (this.stopped || this.lockstep || db.batching || log.pending === 0) return;
      try {
        log.flush();
      } catch (error) {
        if (!isStorageFault(error)) this.snapshotError = error;
      }
    }, BETWEEN_TICKS_WRITE_MS);
  }

  /** Every CHECKPOINT_EVERY_TICKS live ticks, a passive checkpoint of the WAL in the next turn of the event loop, not in a commit. */
  private checkpointLater(): void {
    const { db } = this.p;
    if (this.ticksSinceCheckpoint === null) db.checkpointOnlyWhenAsked();
    this.ticksSinceCheckpoint = (this.ticksSinceCheckpoint ?? 0) + 1;
    if (this.ticksSinceCheckpoint < CHECKPOINT_EVERY_TICKS) return;
    this.ticksSinceCheckpoint = 0;
    setImmediate(() => {
      if (this.stopped || db.batching) return;
      try {
        db.checkpointPassive();
      } catch (error) {
        // A disk that refuses it refuses the next flush too, which holds the clock and says why; anything else is a bug.
        if (!isStorageFault(error)) this.snapshotError = error;
      }
    });
  }

  /**
   * Hands the queued requests to cognition one per turn of the event loop. An operation of the offline
   * mind never waits on I/O, so it runs to its end in the turn it starts: a step of a big town that asks
   * for a hundred plans would otherwise hold the event loop, and the room's ticks, until all are made.
   */
  private pump(): void {
    if (this.pumping) return;
    if (this.queued.length === 0 && this.quickReady.length === 0) {
      for (const resolve of this.drainedWaiters.splice(0)) resolve();
      return;
    }
    this.pumping = true;
    setImmediate(() => {
      this.pumping = false;
      // The routines due first: they are quick, and they get the waking out of bed.
      if (this.quickReady.length > 0) {
        this.giveReadyQuickPlans();
        this.searchAheadLater();
        this.pump();
        return;
      }
      // What the sim waits on first (observations, conversations); plans after, as an agent that wakes
      // before its plan comes has the routine (updateWaitingHold): a thousand plans asked at once would
      // otherwise keep the morning's observations queued past MAX_MIND_LAG_GAME_MINUTES.
      const urgent = this.queued.findIndex((r) => r.kind !== 'plan');
      const next = this.queued.splice(urgent >= 0 ? urgent : 0, 1)[0];
      if (next) this.p.runtime.submit(next);
      if (next?.kind === 'plan') this.searchAheadLater();
      this.pump();
    });
  }

  /** The inputs for a live tick (tickInputsOf): the rest wait for the next. */
  private takeTickInputs(): Input[] {
    const { taken, waiting } = tickInputsOf([...this.pending.splice(0), ...this.p.runtime.drainInputs()], PLAN_INPUTS_PER_TICK);
    this.pending = waiting;
    return taken;
  }

  /**
   * The whole distance fields that walks earned are searched between ticks, one a turn of the event loop (a search of
   * the whole map, ~1.8 M tiles at 10,000): in the tick, a morning's workplaces each held it for tens of ms.
   */
  private finishFieldsLater(): void {
    const fields = this.p.sim.world.fields;
    fields.deferWholeFields = true;
    if (this.finishingFields || !fields.wantsWork) return;
    this.finishingFields = true;
    setImmediate(() => {
      this.finishingFields = false;
      if (this.stopped) return;
      fields.finishWanted(1);
      if (fields.wantsWork) this.finishFieldsLater();
    });
  }

  /** Resolves once every queued request has been handed to cognition. */
  private queueDrained(): Promise<void> {
    if (this.queued.length === 0 && this.quickReady.length === 0 && !this.pumping) return Promise.resolve();
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

  /** Rewrites the inputs waiting for the next step (only inside `exclusive`: a rename). */
  rewritePending(rewrite: (input: Input) => Input): void {
    this.pending = this.pending.map(rewrite);
  }

  private async lockstepRun(untilGameMs: number, stepGameMs: number, onStep?: (r: TickResult) => void): Promise<void> {
    const { sim, clock, runtime } = this.p;
    // Steps that wait for their operations have no time between ticks: whole fields are searched as they are earned.
    sim.world.fields.deferWholeFields = false;
    // A snapshot a live tick started is captured before any step of this run (startSnapshot).
    await this.snapshotting;
    await this.queueDrained();
    await runtime.idle();
    let inputs: Input[] = [...this.pending.splice(0), ...runtime.drainInputs()];
    while (clock.gameMs < untilGameMs && !this.stopped) {
      const gameMs = clock.skip(Math.min(stepGameMs, untilGameMs - clock.gameMs));
      // The room may show the new time while the step's operations are awaited: commit it first.
      this.markClock();
      const result = sim.step(gameMs, inputs);
      const outputs = await Promise.all(result.requests.map((r) => runtime.run(r)));
      inputs = [...outputs.flat(), ...this.pending.splice(0)];
      const ticked = this.afterStep(result);
      // A lockstep run in a town that ticked live (an operator's steps): its commits no longer checkpoint the WAL either.
      if (this.ticksSinceCheckpoint !== null) this.checkpointLater();
      // The same snapshots as a run whose steps wait for nothing else: each is written before the next step.
      await this.snapshotting;
      onStep?.(ticked);
    }
    this.pending.push(...inputs);
  }

  private afterStep(result: StepResult): TickResult {
    const { log, clock, config, storage, holds } = this.p;
    if (this.snapshotError !== null) {
      const error = this.snapshotError;
      this.snapshotError = null;
      throw error;
    }
    log.queue(result.events, true);
    let logged: LoggedEvent[] = [];
    const snapshotDue = clock.gameMs - this.lastSnapshotGameMs >= config.snapshotEveryGameMinutes * GAME_MS_PER_MINUTE;
    const writing = log.pending > 0 || snapshotDue || log.clockMoved(clock.gameMs);
    try {
      // The step's events and the clock's game time in one commit: the room shows this time only after it.
      logged = log.flush(clock.gameMs);
      this.flushOk = true;
      // Inside a batch (a headless run) nobody waits on the loop, and a fault must stop the run at once.
      if (snapshotDue && this.p.db.batching) this.saveSnapshot();
      else if (snapshotDue) this.startSnapshot();
      if (writing && !this.snapshotRefused) storage.succeeded();
    } catch (error) {
      // A full disk or an I/O error: the town waits (the batch stays queued, the snapshot stays due) and
      // tries again on the next step; anything else is a bug and is thrown. So is any fault inside a
      // batch of steps (a headless run), which SQLite may have taken back whole: the run stops there.
      if (!isStorageFault(error) || this.p.db.batching) throw error;
      this.flushOk = false;
      storage.failed(error);
    }
    holds.storageFault(storage.problem !== null);
    return { ...result, logged };
  }

  /**
   * With CLOCK_POLICY=wait, game time waits for cognition: while an awake agent has no plan for the
   * day yet, while an operation the sim waits on has been in flight for more than
   * MAX_MIND_LAG_GAME_MINUTES of game time (so a slow endpoint slows the town instead of cutting
   * conversations short), and while background thought or a queued plan lags by more than MAX_BACKGROUND_LAG_GAME_MINUTES.
   */
  /**
   * `${agentId}@${day}`, the key of the routine sets, kept for the day last asked: the wait check asks it of every agent
   * awaiting its plan each tick (thousands in a morning of 10,000), and a new string each time was garbage the young
   * generation carried.
   */
  private planKey(agentId: string, day: number): string {
    const kept = this.planKeys.get(agentId);
    if (kept !== undefined && kept.day === day) return kept.key;
    const key = `${agentId}@${day}`;
    if (kept !== undefined) {
      kept.day = day;
      kept.key = key;
    } else this.planKeys.set(agentId, { day, key });
    return key;
  }

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
      // Given the routine, or to be given it between the next ticks (quickDue, quickReady): nothing to wait for either.
      const key = this.planKey(a.spec.id, a.planRequestedDay);
      if (this.quickPlanned.has(key) || this.quickQueued.has(key)) continue;
      const { day, minute } = planMomentAt(clock.gameMs, a.spec.wakeMinute, a.spec.sleepMinute);
      if (a.planRequestedDay !== day || minute < a.spec.wakeMinute) continue;
      // Awake with its plan still queued or in the making (a slow or busy mind): the routine until it comes.
      if (!this.giveQuickPlan(a.spec.id, day, clock.gameMs)) waitingForPlan = true;
    }
    holds.mindsWaiting(lagging || waitingForPlan);
  }

  /**
   * Notes a plan asked for: unless it comes first, its agent gets the routine QUICK_PLAN_LEAD_GAME_MINUTES before it
   * wakes on its own clock (at once when it is up already: a new world's first morning, an agent added mid-day).
   */
  private awaitPlan(agentId: AgentId, day: number, gameMs: number): void {
    const agent = this.p.sim.agent(agentId);
    const key = `${agentId}@${day}`;
    if (!agent || this.quickQueued.has(key) || this.quickPlanned.has(key)) return;
    const { wakeMinute, sleepMinute } = agent.spec;
    const moment = planMomentAt(ownClockGameMs(agentId, gameMs), wakeMinute, sleepMinute);
    const minutesAhead = moment.day === day ? Math.max(0, wakeMinute - QUICK_PLAN_LEAD_GAME_MINUTES - moment.minute) : 0;
    this.quickDue.push({ agentId, day, dueGameMs: gameMs + minutesAhead * GAME_MS_PER_MINUTE });
    this.quickQueued.add(key);
  }

  /** Moves the routines due by `gameMs` to the pump's list (it makes them between ticks), the earliest due first. */
  private takeDueQuickPlans(gameMs: number): void {
    if (this.quickDue.length === 0) return;
    const due = this.quickDue.filter((q) => q.dueGameMs <= gameMs);
    if (due.length === 0) return;
    this.quickDue = this.quickDue.filter((q) => q.dueGameMs > gameMs);
    due.sort((a, b) => a.dueGameMs - b.dueGameMs);
    for (const { agentId, day } of due) this.quickReady.push({ agentId, day });
  }

  /** Makes up to QUICK_PLANS_PER_TURN routines of agents whose plans have not come (for the next step). */
  private giveReadyQuickPlans(): void {
    let given = 0;
    while (this.quickReady.length > 0 && given < QUICK_PLANS_PER_TURN) {
      const { agentId, day } = this.quickReady.shift()!;
      this.quickQueued.delete(`${agentId}@${day}`);
      const agent = this.p.sim.agent(agentId);
      if (!agent || (agent.plan !== null && agent.plan.day >= day)) continue;
      if (this.giveQuickPlan(agentId, day, this.p.clock.gameMs)) given++;
    }
  }

  /** Queues the routine for the agent's day for the next step, once per agent and day; false when none applies. */
  private giveQuickPlan(agentId: AgentId, day: number, gameMs: number): boolean {
    const key = `${agentId}@${day}`;
    if (this.quickPlanned.has(key)) return true;
    const quick = this.p.runtime.quickPlan({ kind: 'plan', agentId, day, gameMs });
    if (!quick) return false;
    if (this.quickPlanned.size > 100_000) this.quickPlanned.clear();
    if (this.planKeys.size > 100_000) this.planKeys.clear();
    this.quickPlanned.add(key);
    this.pending.push(quick);
    return true;
  }

  /** Commits the clock's time now; a refused write holds the clock like any other (the next step tries again). */
  private markClock(): void {
    const { log, clock, storage, holds } = this.p;
    try {
      log.markClock(clock.gameMs);
    } catch (error) {
      if (!isStorageFault(error) || this.p.db.batching) throw error;
      storage.failed(error);
      holds.storageFault(true);
    }
  }

  /**
   * Saves a snapshot of the state now, in one go (at a first start, a rename, a close, in a headless run's
   * batch). A sliced one still being serialised is abandoned: this one is newer.
   */
  saveSnapshot(): void {
    const { sim, clock, db } = this.p;
    this.snapshotGeneration++;
    // Serialised by `save` before it returns, so the live state need not be copied first (10 MB in a town of a thousand).
    const state: Readonly<SavedTown> = { sim: sim.peekState(), clock: clock.getState() };
    db.snapshots.save({ seq: db.events.lastSeq(), gameMs: clock.gameMs, state });
    this.snapshotSaved(clock.gameMs);
  }

  /**
   * Begins a snapshot of the state at this step's end, serialised in slices between turns of the event
   * loop while the town steps on (town/snapshots.ts), and written when done; none while one is under way
   * (it stays due). Its seq is the log's end now: the events logged meanwhile are folded onto it on resume.
   */
  private startSnapshot(): void {
    if (this.snapshotting) return;
    const { sim, clock, db, storage, holds } = this.p;
    const generation = this.snapshotGeneration;
    const abandoned = () => this.stopped || generation !== this.snapshotGeneration;
    let at = { seq: 0, gameMs: 0 };
    // Captured in the next turn of the event loop, not in the tick that found it due (~20 ms at 10,000): the state and
    // the log's end as they are then, together (no step runs between a tick and its commit; a lockstep run waits for this).
    this.snapshotting = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => {
        if (abandoned()) return null;
        at = { seq: db.events.lastSeq(), gameMs: clock.gameMs };
        const saved = { sim: captureState(sim.peekState()), clock: clock.getState() } satisfies SavedTown;
        return deflateInSlices(saved, { abandoned, buffers: this.snapshotBuffers });
      })
      .then((deflated) => {
        if (!deflated || abandoned()) return;
        try {
          db.snapshots.saveDeflated(at, deflated);
          this.snapshotSaved(at.gameMs);
        } catch (error) {
          if (!isStorageFault(error)) throw error;
          // Like a refused flush: the town waits with the reason, and the snapshot stays due for the next step.
          this.snapshotRefused = true;
          storage.failed(error);
          holds.storageFault(true);
          return;
        }
        if (!this.snapshotRefused) return;
        // The disk takes writes again: with the log flushing too, the town runs on (a held clock would write
        // nothing more that could tell it so).
        this.snapshotRefused = false;
        if (this.flushOk) storage.succeeded();
        holds.storageFault(storage.problem !== null);
      })
      .catch((error: unknown) => void (this.snapshotError = error))
      .finally(() => (this.snapshotting = null));
  }

  /** After a snapshot at `gameMs` is in the file: the next is due from it, and old ones are thinned. */
  private snapshotSaved(gameMs: number): void {
    const { db, config } = this.p;
    this.lastSnapshotGameMs = gameMs;
    // Old snapshots thinned (a town of a thousand saves ~1 MB each): resume needs the newest, a seek the one
    // before its moment, and folding an hour of log is quick. A log from before event format 2 keeps all:
    // history/log.ts finds what an old restart abandoned from the snapshot it resumed from.
    if (config.snapshotThinAfterGameHours > 0 && db.eventFormat >= 2) {
      db.snapshots.thin(gameMs - config.snapshotThinAfterGameHours * 3_600_000, config.snapshotKeepEveryGameMinutes * GAME_MS_PER_MINUTE);
    }
  }

  /**
   * At close: the step in progress is the last (a lockstep run ends after it), and live ticks do nothing. Plans
   * still queued are dropped, not made (a town of ten thousand stopped in its morning would otherwise make
   * thousands first): their agents ask again when the world resumes (the `restarted` input), as after a kill.
   */
  stop(): void {
    this.stopped = true;
    this.quickDue = [];
    this.quickReady = [];
    this.quickQueued.clear();
    const kept = this.queued.filter((r) => r.kind !== 'plan');
    this.queued.splice(0, this.queued.length, ...kept);
  }

  /** Takes the inputs no step has applied yet (at shutdown they are dropped with the process). */
  async settle(): Promise<void> {
    await this.lockstep;
    await this.snapshotting;
    await this.queueDrained();
    await this.p.runtime.idle();
    this.pending.push(...this.p.runtime.drainInputs());
  }
}

/** The budget of a live tick that advances the clock by `advancedGameMs` (TICK_BUDGET_PER_GAME_MINUTE). */
export function tickBudget(advancedGameMs: number): StepBudget {
  const minutes = Math.max(advancedGameMs, ONE_X_TICK_GAME_MS) / GAME_MS_PER_MINUTE;
  const { firstTurns, walks, searchTiles } = TICK_BUDGET_PER_GAME_MINUTE;
  const times = (n: number) => Math.round(n * minutes);
  return { firstTurns: times(firstTurns), walks: times(walks), searchTiles: times(searchTiles) };
}

/**
 * The inputs a live tick takes of those that came, in order: all, but `maxPlans` plans at most. The plans past it wait
 * for the next tick, and so does every later input about an agent or a conversation that has one waiting, so that
 * each agent's inputs keep their order (a restart waits for all before it, and all after it for it); the others' go
 * on. When everything after the last plan taken waited, a big town's morning of queued plans held back the ends of the
 * operations behind them (their agents busy meanwhile) and the talks decided: the town of 10,000 started 596
 * conversations in one tick when its plans ran out at 7:13 (39–128 ms).
 */
export function tickInputsOf(inputs: Input[], maxPlans: number): { taken: Input[]; waiting: Input[] } {
  let plans = 0;
  for (const input of inputs) if (input.kind === 'plan') plans++;
  if (plans <= maxPlans) return { taken: inputs, waiting: [] };
  plans = 0;
  const taken: Input[] = [];
  const waiting: Input[] = [];
  const agents = new Set<string>();
  const talks = new Set<number>();
  let restartWaits = false;
  for (const input of inputs) {
    const [who, other] = agentsOf(input);
    const talk = input.kind === 'utterance' || input.kind === 'conversationEnd' ? input.conversationId : null;
    if (input.kind === 'restarted' && waiting.length > 0) restartWaits = true;
    const waits =
      restartWaits ||
      (input.kind === 'plan' && plans >= maxPlans) ||
      (who !== null && agents.has(who)) ||
      (other !== null && agents.has(other)) ||
      (talk !== null && talks.has(talk));
    if (!waits) {
      if (input.kind === 'plan') plans++;
      taken.push(input);
      continue;
    }
    waiting.push(input);
    if (who !== null) agents.add(who);
    if (other !== null) agents.add(other);
    if (talk !== null) talks.add(talk);
  }
  return { taken, waiting };
}

/** The agents an input is about (none for a world event, a conversation's end, a restart). */
function agentsOf(input: Input): [string | null, string | null] {
  switch (input.kind) {
    case 'talk':
      return [input.agentId, input.partnerId];
    case 'utterance':
      return [input.speaker, null];
    case 'addAgent':
    case 'updateResident':
      return [input.resident.id, null];
    case 'worldEvent':
    case 'conversationEnd':
    case 'restarted':
      return [null, null];
    default:
      return [input.agentId, null];
  }
}
