// "HH:MM" times of day, as written in persona files.

export const CLOCK_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Minutes since midnight of "HH:MM" (24-hour). Throws on anything else. */
export function parseClock(hhmm: string): number {
  const m = CLOCK_PATTERN.exec(hhmm);
  if (!m) throw new Error(`'${hhmm}' is not a time of day (expected HH:MM, 00:00 to 23:59)`);
  return Number(m[1]) * 60 + Number(m[2]);
}
