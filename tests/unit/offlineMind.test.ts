import { describe, expect, it } from 'vitest';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonas } from '../../server/src/world/persona';
import { OfflineMind, planFromRoutine, rateImportanceHeuristically } from '../../server/src/agent/offlineMind';
import type { Memory } from '../../server/src/store/types';
import { asAgentId } from '../../server/src/world/types';
import { parseClock } from '../../server/src/world/clockText';
import { firstPerson, ownVoice, thirdPerson } from '../../server/src/agent/voice';
import { withPlace } from '../../server/src/agent/offlineTalk';
import { gatheringIn, reviseStatusOffline } from '../../server/src/agent/offlinePlanning';
import { insightOffSubject } from '../../server/src/analysis/defects';
import { dayIndex } from '../../server/src/protocol/time';
import type { ConversationLine } from '../../server/src/agent/mind';

const map = loadTownMap('maps/town.tmj');
const personas = new Map(loadPersonas('personas', map).map((p) => [p.id as string, p]));
const isabella = personas.get('isabella')!;
const claire = personas.get('claire')!;
const FEB13 = Math.floor(Date.UTC(2026, 1, 13) / 86_400_000);
const memory = (id: number, description: string, importance = 8, extra: Partial<Memory> = {}): Memory => ({
  id,
  agentId: asAgentId('isabella'),
  kind: 'observation',
  description,
  createdGameMs: 0,
  lastAccessedGameMs: 0,
  importance,
  triple: null,
  evidenceIds: [],
  ...extra,
});
const ctx = (persona = isabella, gameMs = Date.UTC(2026, 1, 13, 10, 0)) => ({
  agent: { persona, currentAction: 'serving customers', currentPlace: 'Hobbs Cafe: cafe: counter', plan: planFromRoutine(persona, map, 1, FEB13) },
  map,
  gameMs,
  seed: 1,
  names: new Map([...personas].map(([id, p]) => [id, p.name])),
  relationships: new Map(Object.entries(persona.relationships)),
});

