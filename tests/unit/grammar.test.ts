// The person-and-number layer (agent/grammar.ts, through agent/voice.ts): retold news, second-hand plans
// and relationships come out in the right person, number and possessive. Each case keeps the rendering
// the offline mind gave before this layer; the controls show that rendering fails the same check, and
// that the defect scan (analysis/defects.ts) stops at it where a pattern can tell from the text alone.
import { describe, expect, it } from 'vitest';
import { addressing, firstPerson, ownVoice, thirdPerson } from '../../server/src/agent/voice';
import { HE, pronounsOf, report, SHE, takenUp, THEY, townCast, type Cast } from '../../server/src/agent/grammar';
import { knownPersonAsThey, textDefects } from '../../server/src/analysis/defects';

const TOWN = ['Isabella Rivera', 'Klaus Mueller', 'Maria Lopez', 'Sam Moore', 'Tomas Varga', 'Omar Haddad', 'Kenji Tanaka', 'Claire Moreau'];
const others = (self: string): string[] => TOWN.filter((n) => n !== self);

interface Case {
  what: string;
  render: () => string;
  after: string;
  /** What the offline mind said before the layer (agent/voice.ts as of main before this change). */
  before: string;
}

const CASES: Case[] = [
  {
    what: 'the speaker named again later is "I", not "me", and the verb agrees',
    render: () => firstPerson('Tomas Varga is running for mayor and is telling people that Tomas is running.', 'Tomas Varga', others('Tomas Varga')),
    after: 'I am running for mayor and am telling people that I am running.',
    before: 'I am running for mayor and am telling people that me is running.',
  },
  {
    what: 'a second clause led by the speaker',
    render: () => firstPerson('Tomas is running for mayor, and Tomas has told no one yet.', 'Tomas Varga', others('Tomas Varga')),
    after: 'I am running for mayor, and I have told no one yet.',
    before: 'I am running for mayor, and me has told no one yet.',
  },
  {
    what: "the speaker as the subject of someone else's clause",
    render: () => firstPerson('Klaus thinks Isabella runs the best cafe in town.', 'Isabella Rivera', others('Isabella Rivera')),
    after: 'Klaus thinks I run the best cafe in town.',
    before: 'Klaus thinks me runs the best cafe in town.',
  },
  {
    what: '"her" is the speaker\'s when the other person named is a "he"',
    render: () => firstPerson('Maria Lopez is married to Sam Moore; Sam is her husband.', 'Maria Lopez', others('Maria Lopez')),
    after: 'I am married to Sam Moore; Sam is my husband.',
    before: 'I am married to Sam Moore; Sam is her husband.',
  },
  {
    what: '"a friend of mine", and her cafe is mine',
    render: () => firstPerson('Klaus is a friend of Isabella who often visits her cafe.', 'Isabella Rivera', others('Isabella Rivera')),
    after: 'Klaus is a friend of mine who often visits my cafe.',
    before: 'Klaus is a friend of me who often visits her cafe.',
  },
  {
    what: 'the listener named in a sentence is "you", with a verb that agrees',
    render: () => addressing('Isabella thinks Klaus is the best baker in town.', 'Klaus Mueller', TOWN),
    after: 'Isabella thinks you are the best baker in town.',
    before: 'Isabella thinks you is the best baker in town.',
  },
  {
    what: 'the listener as the subject after "and"',
    render: () => addressing('Isabella Rivera is throwing a party for Klaus and Klaus has no idea.', 'Klaus Mueller', TOWN),
    after: 'Isabella Rivera is throwing a party for you and you have no idea.',
    before: 'Isabella Rivera is throwing a party for you and you has no idea.',
  },
  {
    what: 'a second-hand plan: a modal never takes an -s',
    render: () => thirdPerson('I will be stocking the shelves at Corner Shop.', 'Omar Haddad', HE),
    after: 'Omar Haddad will be stocking the shelves at Corner Shop.',
    before: 'Omar Haddad will be Omar Haddad wills be stocking the shelves at Corner Shop.',
  },
  {
    what: 'a second-hand plan keeps the possessive of a person known as "he"',
    render: () => thirdPerson('I will be writing my book at Oak Hill College.', 'Kenji Tanaka', HE),
    after: 'Kenji Tanaka will be writing his book at Oak Hill College.',
    before: 'Kenji Tanaka will be writing their book at Oak Hill College.',
  },
  {
    what: 'every "I" of the line, with its verb',
    render: () => thirdPerson('I am planning my party and I want everyone to come.', 'Isabella Rivera', SHE),
    after: 'Isabella Rivera is planning her party and she wants everyone to come.',
    before: 'Isabella Rivera is planning their party and I wants everyone to come.',
  },
  {
    what: 'a line a model wrote, heard second-hand: the teller\'s "I" is the teller, the listener\'s "your" theirs',
    render: () => report("I'm running for mayor and I want your vote.", { name: 'Tomas Varga', pronouns: HE }, { name: 'Klaus Mueller', pronouns: HE }),
    after: "Tomas Varga is running for mayor and he wants Klaus Mueller's vote.",
    // Kept as said, the line was retold as the listener's own: "Tomas told me that I'm running for mayor".
    before: "I'm running for mayor and I want your vote.",
  },
  {
    what: "an activity keeps another person's things and takes the doer's",
    render: () => `${ownVoice('helping Klaus with his research', TOWN)} / ${ownVoice('helping Sam with her garden', TOWN)}`,
    after: 'helping Klaus with his research / helping Sam with my garden',
    before: 'helping Klaus with his research / helping Sam with her garden',
  },
];

