// The offline mind's interview answers: every answer is made of the agent's own records (its persona,
// today's plan, what it thinks of the people it knows, and the memories retrieved for the question),
// said in its own voice. Each question of the benchmark gets its own kind of answer, so two questions
// are never answered alike: an introduction is not what matters to it, "who is Ruth?" is not how it
// feels about Ruth, today's plans are not what it does later, and a reaction takes up its own day.
import type { Memory } from '../store/types';
import type { Persona } from '../world/persona';
import { Rng } from '../sim/rng';
import type { PlannedAction } from '../protocol/plan';
import type { MindContext } from './mind';
import { firstName, firstPerson, isAbout, mentions, ownVoice } from './voice';
import { afterThat, capitalise, takenUp, townCast, type Cast } from './grammar';
import { INSIGHT_LABEL, newsSentence, spokenTime } from './offlinePlanning';
import { rateImportanceHeuristically } from './offlineImportance';
import { planMinuteOf, similar, withPlace } from './offlineTalk';

/** How a revised relationship records the last talk (offlineTalk.ts writes it); the persona's own line comes before it. */
const LAST_TALKED = ' Last talked on ';
/** Words in what it thinks of someone that say the two are close. */
const CLOSE = /\b(friend|wife|husband|partner|love|dear|daughter|son|sister|brother|mother|father|mentor|closest|fond)\b/i;
/** A situation an interviewer puts to the agent, and what it would do: `who` is someone it knows, `place` where it is, `home` its home. */
const SITUATIONS: Array<[RegExp, (who: string, place: string, home: string) => string]> = [
  [/\b(burn\w*|fire|smoke)\b/, (_, __, home) => `I'd rush to take it off the heat and open the kitchen window at ${home}`],
  [/\b(closed|shut)\b/, (who) => `I'd ask ${who} where else I could go, and try again another day`],
  [/\b(broken|broke|leak\w*)\b/, (who) => `I'd see if I can fix it, or ask ${who} to help`],
  [/\b(sick|ill|hurt|fell)\b/, (who) => `I'd make sure they are all right, and send for ${who} if they need more help`],
  [/\b(late|missed)\b/, () => "I'd apologise and make up for it"],
  [/\b(rain\w*|storm|snow\w*)\b/, (_, place) => `I'd take an umbrella and go on to ${place} anyway`],
];

/** An in-character answer to `question` from the agent's own records and the memories retrieved for it. */
export function offlineInterview(ctx: MindContext, question: string, memories: Memory[]): string {
  const p = ctx.agent.persona;
  const q = question.toLowerCase();
  const rng = Rng.fromKey(ctx.seed, p.id, question, ctx.gameMs);
  const topic = /\b(?:have you heard|do you know|did you hear)\s+(?:about|of)\s+([^?]+)\?/i.exec(question)?.[1];
  if (topic) return heardAbout(ctx, topic, memories);
  if (/\bintroduc|\babout yourself\b|\byour name\b/.test(q)) return introduction(ctx);
  if (/\bwho are you\b|\bwhat matters\b/.test(q)) return whatMatters(ctx, memories);
  const person = personIn(ctx, question);
  if (person) return /\b(feel|think of|opinion)\b/.test(q) ? feelingAbout(ctx, person, memories) : whoIs(ctx, person, memories);
  if (/\bwhat (would|will|do) you do\b|\bhow would you (react|respond)\b/.test(q)) return reaction(ctx, question, rng);
  if (/\b(later|afternoon|tonight|this evening)\b/.test(q)) return laterAnswer(ctx, memories);
  if (/\b(plan|plans|today|tomorrow|doing|schedule)\b/.test(q)) return plansAnswer(ctx, memories);
  if (/\b(inspire|important|learn|spend an hour|proud|worr|life|think about|on your mind)\b/.test(q)) return reflectionAnswer(ctx, memories, rng);
  // What it heard first, then what it saw or thought; a talk's summary only says whom it talked with.
  const told = (m: Memory) => (m.triple?.predicate === 'said' ? 0 : m.triple?.predicate === 'talked with' ? 2 : 1);
  const recalled = distinct([...memories].filter((m) => m.kind !== 'plan').sort((a, b) => told(a) - told(b)))
    .slice(0, 3)
    .map((m) => recall(m, p, othersOf(ctx)));
  if (recalled.length === 0) return `I'm not sure. I don't remember anything about that.`;
  return `${rng.pick(['Let me think.', 'Hmm.', 'As far as I remember:'])} ${recalled.join(' ')}`;
}

