// The offline mind's social decisions (server/src/agent/socialModel.ts), each input moved on its own over
// many seeds through the mind's real code paths (a talk turn, a morning plan): the draws are seeded, so the
// counts are exact, and each comparison has the control it must beat.
import { describe, expect, it } from 'vitest';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonas, type Persona } from '../../server/src/world/persona';
import { OfflineMind, planFromRoutine } from '../../server/src/agent/offlineMind';
import { restateDay } from '../../server/src/agent/offlinePlanning';
import type { ConversationLine, MindContext } from '../../server/src/agent/mind';
import type { Memory } from '../../server/src/store/types';
import { asAgentId } from '../../server/src/world/types';
import { acceptProbability, keepProbability, SOCIAL_PARAMETERS, tellProbability, type SocialDecision } from '../../server/src/agent/socialModel';

const map = loadTownMap('maps/town.tmj');
const personas = new Map(loadPersonas('personas', map).map((p) => [p.id as string, p]));
const isabella = personas.get('isabella')!;
const claire = personas.get('claire')!;
const FEB13 = Math.floor(Date.UTC(2026, 1, 13) / 86_400_000);
const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);
const mind = new OfflineMind();

function ctx(persona: Persona, seed: number, gameMs: number, decisions: SocialDecision[]): MindContext {
  return {
    agent: { persona, currentAction: 'reading', currentPlace: 'Hobbs Cafe: cafe', plan: null },
    map,
    gameMs,
    seed,
    names: new Map([...personas].map(([id, p]) => [id, p.name])),
    relationships: new Map(Object.entries(persona.relationships)),
    decide: (d) => decisions.push(d),
  };
}

const memory = (id: number, description: string, extra: Partial<Memory> = {}): Memory => ({
  id,
  agentId: asAgentId('claire'),
  kind: 'observation',
  description,
  createdGameMs: Date.UTC(2026, 1, 13, 9, 0),
  lastAccessedGameMs: 0,
  importance: 8,
  triple: null,
  evidenceIds: [],
  ...extra,
});

const greetings: ConversationLine[] = [
  { speaker: 'claire', speakerName: claire.name, text: 'Good morning, Isabella!', acts: [] },
  { speaker: 'isabella', speakerName: isabella.name, text: 'Hi Claire!', acts: [] },
];

/** How many of the seeds' talks `teller` tells `news` to Isabella in its first turn with content, and the decisions logged. */
async function tells(teller: Persona, news: Memory): Promise<{ told: number; decisions: SocialDecision[] }> {
  let told = 0;
  const decisions: SocialDecision[] = [];
  for (const seed of SEEDS) {
    const out = await mind.converseTurn(ctx(teller, seed, Date.UTC(2026, 1, 13, 10, 0), decisions), {
      partner: isabella,
      relationship: teller.relationships.isabella ?? null,
      memories: [],
      news: [news],
      history: greetings,
      turn: 2,
      maxTurns: 8,
    });
    if (out.acts?.some((a) => a.kind === 'tell' && a.fact === news.description)) told++;
  }
  return { told, decisions };
}

/** Claire's answers to Isabella's invitation over the seeds, heard at `heardAt`. */
async function answers(fact: string, heardAt: number, guest = claire): Promise<{ accepted: number; declined: number; decisions: SocialDecision[] }> {
  let accepted = 0;
  let declined = 0;
  const decisions: SocialDecision[] = [];
  const invite: ConversationLine = {
    speaker: 'isabella',
    speakerName: isabella.name,
    text: `Guess what: ${fact} Would you like to come?`,
    acts: [{ kind: 'invite', fact, hostId: 'isabella' }],
  };
  for (const seed of SEEDS) {
    const out = await mind.converseTurn(ctx(guest, seed, heardAt, decisions), {
      partner: isabella,
      relationship: guest.relationships.isabella ?? null,
      memories: [],
      news: [],
      history: [...greetings, invite],
      turn: 3,
      maxTurns: 8,
    });
    if (out.acts?.some((a) => a.kind === 'accept')) accepted++;
    if (out.acts?.some((a) => a.kind === 'decline')) declined++;
  }
  return { accepted, declined, decisions };
}