describe('the person-and-number layer', () => {
  for (const c of CASES)
    it(c.what, () => {
      expect(c.render()).toBe(c.after);
    });

  it('fails each case on the old rendering (controls), and the defect scan stops at the old one where the text alone tells', () => {
    for (const c of CASES) expect(c.before, c.what).not.toBe(c.after);
    const scanned = CASES.filter((c) => textDefects(c.before, 'utterance').length > 0).map((c) => c.what);
    // Eight of the old renderings are caught by a pattern on their own ("me is", "you is", "wills be", "I wants"…); no new one is.
    expect(scanned.length).toBe(8);
    for (const c of CASES) expect(textDefects(c.after, 'utterance'), c.after).toEqual([]);
    const known = new Map([['Kenji Tanaka', HE]]);
    expect(knownPersonAsThey('Kenji Tanaka will be writing their book at Oak Hill College.', known)).toBe(true);
    expect(knownPersonAsThey('Kenji Tanaka will be writing his book at Oak Hill College.', known)).toBe(false);
    // Not one person: a plural noun or a second person before "their".
    expect(knownPersonAsThey('Kenji Tanaka will be helping students with their essays.', known)).toBe(false);
    expect(knownPersonAsThey('Kenji Tanaka and Yumi Tanaka will be having their dinner.', known)).toBe(false);
  });

  it('reads a persona\'s pronouns from its own file, and says "they" when the file does not tell', () => {
    const kenji = { name: 'Kenji Tanaka', learned: 'Kenji Tanaka is a professor. He has lived here for thirty years.', lifestyle: 'never misses his tea' };
    const isabella = { name: 'Isabella Rivera', learned: 'Isabella runs the cafe.', currently: 'Isabella wants to invite everyone she meets.' };
    const claire = { name: 'Claire Moreau', learned: 'Claire Moreau is the librarian.', lifestyle: 'Claire reads every evening.' };
    expect(pronounsOf(kenji)).toBe(HE);
    expect(pronounsOf(isabella)).toBe(SHE);
    expect(pronounsOf(claire)).toBe(THEY);
    // The offline mind may guess from a first name compromise knows.
    expect(pronounsOf(claire, true)).toBe(SHE);
    // Other people's news in a revised status does not count.
    const revised = {
      ...kenji,
      learned: 'Kenji Tanaka is a professor.',
      lifestyle: '',
      currently: "Kenji is busy. Still on Kenji's mind from yesterday: Maria said she and her sister are coming.",
    };
    expect(pronounsOf(revised)).toBe(THEY);
  });

  it("uses the cast's pronouns over a guess from the name", () => {
    // "Sam" is a man's name to compromise; this town's Sam is "she", so "her" may be Sam's.
    const cast: Cast = { names: others('Maria Lopez'), pronouns: new Map([['Sam Moore', SHE]]) };
    expect(firstPerson('Maria Lopez works with Sam Moore; Sam loves her garden.', 'Maria Lopez', cast)).toBe('I work with Sam Moore; Sam loves her garden.');
    expect(firstPerson('Maria Lopez works with Sam Moore; Sam loves her garden.', 'Maria Lopez', others('Maria Lopez'))).toBe(
      'I work with Sam Moore; Sam loves my garden.',
    );
  });

  it('agrees negated auxiliaries ("can\'t", "isn\'t", "doesn\'t") as it does the rest', () => {
    expect(firstPerson("Marco can't wait for the school holidays.", 'Marco Carter')).toBe("I can't wait for the school holidays.");
    expect(firstPerson("Marco doesn't like rain, and Marco isn't coming.", 'Marco Carter')).toBe("I don't like rain, and I am not coming.");
    expect(addressing("Isabella knows Klaus isn't coming.", 'Klaus Mueller')).toBe("Isabella knows you aren't coming.");
    expect(thirdPerson("I don't like rain and I'm not coming.", 'Marco Carter', HE)).toBe("Marco Carter doesn't like rain and he is not coming.");
  });

  it('takes up a question put to the agent in its own person', () => {
    expect(takenUp('What would you do if your stove caught fire')).toBe('What would I do if my stove caught fire');
    expect(takenUp('What would you do if you were locked out of your house')).toBe('What would I do if I was locked out of my house');
  });
});

