// Issue 47: one English person-rewriter. The Smallville importer's whispers ("You and Rajiv Patel are housemates")
// are put in the third person by the town's report (agent/grammar.ts), told to the resident with no speaker, later
// references by first name; scripts/smallville/english.ts thirdPerson is a call to it. The controls show what the
// importer's style changes: without it, the same line comes out as the town's reports would say it.
import { describe, expect, it } from 'vitest';
import { report, THEY, type ReportStyle } from '../../server/src/agent/grammar';
import { thirdPerson, thirdPersonText } from '../../scripts/smallville/english';

const WHISPER: ReportStyle = { later: 'first name', aboutListener: true };
const abigail = { name: 'Abigail Chen', pronouns: THEY };
const told = (line: string, style: ReportStyle = WHISPER) => report(line, undefined, abigail, style);

describe('one rewriter for the town and the importer', () => {
  it('puts a whisper in the third person through report(): full name first, then the first name, "you two" as "the two of them"', () => {
    const line = 'You and Rajiv Patel are housemates and have known each other for about a year and you two are somewhat close';
    const said = 'Abigail Chen and Rajiv Patel are housemates and have known each other for about a year and the two of them are somewhat close';
    expect(told(line)).toBe(said);
    expect(thirdPerson(line, 'Abigail Chen')).toBe(said);
    expect(told('You two are close; your sister says you work too hard')).toBe("The two of them are close; Abigail Chen's sister says Abigail works too hard");
    expect(told('Rajiv Patel is your housemate whom you have known for a year')).toBe(
      "Rajiv Patel is Abigail Chen's housemate whom Abigail has known for a year",
    );
    // A verb the tagger reads as an adjective, after adverbs; infinitives joined by "and" stay as they are.
    expect(told('For planning, you sometimes frequent Hobbs Cafe to work and think')).toBe(
      'For planning, Abigail Chen sometimes frequents Hobbs Cafe to work and think',
    );
    expect(told("You'd rather stay")).toBe('Abigail Chen would rather stay');
  });

  it('leaves a sentence without "you" as it is', () => {
    for (const line of ['Ada Quill bakes the rye.', 'I think Sam is kind and nice.']) {
      expect(told(line)).toBe(line);
      expect(thirdPerson(line, 'Abigail Chen')).toBe(line);
      expect(thirdPersonText(line, 'Abigail Chen')).toBe(line);
    }
  });

  it('control: without the importer\'s style, report() says the same lines as the town\'s reports do (pronouns, no "you two")', () => {
    expect(told('You two are close', {})).toBe('Abigail Chen two are close');
    expect(told('You two are close', {})).not.toBe('The two of them are close');
    expect(told('Rajiv Patel is your housemate whom you have known for a year', {})).toBe(
      "Rajiv Patel is Abigail Chen's housemate whom they have known for a year",
    );
    // The importer's first-name style alone does not read "you two".
    expect(told('You two are close', { later: 'first name' })).not.toBe('The two of them are close');
  });
});
