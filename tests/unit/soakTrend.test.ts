// The soak's RSS trend (bench/soak.ts trendWithoutDayShape): growth from day to day, not the day's own shape.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { slope, trendWithoutDayShape } from '../../bench/soak';

type Trace = Array<[number, number]>;

/** A day like the soak's: low after the night's collection (at `collectedAt` o'clock), rising by `height` MB until the next. */
function sawtoothDays(days: number, height: number, growthPerDay: number, noise = 0, collectedAt = 3): Trace {
  const trace: Trace = [];
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5) * 2;
  for (let h = 24; h < 24 + 24 * days; h += 1 / 30) {
    const sinceCollection = (((h - collectedAt) % 24) + 24) % 24;
    trace.push([h, 450 + (height * sinceCollection) / 24 + ((h - 24) * growthPerDay) / 24 + noise * random()]);
  }
  return trace;
}

const pctPerDay = (perHour: number, trace: Trace) => (100 * 24 * perHour) / (trace.reduce((a, [, y]) => a + y, 0) / trace.length);
const plain = (trace: Trace) =>
  slope(
    trace.map(([h]) => h),
    trace.map(([, y]) => y),
  );

describe("the soak's RSS trend", () => {
  it('finds no growth in a day that repeats, where a plain least-squares line finds its height over the days squared', () => {
    for (const days of [2, 3, 5]) {
      for (const collectedAt of [0, 3, 7]) {
        const flat = sawtoothDays(days, 200, 0, 15, collectedAt);
        expect(Math.abs(trendWithoutDayShape(flat) * 24)).toBeLessThan(2);
      }
      // The control: the plain line over the same whole days counts the day's shape as growth, A/N² a day.
      const aligned = sawtoothDays(days, 200, 0, 0, 0);
      expect(plain(aligned) * 24).toBeCloseTo(200 / days ** 2, -0.5);
    }
    // Over the two days after the first (a 72-hour soak), that is 9 % a day of a mean like the soak's.
    const twoDays = sawtoothDays(2, 200, 0, 15, 0);
    expect(pctPerDay(plain(twoDays), twoDays)).toBeGreaterThan(8);
  });

  it('finds growth from day to day whatever the day looks like', () => {
    for (const [days, growth] of [
      [2, 30],
      [3, 60],
      [4, -20],
    ]) {
      const trace = sawtoothDays(days, 200, growth, 15);
      expect(trendWithoutDayShape(trace) * 24).toBeCloseTo(growth, -0.5);
    }
  });

  it('cannot tell a trend from one day of samples', () => {
    expect(trendWithoutDayShape(sawtoothDays(1, 200, 30))).toBeNaN();
  });

  it('on a recorded soak of 72 game hours (tests/fixtures/soak72h-rss.json): flat within 5 % a day, and 8 % a day of growth added to it is seen', () => {
    const soak = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/soak72h-rss.json'), 'utf8')) as { rssTrace: Trace };
    const days2and3 = soak.rssTrace.filter(([h]) => h >= 24 && h < 72);
    // Three samples a game hour are kept in the file (every tenth of the soak's).
    expect(days2and3.length).toBeGreaterThan(130);
    const trend = pctPerDay(trendWithoutDayShape(days2and3), days2and3);
    expect(trend).toBeLessThan(5);
    // The figure the soak reported then, with the day's shape in it: 9.0 %.
    expect(pctPerDay(plain(days2and3), days2and3)).toBeGreaterThan(8);
    // Controls: the same run with 8 % of its mean added a day, and with its days put in the other order.
    const mean = days2and3.reduce((a, [, y]) => a + y, 0) / days2and3.length;
    const grown: Trace = days2and3.map(([h, y]) => [h, y + (0.08 * mean * (h - 24)) / 24]);
    expect(pctPerDay(trendWithoutDayShape(grown), grown)).toBeGreaterThan(trend + 7);
    const swapped: Trace = days2and3.map(([h, y]) => [h < 48 ? h + 24 : h - 24, y]);
    expect(pctPerDay(trendWithoutDayShape(swapped), swapped)).toBeCloseTo(-trend, 0);
  });
});