describe('the offline mind', () => {
  it('plans the waking day in 5-60 minute actions at real places, differently from day to day', () => {
    for (const p of personas.values()) {
      const plan = planFromRoutine(p, map, 1, FEB13);
      expect(plan.actions[0].startMinute).toBe(parseClock(p.wakeAt));
      const last = plan.actions[plan.actions.length - 1];
      expect(last.startMinute + last.durationMinutes).toBe(parseClock(p.sleepAt));
      plan.actions.forEach((a, i) => {
        expect(map.arenasByAddress.has(a.address) || map.objectsByAddress.has(a.address), a.address).toBe(true);
        expect(a.durationMinutes).toBeGreaterThanOrEqual(5);
        if (i > 0) expect(a.startMinute).toBe(plan.actions[i - 1].startMinute + plan.actions[i - 1].durationMinutes);
      });
    }
    const days = [0, 1, 2, 3].map((d) => JSON.stringify(planFromRoutine(personas.get('freya')!, map, 1, FEB13 + d).actions));
    expect(new Set(days).size).toBeGreaterThan(1);
  });

  it('goes to a gathering it accepted on its day (tests/unit/socialModel.test.ts: not to one it merely heard of)', () => {
    const party = memory(1, 'Claire Moreau plans to go to the party at Hobbs Cafe on February 14 at 5pm, as Isabella Rivera invited Claire Moreau.', 8, {
      createdGameMs: FEB13 * 86_400_000,
      kind: 'thought',
      evidenceIds: [9],
      triple: { subject: 'Claire Moreau', predicate: 'plans', object: '' },
    });
    // Seed 3: a seed on which Claire keeps it (she works until 17:30, so it slips on some; socialModel.test.ts counts them).
    const onTheDay = planFromRoutine(claire, map, 3, FEB13 + 1, [party]);
    expect(onTheDay.actions).toContainEqual(
      expect.objectContaining({ startMinute: 17 * 60, description: 'attending the party at Hobbs Cafe', address: 'Hobbs Cafe: cafe' }),
    );
    expect(planFromRoutine(claire, map, 1, FEB13, [party]).actions.some((a) => a.description.includes('party'))).toBe(false);
  });

  it('rates importance from what a memory means, the same for any wording', () => {
    expect(rateImportanceHeuristically('Ruth Bennett is sleeping')).toBe(1);
    expect(rateImportanceHeuristically('Omar Haddad is stacking shelves')).toBe(2);
    // A gathering with neither time nor day is not one the reader can place (meaning.ts): base; dated and soon: + gathering + ahead + soon.
    expect(rateImportanceHeuristically('There is a party at the pub')).toBe(2);
    expect(rateImportanceHeuristically('There is a party at the pub tomorrow at 8pm')).toBe(7);
    expect(rateImportanceHeuristically('There is a book club at the pub tomorrow at 8pm')).toBe(7);
    expect(rateImportanceHeuristically('There was a fire at the shop')).toBe(9);
  });

  it('talks with content: a greeting, then news that the partner did not tell it, then plans and goodbye', async () => {
    const mind = new OfflineMind();
    const news = [memory(7, 'Omar Haddad wants to start home deliveries.', 7, { createdGameMs: FEB13 * 86_400_000 })];
    const lines: ConversationLine[] = [];
    // Seed 2: a seed on which Isabella decides to tell it (socialModel.test.ts counts the seeds).
    for (let turn = 0; turn < 8; turn++) {
      const [me, other] = turn % 2 === 0 ? [isabella, claire] : [claire, isabella];
      const out = await mind.converseTurn(
        { ...ctx(me), seed: 2 },
        {
          partner: other,
          relationship: me.relationships[other.id] ?? null,
          memories: [],
          news: me === isabella ? news : [],
          history: lines,
          turn,
          maxTurns: 8,
        },
      );
      lines.push({ speaker: me.id, speakerName: me.name, text: out.text, acts: out.acts });
      if (out.end) break;
    }
    expect(lines[0].text).toMatch(/^(Good morning, Claire|Claire!|Hello again, Claire)/);
    expect(lines.some((l) => l.text.endsWith('Omar Haddad wants to start home deliveries.'))).toBe(true);
    expect(lines.filter((l) => l.text.includes('home deliveries'))).toHaveLength(1);
    const summary = await mind.summariseConversation({
      contexts: [ctx(), ctx(claire)],
      lines,
      relationships: [isabella.relationships.claire, claire.relationships.isabella],
    });
    expect(summary.learned.claire).toContain('Omar Haddad wants to start home deliveries.');
    // The summary reads the acts, not the phrases: the same words without their act teach nothing.
    const bare = await mind.summariseConversation({
      contexts: [ctx(), ctx(claire)],
      lines: lines.map(({ acts: _acts, ...l }) => l),
      relationships: [isabella.relationships.claire, claire.relationships.isabella],
    });
    expect(bare.learned.claire).toEqual([]);
  });

  it('reflects on recurring memories and cites them', async () => {
    const mind = new OfflineMind();
    const seen = [1, 2, 3].map((i) =>
      memory(i, 'Claire Moreau is shelving books', 2, { triple: { subject: 'Claire Moreau', predicate: 'is', object: 'shelving books' } }),
    );
    const [question] = await mind.reflectQuestions(ctx(), seen);
    expect(question).toBe('What has Claire Moreau been up to lately?');
    const insights = await mind.reflectInsights(ctx(), question, seen);
    expect(insights[0]).toEqual({ text: 'Claire Moreau is often shelving books.', evidence: [1, 2, 3] });
  });

  it('says "Something important about X" only of news that names X, not of news X passed on (issue 42, section 3)', async () => {
    const mind = new OfflineMind();
    const question = 'What has Claire Moreau been up to lately?';
    const agenda = 'Ruth Bennett is preparing the agenda for the town council meeting on Monday.';
    const passedOn = memory(1, `${agenda} (heard from Claire Moreau)`, 7, {
      kind: 'chat',
      triple: { subject: 'Claire Moreau', predicate: 'said', object: agenda },
    });
    const hers = memory(2, 'Claire Moreau is moving to Lisbon on March 3.', 7);
    // Control: labelled as about Claire, the news she passed on about Ruth trips the defect scan.
    expect(insightOffSubject(`Something important about Claire Moreau: ${agenda}`)).toBe(true);
    expect((await mind.reflectInsights(ctx(), question, [passedOn])).some((i) => i.text.startsWith('Something important'))).toBe(false);
    const about = await mind.reflectInsights(ctx(), question, [passedOn, hers]);
    expect(about).toContainEqual({ text: 'Something important about Claire Moreau: Claire Moreau is moving to Lisbon on March 3.', evidence: [2] });
  });

  it("notes an insight in the morning's status by what it found, without its label (no stacked prefixes)", () => {
    const insight = memory(3, 'Something important about Rosa Bianchi: Rosa Bianchi is leaving for Lisbon.', 7, { kind: 'thought', evidenceIds: [1] });
    const status = reviseStatusOffline(isabella, [insight]);
    expect(status).toContain("Still on Isabella's mind from yesterday: Rosa Bianchi is leaving for Lisbon.");
    expect(status).not.toContain('Something important');
  });
});

