// The meaning reader (server/src/agent/meaning.ts): each family of phrasing read to the same structure,
// with controls that must not be read as one.
import { describe, expect, it } from 'vitest';
import { readClock, readDay, readMeaning } from '../../server/src/agent/meaning';
import { rateImportanceHeuristically } from '../../server/src/agent/offlineImportance';
import { isSecret } from '../../server/src/agent/socialModel';

describe('reading a gathering from any host verb and noun', () => {
  const gatherings: Array<[string, string, string | null]> = [
    ["Isabella Rivera is throwing a Valentine's Day party at Hobbs Cafe on February 14 at 5pm.", "Valentine's Day party", 'Isabella Rivera'],
    ['Marek Kowalski is planning a quiz night at the pub on Saturday at 8pm.', 'quiz night', 'Marek Kowalski'],
    ['Ruth runs a book club at the library every Thursday at 7pm.', 'book club', 'Ruth'],
    ['Samira is organising a protest outside Town Hall on Friday at noon.', 'protest', 'Samira'],
    ['Kenji is holding a flower sale at the market tomorrow at 10 a.m.', 'flower sale', 'Kenji'],
    ['Rosa is hosting a farewell dinner at the bistro tonight at seven o’clock.', 'farewell dinner', 'Rosa'],
    ["Rosa's wedding is at the chapel on June 3 at 2pm.", 'wedding', 'Rosa'],
    ['The book club meets at the library on Thursday at 7pm.', 'book club', null],
    ['A protest against the new car park will be held outside Town Hall on Friday at noon.', 'protest', null],
    ['There will be a farewell dinner for Rosa at the bistro tomorrow at 7pm.', 'farewell dinner', null],
    ['Claire plans to go to the party at Hobbs Cafe on February 14 at 5pm, as Isabella Rivera invited her.', 'party', 'Isabella Rivera'],
  ];
  it.each(gatherings)('%s', (text, kind, host) => {
    const g = readMeaning(text).gathering;
    expect(g).toMatchObject({ kind, host, placed: true, past: false });
  });

  it('reads no gathering where none is put on (controls)', () => {
    for (const text of [
      'Tomas Varga is running for mayor in the town election on March 1.',
      'Samira is planning to stock flowers at the shop on Saturday at 9am.',
      'Hana is having lunch at Hobbs Cafe at noon tomorrow.',
      'Omar Haddad is stacking shelves.',
      'Isabella runs Hobbs Cafe.',
    ])
      expect(readMeaning(text).gathering, text).toBeNull();
  });

  it('reads the past tense as over, and a gathering with no time as unplaced', () => {
    expect(readMeaning('Ana threw a birthday party at the pub on March 2 at 8pm.').gathering).toMatchObject({ past: true });
    expect(readMeaning('Marek is planning a quiz night at the pub on Saturday.').gathering).toMatchObject({ kind: 'quiz night', placed: false });
  });
});

describe('reading the audience', () => {
  it('open in the usual phrasings', () => {
    for (const text of [
      'Isabella Rivera is throwing a party at Hobbs Cafe on February 14 at 5pm, and wants to invite everyone she meets.',
      'Ruth runs a book club at the library on Thursday at 7pm; anyone who likes books is welcome to join.',
      'Kenji is holding a flower sale at the market tomorrow at 10am; all are welcome.',
      'Samira is organising a protest outside Town Hall on Friday at noon, open to the whole town.',
      'Rosa is hosting a farewell dinner at the bistro tonight at 7pm and wants everyone she meets to come.',
    ]) {
      expect(readMeaning(text).gathering?.audience, text).toBe('open');
      expect(readMeaning(text).open, text).toBe(true);
    }
  });
  it('invited only in the usual phrasings, unspecified when it says nothing (control)', () => {
    for (const text of [
      "Rosa's wedding is at the chapel on June 3 at 2pm; it is invitation only.",
      'Leo is throwing a private party at the pub on Saturday at 9pm.',
      'Nadia is hosting a dinner at the bistro on Friday at 7pm, just for close friends.',
    ])
      expect(readMeaning(text).gathering?.audience, text).toBe('invited');
    expect(readMeaning('Marek is planning a quiz night at the pub on Saturday at 8pm.').gathering?.audience).toBe('unspecified');
  });
});

