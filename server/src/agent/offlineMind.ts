// The offline mind: every cognitive operation with no LLM, deterministic from the world seed and the
// persona. Plans follow the persona's routine, importance comes from a keyword table, speech from
// templates that carry real content (greetings, the speaker's most important news, its plans), so news
// really travels from agent to agent through conversations.
import type { Memory } from '../store/types';
import type { GameObjectNode, TownMap } from '../world/types';
import type { Persona } from '../world/persona';
import { resolvePlaceRef } from '../world/places';
import { minuteOfWakingDay, parseClock, planMomentAt, wakingDay } from '../world/clockText';
import { Rng } from '../sim/rng';
import { formatClock } from '../protocol/time';
import type { Observation } from '../sim/types';
import type { DayPlan, HourBlock, PlannedAction } from '../protocol/plan';
import type {
  ConversationLine,
  ConversationSummary,
  Insight,
  Mind,
  MindContext,
  Reaction,
  TurnInput,
  TurnOutput,
} from './mind';

/** [what the person who works there does, what a visitor does] with each kind of object. */
const OBJECT_VERBS: Record<string, [string, string]> = {
  bed: ['resting in bed', 'resting in bed'],
  desk: ['working at the desk', 'reading at a desk'],
  wardrobe: ['picking out clothes', 'picking out clothes'],
  stove: ['cooking', 'cooking'],
  fridge: ['restocking the fridge', 'getting something from the fridge'],
  table: ['clearing the tables', 'sitting at a table'],
  sofa: ['relaxing on the sofa', 'relaxing on the sofa'],
  bookshelf: ['sorting books', 'browsing the bookshelf'],
  shower: ['taking a shower', 'taking a shower'],
  sink: ['washing dishes', 'washing up'],
  piano: ['playing the piano', 'listening to the piano'],
  easel: ['painting at the easel', 'looking at a painting'],
  tv: ['watching TV', 'watching TV'],
  counter: ['serving customers at the counter', 'ordering at the counter'],
  'coffee machine': ['brewing coffee', 'waiting for a coffee'],
  shelf: ['stocking the shelves', 'browsing the shelves'],
  blackboard: ['writing on the blackboard', 'copying notes from the blackboard'],
  lectern: ['giving a lecture', 'listening to a lecture'],
  fountain: ['cleaning the fountain', 'sitting by the fountain'],
  bench: ['taking a break on a bench', 'sitting on a bench'],
  garden: ['tending the garden', 'admiring the flowers'],
  'flower bed': ['weeding the flower bed', 'admiring the flowers'],
  'picnic table': ['having a snack at the picnic table', 'having a snack at the picnic table'],
  'bar counter': ['pouring drinks', 'having a drink at the bar'],
  'filing cabinet': ['filing documents', 'looking through records'],
  'meeting table': ['chairing a meeting', 'sitting in a meeting'],
};

/** Words that make a memory matter. The table is the whole rule: see server/src/agent/README.md. */
const IMPORTANT_WORDS: Array<[RegExp, number]> = [
  [/\b(died|death|funeral|accident|fire|emergency|hospital)\b/i, 9],
  [/\b(party|invit\w*|valentine\w*|wedding|birthday|festival|concert|celebrat\w*|election|engaged|proposal)\b/i, 8],
  [/\b(closed|cancel\w*|fight|argument|promot\w*|fired|secret|love|moving)\b/i, 7],
  [/\b(news|heard|told|plan\w*|research|exhibition|exam|deadline|meeting)\b/i, 5],
];
const MUNDANE = /\b(sleeping|resting|is in use|idle|walking|getting ready|brushing|showering|taking a shower|washing)\b/i;

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const GATHERINGS = /\b(party|meeting|concert|dinner|celebration|gathering|wedding|birthday|reading|talk|exhibition|festival)\b/i;

export function rateImportanceHeuristically(description: string, persona?: Persona): number {
  let score = MUNDANE.test(description) ? 1 : 2;
  for (const [pattern, value] of IMPORTANT_WORDS) if (pattern.test(description)) score = Math.max(score, value);
  if (persona) {
    const first = persona.name.split(' ')[0];
    if (description.includes(first)) score += 1;
  }
  return Math.max(1, Math.min(10, score));
}

export class OfflineMind implements Mind {
  readonly kind = 'offline' as const;
  readonly label = 'offline';

  async rateImportance(ctx: MindContext, descriptions: string[]): Promise<number[]> {
    return descriptions.map((d) => rateImportanceHeuristically(d, ctx.agent.persona));
  }

