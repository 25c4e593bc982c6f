// The offline mind's talk: conversation lines and their summary, from templates (interview answers: offlineInterview.ts)
// that carry real content (the relationship, the speaker's news, its plans) in the right voice (voice.ts).
// Lines vary with a seeded pick per speaker, partner, time and turn. What to tell, whether to invite and
// whether to accept are seeded decisions (socialModel.ts), each logged with its inputs. Every line carries
// what it means as data (SpeechAct: facts told, an invitation, an acceptance or a decline, a plan); the
// summary reads those acts, never the phrases, so what was meant is what is learned.
import type { Memory } from '../store/types';
import type { Persona } from '../world/persona';
import { Rng } from '../sim/rng';
import { minuteOfWakingDay, parseClock, planMomentAt } from '../world/clockText';
import type { PlannedAction } from '../protocol/plan';
import type {
  ConversationLine,
  ConversationSummary,
  InvitationRecord,
  MindContext,
  PlanningThought,
  SpeechAct,
  SummaryInput,
  TurnInput,
  TurnOutput,
} from './mind';
import { addressing, firstName, firstPerson, isAbout, mentions, ownVoice, thirdPerson } from './voice';
import { afterThat, pronounsOf, townCast, type Cast } from './grammar';
import {
  dateLabel,
  gatheringAction,
  gatheringIn,
  gatheringStartMs,
  isPersonNamed,
  newsSentence,
  obligationAt,
  restateDay,
  sectorOf,
  spokenTime,
} from './offlinePlanning';
import { readMeaning } from './meaning';
import { GAME_MS_PER_DAY } from '../protocol/time';
import {
  acceptProbability,
  closenessOf,
  decide,
  inviteProbability,
  isConfidant,
  tellProbability,
  traitsOf,
  type AcceptInputs,
  type TellInputs,
} from './socialModel';
import { rateImportanceHeuristically } from './offlineImportance';

/** News someone else is the subject of: the sentence follows as is. */
const HEARD_INTROS = ['Did you hear? ', 'Have you heard? ', 'I heard that ', 'Word around town is that '];
/** News about the speaker: an "I" sentence follows. */
const OWN_INTROS = ['Guess what: ', 'Some news from me: ', 'You know what? '];
/** Said after a host tells of its own gathering: the invitation (a host may ask many in a day, so a few ways). */
const INVITE_ASKS = ['Would you like to come?', "I'd love it if you came.", 'Will you come?', 'Do come if you can!'];
/** Said after a secret is told. */
const HUSH = ['Keep it between us, though.', "But don't tell anyone.", 'That is just between you and me.'];
const ACCEPTANCES = ["I'd love to come!", "Count me in, I'll be there.", 'That sounds lovely. I will come.'];
const DECLINES = ["Thank you, but I don't think I'll come.", "That's kind of you, but I'll give it a miss."];
/** News that calls for sympathy. */
const BAD_NEWS = /\b(worried|closed|fire|flood\w*|accident|died|death|hospital|cancel\w*|fight|sick|ill|hurt|broke\w*)\b/i;
const PLAN_LEADS = ['Later', 'After this', 'Next'];
/** How a revised relationship records the last talk; the persona's own line comes before it. */
const LAST_TALKED = ' Last talked on ';

// ---- conversation --------------------------------------------------------------------------------