/**
 * "Have you heard about <topic>?": yes with what it remembers, when a retrieved memory holds most of the
 * topic's content words (at least half, as the analysis's awareness rule asks); otherwise no. What it
 * was not reminded of by retrieval it does not know it knows, as with the paper's interviews.
 */
function heardAbout(ctx: MindContext, topic: string, memories: Memory[]): string {
  const p = ctx.agent.persona;
  const words = [...new Set(topic.toLowerCase().split(/[^a-z]+/))].filter((w) => w.length > 3);
  const held = (m: Memory) => words.filter((w) => new RegExp(`\\b${w}`).test(newsSentence(m).toLowerCase())).length;
  const talk = (m: Memory) => (m.triple?.predicate === 'talked with' ? 1 : 0);
  // The memories that say most of the topic first, a talk's summary after what was told.
  const about = distinct(
    memories.filter((m) => m.kind !== 'plan' && held(m) >= Math.max(1, Math.ceil(words.length / 2))).sort((a, b) => held(b) - held(a) || talk(a) - talk(b)),
  ).slice(0, 2);
  if (about.length === 0) return `No, I haven't heard about ${topic.trim()}.`;
  // A talk's summary is told as it is (recall would only say whom it talked with).
  const told = about.map((m) => (talk(m) ? firstPerson(m.description, p.name, othersOf(ctx)) : recall(m, p, othersOf(ctx))));
  return `Yes. ${told.join(' ')}`;
}

function introduction(ctx: MindContext): string {
  const p = ctx.agent.persona;
  const others = othersOf(ctx);
  const work = p.workplace && p.workplace !== p.home ? `, and my days are spent at ${p.workplace}` : '';
  return `I'm ${p.name}, ${p.age}. ${firstPerson(p.learned, p.name, others)} I live at ${p.home}${work}.`;
}

/** Its status (what it is after now), what weighs most among its memories, and its traits. */
function whatMatters(ctx: MindContext, memories: Memory[]): string {
  const p = ctx.agent.persona;
  const others = othersOf(ctx);
  const focus = firstPerson(p.currently.split(/ Still on \S+ mind from yesterday: /)[0], p.name, others);
  const weighty = distinct(memories.filter((m) => (m.kind === 'thought' || m.triple?.predicate === 'said') && !similar(newsSentence(m), p.currently)))
    .sort((a, b) => b.importance - a.importance || b.id - a.id)
    .slice(0, 1)
    .map((m) => ` It's on my mind too that ${afterThat(recall(m, p, others))}`);
  return `I'm ${p.name}. These days what matters to me is this: ${focus}${weighty.join('')} People would say I'm ${listed(p.innate)}.`;
}

/** Who someone is to it: what it thinks of them (without when they last talked), and what it saw of them or heard from them. */
function whoIs(ctx: MindContext, person: { id: string; name: string }, memories: Memory[]): string {
  const p = ctx.agent.persona;
  const others = othersOf(ctx);
  const first = firstName(person.name);
  const relationship = ctx.relationships.get(person.id)?.split(LAST_TALKED)[0];
  const about = distinct(memories.filter((m) => mentions(m.description, person.name) && m.triple?.predicate !== 'talked with')).slice(0, 2);
  const parts: string[] = [];
  if (relationship) parts.push(firstPerson(relationship, p.name, others));
  for (const m of about) {
    const sentence = recall(m, p, others);
    if (!parts.some((s) => similar(s, sentence))) parts.push(sentence);
  }
  if (parts.length === 0) return `I don't really know ${first}. We haven't talked, as far as I remember.`;
  return `${first}? ${parts.join(' ')}`;
}

