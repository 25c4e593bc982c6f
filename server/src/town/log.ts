// The town's side of the event log: events from the sim, cognition and operators are queued, written
// in one transaction per batch, and handed to listeners (rooms turn them into feed lines).
import type { EventInput, LoggedEvent } from '../protocol/events';
import type { WorldDb } from '../store/WorldDb';

export class TownLog {
  private queued: EventInput[] = [];
  private readonly listeners = new Set<(events: LoggedEvent[]) => void>();
  /** Told when events are queued behind what waits (not a step's own, which its tick writes at once). */
  private queuedListener: (() => void) | null = null;
  private closed = false;
  /** The clock's game time as last committed (EventLog.markClock). */
  private markedGameMs: number | null = null;

  constructor(private readonly db: WorldDb) {}

  /** Called with every batch of events once it is in the log. */
  onEvents(listener: (events: LoggedEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called when events are queued for a later flush (the town loop writes them between ticks). */
  onQueued(listener: () => void): void {
    this.queuedListener = listener;
  }

  /** Queues events for the next flush; `first` puts them before what is queued (a step's own events). */
  queue(events: EventInput[], first = false): void {
    if (first) this.queued = [...events, ...this.queued];
    else {
      this.queued.push(...events);
      this.queuedListener?.();
    }
  }

  /** Whether events wait to be written. */
  get pending(): number {
    return this.queued.length;
  }

  /**
   * Writes what is queued; returns it as logged. A batch the file refuses (a full disk) is written in one
   * transaction or not at all: it goes back to the front of the queue, for the next flush, and the error is thrown.
   */
  flush(clockGameMs?: number): LoggedEvent[] {
    if (this.closed) return [];
    const mark = clockGameMs !== undefined && clockGameMs !== this.markedGameMs ? clockGameMs : undefined;
    if (this.queued.length === 0) {
      if (mark !== undefined) this.markClock(mark);
      return [];
    }
    const batch = this.queued;
    this.queued = [];
    try {
      const logged = this.append(batch, mark);
      if (mark !== undefined) this.markedGameMs = mark;
      return logged;
    } catch (error) {
      this.queued = [...batch, ...this.queued];
      throw error;
    }
  }

  /**
   * Commits the clock's game time (with the next batch, or alone when there is none): what a viewer is
   * shown never runs ahead of what a restart resumes from. Written only when the clock has moved.
   */
  markClock(gameMs: number): void {
    if (this.closed || gameMs === this.markedGameMs) return;
    this.db.events.markClock(gameMs);
    this.markedGameMs = gameMs;
  }

  /** The clock's game time as last committed (what a restart resumes from), or null before the first commit. */
  get committedGameMs(): number | null {
    return this.markedGameMs;
  }

  /** Whether the clock has moved since it was last committed. */
  clockMoved(gameMs: number): boolean {
    return gameMs !== this.markedGameMs;
  }

  /** Writes events now, after what is queued. */
  write(events: EventInput[]): LoggedEvent[] {
    this.queue(events);
    return this.flush();
  }

  close(): void {
    this.closed = true;
  }

  private append(events: EventInput[], clockGameMs?: number): LoggedEvent[] {
    const last = this.db.events.append(events, clockGameMs);
    const first = last - events.length + 1;
    const logged = events.map((e, i) => ({ ...e, seq: first + i }) as LoggedEvent);
    // Listeners hear a batch once it is committed; a listener's own failure is not the log's.
    for (const l of this.listeners) l(logged);
    return logged;
  }
}