export function offlineTurn(ctx: MindContext, input: TurnInput): TurnOutput {
  const me = ctx.agent.persona;
  const others = othersOf(ctx);
  const partner = firstName(input.partner.name);
  const rng = Rng.fromKey(ctx.seed, me.id, input.partner.id, ctx.gameMs, input.turn);
  const doing = ownVoice(ctx.agent.currentAction, others);
  const talkedBefore = input.relationship?.includes(LAST_TALKED) ?? false;
  if (input.turn === 0) {
    const hello = greetingFor(minuteOf(ctx.gameMs));
    if (!input.relationship)
      return say(
        rng.pick([
          `${hello}! I don't think we've met. I'm ${me.name}.`,
          `Hello there. I'm ${firstName(me.name)}; I don't believe we've met.`,
          `${hello}. I'm ${me.name}; I don't think we've met yet.`,
          `Hi! I don't believe we've met before. I'm ${firstName(me.name)}.`,
          `${hello}! I'm ${firstName(me.name)}. I don't think we've met properly.`,
        ]),
      );
    if (talkedBefore)
      return say(rng.pick([`${hello}, ${partner}! Good to see you again.`, `Hello again, ${partner}.`, `${partner}! How are things since we last talked?`]));
    return say(rng.pick([`${hello}, ${partner}! How have you been?`, `${partner}! Good to see you.`, `${hello}, ${partner}. What brings you here?`]));
  }
  if (input.turn === 1) {
    if (!input.relationship) return say(`Nice to meet you, ${partner}. I'm ${me.name}, and I'm ${doing} at the moment.`);
    return say(rng.pick([`Hi ${partner}! I'm ${doing} at the moment.`, `Oh, hello ${partner}. Just ${doing}.`, `${partner}! I'm in the middle of ${doing}.`]));
  }
  const mine = input.history.filter((l) => l.speaker === me.id);
  const last = input.history[input.history.length - 1];
  const answer = last && last.speaker !== me.id ? answerTo(ctx, input, last.acts ?? [], rng) : null;
  const accepted = mine.some((l) => l.acts?.some((a) => a.kind === 'accept')) || answer?.acts.some((a) => a.kind === 'accept') === true;
  const news = nextNews(ctx, input, others, rng);
  const plans = news ? null : plansLine(ctx, mine, rng);
  const lastTurn = input.turn >= input.maxTurns - 1;
  const content = news ?? (plans && !lastTurn ? plans : null);
  const goodbye = accepted
    ? rng.pick([`See you there, ${partner}!`, `I'll see you there then. Bye, ${partner}!`])
    : rng.pick([
        `Anyway, I should get back to it. See you, ${partner}!`,
        `It was nice talking, ${partner}. Take care!`,
        `Well, I'd better be going. Bye, ${partner}!`,
        `Good talking to you, ${partner}. See you around.`,
      ]);
  const acts = [...(answer?.acts ?? []), ...(content?.acts ?? [])];
  if (content) return { text: [answer?.text, content.text].filter(Boolean).join(' '), end: false, acts };
  return { text: [answer?.text, goodbye].filter(Boolean).join(' '), end: true, acts };
}

/** A line and what it means. */
interface Said {
  text: string;
  acts: SpeechAct[];
}

/**
 * The answer to what the partner just said: to an invitation, an acceptance or a decline (a seeded
 * decision, socialModel.ts); to news, a word that fits it (sympathy only for bad news).
 */
function answerTo(ctx: MindContext, input: TurnInput, acts: SpeechAct[], rng: Rng): Said | null {
  const invite = acts.find((a) => a.kind === 'invite');
  if (invite) return answerInvitation(ctx, input, invite.fact, invite.hostId, rng);
  const told = acts.find((a) => a.kind === 'tell');
  if (!told) return null;
  if (BAD_NEWS.test(told.fact)) return { text: rng.pick(["Oh no, that's worrying.", "That's a shame. I'm sorry to hear it."]), acts: [] };
  const g = gatheringIn(told.fact, ctx.gameMs, ctx.map);
  // The reply names what it heard of: a book club is not a party.
  if (g) return { text: rng.pick(['That sounds fun!', 'Oh, how nice.', `${capitalise(articleFor(g.kind))}? Lovely.`]), acts: [] };
  if (rateImportanceHeuristically(told.fact) >= 7)
    return { text: rng.pick(['Really? That is big news.', "No! I hadn't heard.", 'Well, that is something.']), acts: [] };
  return { text: rng.pick(['Oh, interesting.', 'Is that so?', "I hadn't heard that.", 'Good to know.']), acts: [] };
}

