// What the loop writes to the world file: each step's events with the clock's time in one commit (commitStep), the
// clock alone before a lockstep step (markClock), what cognition and operators queue between live ticks
// (writeBetweenTicks), passive WAL checkpoints every CHECKPOINT_EVERY_TICKS live ticks (checkpointLater), and the
// snapshots: in one go (saveSnapshot) or serialised in slices between ticks (town/snapshots.ts), then thinned. A
// write that fails goes to StorageFaults (storageFaults.ts).
import type { Config } from '../config';
import type { LoggedEvent } from '../protocol/events';
import { GAME_MS_PER_MINUTE } from '../protocol/time';
import type { Simulation } from '../sim/Simulation';
import type { SimClock } from '../sim/clock';
import type { StepResult } from '../sim/types';
import { captureState } from '../sim/state';
import type { WorldDb } from '../store/WorldDb';
import type { SavedTown } from '../history/stateAt';
import type { TownLog } from './log';
import type { StorageFaults } from './storageFaults';
import { deflateInSlices, SnapshotBuffers } from './snapshots';

/**
 * Live ticks between two checkpoints of the world file's WAL, each run between ticks (WorldDb.checkpointOnlyWhenAsked):
 * about once a game minute at 1×, as often as SQLite's own 1,000 pages came in the morning of 10,000.
 */
export const CHECKPOINT_EVERY_TICKS = 10;
/**
 * What cognition and operators queue between live ticks (memories, decisions, statuses, operators' records) is written
 * this long after the first of it comes, between ticks, not with the next tick's step: at 10,000 their packing and
 * inserts were a third of a busy tick's commit. One write per this many wall ms at most, so the log's commits stay
 * few; what comes after the last one goes with the tick, as before. A lockstep run writes everything with its steps.
 */
export const BETWEEN_TICKS_WRITE_MS = 20;

export interface TickResult extends StepResult {
  /** Events as written to the log, with their sequence numbers. */
  logged: LoggedEvent[];
}

export interface PersistenceParts {
  config: Pick<Config, 'snapshotEveryGameMinutes' | 'snapshotThinAfterGameHours' | 'snapshotKeepEveryGameMinutes'>;
  sim: Simulation;
  clock: SimClock;
  db: WorldDb;
  log: TownLog;
  faults: StorageFaults;
  /** Whether the town closed: nothing more is written between ticks. */
  stopped: () => boolean;
  /** Whether a lockstep run goes: it writes everything with its steps. */
  lockstepRunning: () => boolean;
}

export class TownPersistence {
  private lastSnapshotGameMs: number;
  /** The snapshot being serialised in slices (town/snapshots.ts), if one is. */
  private snapshotting: Promise<void> | null = null;
  /** Reused by each snapshot in turn (one at a time: startSnapshot). */
  private readonly snapshotBuffers = new SnapshotBuffers();
  /** Bumped by each snapshot saved at once: a sliced one begun before it is abandoned (it would be older). */
  private snapshotGeneration = 0;
  /** A between-ticks write of the log is booked (writeBetweenTicks). */
  private writeBooked = false;
  /** Live ticks since the WAL's last checkpoint was booked; null before the first live tick (commits checkpoint until then). */
  private ticksSinceCheckpoint: number | null = null;

  constructor(private readonly p: PersistenceParts) {
    this.lastSnapshotGameMs = p.clock.gameMs;
    p.log.onQueued(() => this.writeBetweenTicks());
  }

  /** The sliced snapshot under way, if one is (a lockstep step waits for it). */
  get snapshotInProgress(): Promise<void> | null {
    return this.snapshotting;
  }

  /** Whether the town has ticked live (its commits no longer checkpoint the WAL). */
  get tickedLive(): boolean {
    return this.ticksSinceCheckpoint !== null;
  }

  /**
   * Writes what cognition and operators queued, BETWEEN_TICKS_WRITE_MS after it came, while the town ticks live (not
   * before its first live tick, nor during a lockstep run or a batch). A batch the disk refuses stays queued for the
   * tick's commit, which holds the clock and says why.
   */
  private writeBetweenTicks(): void {
    if (this.writeBooked || this.p.stopped() || this.p.lockstepRunning() || this.ticksSinceCheckpoint === null) return;
    this.writeBooked = true;
    setTimeout(() => {
      this.writeBooked = false;
      const { log, db } = this.p;
      if (this.p.stopped() || this.p.lockstepRunning() || db.batching || log.pending === 0) return;
      try {
        log.flush();
      } catch (error) {
        this.p.faults.failedBetweenTicks(error);
      }
    }, BETWEEN_TICKS_WRITE_MS);
  }

  /** Every CHECKPOINT_EVERY_TICKS live ticks, a passive checkpoint of the WAL in the next turn of the event loop, not in a commit. */
  checkpointLater(): void {
    const { db } = this.p;
    if (this.ticksSinceCheckpoint === null) db.checkpointOnlyWhenAsked();
    this.ticksSinceCheckpoint = (this.ticksSinceCheckpoint ?? 0) + 1;
    if (this.ticksSinceCheckpoint < CHECKPOINT_EVERY_TICKS) return;
    this.ticksSinceCheckpoint = 0;
    setImmediate(() => {
      if (this.p.stopped() || db.batching) return;
      try {
        db.checkpointPassive();
      } catch (error) {
        // A disk that refuses it refuses the next flush too, which holds the clock and says why; anything else is a bug.
        this.p.faults.failedBetweenTicks(error);
      }
    });
  }

  /** The step's events and the clock's game time in one commit, and the snapshot when one is due. */
  commitStep(result: StepResult): TickResult {
    const { log, clock, config, faults } = this.p;
    faults.throwDeferred();
    log.queue(result.events, true);
    let logged: LoggedEvent[] = [];
    const snapshotDue = clock.gameMs - this.lastSnapshotGameMs >= config.snapshotEveryGameMinutes * GAME_MS_PER_MINUTE;
    const writing = log.pending > 0 || snapshotDue || log.clockMoved(clock.gameMs);
    try {
      // The room shows this time only after the commit.
      logged = log.flush(clock.gameMs);
      faults.flushed();
      // Inside a batch (a headless run) nobody waits on the loop, and a fault must stop the run at once.
      if (snapshotDue && this.p.db.batching) this.saveSnapshot();
      else if (snapshotDue) this.startSnapshot();
      faults.stepWritten(writing);
    } catch (error) {
      faults.flushFailed(error);
    }
    faults.holdWhileFailing();
    return { ...result, logged };
  }

  /** Commits the clock's time now; a refused write holds the clock like any other (the next step tries again). */
  markClock(): void {
    const { log, clock, faults } = this.p;
    try {
      log.markClock(clock.gameMs);
    } catch (error) {
      faults.clockMarkFailed(error);
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
    const { sim, clock, db, faults } = this.p;
    const generation = this.snapshotGeneration;
    const abandoned = () => this.p.stopped() || generation !== this.snapshotGeneration;
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
          faults.snapshotFailed(error);
          return;
        }
        faults.snapshotWritten();
      })
      .catch((error: unknown) => faults.bugBetweenTicks(error))
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
}
