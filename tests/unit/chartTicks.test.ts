// The analysis page's time axes (client/src/analysis/charts.ts): ticks on whole game hours, as many as
// the axis's width has room for, so that their labels never run together at 1024 px or on a phone.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TICK_SPACING_PX, tickStepHours } from '../../client/src/analysis/charts';

const HOUR = 3_600_000;
const ticks = (min: number, max: number, stepHours: number) => Math.floor(max / (stepHours * HOUR)) - Math.ceil(min / (stepHours * HOUR)) + 1;

describe('time axis ticks', () => {
  it('fits every tick label in the axis width, for any window and width', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1000 }), fc.integer({ min: 1, max: 24 * 30 }), fc.integer({ min: 200, max: 2400 }), (startH, spanH, width) => {
        const min = startH * HOUR;
        const max = min + spanH * HOUR;
        const step = tickStepHours(min, max, width);
        expect(ticks(min, max, step) * TICK_SPACING_PX).toBeLessThanOrEqual(Math.max(2, Math.floor(width / TICK_SPACING_PX)) * TICK_SPACING_PX);
        expect(step).toBeGreaterThanOrEqual(1);
      }),
    );
  });

  it('uses the room it has: an hour apart over a morning on a wide axis, further apart on a narrow one', () => {
    expect(tickStepHours(6 * HOUR, 12 * HOUR, 1400)).toBe(1);
    expect(tickStepHours(6 * HOUR, 12 * HOUR, 300)).toBeGreaterThan(1);
    expect(tickStepHours(0, 24 * HOUR, 460)).toBe(6);
  });

  it('control: the old rule (at most about ten ticks whatever the width) overflows a 1024 px page’s half-width chart', () => {
    // The old axis put a tick every 1, 3, 6, 12 or 24 hours, the first with at most 10 ticks: 9.6 h, 10 ticks.
    const old = [1, 3, 6, 12, 24].find((h) => 9.6 / h <= 10)!;
    const width = 460;
    expect(ticks(6 * HOUR, 15.6 * HOUR, old) * TICK_SPACING_PX).toBeGreaterThan(width);
    expect(ticks(6 * HOUR, 15.6 * HOUR, tickStepHours(6 * HOUR, 15.6 * HOUR, width)) * TICK_SPACING_PX).toBeLessThanOrEqual(width);
  });
});