/** Accepting or declining an invitation: a draw with the probability of socialModel.acceptProbability, logged with its inputs. */
function answerInvitation(ctx: MindContext, input: TurnInput, fact: string, hostId: string, rng: Rng): Said {
  const p = ctx.agent.persona;
  const g = gatheringIn(fact, ctx.gameMs, ctx.map);
  const startMs = g ? g.day * GAME_MS_PER_DAY + g.minuteOfDay * 60_000 : -Infinity;
  const traits = traitsOf(p);
  const obligation = g ? obligationAt(p, g.minuteOfDay, g.sector) : null;
  const inputs: AcceptInputs = {
    ahead: startMs > ctx.gameMs,
    awake: g ? isAwakeAt(p, g.minuteOfDay) : false,
    conflict: obligation !== null,
    closenessToHost: closenessOf(input.relationship, input.relationship?.includes(LAST_TALKED) ?? false),
    outgoing: traits.talkative,
    shy: traits.discreet,
    elsewhere: g ? g.sector !== p.home && g.sector !== (p.workplace ? sectorOf(p.workplace) : null) : true,
  };
  const d = decide(ctx.seed, 'accept', [p.id, hostId, ctx.gameMs, fact], fact, hostId, acceptProbability(inputs), inputs);
  ctx.decide?.(d);
  if (d.chose) return { text: rng.pick(ACCEPTANCES), acts: [{ kind: 'accept', fact, hostId }] };
  const reason = !inputs.ahead
    ? 'it was already over'
    : !inputs.awake
      ? `${firstName(p.name)} is asleep by then`
      : obligation
        ? `${firstName(p.name)} will be ${obligation} then`
        : `${firstName(p.name)} did not feel like going`;
  const text = !inputs.ahead
    ? "Oh, I'm afraid that's already over."
    : !inputs.awake
      ? "That's past my bedtime, I'm afraid. I'll have to miss it."
      : obligation
        ? `I'm afraid I'll be ${ownVoice(obligation)} then, so I can't come.`
        : rng.pick(DECLINES);
  return { text, acts: [{ kind: 'decline', fact, hostId, reason }] };
}

/**
 * The next news the speaker tells: of its important recent memories (not heard from the partner, not
 * about them, not yet told in this talk), the first it decides to tell (socialModel.tellProbability; a
 * host's own gathering is an invitation, socialModel.inviteProbability). Each decision is logged.
 */
