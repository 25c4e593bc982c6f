// "HH:MM" times of day, as written in persona files, and the waking day they describe.
import { dayIndex, minuteOfDay } from '../protocol/time';

export const CLOCK_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

export const MINUTES_PER_DAY = 1440;

/** Minutes since midnight of "HH:MM" (24-hour). Throws on anything else. */
export function parseClock(hhmm: string): number {
  const m = CLOCK_PATTERN.exec(hhmm);
  if (!m) throw new Error(`'${hhmm}' is not a time of day (expected HH:MM, 00:00 to 23:59)`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/**
 * A time of the waking day that starts at `wakeMinute`, in minutes since the midnight before waking:
 * a time earlier than waking is after the next midnight (wake 07:00: "00:30" is 1470, "23:00" is 1380).
 */
export function minuteOfWakingDay(minute: number, wakeMinute: number): number {
  return minute < wakeMinute ? minute + MINUTES_PER_DAY : minute;
}

/**
 * The waking day from wakeAt to sleepAt: a bedtime at or after midnight ("00:30" with wakeAt "07:00")
 * ends the day after midnight, so `sleepMinute` may exceed 1440. Equal times are not a day.
 */
export function wakingDay(wakeAt: string, sleepAt: string): { wakeMinute: number; sleepMinute: number } {
  const wakeMinute = parseClock(wakeAt);
  return { wakeMinute, sleepMinute: minuteOfWakingDay(parseClock(sleepAt), wakeMinute) };
}

/**
 * Which day's plan and which minute of it are in force at (`day`, `minute` of the day) for someone who
 * wakes at `wakeMinute` and sleeps at `sleepMinute` (both 0-1439, as in a ResidentSpec): after midnight
 * and before a bedtime past midnight it is still the previous day, at minute 1440 + minute.
 */
export function wakingDayAt(day: number, minute: number, wakeMinute: number, sleepMinute: number): { day: number; minute: number } {
  return sleepMinute < wakeMinute && minute < sleepMinute ? { day: day - 1, minute: minute + MINUTES_PER_DAY } : { day, minute };
}

/** The plan day and its minute in force at a game time, for someone with these waking hours (see wakingDayAt). */
export function planMomentAt(gameMs: number, wakeMinute: number, sleepMinute: number): { day: number; minute: number } {
  return wakingDayAt(dayIndex(gameMs), minuteOfDay(gameMs), wakeMinute, sleepMinute);
}
