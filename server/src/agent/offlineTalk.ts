// The offline mind's talk: conversation lines and their summary, from templates (interview answers: offlineInterview.ts)
// that carry real content (the relationship, the speaker's news, its plans) in the right voice (voice.ts).
// Lines vary with a seeded pick per speaker, partner, time and turn; the summary reads the lines back
// through the same phrase tables, so what was said is what is learned.
import type { Memory } from '../store/types';
import type { Persona } from '../world/persona';
import { Rng } from '../sim/rng';
import { minuteOfWakingDay, parseClock, planMomentAt } from '../world/clockText';
import type { PlannedAction } from '../protocol/plan';
import type { ConversationLine, ConversationSummary, MindContext, PlanningThought, SummaryInput, TurnInput, TurnOutput } from './mind';
import { addressing, firstName, firstPerson, isAbout, mentions, ownVoice, thirdPerson, unaddressing } from './voice';
import { dateLabel, gatheringAction, gatheringIn, newsSentence, spokenTime } from './offlinePlanning';
import { rateImportanceHeuristically } from './offlineImportance';

/** News someone else is the subject of: the sentence follows as is. */
const HEARD_INTROS = ['Did you hear? ', 'Have you heard? ', 'I heard that ', 'Word around town is that '];
/** News about the speaker: an "I" sentence follows. */
const OWN_INTROS = ['Guess what: ', 'Some news from me: ', 'You know what? '];
const ACCEPTANCES = ["I'd love to come!", "Count me in, I'll be there.", 'That sounds lovely. I will come.'];
const DECLINES = ["Oh, I'm afraid I can't make it then.", "What a pity, I won't be able to come."];
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
      return say(rng.pick([`${hello}! I don't think we've met. I'm ${me.name}.`, `Hello there. I'm ${firstName(me.name)}; I don't believe we've met.`]));
    if (talkedBefore)
      return say(rng.pick([`${hello}, ${partner}! Good to see you again.`, `Hello again, ${partner}.`, `${partner}! How are things since we last talked?`]));
    return say(rng.pick([`${hello}, ${partner}! How have you been?`, `${partner}! Good to see you.`, `${hello}, ${partner}. What brings you here?`]));
  }
  if (input.turn === 1) {
    if (!input.relationship) return say(`Nice to meet you, ${partner}. I'm ${me.name}, and I'm ${doing} at the moment.`);
    return say(rng.pick([`Hi ${partner}! I'm ${doing} at the moment.`, `Oh, hello ${partner}. Just ${doing}.`, `${partner}! I'm in the middle of ${doing}.`]));
  }
  const said = input.history.map((l) => l.text);
  const last = input.history[input.history.length - 1];
  const reaction = last && last.speaker !== me.id ? reactionTo(ctx, last.text, input.partner.name, rng) : null;
  const accepted =
    input.history.some((l) => l.speaker === me.id && ACCEPTANCES.some((a) => l.text.includes(a))) || (reaction !== null && ACCEPTANCES.includes(reaction));
  const news = nextNews(ctx, input, said, others, rng);
  const plans = news
    ? null
    : plansLine(
        ctx,
        input.history.filter((l) => l.speaker === me.id).map((l) => l.text),
        rng,
      );
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
  if (content) return say([reaction, content].filter(Boolean).join(' '));
  return { text: [reaction, goodbye].filter(Boolean).join(' '), end: true };
}

