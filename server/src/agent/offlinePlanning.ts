// The offline mind's planning: the persona's routine made concrete for a day (a place per block, 5-15
// minute actions), the gatherings the agent is committed to (it hosts them or accepted an invitation:
// "… party at Hobbs Cafe on February 14 at 5pm") fitted in as 90-minute actions when a seeded decision
// keeps the commitment (socialModel.ts), and the
// morning's status revision from yesterday's memories. Deterministic from the seed and the persona.
import { pronounsOf } from './grammar';
import type { Memory } from '../store/types';
import type { GameObjectNode, TownMap } from '../world/types';
import type { Persona } from '../world/persona';
import { resolvePlaceRef, usableBy } from '../world/places';
import { minuteOfWakingDay, parseClock, wakingDay } from '../world/clockText';
import { Rng } from '../sim/rng';
import { dayIndex, formatClock, GAME_MS_PER_DAY } from '../protocol/time';
import { fitAction, splicePlan, type DayPlan, type HourBlock, type PlannedAction } from '../protocol/plan';
import { isAbout, mentions } from './voice';
import { readMeaning, type Audience, type DayRef } from './meaning';
import { outingFor, type Haunt } from './outings';
import { decide, keepProbability, traitsOf, type KeepInputs, type SocialDecision } from './socialModel';

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

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
/** How long the offline mind stays at a gathering. */
const GATHERING_MINUTES = 90;
/** What the morning revision appends to the persona's status ("… Still on Yumi's mind from yesterday: …"); replaced the next morning. */
const STATUS_NOTE = / Still on \S+ mind from yesterday: /;
/** The label an offline insight opens with (offlineMind.reflectInsights): a status or an answer says the insight, not the label. */
export const INSIGHT_LABEL = /^(?:(?:Something important about|What matters most to) [^:]+?(?: now)?: )+/;

/** A gathering named in a memory: its kind, place and game day and minute. */
export interface Gathering {
  kind: string;
  /** The sector where it is, e.g. "Hobbs Cafe", and the arena the agent goes to. */
  sector: string;
  arenaAddress: string;
  day: number;
  /** Minute of that day, 0..1439. */
  minuteOfDay: number;
  /** Who hosts it, as the text names them, when it does. */
  host: string | null;
  audience: Audience;
  /** Told in the past tense. */
  past: boolean;
}

/**
 * The gathering a sentence tells of (meaning.ts reads it once: what, who hosts it, when, for whom), placed
 * on the map and in the calendar: its place phrase (else the whole sentence) names a sector of the map, its
 * day is a date, a weekday (the next one from when it was heard) or one relative to when it was heard.
 * Null when the sentence tells of none, or of one the reader could not place in time or on the map.
 */
export function gatheringIn(text: string, heardGameMs: number, map: TownMap): Gathering | null {
  const g = readMeaning(text).gathering;
  if (!g || !g.placed || g.minuteOfDay === null || g.day === null) return null;
  const names = sectorNamesOf(map);
  const where = g.placeText?.toLowerCase() ?? '';
  const lower = text.toLowerCase();
  const sector = (names.find((s) => where.includes(s.lower) || (where.length > 3 && s.lower.includes(where))) ?? names.find((s) => lower.includes(s.lower)))
    ?.sector;
  if (!sector || sector.arenas.length === 0) return null;
  // A place is not a gathering ("runs Hobbs Cafe on Saturday at 9am").
  if (names.some((s) => s.lower === g.kind.toLowerCase())) return null;
  return {
    kind: g.kind,
    sector: sector.name,
    arenaAddress: sector.arenas[0].address,
    day: dayOf(g.day, heardGameMs),
    minuteOfDay: g.minuteOfDay,
    host: g.host,
    audience: g.audience,
    past: g.past,
  };
}

type Sector = TownMap['places']['sectors'][number];
/** Each map's sectors with their names in lower case, in the map's order (made once: a town of 10,000 has thousands). */
const sectorNames = new WeakMap<TownMap, Array<{ lower: string; sector: Sector }>>();
function sectorNamesOf(map: TownMap): Array<{ lower: string; sector: Sector }> {
  let names = sectorNames.get(map);
  if (!names) sectorNames.set(map, (names = map.places.sectors.map((sector) => ({ lower: sector.name.toLowerCase(), sector }))));
  return names;
}