describe("the town's cast (townCast: everyone's names, indexed once, less the speaker)", () => {
  // Two people share a first name, and the speaker is the first of them in the town's list.
  const names = new Map([
    ['ana-lopez', 'Ana Lopez'],
    ['ana-kim', 'Ana Kim'],
    ['bo-chen', 'Bo Chen'],
  ]);
  const SENTENCES = [
    'Ana Lopez met Ana at the cafe, and Bo Chen said she liked her.',
    "Ana is planning Ana Lopez's party with Bo.",
    'Bo Chen told Ana Kim that Ana was late.',
  ];
  const filtered = (self: string) => [...names.values()].filter((n) => n !== self);

  it('names whom the list of the others, made afresh, names; the speaker itself is last (the control: kept where it was)', () => {
    for (const self of names.values())
      for (const s of SENTENCES) {
        expect(firstPerson(s, self, townCast(names, self))).toBe(firstPerson(s, self, filtered(self)));
        expect(ownVoice(s, townCast(names, self))).toBe(ownVoice(s, filtered(self)));
        const listener = self === 'Bo Chen' ? 'Ana Kim' : 'Bo Chen';
        expect(addressing(s, listener, townCast(names, self))).toBe(addressing(s, listener, filtered(self)));
      }
    // "Ana", said by Ana Lopez, is Ana Kim: the speaker's own name comes after everyone else's.
    expect(firstPerson(SENTENCES[0], 'Ana Lopez', townCast(names, 'Ana Lopez'))).toBe('I met Ana at the cafe, and Bo Chen said she liked her.');
    // The control: the speaker left where the town lists it, first of the Anas, takes the "Ana" it met.
    expect(firstPerson(SENTENCES[0], 'Ana Lopez', [...names.values()])).toBe('I met me at the cafe, and Bo Chen said she liked her.');
  });

  it("is indexed once for the town's names, not at each sentence", () => {
    const a = townCast(names, 'Ana Lopez');
    const b = townCast(names, 'Bo Chen');
    expect(a.names).toBe(b.names);
    // A town whose names changed (a new map of them) gets its own list.
    expect(townCast(new Map(names), 'Bo Chen').names).not.toBe(a.names);
  });
});