  async planDay(ctx: MindContext, day: number, memories: Memory[]): Promise<DayPlan> {
    return planFromRoutine(ctx.agent.persona, ctx.map, ctx.seed, day, memories);
  }

  async react(ctx: MindContext, observations: Observation[]): Promise<Reaction | null> {
    const persona = ctx.agent.persona;
    const plan = ctx.agent.plan;
    const minute = planMinuteOf(ctx);
    for (const obs of observations) {
      if (obs.subject !== 'the town') continue;
      const closed = /^(.+?) is closed\b/i.exec(obs.description);
      const sector = closed ? ctx.map.places.sectors.find((s) => s.name.toLowerCase() === closed[1].trim().toLowerCase()) : undefined;
      if (sector && plan) {
        const home = ctx.map.places.sectors.find((s) => s.name === persona.home);
        const homeArena = home?.arenas.find((a) => a.name !== 'bedroom') ?? home?.arenas[0];
        if (!homeArena) return null;
        const affected = plan.actions.filter((a) => a.startMinute + a.durationMinutes > minute && a.address.startsWith(`${sector.name}:`));
        if (affected.length === 0) return null;
        const actions = plan.actions
          .filter((a) => a.startMinute + a.durationMinutes > minute)
          .map((a, i) => {
            const start = i === 0 ? minute : a.startMinute;
            const duration = a.startMinute + a.durationMinutes - start;
            return a.address.startsWith(`${sector.name}:`)
              ? { startMinute: start, durationMinutes: duration, description: `staying home, as ${sector.name} is closed`, emoji: '🏠', address: homeArena.address }
              : { ...a, startMinute: start, durationMinutes: duration };
          })
          .filter((a) => a.durationMinutes > 0);
        return { reason: obs.description, actions };
      }
      // Any other town event: stop for a moment to take it in, then carry on.
      return {
        reason: obs.description,
        actions: [{ startMinute: minute, durationMinutes: 10, description: `thinking about the news: ${obs.description}`, emoji: '💭', address: ctx.agent.currentPlace }],
      };
    }
    return null;
  }

  async converseTurn(ctx: MindContext, input: TurnInput): Promise<TurnOutput> {
    const me = ctx.agent.persona;
    const first = (name: string) => name.split(' ')[0];
    const partnerFirst = first(input.partner.name);
    const said = input.history.map((l) => l.text).join('\n');
    const rng = Rng.fromKey(ctx.seed, me.id, input.partner.id, ctx.gameMs, input.turn);
    if (input.turn === 0) {
      const hello = greetingFor(minuteOf(ctx.gameMs));
      const ask = input.relationship ? rng.pick(['How have you been?', 'Good to see you.', 'What brings you here?']) : `I don't think we've met. I'm ${me.name}.`;
      return { text: `${hello}, ${partnerFirst}! ${ask}`, end: false };
    }
    if (input.turn === 1) {
      return { text: `Hi ${first(input.history[0]?.speakerName ?? '')}! I'm ${ctx.agent.currentAction} at the moment.`, end: false };
    }
    // Share the most important news not yet said in this conversation, and not learned from this partner.
    for (const memory of input.news) {
      const sentence = newsSentence(memory);
      if (memory.triple?.predicate === 'said' && memory.triple.subject === input.partner.name) continue;
      if (input.history.some((l) => similar(l.text, sentence))) continue;
      const own = startsWithName(sentence, me.name);
      return { text: own ? `Guess what: ${toFirstPerson(sentence, me.name)}` : `Did you hear? ${sentence}`, end: false };
    }
    const next = nextActionOf(ctx);
    const plansLine = next ? `Later I'll be ${ownVoice(next.description)}${placeName(next.address, me.home) === 'home' ? ' at home' : ` at ${placeName(next.address)}`}.` : null;
    if (plansLine && !said.includes(plansLine) && input.turn < input.maxTurns - 1) return { text: plansLine, end: false };
    return { text: rng.pick([`Anyway, I should get back to it. See you, ${partnerFirst}!`, `It was nice talking, ${partnerFirst}. Take care!`, `Well, I'd better be going. Bye, ${partnerFirst}!`]), end: true };
  }