/** How it feels about someone: close or not by what it thinks of them, how often they talked, and their last talk. */
function feelingAbout(ctx: MindContext, person: { id: string; name: string }, memories: Memory[]): string {
  const p = ctx.agent.persona;
  const others = othersOf(ctx);
  const first = firstName(person.name);
  const relationship = ctx.relationships.get(person.id);
  if (!relationship) return `I can't say much about ${first}; we haven't really met.`;
  const [line, last] = relationship.split(LAST_TALKED);
  const talks = memories.filter((m) => m.triple?.predicate === 'talked with' && mentions(m.triple.object, person.name));
  const feeling = CLOSE.test(line)
    ? `I'm very fond of ${first}.`
    : / met on /.test(line)
      ? `I've only just got to know ${first}, but I like what I've seen.`
      : `I get on well with ${first}.`;
  const why = firstPerson(line.trim(), p.name, others);
  const lastTalk = last ? ` We last talked on ${last.replace(/\.$/, '')}.` : talks.length ? ` ${recall(talks[0], p, others)}` : '';
  return `${feeling} ${why}${lastTalk}`;
}

/** The situation taken up in the first person, what it would do (with someone it knows, or where it is), and its own day. */
function reaction(ctx: MindContext, question: string, rng: Rng): string {
  const p = ctx.agent.persona;
  const others = othersOf(ctx);
  const situation = firstPerson(takenUp(question.split(/[!?.]/)[0].trim()), p.name, others);
  const friend = Object.keys(p.relationships)
    .map((id) => ctx.names.get(id))
    .find((n): n is string => n !== undefined);
  const where = placeOf(ctx.agent.currentPlace, p.home);
  const response = SITUATIONS.find(([pattern]) => pattern.test(question.toLowerCase()))?.[1](friend ? firstName(friend) : 'a neighbour', where, p.home);
  const doing = withPlace(ownVoice(ctx.agent.currentAction, others), ctx.agent.currentPlace, p.home);
  return `${situation}? ${response ?? "I'd stop and deal with it right away"}, ${rng.pick([`then get back to ${doing}`, `and ${doing} can wait`])}.`;
}

function plansAnswer(ctx: MindContext, memories: Memory[]): string {
  const p = ctx.agent.persona;
  const others = othersOf(ctx);
  const now = `Right now I'm ${withPlace(ownVoice(ctx.agent.currentAction, others), ctx.agent.currentPlace, p.home)}.`;
  const next = ahead(ctx)[0];
  const then = next
    ? ` Next, around ${spokenTime(next.startMinute % 1440)}, I'll be ${withPlace(ownVoice(next.description, others), next.address, p.home)}.`
    : '';
  return `${now}${then}${gatheringOrIntention(ctx, memories, next)}`;
}

/** What it does after the next thing: the later actions of its plan, with their times and places. */
function laterAnswer(ctx: MindContext, memories: Memory[]): string {
  const p = ctx.agent.persona;
  const others = othersOf(ctx);
  const [next, ...rest] = ahead(ctx);
  const later = rest
    .filter((a, i) => a.emoji !== '🎉' && a.description !== next?.description && rest.findIndex((b) => b.description === a.description) === i)
    .slice(0, 2);
  const said = later.map((a) => `around ${spokenTime(a.startMinute % 1440)} I'll be ${withPlace(ownVoice(a.description, others), a.address, p.home)}`);
  const plan = said.length
    ? `Later on, ${said.join(', and ')}.`
    : `After ${next ? ownVoice(next.description, others) : 'this'}, not much: I'll wind down at home.`;
  return `${plan}${gatheringOrIntention(ctx, memories, null)}`;
}

