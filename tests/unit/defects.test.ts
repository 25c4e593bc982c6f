// The defect patterns must catch what a reader would stop at (the controls: the defects the issue
// quoted, each caught), and let a well-formed text through.
import { describe, expect, it } from 'vitest';
import {
  insightOffSubject,
  objectMismatch,
  replyNamesOtherKind,
  scanTalkDefects,
  scanWorldDefects,
  sympathyToGoodNews,
  textDefects,
} from '../../server/src/analysis/defects';
import { openWorldDb } from '../../server/src/store/WorldDb';
import type { EventInput } from '../../server/src/protocol/events';
import { asAgentId } from '../../server/src/world/types';

describe('defect patterns', () => {
  it('catches each quoted defect (controls)', () => {
    const bad = [
      'Isabella wants to invite everyone I meets.',
      'I am telling people that me is running.',
      'Sam Moore, their husband, fixes bikes.',
      'Something important about Marek Kowalski: Something important about Marek Kowalski: he runs the pub.',
      'working at Town Hall at Town Hall',
      "Isabella Rivera'll be planning the party.",
      'Isabella thinks you is the best baker in town.',
      'Omar Haddad will be Omar Haddad wills be stocking the shelves.',
      'Klaus is a friend of me who often visits.',
      'Bruno is thinking about moving to a bigger home. Still on his mind from yesterday: Bruno is thinking about moving to a bigger home.',
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
      'Isabella thinks you are the best baker in town.',
      'You know what? I was thinking of you. Tin cans and last wills.',
      'Lucia Tan will be having breakfast at home.; Wren Tan will be having breakfast at home.',
      'Klaus is a friend of mine; he often thinks of me.',
    ];
    for (const text of good) expect(textDefects(text, 'utterance'), text).toEqual([]);
    expect(sympathyToGoodNews('Did you hear? The bakery is closed after a fire.', "Oh no, that's worrying.")).toBe(false);
    expect(sympathyToGoodNews('Did you hear? Isabella is throwing a party.', 'That sounds fun!')).toBe(false);
    expect(objectMismatch('watering the flower beds', 'Johnson Park: park: garden')).toBe(false);
    expect(objectMismatch('watering the flower beds', 'Johnson Park: park')).toBe(false);
  });
});

