// Wall time as a port. Game time is the sim's (protocol/time.ts); wall time is what rooms, jobs, the
// store and the LLM wrappers measure real durations and stamp records with. Tests pass a ManualClock
// and move it, instead of sleeping.

export interface WallClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

export const systemClock: WallClock = { now: () => Date.now() };

/** A clock that moves only when told to. */
export class ManualClock implements WallClock {
  constructor(private ms = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(ms: number): void {
    this.ms = ms;
  }
}