/** The partner's news back: accepting or declining an invitation, or a word that fits how much it matters. */
function reactionTo(ctx: MindContext, line: string, partnerName: string, rng: Rng): string | null {
  const heard = newsIn(line, partnerName);
  if (!heard) return null;
  const gathering = gatheringIn(heard, ctx.gameMs, ctx.map);
  if (gathering && /invit|everyone|all welcome|wants .* to come|party|quiz|concert|festival|celebration/i.test(heard)) {
    const p = ctx.agent.persona;
    const today = planMomentAt(ctx.gameMs, parseClock(p.wakeAt), parseClock(p.sleepAt)).day;
    return gathering.day >= today && isAwakeAt(p, gathering.minuteOfDay) ? rng.pick(ACCEPTANCES) : rng.pick(DECLINES);
  }
  if (/\b(worried|closed|fire|accident|died|hospital|cancel\w*|fight)\b/i.test(heard))
    return rng.pick(["Oh no, that's worrying.", "That's a shame. I'm sorry to hear it."]);
  if (rateImportanceHeuristically(heard) >= 7) return rng.pick(['Really? That is big news.', "No! I hadn't heard.", 'Well, that is something.']);
  return rng.pick(['Oh, interesting.', 'Is that so?', "I hadn't heard that.", 'Good to know.']);
}

/** The most important news the speaker has not told in this talk, not heard from the partner and not about them, said in the right voice. */
function nextNews(ctx: MindContext, input: TurnInput, said: string[], others: string[], rng: Rng): string | null {
  const me = ctx.agent.persona;
  const spoken = said.map((l) => newsIn(l, me.name) ?? l);
  for (const memory of input.news) {
    const sentence = newsSentence(memory);
    if (memory.triple?.predicate === 'said' && memory.triple.subject === input.partner.name) continue;
    const told = addressing(firstPerson(sentence, me.name, others), input.partner.name);
    if (isAbout(sentence, input.partner.name) || spoken.some((l) => similar(l, sentence) || similar(l, told))) continue;
    if (isAbout(sentence, me.name)) return `${rng.pick(OWN_INTROS)}${told}`;
    const intro = rng.pick(HEARD_INTROS);
    return `${intro}${intro.endsWith('that ') ? told.replace(/^You\b/, 'you').replace(/^Your\b/, 'your') : told}`;
  }
  return null;
}

/** What the speaker does next, once per talk (`mine`: its lines so far): "Later I'll be working at Town Hall." (the place said once). */
function plansLine(ctx: MindContext, mine: string[], rng: Rng): string | null {
  const next = nextActionOf(ctx);
  if (!next || mine.some((l) => l.includes(" I'll be "))) return null;
  return `${rng.pick(PLAN_LEADS)} I'll be ${withPlace(ownVoice(next.description, othersOf(ctx)), next.address, ctx.agent.persona.home)}.`;
}

/** "working" + "Town Hall: office" -> "working at Town Hall"; a description that names the place already keeps it once. */
export function withPlace(description: string, address: string, home: string): string {
  const sector = address.split(': ')[0];
  const place = sector === home ? 'home' : sector;
  if (description.toLowerCase().includes(place.toLowerCase())) return description;
  return `${description} at ${place}`;
}

// ---- summary -------------------------------------------------------------------------------------

/** Reads the talk back: what each learned, how each now sees the other, and the invitations each accepted. */
export function offlineSummary(input: SummaryInput): ConversationSummary {
  const [ca, cb] = input.contexts;
  const people = [ca.agent.persona, cb.agent.persona] as const;
  const learned: Record<string, string[]> = { [people[0].id]: [], [people[1].id]: [] };
  const accepted: Record<string, string> = {};
  const topics: string[] = [];
  let lastNews: { fact: string; to: string } | null = null;
  for (const line of input.lines) {
    const speaker = line.speaker === people[0].id ? people[0] : people[1];
    const listener = speaker === people[0] ? people[1] : people[0];
    if (lastNews && lastNews.to === speaker.id && ACCEPTANCES.some((a) => line.text.includes(a))) accepted[speaker.id] = lastNews.fact;
    lastNews = null;
    for (const fact of factsIn(line.text, speaker, listener)) {
      if (!learned[listener.id].includes(fact)) learned[listener.id].push(fact);
      topics.push(shorten(fact, 60));
      lastNews = { fact, to: listener.id };
    }
  }
  const about = topics.length ? ` They talked about: ${topics.join('; ')}` : ' They exchanged greetings.';
  const relationships: Record<string, string> = {};
  const plans: Record<string, PlanningThought | null> = {};
  input.contexts.forEach((ctx, i) => {
    const self = people[i];
    const other = people[1 - i];
    relationships[self.id] = revisedRelationship(input.relationships[i], self, other, ctx.gameMs, learned[self.id][0]);
    plans[self.id] = accepted[self.id] ? planningThought(ctx, accepted[self.id]) : null;
  });
  return { summary: `${people[0].name} and ${people[1].name} had a conversation.${about}`, learned, relationships, plans };
}