function nextNews(ctx: MindContext, input: TurnInput, others: Cast, rng: Rng): Said | null {
  const me = ctx.agent.persona;
  const toldFacts = input.history.flatMap((l) => (l.acts ?? []).map((a) => a.fact));
  const closeness = closenessOf(input.relationship, input.relationship?.includes(LAST_TALKED) ?? false);
  const confidant = isConfidant(input.relationship);
  const traits = traitsOf(me);
  // One decision per piece of news a turn: two memories of one gathering (a persona's own line and a whisper of it) or of nearly the same
  // words are one thing to tell, not two draws at it.
  const weighed: Array<{ sentence: string; gathering: string | null }> = [];
  for (const memory of input.news) {
    // Said as it is now: "tomorrow", heard yesterday, is "today".
    const sentence = restateDay(newsSentence(memory), memory.createdGameMs, ctx.gameMs);
    if (memory.triple?.predicate === 'said' && memory.triple.subject === input.partner.name) continue;
    if (isAbout(sentence, input.partner.name) || toldFacts.some((f) => f === sentence || similar(f, sentence))) continue;
    const same = gatheringKey(gatheringIn(sentence, ctx.gameMs, ctx.map));
    if (weighed.some((w) => (same !== null && w.gathering === same) || similar(w.sentence, sentence))) continue;
    weighed.push({ sentence, gathering: same });
    const told = addressing(firstPerson(sentence, me.name, others), input.partner.name, others);
    const own = isAbout(sentence, me.name);
    const key = [me.id, input.partner.id, ctx.gameMs, memory.id];
    // What the memory means (meaning.ts), read once: a gathering (and whether the speaker hosts it), a secret, an open call.
    const meaning = readMeaning(sentence);
    const heard = memory.triple?.predicate === 'said' || memory.kind === 'chat';
    const gathering = gatheringIn(sentence, ctx.gameMs, ctx.map);
    // A gathering that is over (or told in the past tense) is not told as coming: the eligibility decision is logged, with p 0.
    if (gathering && (gathering.past || gatheringStartMs(gathering) <= ctx.gameMs)) {
      const inputs = { over: true, startsGameMs: gatheringStartMs(gathering) };
      ctx.decide?.(decide(ctx.seed, 'tell', key, sentence, input.partner.id, 0, inputs));
      continue;
    }
    const hosting = gathering !== null && !heard && (gathering.host ? isPersonNamed(gathering.host, me.name) : own);
    if (hosting) {
      const inputs = { closeness, inviteOnly: gathering.audience === 'invited' };
      const d = decide(ctx.seed, 'invite', key, sentence, input.partner.id, inviteProbability(inputs), inputs);
      ctx.decide?.(d);
      if (!d.chose) continue;
      return { text: `${rng.pick(OWN_INTROS)}${told} ${rng.pick(INVITE_ASKS)}`, acts: [{ kind: 'invite', fact: sentence, hostId: me.id }] };
    }
    const inputs: TellInputs = {
      closeness,
      confidant,
      concernsListener: (own && input.relationship !== null) || concerns(ctx, input.partner, sentence),
      secret: meaning.secret,
      public: meaning.open,
      comingGathering: gathering !== null,
      talkative: traits.talkative,
      discreet: traits.discreet,
      hoursSinceHeard: Math.round((ctx.gameMs - Math.max(memory.createdGameMs, memory.rehearsedGameMs ?? 0)) / 360_000) / 10,
      rehearsed: (memory.rehearsedGameMs ?? 0) > memory.createdGameMs,
      secondHand: memory.triple?.predicate === 'said',
      timesDiscussed: memory.timesDiscussed ?? 0,
    };
    const d = decide(ctx.seed, 'tell', key, sentence, input.partner.id, tellProbability(inputs), inputs);
    ctx.decide?.(d);
    if (!d.chose) continue;
    // A secret passed on is passed on as one: the teller asks the listener to keep it to themself.
    const hush = inputs.secret ? ` ${rng.pick(HUSH)}` : '';
    if (own) return { text: `${rng.pick(OWN_INTROS)}${told}${hush}`, acts: [{ kind: 'tell', fact: sentence }] };
    const intro = rng.pick(HEARD_INTROS);
    const text = `${intro}${intro.endsWith('that ') ? afterThat(told) : told}${hush}`;
    return { text, acts: [{ kind: 'tell', fact: sentence }] };
  }
  return null;
}

/** A gathering's identity (where and when), or null. */
function gatheringKey(g: { sector: string; day: number; minuteOfDay: number } | null): string | null {
  return g ? `${g.sector}|${g.day}|${g.minuteOfDay}` : null;
}

/** Whether news concerns the listener: it names them or someone they know, or shares a word with their background (an interest). */
function concerns(ctx: MindContext, listener: Persona, sentence: string): boolean {
  if (mentions(sentence, listener.name)) return true;
  // The listener's relationships, not the town (10,000 names a sentence).
  for (const id of Object.keys(listener.relationships)) {
    const name = id !== listener.id && listener.relationships[id] ? ctx.names.get(id) : undefined;
    if (name !== undefined && mentions(sentence, name)) return true;
  }
  const background = new Set(contentWords(listener.learned));
  return contentWords(sentence).some((w) => background.has(w));
}

/** Longer words of a text, lower-cased: what an interest would share with news. */
function contentWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w.length >= 6);
}

/** What the speaker does next, once per talk (`mine`: its lines so far): "Later I'll be working at Town Hall." (the place said once). */
function plansLine(ctx: MindContext, mine: ConversationLine[], rng: Rng): Said | null {
  const next = nextActionOf(ctx);
  if (!next || mine.some((l) => l.acts?.some((a) => a.kind === 'plan'))) return null;
  const me = ctx.agent.persona;
  const doing = withPlace(ownVoice(next.description, othersOf(ctx)), next.address, me.home);
  const fact = thirdPerson(`I will be ${doing}.`, me.name, pronounsOf(me, true));
  return { text: `${rng.pick(PLAN_LEADS)} I'll be ${doing}.`, acts: [{ kind: 'plan', fact }] };
}

