// The state of a town at any game time: the newest snapshot at or before it, plus the logged events
// after it, folded. Resume (the state at the end of the log), replay (any moment) and analysis read it
// here and nowhere else.
import type { LoggedEvent } from '../protocol/events';
import type { ClockState } from '../sim/clock';
import type { SimState } from '../sim/types';
import { upgradeState, type SimWorld } from '../sim/state';
import type { Snapshot } from '../store/types';
import type { WorldDb } from '../store/WorldDb';
import { foldEvents, settleAt } from './fold';
import { abandonedRanges, historyEvents, type SeqRange } from './log';

/** What a snapshot holds: the sim and the clock. */
export interface SavedTown {
  sim: SimState;
  clock: ClockState;
}

export interface TownAt {
  sim: SimState;
  clock: ClockState;
  /** The snapshot the state was folded from. */
  snapshotSeq: number;
  snapshotGameMs: number;
  /** Seq of the last event folded in (the snapshot's own when none). */
  lastSeq: number;
  /** Events folded in, and those skipped for lack of detail (older worlds). */
  folded: number;
  skipped: number;
  /** Game time of the last sim event folded in, or null. */
  lastEventGameMs: number | null;
}

type HistorySource = Pick<WorldDb, 'events' | 'snapshots'>;

export function readSavedTown(snapshot: Snapshot): SavedTown {
  const saved = snapshot.state as { sim: unknown; clock: ClockState };
  return { sim: upgradeState(saved.sim), clock: { ...saved.clock } };
}

function lastLoggedGameMs(events: readonly LoggedEvent[]): number {
  let last = -Infinity;
  for (const e of events) if (e.gameMs > last) last = e.gameMs;
  return last;
}

/** Applies the operator's clock changes (pause, resume, speed) among `events` to a clock state. */
export function foldClock(clock: ClockState, events: Iterable<LoggedEvent>): ClockState {
  const out = { ...clock };
  for (const e of events) {
    if (e.kind !== 'operator.action') continue;
    if (e.data.action === 'pause') out.paused = true;
    else if (e.data.action === 'resume') out.paused = false;
    else if (e.data.action === 'speed' && typeof e.data.rate === 'number') out.rate = e.data.rate;
  }
  return out;
}

/**
 * The town at game time `gameMs` (or at the end of the log when null), or null when the world has no
 * snapshot at or before it (the moment is before the world began).
 */
export function stateAt(db: HistorySource, world: SimWorld, gameMs: number | null, abandoned: readonly SeqRange[] = abandonedRanges(db)): TownAt | null {
  const snapshot = gameMs === null ? db.snapshots.latest() : db.snapshots.atOrBefore(gameMs);
  if (!snapshot) return null;
  const saved = readSavedTown(snapshot);
  const events = [...historyEvents(db, { afterSeq: snapshot.seq, untilGameMs: gameMs ?? undefined }, abandoned)];
  const fold = foldEvents(world, saved.sim, events, snapshot.seq);
  // The end of the log: as far as the clock was committed (what viewers were shown, events or not), and
  // never before an event logged (a world from before the clock was committed has only those).
  const at = gameMs ?? Math.max(snapshot.gameMs, fold.lastGameMs ?? snapshot.gameMs, lastLoggedGameMs(events), db.events.clockMark() ?? -Infinity);
  const sim = settleAt(world, fold.state, at);
  const clock = { ...foldClock(saved.clock, events), gameMs: at };
  return {
    sim,
    clock,
    snapshotSeq: snapshot.seq,
    snapshotGameMs: snapshot.gameMs,
    lastSeq: fold.lastSeq,
    folded: fold.applied,
    skipped: fold.skipped,
    lastEventGameMs: fold.lastGameMs,
  };
}