function gatheringOrIntention(ctx: MindContext, memories: Memory[], except: PlannedAction | null | undefined): string {
  const p = ctx.agent.persona;
  const minute = planMinuteOf(ctx);
  const gathering = ctx.agent.plan?.actions.find((a) => a.emoji === '🎉' && a.startMinute > minute && a !== except);
  if (gathering) return ` Later today I'm ${gathering.description}, at ${spokenTime(gathering.startMinute % 1440)}.`;
  const intention = memories.find((m) => m.triple?.predicate === 'plans');
  return intention ? ` ${firstPerson(intention.description, p.name, othersOf(ctx))}` : '';
}

/** Its reflections (without their labels) and its aim. */
function reflectionAnswer(ctx: MindContext, memories: Memory[], rng: Rng): string {
  const p = ctx.agent.persona;
  const others = othersOf(ctx);
  const thoughts = distinct(memories.filter((m) => m.kind === 'thought' && m.evidenceIds.length > 0)).slice(0, 2);
  const aim = firstPerson(p.currently.split(/ Still on \S+ mind from yesterday: /)[0], p.name, others);
  if (thoughts.length === 0) return `${rng.pick(['Honestly, right now', 'Mostly'])} it's this: ${aim} ${firstPerson(p.learned, p.name, others)}`;
  const told = thoughts.map((t) => firstPerson(capitalise(t.description.replace(INSIGHT_LABEL, '')), p.name, others)).join(' ');
  return `${rng.pick(["I've been thinking.", 'Lately I keep coming back to this.'])} ${told} And above all: ${aim}`;
}

/** A memory as the agent tells it: in its own voice, with who told it; news about the teller is said as theirs. */
function recall(m: Memory, self: Persona, others: Cast): string {
  if (m.triple?.predicate === 'talked with') return `I talked with ${firstName(m.triple.object)}.`;
  if (m.triple?.predicate === 'said') {
    const teller = m.triple.subject;
    const fact = firstPerson(newsSentence(m), self.name, others);
    if (isAbout(fact, teller)) return `${fact.replace(/[.!?]$/, '')}; ${firstName(teller)} told me so.`;
    return `${firstName(teller)} told me that ${afterThat(fact)}`;
  }
  if (m.kind === 'observation' && m.triple?.predicate === 'is' && m.triple.subject !== self.name) return `I saw ${newsSentence(m).replace(/ is /, ' ')}`;
  return firstPerson(capitalise(newsSentence(m).replace(INSIGHT_LABEL, '')), self.name, others);
}

// ---- shared --------------------------------------------------------------------------------------

/** The others in town, with their pronouns: whom the agent's sentences may name. */
function othersOf(ctx: MindContext): Cast {
  return townCast(ctx.names, ctx.agent.persona.name, ctx.pronouns);
}

/** The person a question names (full or first name), other than the agent itself. */
function personIn(ctx: MindContext, question: string): { id: string; name: string } | null {
  for (const [id, name] of ctx.names) if (id !== ctx.agent.persona.id && mentions(question, name)) return { id, name };
  return null;
}

/** The plan's actions still ahead that are worth mentioning: not what it does now, nor sleeping, dressing or the like. */
function ahead(ctx: MindContext): PlannedAction[] {
  const minute = planMinuteOf(ctx);
  const current = ctx.agent.currentAction;
  return (
    ctx.agent.plan?.actions.filter(
      (a) => a.startMinute > minute && a.description !== current && !/sleep|dress|bed\b/i.test(a.description) && rateImportanceHeuristically(a.description) > 1,
    ) ?? []
  );
}

function placeOf(address: string, home: string): string {
  const sector = address.split(': ')[0];
  return sector === home || sector === '' ? 'home' : sector;
}

/** Memories that do not say nearly the same thing as an earlier one. */
function distinct(memories: Memory[]): Memory[] {
  const out: Memory[] = [];
  for (const m of memories) if (!out.some((o) => similar(newsSentence(o), newsSentence(m)))) out.push(m);
  return out;
}

function listed(words: readonly string[]): string {
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}` : (words[0] ?? 'myself');
}