  async summariseConversation(_ctx: MindContext, participants: [Persona, Persona], lines: ConversationLine[]): Promise<ConversationSummary> {
    const [a, b] = participants;
    const learned: Record<string, string[]> = { [a.id]: [], [b.id]: [] };
    const topics: string[] = [];
    for (const line of lines) {
      const speaker = line.speaker === a.id ? a : b;
      const listener = speaker === a ? b : a;
      let fact: string | null = null;
      if (line.text.startsWith('Did you hear? ')) fact = line.text.slice('Did you hear? '.length);
      else if (line.text.startsWith('Guess what: ')) fact = toThirdPerson(line.text.slice('Guess what: '.length), speaker.name);
      else if (line.text.startsWith('Later I\'ll be ')) fact = `${speaker.name} will be ${line.text.slice('Later I\'ll be '.length)}`;
      if (fact) {
        learned[listener.id].push(fact);
        topics.push(shorten(fact, 60));
      }
    }
    const about = topics.length ? ` They talked about: ${topics.join('; ')}` : ' They exchanged greetings.';
    return { summary: `${a.name} and ${b.name} had a conversation.${about}`, learned };
  }

  async reflectQuestions(ctx: MindContext, recent: Memory[]): Promise<string[]> {
    const counts = countSubjects(recent, ctx.agent.persona.name);
    const subjects = [...counts.entries()].sort((p, q) => q[1] - p[1] || p[0].localeCompare(q[0])).slice(0, 3).map(([s]) => s);
    const questions = subjects.map((s) => `What has ${s} been up to lately?`);
    if (questions.length < 3) questions.push(`What matters most to ${ctx.agent.persona.name} right now?`);
    return questions.slice(0, 3);
  }

  async reflectInsights(ctx: MindContext, question: string, memories: Memory[]): Promise<Insight[]> {
    const subject = /What has (.+) been up to lately\?/.exec(question)?.[1];
    const insights: Insight[] = [];
    if (subject) {
      const about = memories.filter((m) => m.description.includes(subject));
      const doing = new Map<string, Memory[]>();
      for (const m of about) {
        const activity = m.triple && m.triple.subject === subject && m.triple.predicate === 'is' ? m.triple.object : null;
        if (!activity) continue;
        const list = doing.get(activity) ?? [];
        list.push(m);
        doing.set(activity, list);
      }
      const top = [...doing.entries()].sort((p, q) => q[1].length - p[1].length || p[0].localeCompare(q[0]))[0];
      if (top && top[1].length >= 2) insights.push({ text: `${subject} is often ${top[0]}.`, evidence: top[1].map((m) => m.id) });
      const weighty = about.filter((m) => m.importance >= 6).slice(0, 3);
      if (weighty.length) insights.push({ text: `Something important about ${subject}: ${shorten(newsSentence(weighty[0]), 140)}`, evidence: weighty.map((m) => m.id) });
      if (insights.length === 0 && about.length) insights.push({ text: `${ctx.agent.persona.name} has been seeing ${subject} around town.`, evidence: about.slice(0, 5).map((m) => m.id) });
    } else {
      const weighty = [...memories].sort((p, q) => q.importance - p.importance || q.id - p.id).slice(0, 3);
      if (weighty.length) insights.push({ text: `What matters most to ${ctx.agent.persona.name} now: ${shorten(newsSentence(weighty[0]), 140)}`, evidence: weighty.map((m) => m.id) });
    }
    return insights;
  }

  async interview(ctx: MindContext, question: string, memories: Memory[]): Promise<string> {
    const p = ctx.agent.persona;
    const q = question.toLowerCase();
    if (/\bwho are you\b|\babout yourself\b|\byour name\b/.test(q)) return `I'm ${p.name}, ${p.age}. ${p.learned} ${p.currently}`;
    if (/\bplan|today|doing\b/.test(q)) {
      const next = nextActionOf(ctx);
      return `Right now I'm ${ctx.agent.currentAction} at ${placeName(ctx.agent.currentPlace)}.${next ? ` Next, I'll be ${next.description} at ${placeName(next.address)} around ${formatClock(next.startMinute)}.` : ''}`;
    }
    if (memories.length === 0) return `I'm not sure. I don't remember anything about that.`;
    const recalled = memories.slice(0, 3).map((m) => newsSentence(m));
    return `Let me think. ${recalled.join(' ')}`;
  }
}