/** "working" + "Town Hall: office" -> "working at Town Hall"; a description that names the place already keeps it once. */
export function withPlace(description: string, address: string, home: string): string {
  const sector = address.split(': ')[0];
  const place = sector === home ? 'home' : sector;
  if (description.toLowerCase().includes(place.toLowerCase())) return description;
  return `${description} at ${place}`;
}

// ---- summary -------------------------------------------------------------------------------------

/** Reads the talk's acts (never its phrases): what each learned, how each now sees the other, and the invitations each accepted or declined. */
export function offlineSummary(input: SummaryInput): ConversationSummary {
  const [ca, cb] = input.contexts;
  const people = [ca.agent.persona, cb.agent.persona] as const;
  const learned: Record<string, string[]> = { [people[0].id]: [], [people[1].id]: [] };
  const answered: Record<string, Extract<SpeechAct, { kind: 'accept' | 'decline' }>> = {};
  const topics: string[] = [];
  for (const line of input.lines) {
    const speaker = line.speaker === people[0].id ? people[0] : people[1];
    const listener = speaker === people[0] ? people[1] : people[0];
    for (const act of line.acts ?? []) {
      if (act.kind === 'accept' || act.kind === 'decline') {
        answered[speaker.id] = act;
        continue;
      }
      if (!learned[listener.id].includes(act.fact)) learned[listener.id].push(act.fact);
      topics.push(shorten(act.fact, 60));
    }
  }
  const about = topics.length ? ` They talked about: ${topics.join('; ')}` : ' They exchanged greetings.';
  const invitations = invitationsIn(input.lines, ca);
  const relationships: Record<string, string> = {};
  const plans: Record<string, PlanningThought | null> = {};
  input.contexts.forEach((ctx, i) => {
    const self = people[i];
    const other = people[1 - i];
    relationships[self.id] = revisedRelationship(input.relationships[i], self, other, ctx.gameMs, learned[self.id][0]);
    const act = answered[self.id];
    plans[self.id] = act ? planningThought(ctx, act) : null;
  });
  return { summary: `${people[0].name} and ${people[1].name} had a conversation.${about}`, learned, relationships, plans, invitations };
}

/** The invitations the talk's acts made (an invite act, and the listener's accept or decline of the same fact). */
function invitationsIn(lines: ConversationLine[], ctx: MindContext): InvitationRecord[] {
  const out: InvitationRecord[] = [];
  for (const [k, line] of lines.entries()) {
    for (const act of line.acts ?? []) {
      if (act.kind !== 'invite') continue;
      const guest = lines.slice(k + 1).find((l) => l.speaker !== line.speaker);
      if (!guest) continue;
      const answer = lines
        .slice(k + 1)
        .filter((l) => l.speaker === guest.speaker)
        .flatMap((l) => l.acts ?? [])
        .find((a) => (a.kind === 'accept' || a.kind === 'decline') && a.fact === act.fact);
      const g = gatheringIn(act.fact, ctx.gameMs, ctx.map);
      out.push({
        hostId: act.hostId,
        host: line.speakerName,
        guestId: guest.speaker,
        about: g ? `the ${g.kind} at ${g.sector}` : act.fact,
        when: g ? `${dateLabel(g.day)} at ${spokenTime(g.minuteOfDay)}` : null,
        answer: answer?.kind === 'accept' ? 'accepted' : answer?.kind === 'decline' ? 'declined' : 'undecided',
      });
    }
  }
  return out;
}

/** The persona's own line about the other (or that they met today), and the last talk with what was heard in it. */
function revisedRelationship(before: string | null, self: Persona, other: Persona, gameMs: number, heard: string | undefined): string {
  const day = Math.floor(gameMs / 86_400_000);
  const base = before?.split(LAST_TALKED)[0] ?? `${firstName(other.name)} is someone ${firstName(self.name)} met on ${dateLabel(day)}.`;
  const news = heard ? `; ${firstName(other.name)} said that ${shorten(heard.replace(/[.!?]$/, ''), 100)}` : '';
  return `${base}${LAST_TALKED}${dateLabel(day)}${news}.`;
}

