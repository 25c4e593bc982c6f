// The defect patterns must catch what a reader would stop at (the controls: the defects the issue
// quoted, each caught), and let a well-formed text through.
import { describe, expect, it } from 'vitest';
import { objectMismatch, sympathyToGoodNews, textDefects } from '../../server/src/analysis/defects';

describe('defect patterns', () => {
  it('catches each quoted defect (controls)', () => {
    const bad = [
      'Isabella wants to invite everyone I meets.',
      'I am telling people that me is running.',
      'Sam Moore, their husband, fixes bikes.',
      'Something important about Marek Kowalski: Something important about Marek Kowalski: he runs the pub.',
      'working at Town Hall at Town Hall',
      "Isabella Rivera'll be planning the party.",
    ];
    for (const text of bad) expect(textDefects(text, 'utterance'), text).not.toEqual([]);
    expect(sympathyToGoodNews('Did you hear? Isabella is throwing a party at Hobbs Cafe.', "Oh no, that's worrying.")).toBe(true);
    expect(objectMismatch('watering the flower beds', 'Johnson Park: park: fountain')).toBe(true);
  });

  it('lets well-formed texts through', () => {
    const good = [
      'I want to invite everyone I meet.',
      'Sam Moore, her husband, fixes bikes.',
      'Something important about Marek Kowalski: he runs the pub.',
      'working at Town Hall',
      'Isabella Rivera will be planning the party.',
    ];
    for (const text of good) expect(textDefects(text, 'utterance'), text).toEqual([]);
    expect(sympathyToGoodNews('Did you hear? The bakery is closed after a fire.', "Oh no, that's worrying.")).toBe(false);
    expect(sympathyToGoodNews('Did you hear? Isabella is throwing a party.', 'That sounds fun!')).toBe(false);
    expect(objectMismatch('watering the flower beds', 'Johnson Park: park: garden')).toBe(false);
    expect(objectMismatch('watering the flower beds', 'Johnson Park: park')).toBe(false);
  });
});