describe('reading a secret', () => {
  const secrets = [
    'Tomas Varga is running for mayor, and has told no one yet.',
    'Tomas Varga is running for mayor and has not mentioned it to anyone yet.',
    "Tomas Varga is running for mayor but hasn't told anyone.",
    'Tomas Varga is running for mayor and is keeping it quiet for now.',
    'Between us, Tomas Varga is running for mayor.',
    'Tomas Varga is running for mayor, but it is a secret.',
    'Tomas Varga is running for mayor and is keeping it to himself.',
    "Tomas Varga is running for mayor; he hasn't said a word to anybody.",
  ];
  it.each(secrets)('%s', (text) => expect(isSecret(text)).toBe(true));
  it('reads no secret in news told openly or negations of something else (controls)', () => {
    for (const text of [
      'Tomas Varga is running for mayor.',
      'Tomas Varga is running for mayor and has told everyone.',
      'Tomas Varga has not decided whether to run for mayor.',
      'Tomas Varga mentioned it to anyone who would listen.',
      'Ruth cannot find her glasses.',
    ])
      expect(isSecret(text), text).toBe(false);
  });
  it('rates each wording of the same secret alike', () => {
    const ratings = new Set(secrets.map((s) => rateImportanceHeuristically(s)));
    expect([...ratings]).toHaveLength(1);
  });
});

describe('importance from meaning, the same for any wording', () => {
  it('rates gatherings in other words as it rates the party, and more than a routine line', () => {
    const heard = Date.UTC(2026, 1, 13, 6, 0);
    const party = rateImportanceHeuristically("Isabella Rivera is throwing a Valentine's Day party at Hobbs Cafe on February 14 at 5pm.", undefined, heard);
    for (const text of [
      'Ruth Bennett runs a book club at the library on February 14 at 7pm.',
      'Rosa Bianchi is hosting a farewell dinner at the bistro tomorrow at 7pm.',
      'Samira Haddad is organising a protest outside Town Hall on February 14 at noon.',
    ])
      expect(rateImportanceHeuristically(text, undefined, heard), text).toBe(party);
    expect(rateImportanceHeuristically('Ruth Bennett is reading at the library.', undefined, heard)).toBeLessThan(party - 3);
    // A gathering weeks away is not soon.
    expect(rateImportanceHeuristically('Ruth Bennett runs a book club at the library on March 30 at 7pm.', undefined, heard)).toBe(party - 1);
  });
});

describe('times and days in the usual forms', () => {
  it('reads clock times', () => {
    expect(readClock('at 5pm')).toBe(17 * 60);
    expect(readClock('at 5:30 p.m.')).toBe(17 * 60 + 30);
    expect(readClock('at 10 a.m.')).toBe(10 * 60);
    expect(readClock('at noon')).toBe(12 * 60);
    expect(readClock("at seven o'clock")).toBe(19 * 60);
    expect(readClock("at nine o'clock in the morning")).toBe(9 * 60);
    expect(readClock('at 17:00')).toBe(17 * 60);
    expect(readClock('some day')).toBeNull();
  });
  it('reads days', () => {
    expect(readDay('on February 14')).toEqual({ kind: 'date', month: 1, dayOfMonth: 14 });
    expect(readDay('on the 2nd of March')).toEqual({ kind: 'date', month: 2, dayOfMonth: 2 });
    expect(readDay('tomorrow evening')).toEqual({ kind: 'relative', daysAhead: 1 });
    expect(readDay('tonight')).toEqual({ kind: 'relative', daysAhead: 0 });
    expect(readDay('on Saturdays')).toEqual({ kind: 'weekday', weekday: 6 });
    expect(readDay('some day')).toBeNull();
  });
});