/**
 * Accepting an invitation: "Claire Moreau plans to go to the party at Hobbs Cafe on February 14 at 5pm, as
 * Isabella Rivera invited her.", and today's action for it; declining: "Claire Moreau declined …: <reason>."
 */
function planningThought(ctx: MindContext, act: Extract<SpeechAct, { kind: 'accept' | 'decline' }>): PlanningThought | null {
  const g = gatheringIn(act.fact, ctx.gameMs, ctx.map);
  if (!g) return null;
  const p = ctx.agent.persona;
  const host = ctx.names.get(act.hostId) ?? 'the host';
  const what = `the ${g.kind} at ${g.sector} on ${dateLabel(g.day)} at ${spokenTime(g.minuteOfDay)}`;
  if (act.kind === 'decline')
    return { thought: `${p.name} declined ${host}'s invitation to ${what}: ${act.reason}.`, appointment: null, commitment: 'decline' };
  const wake = parseClock(p.wakeAt);
  const today = planMomentAt(ctx.gameMs, wake, parseClock(p.sleepAt)).day;
  const appointment: PlannedAction | null = g.day === today ? gatheringAction(g, wake) : null;
  return { thought: `${p.name} plans to go to ${what}, as ${host} invited ${pronounsOf(p, true).object}.`, appointment, commitment: 'accept' };
}

// ---- shared --------------------------------------------------------------------------------------

function say(text: string): TurnOutput {
  return { text, end: false };
}

/** The others in town, with their pronouns: whom the speaker's sentences may name. */
function othersOf(ctx: MindContext): Cast {
  return townCast(ctx.names, ctx.agent.persona.name, ctx.pronouns);
}

function isAwakeAt(p: Persona, minuteOfDay: number): boolean {
  const wake = parseClock(p.wakeAt);
  const sleep = minuteOfWakingDay(parseClock(p.sleepAt), wake);
  const m = minuteOfWakingDay(minuteOfDay, wake);
  return m >= wake && m + 30 <= sleep;
}

function minuteOf(gameMs: number): number {
  return Math.floor((gameMs % 86_400_000) / 60_000);
}

/** The minute of the agent's plan in force now: past 1440 between midnight and a bedtime after it. */
export function planMinuteOf(ctx: MindContext): number {
  const p = ctx.agent.persona;
  return planMomentAt(ctx.gameMs, parseClock(p.wakeAt), parseClock(p.sleepAt)).minute;
}

function greetingFor(minute: number): string {
  if (minute < 12 * 60) return 'Good morning';
  if (minute < 18 * 60) return 'Good afternoon';
  return 'Good evening';
}

/** The next action worth mentioning: not what it does now, and not a mundane one (sleeping, showering, dressing). */
function nextActionOf(ctx: MindContext): PlannedAction | null {
  const minute = planMinuteOf(ctx);
  const current = ctx.agent.currentAction;
  return (
    ctx.agent.plan?.actions.find(
      (a) => a.startMinute > minute && a.description !== current && !/sleep|dress|bed\b/i.test(a.description) && rateImportanceHeuristically(a.description) > 1,
    ) ?? null
  );
}

/** Memories that do not say nearly the same thing as an earlier one. */
function distinct(memories: Memory[]): Memory[] {
  const out: Memory[] = [];
  for (const m of memories) if (!out.some((o) => similar(newsSentence(o), newsSentence(m)))) out.push(m);
  return out;
}

/** "a book club", "an open day", "the Valentine's Day party" (a name's possessive takes "the"). */
function articleFor(kind: string): string {
  if (/^[A-Z]/.test(kind)) return `the ${kind}`;
  return `${/^[aeiou]/i.test(kind) ? 'an' : 'a'} ${kind}`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Whether two sentences say nearly the same thing: most of their words are shared. */
export function similar(a: string, b: string): boolean {
  const words = (s: string) =>
    new Set(
      s
        .toLowerCase()
        .split(/[^a-z]+/)
        .filter((w) => w.length > 3),
    );
  const x = words(a);
  const y = words(b);
  if (x.size === 0 || y.size === 0) return false;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / Math.min(x.size, y.size) >= 0.6;
}