/** The game day of a day as said, from when it was heard: a date in the year it was heard, the next such weekday, or days ahead. */
function dayOf(ref: DayRef, heardGameMs: number): number {
  const heard = dayIndex(heardGameMs);
  const date = new Date(heard * GAME_MS_PER_DAY);
  if (ref.kind === 'date') return Math.floor(Date.UTC(date.getUTCFullYear(), ref.month, ref.dayOfMonth) / GAME_MS_PER_DAY);
  if (ref.kind === 'weekday') return heard + ((ref.weekday - date.getUTCDay() + 7) % 7);
  return heard + ref.daysAhead;
}

/** A day said relative to when it is said ("tomorrow", "today", "tonight", "this evening", "the day after tomorrow"), days ahead. */
const RELATIVE_DAYS: Array<[RegExp, number]> = [
  [/\bthe day after tomorrow\b/i, 2],
  [/\btomorrow\b/i, 1],
  [/\b(today|tonight|this (morning|afternoon|evening))\b/i, 0],
];

/**
 * News as it is to be said at `nowGameMs`, when it was heard at `heardGameMs`: a day said relative to the hearing
 * ("tomorrow", heard yesterday) is said relative to now ("today"), or by its date when it is neither today nor
 * tomorrow. Dates and weekdays stay as they were said; so does a day still right.
 */
export function restateDay(sentence: string, heardGameMs: number, nowGameMs: number): string {
  for (const [form, daysAhead] of RELATIVE_DAYS) {
    const m = form.exec(sentence);
    if (!m) continue;
    const ahead = dayIndex(heardGameMs) + daysAhead - dayIndex(nowGameMs);
    if (ahead === daysAhead) return sentence;
    const said = ahead === 0 ? 'today' : ahead === 1 ? 'tomorrow' : `on ${dateLabel(dayIndex(heardGameMs) + daysAhead)}`;
    const word = m.index === 0 ? said[0].toUpperCase() + said.slice(1) : said;
    return sentence.slice(0, m.index) + word + sentence.slice(m.index + m[0].length);
  }
  return sentence;
}

/** The game time a gathering begins. */
export function gatheringStartMs(g: Pick<Gathering, 'day' | 'minuteOfDay'>): number {
  return g.day * GAME_MS_PER_DAY + g.minuteOfDay * 60_000;
}

