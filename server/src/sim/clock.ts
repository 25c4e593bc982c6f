// The game clock. Game time is ms since the Unix epoch of the simulated calendar, read with UTC
// functions, so a day boundary is the same everywhere. The room owns one clock and passes the time
// into Simulation.step(); nothing else in sim/ reads a clock.

export const GAME_MS_PER_MINUTE = 60_000;
export const GAME_MS_PER_HOUR = 3_600_000;
export const GAME_MS_PER_DAY = 86_400_000;
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

/** Whole days since the epoch: day boundaries are game midnights. */
export function dayIndex(gameMs: number): number {
  return Math.floor(gameMs / GAME_MS_PER_DAY);
}

export function minuteOfDay(gameMs: number): number {
  return Math.floor((gameMs - dayIndex(gameMs) * GAME_MS_PER_DAY) / GAME_MS_PER_MINUTE);
}

export function gameMsAt(day: number, minute: number): number {
  return day * GAME_MS_PER_DAY + minute * GAME_MS_PER_MINUTE;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Fri 13 Feb 2026, 07:42". */
export function formatGameTime(gameMs: number): string {
  const d = new Date(gameMs);
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hh}:${mm}`;
}

/** "07:42". */
export function formatClock(minute: number): string {
  const m = ((minute % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}