/** What a line tells: news (heard or the speaker's own) and plans, as standalone third-person sentences. */
function factsIn(text: string, speaker: Persona, listener: Persona): string[] {
  const out: string[] = [];
  const heard = heardIn(text);
  if (heard)
    out.push(
      unaddressing(heard.replace(/^you\b/, 'You').replace(/^your\b/, 'Your'), listener.name)
        .replace(/\bme\b/g, speaker.name)
        .replace(/\bmy\b/g, `${speaker.name}'s`),
    );
  for (const intro of OWN_INTROS) {
    const at = text.indexOf(intro);
    if (at >= 0) out.push(thirdPerson(text.slice(at + intro.length), speaker.name));
  }
  const plan = new RegExp(`(?:^|\\s)(?:${PLAN_LEADS.join('|')}) I'll be (.+?)\\.(?:\\s|$)`).exec(text);
  if (plan) out.push(`${speaker.name} will be ${plan[1]}.`);
  return out;
}

/** The news sentence after a heard-news intro in a line, or null. */
function heardIn(line: string): string | null {
  for (const intro of HEARD_INTROS) {
    const at = line.indexOf(intro);
    if (at >= 0) return line.slice(at + intro.length);
  }
  return null;
}

/** The news a line tells, heard or the speaker's own, as a third-person sentence; null when it tells none. */
function newsIn(line: string, speakerName: string): string | null {
  const heard = heardIn(line);
  if (heard) return heard;
  for (const intro of OWN_INTROS) {
    const at = line.indexOf(intro);
    if (at >= 0) return thirdPerson(line.slice(at + intro.length), speakerName);
  }
  return null;
}

/** The persona's own line about the other (or that they met today), and the last talk with what was heard in it. */
function revisedRelationship(before: string | null, self: Persona, other: Persona, gameMs: number, heard: string | undefined): string {
  const day = Math.floor(gameMs / 86_400_000);
  const base = before?.split(LAST_TALKED)[0] ?? `${firstName(other.name)} is someone ${firstName(self.name)} met on ${dateLabel(day)}.`;
  const news = heard ? `; ${firstName(other.name)} said that ${shorten(heard.replace(/[.!?]$/, ''), 100)}` : '';
  return `${base}${LAST_TALKED}${dateLabel(day)}${news}.`;
}

/** Accepting an invitation: "Claire Moreau plans to go to the party at Hobbs Cafe on February 14 at 5pm.", and today's action for it. */
function planningThought(ctx: MindContext, fact: string): PlanningThought | null {
  const g = gatheringIn(fact, ctx.gameMs, ctx.map);
  if (!g) return null;
  const p = ctx.agent.persona;
  const wake = parseClock(p.wakeAt);
  const today = planMomentAt(ctx.gameMs, wake, parseClock(p.sleepAt)).day;
  const appointment: PlannedAction | null = g.day === today ? gatheringAction(g, wake) : null;
  return { thought: `${p.name} plans to go to the ${g.kind} at ${g.sector} on ${dateLabel(g.day)} at ${spokenTime(g.minuteOfDay)}.`, appointment };
}

// ---- shared --------------------------------------------------------------------------------------

function say(text: string): TurnOutput {
  return { text, end: false };
}

function othersOf(ctx: MindContext): string[] {
  return [...ctx.names.values()].filter((n) => n !== ctx.agent.persona.name);
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