describe('the offline mind speaks in the right voice', () => {
  const others = [...personas.values()].map((p) => p.name);
  const yumi = personas.get('yumi')!;

  it("says what is about itself in the first person, verbs agreeing, without taking others' things", () => {
    expect(firstPerson('Yumi is studying for her botany exam next week and wants to run for the student council.', yumi.name, others)).toBe(
      'I am studying for my botany exam next week and want to run for the student council.',
    );
    expect(firstPerson("Yumi Tanaka, Kenji's daughter, has an exam next week.", yumi.name, others)).toBe('I have an exam next week.');
    expect(firstPerson('Isabella wants to decorate the cafe with paper hearts for the party.', isabella.name, others)).toBe(
      'I want to decorate the cafe with paper hearts for the party.',
    );
    expect(firstPerson('Marek runs the bar at the pub; Isabella trades pastries for his good gossip.', isabella.name, others)).toBe(
      'Marek runs the bar at the pub; I trade pastries for his good gossip.',
    );
    expect(ownVoice('studying for her botany exam', others)).toBe('studying for my botany exam');
    expect(ownVoice('helping Claire with her catalogue', others)).toBe('helping Claire with her catalogue');
    expect(thirdPerson('I want to decorate the cafe', isabella.name)).toBe('Isabella Rivera wants to decorate the cafe');
  });

  it('names a place once: "working at Town Hall", not "working at Town Hall at Town Hall"', () => {
    expect(withPlace('working at Town Hall', 'Town Hall: office', 'Bennett House')).toBe('working at Town Hall');
    expect(withPlace('winding down at home', 'Bennett House: living room', 'Bennett House')).toBe('winding down at home');
    expect(withPlace('stocking the shelves', 'Corner Shop: shop', 'Haddad House')).toBe('stocking the shelves at Corner Shop');
  });

  it('talks more to people it knows or has big news for than to strangers', async () => {
    const mind = new OfflineMind();
    const party = memory(9, 'Isabella Rivera is planning a party at Hobbs Cafe on February 14 at 5pm.', 9);
    const acquaintance = (p: typeof claire, relationship: string | null, news: Memory[] = [], lastTalkedGameMs: number | null = null) => ({
      persona: p,
      relationship,
      conversations: lastTalkedGameMs ? 1 : 0,
      lastTalkedGameMs,
      news,
    });
    const obs = [{ description: 'Claire Moreau is reading', subject: 'Claire Moreau', predicate: 'is', object: 'reading', arena: 'Hobbs Cafe: cafe' }];
    expect((await mind.appraise(ctx(), obs, [acquaintance(claire, isabella.relationships.claire)])).talkTo).toBe('claire');
    expect((await mind.appraise(ctx(), obs, [acquaintance(yumi, null, [party])])).talkTo).toBe('yumi');
    // Just talked, nothing new: not again.
    expect((await mind.appraise(ctx(), obs, [acquaintance(claire, isabella.relationships.claire, [], Date.UTC(2026, 1, 13, 9, 0))])).talkTo).toBeNull();
    // A stranger with nothing to tell: now and then (here, across a day's hours, some but not most).
    let greeted = 0;
    for (let h = 0; h < 24; h++) if ((await mind.appraise(ctx(isabella, Date.UTC(2026, 1, 13, h, 0)), obs, [acquaintance(yumi, null)])).talkTo) greeted++;
    expect(greeted).toBeGreaterThan(0);
    expect(greeted).toBeLessThan(12);
  });

  it('accepts an invitation for later today, with a planning thought and the action for it', async () => {
    const mind = new OfflineMind();
    const fact = 'Isabella Rivera is planning a party at Hobbs Cafe today at 5pm.';
    const lines: ConversationLine[] = [
      {
        speaker: 'isabella',
        speakerName: isabella.name,
        text: 'Guess what: I am planning a party at Hobbs Cafe today at 5pm. Would you like to come?',
        acts: [{ kind: 'invite', fact, hostId: 'isabella' }],
      },
      {
        speaker: 'claire',
        speakerName: claire.name,
        text: "I'd love to come! Later I'll be shelving books at Oak Hill College.",
        acts: [
          { kind: 'accept', fact, hostId: 'isabella' },
          { kind: 'plan', fact: 'Claire Moreau will be shelving books at Oak Hill College.' },
        ],
      },
    ];
    const summary = await mind.summariseConversation({
      contexts: [ctx(), ctx(claire)],
      lines,
      relationships: [isabella.relationships.claire, claire.relationships.isabella],
    });
    expect(summary.learned.claire).toContain('Isabella Rivera is planning a party at Hobbs Cafe today at 5pm.');
    expect(summary.learned.isabella).toEqual(['Claire Moreau will be shelving books at Oak Hill College.']);
    expect(summary.plans.claire).toEqual({
      thought: 'Claire Moreau plans to go to the party at Hobbs Cafe on February 13 at 5pm, as Isabella Rivera invited her.',
      appointment: { startMinute: 1020, durationMinutes: 90, description: 'attending the party at Hobbs Cafe', emoji: '🎉', address: 'Hobbs Cafe: cafe' },
      commitment: 'accept',
    });
    expect(summary.plans.isabella).toBeNull();
    expect(summary.relationships.claire).toMatch(/^Isabella .* Last talked on February 13; Isabella said that Isabella Rivera is planning a party/);
  });

  it('answers who someone is from what it thinks of them and its memories of them, each said once, and how it feels about them apart', async () => {
    const mind = new OfflineMind();
    const marek = personas.get('marek')!;
    const memories = [
      memory(1, 'Isabella Rivera is planning a Valentine\u2019s Day party at Hobbs Cafe on February 14 at 5pm.', 8),
      memory(2, 'Isabella Rivera is planning a Valentine\u2019s Day party at Hobbs Cafe on February 14 at 5pm.', 8),
      memory(3, 'Marek Kowalski is pouring drinks', 2, { triple: { subject: 'Marek Kowalski', predicate: 'is', object: 'pouring drinks' } }),
      memory(4, 'Marek Kowalski is planning a quiz night at The Rose and Crown Pub on Saturday at 8pm. (heard from Marek Kowalski)', 6, {
        kind: 'chat',
        triple: {
          subject: 'Marek Kowalski',
          predicate: 'said',
          object: 'Marek Kowalski is planning a quiz night at The Rose and Crown Pub on Saturday at 8pm.',
        },
      }),
    ];
    const answer = await mind.interview(ctx(), 'Who is Marek?', memories);
    expect(answer).toBe(
      'Marek? Marek runs the bar at the pub; I trade pastries for his good gossip. I saw Marek Kowalski pouring ' +
        'drinks. Marek Kowalski is planning a quiz night at The Rose and Crown Pub on Saturday at 8pm; Marek told me so.',
    );
    expect(answer).not.toContain('party');
    // How it feels about someone is another answer than who they are: whether they are close, and why.
    const feeling = await mind.interview(ctx(), 'How do you feel about Marek?', memories);
    expect(feeling).toBe('I get on well with Marek. Marek runs the bar at the pub; I trade pastries for his good gossip.');
    const stranger = await mind.interview(ctx(), `Who is ${marek.name.split(' ')[0]}?`, []);
    expect(stranger).toMatch(/^Marek\? Marek runs the bar/);
  });
});

