// The one history of a world. A world resumed by a build older than event format 2 restarted from its
// last snapshot and logged the minutes after it twice: the first version, from the snapshot it resumed
// from up to the `run.resumed` that abandoned it, is skipped here, so replay and analysis see each
// game minute once. Worlds of format 2 resume by folding the log forward and have no such ranges.
import type { EventQuery } from '../store/types';
import type { LoggedEvent } from '../protocol/events';
import type { WorldDb } from '../store/WorldDb';

export interface SeqRange {
  /** Exclusive. */
  afterSeq: number;
  /** Exclusive. */
  beforeSeq: number;
}

/** The seq ranges a restart abandoned: after the snapshot it resumed from, before its `run.resumed`. */
export function abandonedRanges(db: Pick<WorldDb, 'events' | 'snapshots'>): SeqRange[] {
  const snapshots = db.snapshots.headers();
  const ranges: SeqRange[] = [];
  for (const e of db.events.scan({ kinds: ['run.resumed'] })) {
    if (e.kind !== 'run.resumed' || e.data.folded !== undefined) continue;
    // It resumed from the newest snapshot saved before it.
    const from = snapshots.filter((s) => s.seq < e.seq).at(-1);
    if (from && from.seq + 1 < e.seq) ranges.push({ afterSeq: from.seq, beforeSeq: e.seq });
  }
  return ranges;
}

/** The log's events matching the query, without abandoned ones. */
export function* historyEvents(db: Pick<WorldDb, 'events'>, query: EventQuery, abandoned: readonly SeqRange[]): IterableIterator<LoggedEvent> {
  for (const e of db.events.scan(query)) if (!abandoned.some((r) => e.seq > r.afterSeq && e.seq < r.beforeSeq)) yield e;
}