/** The routine of the persona, made concrete for one day: a place picked per block and 5-15 minute actions. */
export function planFromRoutine(persona: Persona, map: TownMap, seed: number, day: number, memories: Memory[] = []): DayPlan {
  const rng = Rng.fromKey(seed, persona.id, 'plan', day);
  // Minutes of the waking day: a bedtime (or a block) after midnight is 1440 + its time.
  const { wakeMinute: wake, sleepMinute: sleep } = wakingDay(persona.wakeAt, persona.sleepAt);
  const blocks: Array<HourBlock & { emoji: string; ref: string; tasks: string[] | undefined }> = [];
  persona.routine.forEach((entry, i) => {
    const start = minuteOfWakingDay(parseClock(entry.at), wake);
    const end = i + 1 < persona.routine.length ? minuteOfWakingDay(parseClock(persona.routine[i + 1].at), wake) : sleep;
    const ref = Array.isArray(entry.place) ? rng.pick(entry.place) : entry.place;
    blocks.push({ startMinute: start, durationMinutes: end - start, activity: entry.activity, emoji: entry.emoji, ref, tasks: entry.tasks });
  });
  const appointment = findAppointment(memories, map, day);
  const actions: PlannedAction[] = [];
  const broadStrokes: string[] = [];
  for (const block of blocks) {
    const blockEnd = block.startMinute + block.durationMinutes;
    if (appointment && appointment.startMinute < blockEnd && appointment.startMinute + appointment.durationMinutes > block.startMinute) {
      // The appointment takes over the overlapping part of this block.
      if (appointment.startMinute > block.startMinute) addBlockActions(actions, { ...block, durationMinutes: appointment.startMinute - block.startMinute }, persona, map, rng);
      if (!actions.some((a) => a === appointment.action)) {
        actions.push(appointment.action);
        broadStrokes.push(`${appointment.action.description} at ${formatClock(appointment.startMinute)}`);
      }
      const after = appointment.startMinute + appointment.durationMinutes;
      if (after < blockEnd) addBlockActions(actions, { ...block, startMinute: after, durationMinutes: blockEnd - after }, persona, map, rng);
      continue;
    }
    broadStrokes.push(`${block.activity} at ${formatClock(block.startMinute)}`);
    addBlockActions(actions, block, persona, map, rng);
  }
  return {
    day,
    broadStrokes: broadStrokes.map((s, i) => `${i + 1}) ${s}`),
    hourBlocks: blocks.map(({ startMinute, durationMinutes, activity }) => ({ startMinute, durationMinutes, activity })),
    actions: mergeRepeats(actions),
  };
}

function addBlockActions(
  out: PlannedAction[],
  block: HourBlock & { emoji: string; ref: string; tasks: string[] | undefined },
  persona: Persona,
  map: TownMap,
  rng: Rng,
): void {
  const resolved = resolvePlaceRef(block.ref, persona, map);
  if ('error' in resolved) throw new Error(`${persona.file}: routine place '${block.ref}': ${resolved.error}`);
  const { arena, object } = resolved;
  const atWork = persona.workplace === arena.address;
  const objects: Array<GameObjectNode | null> = object ? [object] : arena.objects.length ? rng.shuffle(arena.objects) : [null];
  const tasks = block.tasks?.length ? rng.shuffle(block.tasks) : null;
  const end = block.startMinute + block.durationMinutes;
  let t = block.startMinute;
  let k = 0;
  while (t < end) {
    const left = end - t;
    let duration = rng.pick([5, 10, 10, 15, 15]);
    if (left - duration < 5) duration = left; // never leave a sliver shorter than 5 minutes
    const obj = objects[k % objects.length];
    let description: string;
    if (k === 0) description = block.activity;
    else if (tasks) description = tasks[(k - 1) % tasks.length];
    else if (obj) description = (OBJECT_VERBS[baseName(obj.name)] ?? [block.activity, block.activity])[atWork ? 0 : 1];
    else description = block.activity;
    out.push({ startMinute: t, durationMinutes: duration, description, emoji: block.emoji, address: obj ? obj.address : arena.address });
    t += duration;
    k++;
  }
}

/** Joins neighbouring actions that do the same thing at the same place, so nobody walks for nothing. */
function mergeRepeats(actions: PlannedAction[]): PlannedAction[] {
  const out: PlannedAction[] = [];
  for (const a of actions) {
    const prev = out[out.length - 1];
    if (prev && prev.description === a.description && prev.address === a.address && prev.startMinute + prev.durationMinutes === a.startMinute && prev.durationMinutes + a.durationMinutes <= 60)
      prev.durationMinutes += a.durationMinutes;
    else out.push({ ...a });
  }
  return out;
}

/**
 * A gathering the agent remembers for this day ("... party at Hobbs Cafe on February 14 at 5pm"):
 * a date that is today, a time, a place in the map and a kind of gathering. It becomes a 90-minute action.
 */
