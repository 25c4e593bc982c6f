// Game time, shared by the server and the client. Game time is ms since the Unix epoch of the simulated
// calendar, read with UTC functions, so a day boundary is the same everywhere.

export const GAME_MS_PER_MINUTE = 60_000;
export const GAME_MS_PER_HOUR = 3_600_000;
export const GAME_MS_PER_DAY = 86_400_000;

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

/** "Fri 13 Feb 2026". */
export function formatGameDate(gameMs: number): string {
  const d = new Date(gameMs);
  return `${WEEKDAYS[d.getUTCDay()]} ${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

/** "Fri 13 Feb 2026, 07:42". */
export function formatGameTime(gameMs: number): string {
  return `${formatGameDate(gameMs)}, ${formatClock(minuteOfDay(gameMs))}`;
}

/** "07:42" for a minute of the day. */
export function formatClock(minute: number): string {
  const m = ((minute % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** "2026-02-14T17:00": the form a moment takes in a URL (`?t=`) and in START_TIME. */
export function formatIsoMinute(gameMs: number): string {
  return new Date(gameMs).toISOString().slice(0, 16);
}

/**
 * A moment for an address: "2026-02-14T17:00", with ":SS" or ":SS.mmm" only when the moment is not on a
 * whole minute, so that a shared link names exactly the moment it was made at.
 */
export function formatIsoMoment(gameMs: number): string {
  const iso = new Date(Math.round(gameMs)).toISOString();
  if (iso.slice(20, 23) !== '000') return iso.slice(0, 23);
  return iso.slice(17, 19) !== '00' ? iso.slice(0, 19) : iso.slice(0, 16);
}

/** The inverse of formatIsoMoment (minutes, seconds or milliseconds given); null when the text is not such a moment. */
export function parseIsoMoment(text: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2})(:\d{2}(\.\d{1,3})?)?$/.exec(text);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}${m[2] ?? ':00'}Z`);
  return Number.isFinite(ms) ? ms : null;
}

/** The inverse of formatIsoMinute; null when the text is not such a moment. */
export function parseIsoMinute(text: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(text)) return null;
  const ms = Date.parse(`${text}:00Z`);
  return Number.isFinite(ms) ? ms : null;
}