describe('the social decision model', () => {
  it('draws once per gathering a turn, however many memories hold it (a persona line and a whisper of one party)', async () => {
    const whisper = memory(1, 'Claire Moreau is throwing a book swap at Hobbs Cafe on February 14 at 5pm, and wants everyone to come.');
    const ownLine = memory(2, 'Claire is planning a book swap at Hobbs Cafe on February 14 at 5pm for the whole town.');
    const other = memory(3, 'Tomas Varga is running for mayor in the town election on March 1.');
    const decisions: SocialDecision[] = [];
    for (const seed of SEEDS)
      await mind.converseTurn(ctx(claire, seed, Date.UTC(2026, 1, 13, 10, 0), decisions), {
        partner: isabella,
        relationship: null,
        memories: [],
        news: [whisper, ownLine, other],
        history: greetings,
        turn: 2,
        maxTurns: 8,
      });
    const swap = decisions.filter((d) => d.about.includes('book swap'));
    // One invite decision a talk for the swap (never a second draw at its other memory); other news is still weighed.
    expect(swap.filter((d) => d.about === ownLine.description)).toEqual([]);
    expect(swap.length).toBe(SEEDS.length);
    expect(decisions.some((d) => d.about === other.description)).toBe(true);
  });

  const SECRET = 'Tomas Varga is running for mayor in the town election on March 1, and has told no one yet.';
  const OPEN = 'Tomas Varga is running for mayor in the town election on March 1.';
  // Claire's own line calls Isabella her closest friend (a confidant); these tellers know her only as the cafe's owner.
  const acquainted = { ...claire.relationships, isabella: 'Isabella runs the cafe Claire goes to.' };
  const discreet = { ...claire, innate: ['quiet', 'reserved', 'kind'], relationships: acquainted };
  const talkative = { ...claire, innate: ['talkative', 'warm', 'curious'], relationships: acquainted };

  it('a discreet agent keeps a secret more often than a talkative one; news with no secrecy cue (the control) is told more', async () => {
    const quietSecret = await tells(discreet, memory(1, SECRET));
    const chattySecret = await tells(talkative, memory(1, SECRET));
    const chattyOpen = await tells(talkative, memory(1, OPEN));
    expect([quietSecret.told, chattySecret.told, chattyOpen.told]).toEqual([0, 18, 79]);
    expect(quietSecret.told).toBeLessThan(chattySecret.told);
    expect(chattySecret.told).toBeLessThan(chattyOpen.told);
    // Each talk logged its decision with the inputs it rested on.
    expect(quietSecret.decisions).toHaveLength(SEEDS.length);
    expect(quietSecret.decisions[0]).toMatchObject({ decision: 'tell', otherId: 'isabella', inputs: { secret: true, discreet: true, talkative: false } });
    expect(quietSecret.decisions.every((d) => d.chose === d.draw < d.p)).toBe(true);
  });

  it('a discreet teller still tells a secret to a confidant (kin, someone trusted) now and then, and passes it on as one', async () => {
    const asConfidant = (line: string) => ({ ...discreet, relationships: { ...claire.relationships, isabella: line } });
    const sister = await tells(asConfidant("Isabella is Claire's sister."), memory(1, SECRET));
    const trusted = await tells(asConfidant('Claire trusts Isabella with anything.'), memory(1, SECRET));
    // Controls: an acquaintance, and someone the teller says it does not trust (the word "trust" alone is no confidant).
    const acquaintance = await tells(discreet, memory(1, SECRET));
    const distrusted = await tells(asConfidant("Claire doesn't trust Isabella."), memory(1, SECRET));
    expect([sister.told, trusted.told, acquaintance.told, distrusted.told]).toEqual([46, 46, 0, 0]);
    expect(sister.told).toBeGreaterThan(acquaintance.told);
    expect(trusted.told).toBeGreaterThan(distrusted.told);
    expect(sister.decisions[0].inputs).toMatchObject({ confidant: true, secret: true, discreet: true });
    expect(distrusted.decisions[0].inputs).toMatchObject({ confidant: false });
    // Told, a secret is told as one: the listener is asked to keep it, and what it learns still carries the cue.
    const lines = [];
    for (const seed of SEEDS) {
      const out = await mind.converseTurn(ctx(asConfidant("Isabella is Claire's sister."), seed, Date.UTC(2026, 1, 13, 10, 0), []), {
        partner: isabella,
        relationship: "Isabella is Claire's sister.",
        memories: [],
        news: [memory(1, SECRET)],
        history: greetings,
        turn: 2,
        maxTurns: 8,
      });
      if (out.acts?.some((a) => a.kind === 'tell')) lines.push(out);
    }
    expect(lines).toHaveLength(46);
    for (const line of lines) {
      expect(line.text).toMatch(/Keep it between us|don't tell anyone|between you and me/);
      expect(line.acts?.[0].fact).toMatch(/told no one/);
    }
  });

  it('news that already came up in earlier talks is told less, and a reflection that went over it keeps it fresh', async () => {
    const PARTY = 'Freya Lindqvist is opening an exhibition of her paintings at the library on February 20.';
    const teller = { ...claire, relationships: acquainted };
    const heard = Date.UTC(2026, 1, 12, 10, 0);
    const fresh = await tells(teller, memory(1, PARTY, { createdGameMs: heard }));
    const stale = await tells(teller, memory(1, PARTY, { createdGameMs: heard, timesDiscussed: 2 } as Partial<Memory>));
    const rehearsed = await tells(teller, memory(1, PARTY, { createdGameMs: heard, rehearsedGameMs: Date.UTC(2026, 1, 13, 9, 0) } as Partial<Memory>));
    // Rehearsed: fresh again (1 h since the insight) and on the teller's mind (×tellRehearsedFactor).
    expect([fresh.told, stale.told, rehearsed.told]).toEqual([27, 8, 97]);
    expect(stale.told).toBeLessThan(fresh.told);
    expect(rehearsed.told).toBeGreaterThan(fresh.told);
    expect(stale.decisions[0].inputs).toMatchObject({ timesDiscussed: 2, hoursSinceHeard: 24 });
    expect(rehearsed.decisions[0].inputs).toMatchObject({ timesDiscussed: 0, hoursSinceHeard: 1, rehearsed: true });
    expect(fresh.decisions[0].inputs).toMatchObject({ rehearsed: false });
  });

  it('news of a day said as "tomorrow" is told the next day as "today", by its date after, and not once it is over', async () => {
    const SALE = 'Omar Haddad is holding a spring sale at the Corner Shop tomorrow at 10am, and all are welcome.';
    const heard = Date.UTC(2026, 1, 12, 18, 0);
    const toldAt = async (gameMs: number) => {
      const facts: string[] = [];
      for (const seed of SEEDS.slice(0, 40)) {
        const out = await mind.converseTurn(ctx({ ...claire, relationships: acquainted }, seed, gameMs, []), {
          partner: isabella,
          relationship: acquainted.isabella,
          memories: [],
          news: [memory(1, SALE, { createdGameMs: heard })],
          history: greetings,
          turn: 2,
          maxTurns: 8,
        });
        for (const a of out.acts ?? []) if (a.kind === 'tell') facts.push(a.fact);
      }
      return new Set(facts);
    };
    expect([...(await toldAt(Date.UTC(2026, 1, 12, 20, 0)))]).toEqual([SALE]);
    expect([...(await toldAt(Date.UTC(2026, 1, 13, 8, 0)))]).toEqual([SALE.replace('tomorrow', 'today')]);
    expect([...(await toldAt(Date.UTC(2026, 1, 13, 11, 0)))]).toEqual([]);
    expect(restateDay(SALE, heard, Date.UTC(2026, 1, 11, 9, 0))).toBe(SALE.replace('tomorrow', 'on February 13'));
    expect(restateDay('Tomorrow we hold a quiz at the pub at 8pm.', heard, Date.UTC(2026, 1, 13, 9, 0))).toBe('Today we hold a quiz at the pub at 8pm.');
    expect(restateDay('a dinner at Hobbs Cafe the day after tomorrow at 7pm', heard, Date.UTC(2026, 1, 13, 9, 0))).toBe(
      'a dinner at Hobbs Cafe tomorrow at 7pm',
    );
    // Dates and weekdays are the same whenever they are said.
    for (const said of ['a party at Hobbs Cafe on February 14 at 5pm', 'a picnic at Johnson Park on Sunday at 11am'])
      expect(restateDay(said, heard, Date.UTC(2026, 1, 13, 9, 0))).toBe(said);
  });

  it('an agent with a conflicting plan (work at the time) declines more often than when it is free', async () => {
    const heard = Date.UTC(2026, 1, 13, 10, 0);
    const atWork = await answers('Isabella Rivera is throwing a party at Hobbs Cafe on February 14 at 3pm, and wants to invite everyone she meets.', heard);
    const free = await answers('Isabella Rivera is throwing a party at Hobbs Cafe on February 14 at 8pm, and wants to invite everyone she meets.', heard);
    expect([atWork.accepted, free.accepted]).toEqual([48, 110]);
    expect(atWork.accepted + atWork.declined).toBe(SEEDS.length);
    expect(atWork.decisions[0].inputs).toMatchObject({ conflict: true, ahead: true, awake: true });
    expect(free.decisions[0].inputs).toMatchObject({ conflict: false, ahead: true, awake: true });
  });

  it('nobody accepts after the event has begun, nor an event when asleep; the decline is said', async () => {
    const fact = 'Isabella Rivera is throwing a party at Hobbs Cafe on February 13 at 9pm, and wants to invite everyone she meets.';
    const late = await answers(fact, Date.UTC(2026, 1, 13, 21, 54));
    expect(late.accepted).toBe(0);
    expect(late.declined).toBe(SEEDS.length);
    expect(late.decisions.every((d) => d.p === 0 && d.inputs.ahead === false)).toBe(true);
    // The control: the same invitation heard before it begins is accepted on most seeds.
    expect((await answers(fact, Date.UTC(2026, 1, 13, 10, 0))).accepted).toBeGreaterThan(SEEDS.length / 2);
    const night = await answers('Isabella Rivera is throwing a party at Hobbs Cafe on February 14 at 11:30pm, for everyone.', Date.UTC(2026, 1, 13, 10, 0));
    expect(night.accepted).toBe(0);
  });

  it('plans a gathering only when committed to it, and a commitment slips now and then, saying why', () => {
    const heardOnly = memory(1, 'Isabella Rivera is throwing a party at Hobbs Cafe on February 14 at 8pm, and wants to invite everyone she meets.');
    const accepted = memory(2, 'Claire Moreau plans to go to the party at Hobbs Cafe on February 14 at 8pm, as Isabella Rivera invited Claire Moreau.', {
      kind: 'thought',
      evidenceIds: [1],
      triple: { subject: 'Claire Moreau', predicate: 'plans', object: '' },
    });
    const declined = memory(3, "Claire Moreau declined Isabella Rivera's invitation to the party at Hobbs Cafe on February 14 at 8pm: no.", {
      kind: 'thought',
      evidenceIds: [1],
      triple: { subject: 'Claire Moreau', predicate: 'declined', object: '' },
    });
    const goes = (memories: Memory[]) => SEEDS.filter((s) => planFromRoutine(claire, map, s, FEB13 + 1, memories).actions.some((a) => a.emoji === '🎉')).length;
    expect(goes([heardOnly])).toBe(0);
    expect(goes([heardOnly, accepted, declined])).toBe(0);
    const kept = goes([heardOnly, accepted]);
    expect(kept).toBe(167);
    const slipped = SEEDS.map((s) => planFromRoutine(claire, map, s, FEB13 + 1, [accepted])).find((p) => !p.actions.some((a) => a.emoji === '🎉'))!;
    expect(slipped.broadStrokes.join(' ')).toMatch(/not going to the party at Hobbs Cafe \(it slipped her mind\)/);
    // The host goes whatever the seed.
    const own = memory(4, 'Isabella Rivera is throwing a party at Hobbs Cafe on February 14 at 5pm, and wants to invite everyone she meets.', {
      kind: 'thought',
    });
    expect(
      SEEDS.every((s) => planFromRoutine(isabella, map, s, FEB13 + 1, [own]).actions.some((a) => a.description === 'hosting the party at Hobbs Cafe')),
    ).toBe(true);
  });

  it('an alarm at its place: staff mostly stay to deal with it, guests mostly leave; the same alarm elsewhere, or mere news, is no such decision', async () => {
    const event = (place: string | null, description = 'The fire alarm is going off') => ({
      description,
      subject: 'the town',
      predicate: 'event',
      object: description,
      arena: 'Hobbs Cafe: cafe',
      place,
    });
    const outcomes = async (who: Persona, obs: ReturnType<typeof event>) => {
      const decisions: SocialDecision[] = [];
      const said: string[] = [];
      for (const seed of SEEDS) {
        const r = await mind.react(ctx(who, seed, Date.UTC(2026, 1, 13, 12, 50), decisions), [obs]);
        said.push(r?.actions[0].description ?? 'nothing');
      }
      return { decisions, said };
    };
    const count = (said: string[], re: RegExp) => said.filter((x) => re.test(x)).length;
    const guest = await outcomes(claire, event('Hobbs Cafe'));
    const staff = await outcomes(isabella, event('Hobbs Cafe'));
    expect([count(guest.said, /^leaving Hobbs Cafe because of the fire alarm$/), count(guest.said, /^staying to see/)]).toEqual([179, 21]);
    expect([count(staff.said, /^dealing with the fire alarm at Hobbs Cafe$/), count(staff.said, /^leaving Hobbs Cafe/)]).toEqual([163, 37]);
    expect(guest.decisions[0]).toMatchObject({ decision: 'react', inputs: { danger: true, atPlace: true, staff: false }, p: 0.9 });
    expect(staff.decisions[0]).toMatchObject({ inputs: { staff: true }, p: 0.8 });
    // Controls: an alarm announced everywhere (no place), and news that is no danger, are no reason to leave.
    for (const control of [event(null), event('Hobbs Cafe', 'A street musician is playing')]) {
      const c = await outcomes(claire, control);
      expect(c.decisions).toEqual([]);
      expect(count(c.said, /^leaving|^dealing|^staying to see/)).toBe(0);
    }
  });

  it('each probability moves with its input the way the parameter says (and every parameter is documented in one module)', () => {
    const tell = {
      closeness: 0.5,
      concernsListener: false,
      secret: false,
      public: false,
      comingGathering: false,
      talkative: false,
      discreet: false,
      hoursSinceHeard: 0,
      secondHand: false,
      confidant: false,
      timesDiscussed: 0,
      rehearsed: false,
    };
    expect(tellProbability({ ...tell, closeness: 1 })).toBeGreaterThan(tellProbability({ ...tell, closeness: 0 }));
    expect(tellProbability({ ...tell, concernsListener: true })).toBeGreaterThan(tellProbability(tell));
    expect(tellProbability({ ...tell, hoursSinceHeard: 48 })).toBeCloseTo(tellProbability(tell) / 4, 6);
    expect(tellProbability({ ...tell, secondHand: true })).toBeLessThan(tellProbability(tell));
    expect(tellProbability({ ...tell, rehearsed: true })).toBeCloseTo(tellProbability(tell) * SOCIAL_PARAMETERS.tellRehearsedFactor, 6);
    // A coming gathering pulls like open news whatever its audience (an invite-only dinner is talked about), once; a secret one does not.
    const pulled = tellProbability(tell) * SOCIAL_PARAMETERS.tellPublicFactor;
    expect(tellProbability({ ...tell, comingGathering: true })).toBeCloseTo(pulled, 6);
    expect(tellProbability({ ...tell, comingGathering: true, public: true })).toBeCloseTo(pulled, 6);
    expect(tellProbability({ ...tell, comingGathering: true, secret: true })).toBeCloseTo(tellProbability({ ...tell, secret: true }), 6);
    const accept = { ahead: true, awake: true, conflict: false, closenessToHost: 0.5, outgoing: false, shy: false, elsewhere: false };
    expect(acceptProbability({ ...accept, closenessToHost: 1 })).toBeGreaterThan(acceptProbability(accept));
    expect(acceptProbability({ ...accept, ahead: false })).toBe(0);
    const keep = { host: false, hoursSinceAccepted: 24, rehearsed: false, conflict: false, forgetful: false };
    expect(keepProbability({ ...keep, rehearsed: true })).toBeGreaterThan(keepProbability(keep));
    expect(keepProbability({ ...keep, forgetful: true })).toBeLessThan(keepProbability(keep));
    for (const value of Object.values(SOCIAL_PARAMETERS)) expect(value).toBeGreaterThan(0);
  });
});
