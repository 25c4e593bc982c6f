// What the loop does when a write fails. The disk refusing one (storage.ts isStorageFault) holds the clock
// ('storage') with the reason until writes succeed again: a step's commit or clock mark tries again on the next step,
// a sliced snapshot stays due. Anything else is a bug and is thrown; so is any fault inside a batch of steps (a
// headless run), which SQLite may have taken back whole: the run stops there. A bug between ticks (a sliced
// snapshot's, a checkpoint's, a between-ticks write's) is thrown by the next step, as one in it would be.
import type { WorldDb } from '../store/WorldDb';
import type { ClockHolds } from './holds';
import { isStorageFault, type StorageState } from './storage';

export interface StorageFaultParts {
  db: Pick<WorldDb, 'batching'>;
  holds: ClockHolds;
  storage: StorageState;
}

export class StorageFaults {
  /** The last sliced snapshot's write was refused by the disk: the town is not running well again until one is written. */
  private snapshotRefused = false;
  /** Whether the last flush of the log succeeded (a sliced snapshot written after a refusal may then end the wait). */
  private flushOk = true;
  /** A failure between ticks that is not the disk's (a bug), thrown by the next step. */
  private deferred: unknown = null;

  constructor(private readonly p: StorageFaultParts) {}

  /** Throws the bug met between ticks, if one was (at the start of a step's commit). */
  throwDeferred(): void {
    if (this.deferred === null) return;
    const error = this.deferred;
    this.deferred = null;
    throw error;
  }

  /** A failure between ticks: the disk's waits for the next flush (which holds the clock and says why), a bug's for the next step. */
  failedBetweenTicks(error: unknown): void {
    if (!isStorageFault(error)) this.deferred = error;
  }

  /** A bug between ticks, whatever it is: thrown by the next step. */
  bugBetweenTicks(error: unknown): void {
    this.deferred = error;
  }

  /** The clock's mark was refused: the clock is held like any other refused write (the next step tries again). */
  clockMarkFailed(error: unknown): void {
    const { db, storage, holds } = this.p;
    if (!isStorageFault(error) || db.batching) throw error;
    storage.failed(error);
    holds.storageFault(true);
  }

  /** A step's commit of the log succeeded. */
  flushed(): void {
    this.flushOk = true;
  }

  /** A step's writes succeeded; when it wrote anything (and no sliced snapshot waits to be written), the disk takes writes. */
  stepWritten(wrote: boolean): void {
    if (wrote && !this.snapshotRefused) this.p.storage.succeeded();
  }

  /** A step's commit was refused: the town waits (the batch stays queued, the snapshot stays due) and tries again on the next step. */
  flushFailed(error: unknown): void {
    if (!isStorageFault(error) || this.p.db.batching) throw error;
    this.flushOk = false;
    this.p.storage.failed(error);
  }

  /** After a step's commit: the clock held while the disk refuses writes, free once it takes them. */
  holdWhileFailing(): void {
    this.p.holds.storageFault(this.p.storage.problem !== null);
  }

  /** A sliced snapshot's write was refused: like a refused flush, the town waits with the reason, and the snapshot stays due. */
  snapshotFailed(error: unknown): void {
    if (!isStorageFault(error)) throw error;
    const { storage, holds } = this.p;
    this.snapshotRefused = true;
    storage.failed(error);
    holds.storageFault(true);
  }

  /**
   * A sliced snapshot was written. After a refused one, the disk takes writes again: with the log flushing too, the
   * town runs on (a held clock would write nothing more that could tell it so).
   */
  snapshotWritten(): void {
    if (!this.snapshotRefused) return;
    const { storage, holds } = this.p;
    this.snapshotRefused = false;
    if (this.flushOk) storage.succeeded();
    holds.storageFault(storage.problem !== null);
  }
}
