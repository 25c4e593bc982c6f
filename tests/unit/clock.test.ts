import { describe, expect, it } from 'vitest';
import { SimClock } from '../../server/src/sim/clock';
import { dayIndex, minuteOfDay, formatGameTime, gameMsAt, formatClock } from '../../server/src/protocol/time';
import { Rng } from '../../server/src/sim/rng';

const START = Date.UTC(2026, 1, 13, 6, 0);

describe('SimClock', () => {
  it('runs one game minute per real second by default rate 60', () => {
    const clock = new SimClock({ gameMs: START, rate: 60, paused: false });
    clock.advance(1000);
    expect(clock.gameMs - START).toBe(60_000);
  });

  it('stands still while paused or held, and resumes', () => {
    const clock = new SimClock({ gameMs: START, rate: 60, paused: false });
    clock.pause();
    clock.advance(5000);
    expect(clock.gameMs).toBe(START);
    clock.resume();
    clock.advance(1000, true);
    expect(clock.gameMs).toBe(START);
    clock.advance(1000);
    expect(clock.gameMs).toBe(START + 60_000);
  });

  it('changes rate and refuses a nonsensical one', () => {
    const clock = new SimClock({ gameMs: START, rate: 60, paused: false });
    clock.setRate(600);
    clock.advance(100);
    expect(clock.gameMs - START).toBe(60_000);
    expect(() => clock.setRate(0)).toThrow(/positive/);
    expect(() => clock.setRate(Number.NaN)).toThrow(/positive/);
  });

  it('round-trips its state', () => {
    const clock = new SimClock({ gameMs: START, rate: 120, paused: true });
    expect(new SimClock(clock.getState()).getState()).toEqual(clock.getState());
  });

  it('splits game time into days and minutes and formats it', () => {
    expect(minuteOfDay(START)).toBe(360);
    expect(gameMsAt(dayIndex(START), 360)).toBe(START);
    expect(formatGameTime(START + 42 * 60_000)).toBe('Fri 13 Feb 2026, 06:42');
    expect(formatClock(17 * 60 + 5)).toBe('17:05');
  });
});

describe('Rng', () => {
  it('is deterministic per seed and key, and different across keys', () => {
    const a = Rng.fromKey(1, 'isabella', 3);
    const b = Rng.fromKey(1, 'isabella', 3);
    const c = Rng.fromKey(1, 'klaus', 3);
    const seqA = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(seqA);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(seqA);
    expect(seqA.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('resumes from a saved state', () => {
    const r = new Rng(42);
    r.next();
    const copy = new Rng(r.getState());
    expect(copy.next()).toBe(r.next());
  });
});