describe('the defect scan over a world', () => {
  it('finds a planted defect of every pattern, where it was written, and nothing in a clean world', () => {
    const db = openWorldDb(':memory:', { model: 'm', dimension: 4 });
    const kenji = asAgentId('kenji');
    const persona = { name: 'Kenji Tanaka', age: 58, innate: [], learned: 'Kenji Tanaka is a professor. He writes books.', currently: 'Kenji is writing.' };
    const record = { ...persona, lifestyle: 'Kenji never misses his tea.', home: 'Tanaka House', workplace: null };
    const at = (gameMs: number, e: Omit<EventInput, 'gameMs'>) => ({ ...e, gameMs }) as EventInput;
    const planted: EventInput[] = [
      at(0, { kind: 'persona.set', agentId: kenji, data: record }),
      at(1, {
        kind: 'conversation.utterance',
        agentId: kenji,
        data: { conversationId: 1, speaker: kenji, listener: kenji, text: 'Did you hear? Isabella is throwing a party.' },
      }),
      at(2, { kind: 'conversation.utterance', agentId: kenji, data: { conversationId: 1, speaker: kenji, listener: kenji, text: "Oh no, that's worrying." } }),
      at(3, {
        kind: 'memory.created',
        agentId: kenji,
        data: { id: 1, kind: 'chat', description: 'I am telling people that me is running.', importance: 5, evidence: [], by: 'x' },
      }),
      at(4, {
        kind: 'memory.created',
        agentId: kenji,
        data: {
          id: 2,
          kind: 'thought',
          description: 'Something important about Marek: Something important about Marek: he runs the pub.',
          importance: 5,
          evidence: [1],
          by: 'x',
        },
      }),
      at(5, { kind: 'status.revised', agentId: kenji, data: { day: 1, currently: 'Kenji wants to invite everyone I meets.' } }),
      at(6, { kind: 'relationship.revised', agentId: kenji, data: { otherId: kenji, summary: 'Sam Moore, their husband, fixes bikes.', interactions: 1 } }),
      at(7, {
        kind: 'memory.created',
        agentId: kenji,
        data: { id: 3, kind: 'chat', description: 'Kenji Tanaka will be writing their book at Oak Hill College.', importance: 2, evidence: [], by: 'x' },
      }),
      at(8, {
        kind: 'plan.made',
        agentId: kenji,
        data: {
          day: 1,
          reason: 'r',
          fromMinute: 0,
          actions: [{ startMinute: 600, durationMinutes: 15, description: 'watering the flower beds', emoji: 'x', address: 'Johnson Park: park: fountain' }],
        },
      }),
      at(9, {
        kind: 'operator.action',
        agentId: null,
        data: { by: 't', action: 'interview', agentId: 'kenji', question: 'Who is Klaus?', answer: 'The party is at five.' },
      }),
      at(10, {
        kind: 'operator.action',
        agentId: null,
        data: { by: 't', action: 'interview', agentId: 'kenji', question: 'What are your plans?', answer: 'The party is at five.' },
      }),
    ];
    db.events.append(planted);
    const found = scanWorldDefects(db).map((h) => `${h.where}: ${h.pattern}`);
    expect(found.sort()).toEqual(
      [
        'utterance: sympathy to good news',
        'memory: "me" as a subject ("me is")',
        'reflection: doubled prefix',
        'status: first person with a third-person verb ("I meets")',
        'relationship: "their <kin>" where the person is named',
        'memory: "their"/"them" for someone known as he or sh' + 'e',
        'plan: an object that does not fit the action',
        'interview: the same answer to different questions',
      ].sort(),
    );
    db.close();

    // The same world, written well: nothing.
    const clean = openWorldDb(':memory:', { model: 'm', dimension: 4 });
    clean.events.append([
      planted[0],
      planted[1],
      at(2, { kind: 'conversation.utterance', agentId: kenji, data: { conversationId: 1, speaker: kenji, listener: kenji, text: 'That sounds fun!' } }),
      at(7, {
        kind: 'memory.created',
        agentId: kenji,
        data: { id: 3, kind: 'chat', description: 'Kenji Tanaka will be writing his book at Oak Hill College.', importance: 2, evidence: [], by: 'x' },
      }),
      at(9, {
        kind: 'operator.action',
        agentId: null,
        data: { by: 't', action: 'interview', agentId: 'kenji', question: 'Who is Klaus?', answer: 'Klaus? A friend.' },
      }),
      planted[10],
    ]);
    expect(scanWorldDefects(clean)).toEqual([]);
    clean.close();
  });

  it('flags an introduction to a housemate, and not one to a stranger (control)', () => {
    const db = openWorldDb(':memory:', { model: 'm', dimension: 4 });
    const omar = asAgentId('omar');
    const samira = asAgentId('samira');
    const claire = asAgentId('claire');
    const record = (name: string, home: string) => ({
      name,
      age: 40,
      innate: [],
      learned: `${name} lives here.`,
      currently: '',
      lifestyle: '',
      home,
      workplace: null,
    });
    const line = (t: number, speaker: typeof omar, listener: typeof omar, text: string) =>
      ({ gameMs: t, kind: 'conversation.utterance', agentId: speaker, data: { conversationId: t, speaker, listener, text } }) as EventInput;
    db.events.append([
      { gameMs: 0, kind: 'persona.set', agentId: omar, data: record('Omar Haddad', 'Haddad House') },
      { gameMs: 0, kind: 'persona.set', agentId: samira, data: record('Samira Haddad', 'Haddad House') },
      { gameMs: 0, kind: 'persona.set', agentId: claire, data: record('Claire Moreau', 'Moreau House') },
      line(1, omar, samira, "Good morning! I don't think we've met. I'm Omar Haddad."),
      line(2, samira, omar, 'Nice to meet you, Omar.'),
      line(3, omar, claire, "Good morning! I don't think we've met. I'm Omar Haddad."),
      line(4, omar, samira, 'Good morning, Samira! How have you been?'),
    ]);
    const hits = scanWorldDefects(db).filter((h) => h.pattern === 'introducing oneself to a housemate');
    expect(hits.map((h) => h.text)).toEqual(["Good morning! I don't think we've met. I'm Omar Haddad.", 'Nice to meet you, Omar.']);
    db.close();
  });

  // Talk that does not follow what was said: a reply naming another kind, one line over and over, an insight off
  // its subject, stacked prefixes.
  it('flags talk that does not follow what was said, and not its controls', () => {
    expect(replyNamesOtherKind('Did you hear? Ruth runs a book club at the library on Thursday at 7pm.', 'A party? Lovely.')).toBe(true);
    expect(replyNamesOtherKind('Did you hear? Ruth runs a book club at the library on Thursday at 7pm.', 'A book club? Lovely.')).toBe(false);
    expect(insightOffSubject('Something important about Rosa Bianchi: Samira is planning to stock flowers.')).toBe(true);
    expect(insightOffSubject('Something important about Rosa Bianchi: Samira is planning to stock flowers. (heard from Rosa Bianchi)')).toBe(true);
    expect(insightOffSubject('Something important about Rosa Bianchi: Rosa is leaving for Lisbon.')).toBe(false);
    expect(insightOffSubject('Something important about Rosa Bianchi: she is leaving for Lisbon.')).toBe(false);
    const db = openWorldDb(':memory:', { model: 'm', dimension: 4 });
    const omar = asAgentId('omar');
    const line = (t: number, text: string) =>
      ({ gameMs: t, kind: 'conversation.utterance', agentId: omar, data: { conversationId: t, speaker: omar, listener: omar, text } }) as EventInput;
    const loop = 'After this I will be sitting at a table at home.';
    // Said four times on one day: a loop; three times on the next (the control): not.
    const status = (t: number, currently: string) => ({ gameMs: t, kind: 'status.revised', agentId: omar, data: { day: 1, currently } }) as EventInput;
    const thought = (t: number, id: number, description: string) =>
      ({ gameMs: t, kind: 'memory.created', agentId: omar, data: { id, kind: 'thought', description, importance: 5, evidence: [1], by: 'x' } }) as EventInput;
    const club = 'Did you hear? Ruth runs a book club at the library on Thursday at 7pm.';
    db.events.append([
      ...[1, 2, 3, 4].map((h) => line(h * 3_600_000, loop)),
      ...[1, 2, 3].map((h) => line(86_400_000 + h * 3_600_000, loop)),
      status(5, "Omar sells. Still on Omar's mind from yesterday: Something important about Samira Haddad: she sells flowers."),
      status(6, "Omar sells. Still on Omar's mind from yesterday: Samira Haddad sells flowers."),
      line(7, club),
      line(7, 'A party? Lovely.'),
      line(8, club),
      line(8, 'A book club? Lovely.'),
      thought(9, 1, 'Something important about Rosa Bianchi: Samira is planning to stock flowers.'),
      thought(10, 2, 'Something important about Rosa Bianchi: she is leaving for Lisbon.'),
    ]);
    // Each pattern trips once on its planted line, and its control beside it does not; the world scan holds them all.
    const tripped = [
      'the same line over and over in a day',
      'stacked prefixes',
      'a reply naming another kind of news',
      'an insight about someone that is about someone else',
    ];
    expect(
      scanTalkDefects(db)
        .map((h) => h.pattern)
        .sort(),
    ).toEqual([...tripped].sort());
    expect(scanWorldDefects(db).filter((h) => tripped.includes(h.pattern)).length).toBe(tripped.length);
    db.close();
  });
});