describe('a gathering named in a sentence (gatheringIn)', () => {
  const heard = Date.UTC(2026, 1, 13, 9, 0) as number;
  const day = (y: number, m: number, d: number) => dayIndex(Date.UTC(y, m, d));
  it('reads its kind, place, day and time whatever the case, and nothing where one is missing', () => {
    expect(gatheringIn('A Valentine’s party at HOBBS CAFE on February 14 at 5pm', heard, map)).toMatchObject({
      kind: 'Valentine’s party',
      sector: 'Hobbs Cafe',
      day: day(2026, 1, 14),
      minuteOfDay: 17 * 60,
    });
    expect(gatheringIn('a reading at the Hobbs Cafe on the 2nd of March, 7:30 pm', heard, map)).toMatchObject({
      kind: 'reading',
      day: day(2026, 2, 2),
      minuteOfDay: 19 * 60 + 30,
    });
    expect(gatheringIn('Ruth is hosting a dinner at hobbs cafe tomorrow at 6pm', heard, map)).toMatchObject({ day: day(2026, 1, 14), minuteOfDay: 18 * 60 });
    expect(gatheringIn('a picnic at Hobbs Cafe on Sunday at 11am', heard, map)).toMatchObject({ day: day(2026, 1, 15) });
    // Each of kind, time, place and day missing in turn.
    expect(gatheringIn('Ruth is buying coffee at Hobbs Cafe on February 14 at 5pm', heard, map)).toBeNull();
    expect(gatheringIn('a party at Hobbs Cafe on February 14', heard, map)).toBeNull();
    expect(gatheringIn('a party at the moon on February 14 at 5pm', heard, map)).toBeNull();
    expect(gatheringIn('a party at Hobbs Cafe some day at 5pm', heard, map)).toBeNull();
  });
});
