// The game clock (game time is defined in protocol/time.ts). The town owns one clock and passes the
// time into Simulation.step(); nothing else in sim/ reads a clock.

/** The default rate: one game minute per real second. */
export const DEFAULT_RATE = 60;

export interface ClockState {
  gameMs: number;
  /** Game ms per real ms. */
  rate: number;
  paused: boolean;
}

export class SimClock {
  private state: ClockState;

  constructor(initial: ClockState) {
    this.state = { ...initial };
  }

  get gameMs(): number {
    return this.state.gameMs;
  }
  get rate(): number {
    return this.state.rate;
  }
  get paused(): boolean {
    return this.state.paused;
  }

  /** Advances by a real-time delta unless paused or held; returns the new game time. */
  advance(realDeltaMs: number, held = false): number {
    if (!this.state.paused && !held && realDeltaMs > 0) this.state.gameMs += realDeltaMs * this.state.rate;
    return this.state.gameMs;
  }

  /** Moves game time forward by a game duration regardless of pause (the operator's "step"). */
  skip(gameDeltaMs: number): number {
    this.state.gameMs += Math.max(0, gameDeltaMs);
    return this.state.gameMs;
  }

  pause(): void {
    this.state.paused = true;
  }
  resume(): void {
    this.state.paused = false;
  }
  setRate(rate: number): void {
    if (!(rate > 0) || !Number.isFinite(rate)) throw new Error(`clock rate must be a positive number, got ${rate}`);
    this.state.rate = rate;
  }

  getState(): ClockState {
    return { ...this.state };
  }
}
