// Why the game clock is held, with one owner: every reason is set and cleared here, from what the
// rest of the town reports (a new world still starting, the operator paused, nobody is watching, minds lag, the budget is spent).
export const HOLD_REASONS = ['starting', 'paused', 'idle', 'waiting-for-minds', 'budget', 'storage'] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

export class ClockHolds {
  private readonly reasons = new Set<HoldReason>();
  /** Wall time since when nobody has watched, or null while someone does. */
  private unwatchedSinceMs: number | null;

  constructor(nowMs: number) {
    // Nobody watches a new town yet: the idle check counts from now.
    this.unwatchedSinceMs = nowMs;
  }

  getState(): { reasons: HoldReason[]; unwatchedSinceMs: number | null } {
    return { reasons: this.list(), unwatchedSinceMs: this.unwatchedSinceMs };
  }

  static fromState(state: { reasons: HoldReason[]; unwatchedSinceMs: number | null }): ClockHolds {
    const holds = new ClockHolds(0);
    holds.unwatchedSinceMs = state.unwatchedSinceMs;
    for (const r of state.reasons) holds.reasons.add(r);
    return holds;
  }

  get held(): boolean {
    return this.reasons.size > 0;
  }

  has(reason: HoldReason): boolean {
    return this.reasons.has(reason);
  }

  list(): HoldReason[] {
    return HOLD_REASONS.filter((r) => this.reasons.has(r));
  }

  /** A new world's first start (its residents' seed memories) is still going on. */
  starting(on: boolean): void {
    this.toggle('starting', on);
  }

  operatorPaused(paused: boolean): void {
    this.toggle('paused', paused);
  }

  /** The number of people watching changed. The first to come wakes an idle town. */
  watchers(count: number, nowMs: number): void {
    if (count > 0) {
      this.unwatchedSinceMs = null;
      this.reasons.delete('idle');
    } else if (this.unwatchedSinceMs === null) {
      this.unwatchedSinceMs = nowMs;
    }
  }

  /** Holds the clock (and so LLM spending) when nobody has watched for `idlePauseMinutes`; 0 never does. */
  checkIdle(nowMs: number, idlePauseMinutes: number): void {
    if (idlePauseMinutes <= 0) return this.toggle('idle', false);
    if (this.unwatchedSinceMs !== null && nowMs - this.unwatchedSinceMs >= idlePauseMinutes * 60_000) this.reasons.add('idle');
  }

  mindsWaiting(waiting: boolean): void {
    this.toggle('waiting-for-minds', waiting);
  }

  budgetSpent(spent: boolean): void {
    this.toggle('budget', spent);
  }

  /** The world file refuses writes (a full disk, an I/O error): the clock waits until one succeeds. */
  storageFault(faulted: boolean): void {
    this.toggle('storage', faulted);
  }

  private toggle(reason: HoldReason, on: boolean): void {
    if (on) this.reasons.add(reason);
    else this.reasons.delete(reason);
  }
}