export function findAppointment(memories: Memory[], map: TownMap, day: number): { startMinute: number; durationMinutes: number; action: PlannedAction } | null {
  const date = new Date(day * 86_400_000);
  const month = MONTHS[date.getUTCMonth()];
  const dateRe = new RegExp(`\\b${month}\\s+${date.getUTCDate()}(st|nd|rd|th)?\\b|\\b${date.getUTCDate()}(st|nd|rd|th)?\\s+(of\\s+)?${month}\\b`, 'i');
  const ranked = [...memories].sort((p, q) => q.importance - p.importance || q.id - p.id);
  for (const m of ranked) {
    const text = newsSentence(m);
    if (m.importance < 5 || !dateRe.test(text)) continue;
    const kind = GATHERINGS.exec(text)?.[1]?.toLowerCase();
    const time = /\b(\d{1,2})(?::(\d{2}))?\s*(am|pm)\b/i.exec(text);
    const sector = map.places.sectors.find((s) => text.toLowerCase().includes(s.name.toLowerCase()));
    if (!kind || !time || !sector) continue;
    let hour = Number(time[1]) % 12;
    if (time[3].toLowerCase() === 'pm') hour += 12;
    const startMinute = hour * 60 + Number(time[2] ?? 0);
    const arena = sector.arenas[0];
    return {
      startMinute,
      durationMinutes: 90,
      action: { startMinute, durationMinutes: 90, description: `attending the ${kind} at ${sector.name}`, emoji: '🎉', address: arena.address },
    };
  }
  return null;
}

function minuteOf(gameMs: number): number {
  return Math.floor((gameMs % 86_400_000) / 60_000);
}

/** The minute of the agent's plan in force now: past 1440 between midnight and a bedtime after it. */
function planMinuteOf(ctx: MindContext): number {
  const p = ctx.agent.persona;
  return planMomentAt(ctx.gameMs, parseClock(p.wakeAt), parseClock(p.sleepAt)).minute;
}

function greetingFor(minute: number): string {
  if (minute < 12 * 60) return 'Good morning';
  if (minute < 18 * 60) return 'Good afternoon';
  return 'Good evening';
}

function nextActionOf(ctx: MindContext): PlannedAction | null {
  const minute = planMinuteOf(ctx);
  const current = ctx.agent.currentAction;
  return ctx.agent.plan?.actions.find((a) => a.startMinute > minute && a.description !== current && !/sleep/i.test(a.description)) ?? null;
}

/** The content of a memory as a sentence to tell someone: heard news is retold as the news itself. */
export function newsSentence(memory: Memory): string {
  const text = memory.triple?.predicate === 'said' ? memory.triple.object : memory.description;
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

function startsWithName(sentence: string, fullName: string): boolean {
  const first = fullName.split(' ')[0];
  return sentence.startsWith(`${fullName} `) || sentence.startsWith(`${first} `);
}

function toFirstPerson(sentence: string, fullName: string): string {
  const first = fullName.split(' ')[0];
  const rest = sentence.startsWith(`${fullName} `) ? sentence.slice(fullName.length + 1) : sentence.startsWith(`${first} `) ? sentence.slice(first.length + 1) : null;
  if (rest === null) return sentence;
  return `I ${ownVoice(rest.replace(/^is\b/, 'am').replace(/^has\b/, 'have'))}`;
}

/** Third-person leftovers in a sentence the speaker says of themself: "her exam" -> "my exam". */
function ownVoice(text: string): string {
  return text
    .replace(/\b(her|his|their)\b/g, 'my')
    .replace(/\band (wants|needs|hopes|plans|likes|loves)\b/g, (_m, verb: string) => `and ${verb.slice(0, -1)}`);
}

function toThirdPerson(sentence: string, fullName: string): string {
  if (!sentence.startsWith('I ')) return sentence;
  const rest = sentence
    .slice(2)
    .replace(/^am\b/, 'is')
    .replace(/^have\b/, 'has')
    .replace(/\bmy\b/g, 'their')
    .replace(/\band (want|need|hope|plan|like|love)\b/g, (_m, verb: string) => `and ${verb}s`);
  return `${fullName} ${rest}`;
}

/** "Hobbs Cafe" for any address in it; "home" for the speaker's own home sector. */
function placeName(address: string, home?: string): string {
  const sector = address.split(': ')[0];
  return sector === home ? 'home' : sector;
}

function baseName(objectName: string): string {
  return objectName.replace(/ \d+$/, '');
}

function shorten(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Whether two sentences say nearly the same thing: most of their words are shared. */
function similar(a: string, b: string): boolean {
  const words = (s: string) => new Set(s.toLowerCase().split(/[^a-z]+/).filter((w) => w.length > 3));
  const x = words(a);
  const y = words(b);
  if (x.size === 0 || y.size === 0) return false;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return shared / Math.min(x.size, y.size) >= 0.6;
}

function countSubjects(memories: Memory[], self: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of memories) {
    const s = m.triple?.subject;
    if (!s || s === self || s === 'the town' || !/^[A-Z]/.test(s)) continue;
    counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return counts;
}