/** "February 14" of a game day. */
export function dateLabel(day: number): string {
  const d = new Date(day * GAME_MS_PER_DAY);
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

/** "5pm", "8:30am": a minute of the day as people say it. */
export function spokenTime(minuteOfDay: number): string {
  const h = Math.floor(minuteOfDay / 60) % 24;
  const m = minuteOfDay % 60;
  return `${h % 12 === 0 ? 12 : h % 12}${m ? `:${String(m).padStart(2, '0')}` : ''}${h < 12 ? 'am' : 'pm'}`;
}

/** A gathering as the action of going to it, at a minute of the waking day that starts at `wakeMinute`. */
export function gatheringAction(g: Gathering, wakeMinute: number): PlannedAction {
  return {
    startMinute: minuteOfWakingDay(g.minuteOfDay, wakeMinute),
    durationMinutes: GATHERING_MINUTES,
    description: `attending the ${g.kind} at ${g.sector}`,
    emoji: '🎉',
    address: g.arenaAddress,
  };
}

/** The routine of the persona, made concrete for one day, with the gatherings it remembers for that day fitted in. */
export function planFromRoutine(
  persona: Persona,
  map: TownMap,
  seed: number,
  day: number,
  memories: Memory[] = [],
  log?: (d: SocialDecision) => void,
  haunts: readonly Haunt[] = [],
): DayPlan {
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
  goOut(blocks, persona, haunts, seed, day, log);
  let actions: PlannedAction[] = [];
  for (const block of blocks) addBlockActions(actions, block, persona, map, rng);
  const strokes = blocks.map((b) => ({ at: b.startMinute, text: b.activity }));
  const { chosen, skipped } = findAppointments(memories, map, day, wake, sleep, { persona, seed, log });
  for (const appointment of chosen) {
    actions = splicePlan(actions, appointment.startMinute, fitAction(actions, appointment));
    strokes.push({ at: appointment.startMinute, text: appointment.description });
  }
  for (const s of skipped) strokes.push(s);
  return {
    day,
    broadStrokes: strokes.sort((a, b) => a.at - b.at).map((s, i) => `${i + 1}) ${s.text} at ${formatClock(s.at)}`),
    hourBlocks: blocks.map(({ startMinute, durationMinutes, activity }) => ({ startMinute, durationMinutes, activity })),
    actions: mergeRepeats(actions),
  };
}

/**
 * Free time spent out (outings.ts): each free block the seeded decision sends out is split into the time at
 * home before the outing, the outing at the haunt, and the time at home after it.
 */
function goOut(
  blocks: Array<HourBlock & { emoji: string; ref: string; tasks: string[] | undefined }>,
  persona: Persona,
  haunts: readonly Haunt[],
  seed: number,
  day: number,
  log?: (d: SocialDecision) => void,
): void {
  if (haunts.length === 0) return;
  // The routine as it was: outingFor reads the day's first and last block, and the splices below change the list.
  const routine = [...blocks];
  for (let i = routine.length - 1; i >= 0; i--) {
    const outing = outingFor(persona, routine, i, haunts, seed, day, log);
    if (!outing) continue;
    const block = blocks[i];
    const start = block.startMinute + outing.offsetMinutes;
    const out = {
      ...block,
      startMinute: start,
      durationMinutes: outing.durationMinutes,
      activity: `spending time at ${outing.haunt.sector}`,
      emoji: '🚶',
      ref: outing.haunt.address,
      tasks: undefined,
    };
    const before = outing.offsetMinutes > 0 ? [{ ...block, durationMinutes: outing.offsetMinutes }] : [];
    const restStart = start + outing.durationMinutes;
    const rest = block.startMinute + block.durationMinutes - restStart;
    const after = rest > 0 ? [{ ...block, startMinute: restStart, durationMinutes: rest }] : [];
    blocks.splice(i, 1, ...before, out, ...after);
  }
}

/** Who decides whether to keep a commitment: the agent, the run's seed, and where decisions are logged. */
export interface KeepContext {
  persona: Persona;
  seed: number;
  log?: (d: SocialDecision) => void;
}

/**
 * The gatherings the agent is committed to on `day` (it hosts them, or accepted an invitation and has
 * not declined it), each kept or let slip by a seeded decision (socialModel.keepProbability): the kept
 * ones as actions at minutes of its waking day (none overlapping another, all inside its waking day), in
 * time order; the slipped ones as broad strokes saying why. Gatherings it merely heard of are not planned.
 */
export function findAppointments(
  memories: Memory[],
  map: TownMap,
  day: number,
  wakeMinute: number,
  sleepMinute: number,
  keep: KeepContext,
): { chosen: PlannedAction[]; skipped: Array<{ at: number; text: string }> } {
  const chosen: PlannedAction[] = [];
  const skipped: Array<{ at: number; text: string }> = [];
  const { persona } = keep;
  const declined = memories.filter((m) => m.triple?.predicate === 'declined').map((m) => gatheringIn(m.description, m.createdGameMs, map));
  const insights = memories.filter((m) => isInsight(m));
  const seen = new Set<string>();
  const ranked = [...memories].sort((p, q) => q.importance - p.importance || q.id - p.id);
  for (const m of ranked) {
    const sentence = newsSentence(m);
    const accepted = m.triple?.predicate === 'plans' && / plans to go to /.test(sentence);
    const g = gatheringIn(sentence, m.createdGameMs, map);
    if (!g || g.day !== day) continue;
    // The host is whom the reader names as hosting it (else the one the sentence is about), in its own memory, not heard.
    const host =
      !accepted && m.triple?.predicate !== 'said' && m.kind !== 'chat' && (g.host ? isPersonNamed(g.host, persona.name) : isAbout(sentence, persona.name));
    const key = `${g.sector}|${g.minuteOfDay}`;
    if ((!accepted && !host) || seen.has(key) || declined.some((d) => d && d.sector === g.sector && d.day === g.day)) continue;
    seen.add(key);
    const action = gatheringAction(g, wakeMinute);
    const obligation = obligationAt(persona, g.minuteOfDay, g.sector);
    const traits = traitsOf(persona);
    const inputs: KeepInputs = {
      host,
      hoursSinceAccepted: Math.round((day * GAME_MS_PER_DAY + wakeMinute * 60_000 - m.createdGameMs) / 360_000) / 10,
      rehearsed: insights.some((i) => i.description.toLowerCase().includes(g.kind) && i.description.includes(g.sector)),
      conflict: obligation !== null,
      forgetful: traits.forgetful,
    };
    const about = `${g.kind} at ${g.sector} on ${dateLabel(g.day)} at ${spokenTime(g.minuteOfDay)}`;
    const d = decide(keep.seed, 'attend', [persona.id, day, key], about, null, keepProbability(inputs), inputs);
    keep.log?.(d);
    if (!d.chose) {
      const why = obligation ? `${obligation} instead` : `it slipped ${pronounsOf(persona, true).possessive} mind`;
      skipped.push({ at: action.startMinute, text: `not going to the ${g.kind} at ${g.sector} (${why})` });
      continue;
    }
    const end = action.startMinute + action.durationMinutes;
    if (end > sleepMinute || chosen.some((c) => action.startMinute < c.startMinute + c.durationMinutes && c.startMinute < end)) continue;
    chosen.push(host ? { ...action, description: `hosting the ${g.kind} at ${g.sector}` } : action);
  }
  return { chosen: chosen.sort((a, b) => a.startMinute - b.startMinute), skipped };
}

/** Whether a name as said ("Isabella", "Isabella Rivera") is the person `fullName`. */
export function isPersonNamed(said: string, fullName: string): boolean {
  return said === fullName || said === fullName.split(' ')[0] || mentions(said, fullName);
}

/** A reflection's insight (a thought citing evidence), not a planning thought. */
function isInsight(m: Memory): boolean {
  return m.kind === 'thought' && m.evidenceIds.length > 0 && m.triple?.predicate !== 'plans' && m.triple?.predicate !== 'declined';
}

/** The sector of an address ("Hobbs Cafe: cafe" -> "Hobbs Cafe"). */
export function sectorOf(address: string): string {
  return address.split(': ')[0];
}

/**
 * What the persona's routine has it do at a minute of the day when that is an obligation away from
 * `sector` (its work, somewhere else), e.g. "serving customers"; null when it is free to go.
 */
export function obligationAt(persona: Persona, minuteOfDay: number, sector: string): string | null {
  const { wakeMinute: wake } = wakingDay(persona.wakeAt, persona.sleepAt);
  const minute = minuteOfWakingDay(minuteOfDay, wake);
  let block: Persona['routine'][number] | null = null;
  for (const entry of persona.routine) if (minuteOfWakingDay(parseClock(entry.at), wake) <= minute) block = entry;
  if (!block) return null;
  const refs = Array.isArray(block.place) ? block.place : [block.place];
  const work = persona.workplace ? sectorOf(persona.workplace) : null;
  const atWork = refs.some((r) => /^work\b/.test(r) || (work !== null && r.startsWith(`${work}:`)));
  if (!atWork || work === sector) return null;
  return block.activity;
}

/**
 * The morning's status: the persona's own line (what the previous revision added is dropped) and the
 * most important thing on its mind from yesterday: a thought, news, or failing those, yesterday's plan.
 */
export function reviseStatusOffline(persona: Persona, yesterday: Memory[]): string {
  const base = persona.currently.split(STATUS_NOTE)[0];
  const first = persona.name.split(' ')[0];
  // A thought it came to (a planning thought, an insight) first, then what it heard or saw; not the summaries of its talks.
  const rank = (m: Memory) => (m.kind === 'thought' ? 10 : 0) + m.importance;
  const notable = [...yesterday].filter((m) => m.kind !== 'plan' && m.triple?.predicate !== 'talked with').sort((a, b) => rank(b) - rank(a) || b.id - a.id)[0];
  const plan = yesterday.find((m) => m.kind === 'plan');
  // An insight is noted by what it found, without its label ("Something important about X: …"): a label after "Still on …" stacks prefixes.
  const news = notable ? newsSentence(notable).replace(INSIGHT_LABEL, '') : null;
  // What it already says ("Bruno is thinking about moving…") is not on its mind "from yesterday" as well.
  const said = news !== null && news.replace(/[.!?]$/, '') === base.trim().replace(/[.!?]$/, '');
  const note = news && !said ? news : plan ? `${plan.description.replace(/^.*?plan for the day: /, 'yesterday was ')}.` : null;
  return note ? `${base} Still on ${first}'s mind from yesterday: ${note}` : base;
}

/** The content of a memory as a sentence to tell someone: heard news is retold as the news itself. */
export function newsSentence(memory: Pick<Memory, 'description' | 'triple'>): string {
  const text = memory.triple?.predicate === 'said' ? memory.triple.object : memory.description;
  return /[.!?]$/.test(text) ? text : `${text}.`;
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
  // Objects it may use there: not the staff's side of a counter where it does not work (an object its routine names, it uses).
  const usable = arena.objects.filter((o) => usableBy(o, persona));
  const objects: Array<GameObjectNode | null> = object ? [object] : usable.length ? rng.shuffle(usable) : [null];
  const tasks = block.tasks?.length ? rng.shuffle(block.tasks) : null;
  const end = block.startMinute + block.durationMinutes;
  let t = block.startMinute;
  let k = 0;
  while (t < end) {
    const left = end - t;
    let duration = rng.pick([5, 10, 10, 15, 15]);
    if (left - duration < 5) duration = left; // never leave a sliver shorter than 5 minutes
    let obj = objects[k % objects.length];
    let description: string;
    if (k === 0) {
      description = block.activity;
      // An activity that names an object ("practising the piano") is done at it, or in the arena when it lacks one.
      const found = object ? undefined : objectForTask(description, usable);
      if (found !== undefined) obj = found;
    } else if (tasks) {
      description = tasks[(k - 1) % tasks.length];
      // A task done at an object it names ("planting tulips by the fountain"), or in the arena when it names one the arena lacks.
      const found = objectForTask(description, usable);
      if (found !== undefined) obj = found;
    } else if (obj) description = (OBJECT_VERBS[baseName(obj.name)] ?? [block.activity, block.activity])[atWork ? 0 : 1];
    else description = block.activity;
    out.push({ startMinute: t, durationMinutes: duration, description, emoji: block.emoji, address: obj ? obj.address : arena.address });
    t += duration;
    k++;
  }
}

/** Object kinds a task may name, and the objects (base names) it is done at: "watering the flower beds" in the garden. */
const TASK_OBJECTS: Array<[RegExp, string[]]> = [[/\bflower beds?\b/, ['flower bed', 'garden']]];

/**
 * The arena object a task is done at: one it names (or a TASK_OBJECTS synonym); null (the arena itself)
 * when it names a kind of object the arena lacks; undefined when it names none (any object will do).
 */
function objectForTask(task: string, objects: GameObjectNode[]): GameObjectNode | null | undefined {
  // The same tasks come back at the same arenas day after day (routines): each arena keeps what its tasks found.
  let found = tasksFound.get(objects);
  if (!found) tasksFound.set(objects, (found = new Map()));
  if (found.has(task)) return found.get(task);
  const lower = task.toLowerCase();
  let object: GameObjectNode | null | undefined = objects.find((o) => namePattern(baseName(o.name)).test(lower));
  if (!object) {
    const synonym = TASK_OBJECTS.find(([re]) => re.test(lower));
    if (synonym) object = objects.find((o) => synonym[1].includes(baseName(o.name))) ?? null;
    else object = OBJECT_KINDS.some((kind) => namePattern(kind).test(lower)) ? null : undefined;
  }
  if (found.size >= 1_000) found.clear();
  found.set(task, object);
  return object;
}

/** What objectForTask found for each task, by the arena's objects (the map's own list). */
const tasksFound = new WeakMap<readonly GameObjectNode[], Map<string, GameObjectNode | null | undefined>>();
const OBJECT_KINDS = Object.keys(OBJECT_VERBS);

/** `\bname(s)\b`, made once per name (a plan asks for them by the hundred: a town of 10,000 makes thousands of plans). */
const namePatterns = new Map<string, RegExp>();
function namePattern(name: string): RegExp {
  let re = namePatterns.get(name);
  if (!re) {
    re = new RegExp(`\\b${name}s?\\b`);
    if (namePatterns.size >= 10_000) namePatterns.clear();
    namePatterns.set(name, re);
  }
  return re;
}

/** Joins neighbouring actions that do the same thing at the same place, so nobody walks for nothing. */
function mergeRepeats(actions: PlannedAction[]): PlannedAction[] {
  const out: PlannedAction[] = [];
  for (const a of actions) {
    const prev = out[out.length - 1];
    if (
      prev &&
      prev.description === a.description &&
      prev.address === a.address &&
      prev.startMinute + prev.durationMinutes === a.startMinute &&
      prev.durationMinutes + a.durationMinutes <= 60
    )
      prev.durationMinutes += a.durationMinutes;
    else out.push({ ...a });
  }
  return out;
}

function baseName(objectName: string): string {
  return objectName.replace(/ \d+$/, '');
}
