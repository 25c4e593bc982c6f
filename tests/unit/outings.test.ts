// Going out (agent/outings.ts): free time at home is spent now and then at one of the town's haunts, by a
// seeded decision logged like the other social draws; a task at home, the day's first and last blocks, and a
// town with no haunts keep the routine as it is.
import { describe, expect, it } from 'vitest';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonas, type Persona } from '../../server/src/world/persona';
import { planFromRoutine } from '../../server/src/agent/offlinePlanning';
import { atHaunt, hauntsOf, isIdle, OUTING_PARAMETERS } from '../../server/src/agent/outings';
import type { SocialDecision } from '../../server/src/agent/socialModel';

const map = loadTownMap('maps/town.tmj');
const personas = loadPersonas('personas', map);
const isabella = personas.find((p) => p.id === 'isabella')!;
const FEB13 = Math.floor(Date.UTC(2026, 1, 13) / 86_400_000);

/** Isabella on her day off, neither sociable nor reserved: free at home from 09:00 to 12:00 and from 14:00 to 19:00. */
const dayOff: Persona = {
  ...isabella,
  innate: ['patient', 'organised'],
  routine: [
    { at: '06:00', activity: 'waking up and getting ready', place: 'home: bathroom', emoji: '🚿' },
    { at: '09:00', activity: 'spending time at home', place: 'home: living room: sofa', emoji: '🏠' },
    { at: '12:00', activity: 'doing the accounts at home', place: 'home: living room', emoji: '🧾' },
    { at: '14:00', activity: 'relaxing at home', place: 'home: living room: sofa', emoji: '🛋️' },
    { at: '19:00', activity: 'relaxing at home', place: 'home: living room: sofa', emoji: '🛋️' },
  ],
};

describe('free time', () => {
  it('is idleness with no task of its own, in any of the usual words', () => {
    for (const a of ['spending time at home', 'Relaxing at home', 'relaxing', 'winding down at home', 'unwinding', 'taking it easy', 'resting at home'])
      expect(isIdle(a), a).toBe(true);
    for (const a of ['painting at home', 'reading poetry', 'having dinner', 'watching TV', 'doing the accounts at home', 'spending time at the cafe'])
      expect(isIdle(a), a).toBe(false);
  });
});

describe("the town's haunts", () => {
  const haunts = hauntsOf(personas, map);

  it('are the arenas two or more routines go to that are nobody’s home, most visited first', () => {
    expect(haunts.map((h) => h.address)).toContain('Hobbs Cafe: cafe');
    expect(haunts.every((h) => h.visitors >= 2)).toBe(true);
    const homes = new Set(personas.map((p) => p.home));
    expect(haunts.some((h) => homes.has(h.sector))).toBe(false);
    expect(haunts.map((h) => h.visitors)).toEqual([...haunts.map((h) => h.visitors)].sort((a, b) => b - a));
  });

  it('need two residents: a place only one routine goes to is not one', () => {
    expect(hauntsOf([isabella], map)).toEqual([]);
  });

  it('include an object at one, not a place with a longer name', () => {
    expect(atHaunt('Hobbs Cafe: cafe: counter', haunts)).toBe(true);
    expect(atHaunt('Hobbs Cafe: cafe', haunts)).toBe(true);
    expect(atHaunt('Hobbs Cafe: kitchen', haunts)).toBe(false);
  });
});

describe('going out', () => {
  const haunts = hauntsOf(personas, map);

  it('sends a resident out in some free blocks over a month, to a haunt, inside the block, and logs each decision', () => {
    const decided: SocialDecision[] = [];
    let outings = 0;
    for (let day = FEB13; day < FEB13 + 30; day++) {
      const plan = planFromRoutine(dayOff, map, 7, day, [], (d) => decided.push(d), haunts);
      for (const a of plan.actions.filter((x) => x.emoji === '🚶')) {
        outings++;
        expect(haunts.some((h) => atHaunt(a.address, [h]))).toBe(true);
        const inMorning = a.startMinute >= 9 * 60 && a.startMinute + a.durationMinutes <= 12 * 60;
        const inAfternoon = a.startMinute >= 14 * 60 && a.startMinute + a.durationMinutes <= 19 * 60;
        expect(inMorning || inAfternoon, `${a.description} at ${a.startMinute}`).toBe(true);
      }
    }
    // Two free blocks a day (the last one is bedtime's: not free), each decided once a day.
    expect(decided.filter((d) => d.decision === 'outing')).toHaveLength(60);
    const chosen = decided.filter((d) => d.chose).length;
    expect(chosen).toBeGreaterThan(60 * OUTING_PARAMETERS.outingBase * 0.6);
    expect(chosen).toBeLessThan(60);
    expect(outings).toBeGreaterThanOrEqual(chosen);
    // A sociable resident goes out more often: with the base chance, in every free block.
    const sociable = { ...dayOff, innate: ['outgoing'] };
    const out = (p: Persona) =>
      [...Array(30).keys()].filter((d) => planFromRoutine(p, map, 7, FEB13 + d, [], undefined, haunts).actions.some((a) => a.emoji === '🚶')).length;
    expect(out(sociable)).toBeGreaterThanOrEqual(out(dayOff));
    expect(out({ ...dayOff, innate: ['shy'] })).toBeLessThan(out(sociable));
  });

  it('never replaces a task at home, the first block or the last, and changes nothing in a town with no haunts', () => {
    for (let day = FEB13; day < FEB13 + 10; day++) {
      const plan = planFromRoutine(dayOff, map, 7, day, [], undefined, haunts);
      const at = (minute: number) => plan.actions.find((a) => a.startMinute <= minute && minute < a.startMinute + a.durationMinutes)!;
      expect(at(12 * 60 + 30).emoji).not.toBe('🚶');
      expect(at(6 * 60 + 10).address.startsWith(dayOff.home)).toBe(true);
      expect(at(20 * 60).address.startsWith(dayOff.home)).toBe(true);
      expect(planFromRoutine(dayOff, map, 7, day, [], undefined, [])).toEqual(planFromRoutine(dayOff, map, 7, day));
    }
  });

  it('is the same for the same seed and differs between seeds', () => {
    const plans = (seed: number) => [0, 1, 2, 3, 4].map((d) => JSON.stringify(planFromRoutine(dayOff, map, seed, FEB13 + d, [], undefined, haunts).actions));
    expect(plans(3)).toEqual(plans(3));
    expect(plans(3)).not.toEqual(plans(4));
  });
});
