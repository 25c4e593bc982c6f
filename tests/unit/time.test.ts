// Game time in addresses: a moment written for a link reads back as the same moment, to the millisecond.
import { describe, expect, it } from 'vitest';
import { formatIsoMinute, formatIsoMoment, parseIsoMinute, parseIsoMoment } from '../../server/src/protocol/time';

describe('moments in addresses', () => {
  const t = Date.UTC(2026, 1, 14, 17, 0);

  it('are written to the minute, with seconds or milliseconds only when the moment has them', () => {
    expect(formatIsoMoment(t)).toBe('2026-02-14T17:00');
    expect(formatIsoMoment(t + 23_000)).toBe('2026-02-14T17:00:23');
    expect(formatIsoMoment(t + 23_250)).toBe('2026-02-14T17:00:23.250');
    expect(formatIsoMinute(t + 23_250)).toBe('2026-02-14T17:00');
  });

  it('read back as the very moment they were written for', () => {
    for (const ms of [t, t + 23_000, t + 23_250, t + 1, t - 1, t + 59_999]) expect(parseIsoMoment(formatIsoMoment(ms))).toBe(ms);
    expect(parseIsoMoment('2026-02-14T17:00')).toBe(parseIsoMinute('2026-02-14T17:00'));
  });

  it('are refused when they are not moments', () => {
    for (const text of ['2026-02-14', '2026-02-14T17', '2026-02-14T17:00Z', '17:00', '2026-02-14T17:00:5', 'yesterday', ''])
      expect(parseIsoMoment(text)).toBeNull();
  });
});
