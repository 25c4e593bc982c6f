// Behaviour does not change under a refactor (issue 47): a seeded lockstep day of the shipped town on the
// offline mind gives the event log, memories and replay states the golden file recorded from the code
// before, hour by hour; the Valentine's scenario gives the same report at seed 1 (seeds 1..10 with
// SLOW_TESTS=1). The controls show the comparison fails on a probe change: one event altered in the
// recorded log, another seed's run, one figure of the report changed.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  digestDay,
  DAY,
  figuresOf,
  firstDifferentHour,
  readGolden,
  recordDay,
  runValentines,
  type DayDigest,
  type Golden,
  type RecordedDay,
} from '../fixtures/equivalence';
import type { Report } from '../../server/src/analysis/report';

const SEEDS = process.env.SLOW_TESTS === '1' ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : [1];

describe('the same behaviour as the golden file', () => {
  let golden: Golden;
  let day: RecordedDay;
  let digest: DayDigest;
  const reports = new Map<number, Report>();

  beforeAll(async () => {
    golden = readGolden();
    day = await recordDay();
    digest = digestDay(day);
  }, 60_000);

  it('gives the lockstep day the golden file recorded: its log, memories and replay, hour by hour', () => {
    expect(firstDifferentHour(digest, golden.day), 'the first game hour that differs').toBeNull();
    expect(digest).toEqual(golden.day);
  });

  it.each(SEEDS)(
    "gives the Valentine's figures of seed %i",
    async (seed) => {
      const want = golden.valentines.seeds[seed];
      expect(want, `the golden file holds seed ${seed}`).toBeDefined();
      const report = await runValentines(seed, golden.valentines.days);
      reports.set(seed, report);
      expect(figuresOf(report)).toEqual(want);
    },
    60_000,
  );

  it('control: one event altered in the recorded log (one memory one point more important) is caught, in its hour', () => {
    const at = day.events.findIndex((e) => e.kind === 'memory.created' && e.gameMs > day.startGameMs + 5 * 3_600_000);
    const e = day.events[at];
    if (e.kind !== 'memory.created') throw new Error('no memory.created event after the fifth hour');
    const events = day.events.with(at, { ...e, data: { ...e.data, importance: e.data.importance + 1 } });
    const probed = digestDay({ ...day, events });
    expect(probed.log).not.toBe(golden.day.log);
    const hour = Math.floor((e.gameMs - day.startGameMs) / 3_600_000);
    expect(firstDifferentHour(probed, golden.day)).toBe(golden.day.byHour[hour].from);
  });

  it('control: another seed lives its second hour differently (the log of 07:00 to 08:00, which names no seed)', async () => {
    const other = digestDay(await recordDay(DAY.seed + 1, 2), DAY.seed + 1);
    expect(other.byHour[1].from).toBe(golden.day.byHour[1].from);
    expect(other.byHour[1].log).not.toBe(golden.day.byHour[1].log);
  }, 30_000);

  it("control: one figure of seed 1's report changed is caught", () => {
    const report = reports.get(1)!;
    const [party, ...rest] = report.topics;
    const probed = { ...report, topics: [{ ...party, aware_end: party.aware_end - 1 }, ...rest] };
    expect(figuresOf(report)).toEqual(golden.valentines.seeds[1]);
    expect(figuresOf(probed)).not.toEqual(golden.valentines.seeds[1]);
    expect(figuresOf(probed).report).not.toBe(golden.valentines.seeds[1].report);
  });
});
