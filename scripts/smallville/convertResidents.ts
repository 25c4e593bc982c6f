// The reference's residents (scratch.json, nodes.json, whispers) as persona files whose places exist
// in the converted map.
//
// What maps one to one: name, age, innate (comma-separated), learned, currently, lifestyle. What is
// derived: home/bedroom/bed from living_area ("the Ville:Isabella Rodriguez's apartment:main room" is
// home "Isabella Rodriguez's apartment", bedroom "main room", bed "bed" there); wake and sleep times
// from lifestyle; a routine from daily_plan_req (the places and times it names) around the day's
// fixed points (getting up, breakfast, dinner, bed); seed memories from nodes.json and the whispers;
// relationships from what the whispers and background say of other residents; a look from the name.
// Each guess and each default is said in the report.
import type { ConvertedArena, ConvertedMap } from './convertMap';
import type { MemoryNode, ReferenceResident } from './reference';
import { hhmm, idOf, keyWords, linesAbout, parseTimePhrase, sentencesOf, thirdPerson, thirdPersonText, timesIn } from './english';
import type { PersonaFile, RoutineEntry } from '../../server/src/world/persona';

/** Words of a daily_plan_req that say a resident works or studies somewhere. */
const WORKING_WORDS = new RegExp(
  `\\b(${['open', 'opens', 'stand', 'stands', 'work', 'works', 'working', 'teach', 'teaches', 'class', 'classes', 'shift', 'runs', 'run']
    .concat(['study', 'studies', 'studying', 'writing', 'spends his days', 'spends her days'])
    .join('|')})\\b`,
  'i',
);

export const DEFAULT_WAKE = 7 * 60;
export const DEFAULT_SLEEP = 23 * 60;
export const DEFAULT_DINNER = 18 * 60;
/** Seed memories kept from a long memory stream: the most poignant, in their order. */
export const MAX_SEED_NODES = 40;

/** A routine block as the importer writes it: one place, no tasks. */
export type RoutineBlock = Omit<RoutineEntry, 'place' | 'tasks'> & { place: string };

/** A persona file's content as the importer writes it: every field present, one place a block. */
export type ImportedPersona = Omit<Required<PersonaFile>, 'routine'> & { routine: RoutineBlock[] };

export interface ConvertedResident {
  id: string;
  folder: string;
  persona: ImportedPersona;
  /** The reference's start tile, when the town can reach it: a spawn named after the id. */
  start: { x: number; y: number } | null;
  /** What was derived and what was guessed or dropped, for the report. */
  notes: string[];
  /** What no rule could decide (which meal, a place named not as a habit, no free time): listed on their own in the report. */
  undecided: string[];
}

export interface ResidentsResult {
  residents: ConvertedResident[];
  /** Residents that could not be converted, and why. */
  skipped: string[];
}

interface Place {
  sector: string;
  arena: ConvertedArena;
}

/**
 * How long a relationship line may grow, in characters: every line the resident's texts say of the other, in order, while they fit
 * (a fixed count of three lost Klaus's fourth line about Maria, "Klaus Mueller and Maria Lopez are dormmates").
 */
const RELATIONSHIP_CHARS = 600;

/** The first lines of `lines` that together fit in `max` characters (at least the first). */
export function withinChars(lines: string[], max: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (out.length > 0 && used + 1 + line.length > max) break;
    out.push(line);
    used += (out.length > 1 ? 1 : 0) + line.length;
  }
  return out;
}

const SKIN = ['#ffdbac', '#f1c27d', '#e0ac69', '#c68642', '#8d5524', '#a1665e', '#d4a373'];
const HAIR = ['#2c1b12', '#4a2f1b', '#1b1b1b', '#a55728', '#d6b370', '#8d4a2b', '#3b2f2f', '#6f4e37'];
const SHIRT = ['#c0392b', '#2980b9', '#27ae60', '#8e44ad', '#d35400', '#16a085', '#f39c12', '#2c3e50', '#e84393', '#6c5ce7'];
const PANTS = ['#2c3e50', '#34495e', '#4e342e', '#37474f', '#1b2631', '#5d4037', '#283593'];

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/** A look from the name (and grey hair from 60): the same name always gets the same colours. */
export function lookOf(name: string, age: number): ImportedPersona['sprite'] {
  const h = hash(name);
  const pick = <T>(list: readonly T[], shift: number): T => list[(h >>> shift) % list.length];
  return { skin: pick(SKIN, 0), hair: age >= 60 ? '#b8b8b8' : pick(HAIR, 5), shirt: pick(SHIRT, 10), pants: pick(PANTS, 17) };
}

const includesWord = (text: string, word: string): boolean => new RegExp(`\\b${word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(text);

/**
 * Sectors named in `text`, in the order they appear: all of a sector's key words must be there, or "the" and its last
 * word when no other sector ends so ("sits on the green" is Hamlet Green; "the store" of two stores is none).
 */
function sectorsNamedIn(text: string, sectors: readonly string[]): Array<{ sector: string; index: number }> {
  const words = keyWords(text);
  const found: Array<{ sector: string; index: number }> = [];
  const lastOf = (sector: string) => keyWords(sector).at(-1);
  for (const sector of sectors) {
    const keys = keyWords(sector);
    if (keys.length === 0) continue;
    if (keys.every((k) => words.includes(k))) {
      found.push({ sector, index: Math.min(...keys.map((k) => words.indexOf(k))) });
      continue;
    }
    const last = keys.at(-1)!;
    const short = new RegExp(`\\bthe ${last}\\b`, 'i').exec(text.replace(/'s\b/g, ''));
    if (short && keys.length > 1 && sectors.filter((x) => lastOf(x) === last).length === 1) found.push({ sector, index: words.indexOf(last) });
  }
  return found.sort((a, b) => a.index - b.index);
}

function scoreName(name: string, textWords: readonly string[]): number {
  return keyWords(name).filter((w) => textWords.includes(w)).length;
}

const EMOJI: Array<[RegExp, string]> = [
  [/cafe|coffee/i, '☕'],
  [/pub|bar\b/i, '🍺'],
  [/library/i, '📚'],
  [/classroom|college|school/i, '🏫'],
  [/park|garden/i, '🌳'],
  [/store|market|pharmacy|shop|supply/i, '🛒'],
];
const emojiFor = (text: string, fallback: string): string => EMOJI.find(([re]) => re.test(text))?.[1] ?? fallback;

const MEAL = /^having (?:breakfast|brunch|lunch|dinner)\b/;

/** A present-participle phrase for time spent at a place that is not work. */
function outingActivity(sector: string, arena: string, minute: number): string {
  const where = `${arena} ${sector}`;
  if (/cafe/i.test(where)) return minute >= 11 * 60 && minute < 14 * 60 ? `having lunch at ${sector}` : `having a coffee at ${sector}`;
  if (/pub|bar\b/i.test(where)) return `relaxing at ${sector}`;
  if (/park/i.test(where)) return `taking a walk in ${sector}`;
  if (/library/i.test(where)) return `reading at the library of ${sector}`;
  if (/store|market|pharmacy|shop|supply/i.test(where)) return `shopping at ${sector}`;
  return `spending time at ${sector}`;
}

/** A place a resident goes to, as the text says it: what is done there and when, if said. */
interface Outing {
  sector: string;
  /** "having lunch", "reading", "having a drink": without "at <sector>". */
  activity: string;
  when: 'breakfast' | 'morning' | 'lunch' | 'afternoon' | 'dinner' | 'evening' | null;
  /** The clause or sentence it was read from. */
  clause: string;
  source: string;
  /** Read from the background (learned/currently), not the day's plan. */
  guess: boolean;
}

/** Words that make a sentence a habit ("spends most evenings", "likes to", "every day"). */
const HABIT =
  /\b(every|everyday|sometimes|frequents?|each|most|often|usually|always|daily|spends?|spending|likes? to|loves? to|goes|visits?|evenings|mornings)\b/i;
/** Words that put a place in the past ("planted a tree there forty years ago"). */
const PAST = /\b(ago|once|used to|grew up|was|were|had|planted|built|studied|graduated|met)\b/i;
const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };

/** The clauses of a paragraph: its sentences cut at commas and semicolons, a leading "and" dropped. */
export function clausesOf(text: string): string[] {
  return sentencesOf(text)
    .flatMap((s) => s.split(/[,;]\s*/))
    .map((c) => c.replace(/^(?:and|but|then)\s+/i, '').trim())
    .filter(Boolean);
}

/** "spends 6 hours a day streaming" → 6 hours of "streaming"; null when the text says no hours a day. */
export function hoursADay(text: string): { hours: number; activity: string } | null {
  const m =
    /\b(\d+(?:\.\d+)?|one|two|three|four|five|six|seven|eight|nine|ten)\s+hours?\s+(?:a|per|each|every)\s+day\s+(?:of\s+|on\s+|doing\s+)?([^,.;]+)/i.exec(text);
  if (!m) return null;
  const hours = NUMBERS[m[1].toLowerCase()] ?? Number(m[1]);
  if (!(hours > 0 && hours <= 14)) return null;
  const activity = m[2].trim().replace(/\s+(?:and|but)$/i, '');
  return { hours, activity };
}

/** What a clause naming a place says is done there, and when: a meal is a meal, reading is reading. */
export function readOuting(clause: string, sector: string): Omit<Outing, 'source' | 'guess'> & { undecided: string | null } {
  const meal = /\b(breakfast|brunch|lunch|dinner|supper)\b/i.exec(clause)?.[1].toLowerCase();
  const eats = /\b(eats?|eating|ate|meals?|food)\b/i.test(clause);
  const time = /\bmornings?\b/i.test(clause)
    ? 'morning'
    : /\bafternoons?\b/i.test(clause)
      ? 'afternoon'
      : /\b(evenings?|nights?|after work)\b/i.test(clause)
        ? 'evening'
        : null;
  const base = { sector, clause, undecided: null as string | null };
  if (meal || eats) {
    const when =
      meal === 'breakfast'
        ? 'breakfast'
        : meal === 'dinner' || meal === 'supper'
          ? 'dinner'
          : meal
            ? 'lunch'
            : time === 'morning'
              ? 'breakfast'
              : time === 'evening'
                ? 'dinner'
                : 'lunch';
    return {
      ...base,
      activity: `having ${when === 'lunch' && meal === 'brunch' ? 'brunch' : when}`,
      when,
      undecided: meal || time ? null : `"${clause}" says no meal: taken as lunch at ${sector}`,
    };
  }
  const where = `${sector} ${clause}`;
  const activity = /\bread(?:s|ing)?\b/i.test(clause)
    ? 'reading'
    : /\bstud(?:y|ies|ying)\b/i.test(clause)
      ? 'studying'
      : /\bwalk(?:s|ing)?\b|\bstroll/i.test(clause)
        ? 'taking a walk'
        : /\b(drinks?|drinking|beer|pint)\b/i.test(clause) || (time === 'evening' && /pub|bar\b|tavern|inn\b/i.test(where))
          ? 'having a drink'
          : /\bwork(?:s|ing)?\b/i.test(clause)
            ? 'working'
            : time === 'evening'
              ? 'spending the evening'
              : /pub|bar\b/i.test(where)
                ? 'relaxing'
                : /store|market|pharmacy|shop|supply/i.test(where)
                  ? 'shopping'
                  : /park|garden|green/i.test(where)
                    ? 'taking a walk'
                    : 'spending time';
  return { ...base, activity, when: time };
}

type Scratch = ReferenceResident['scratch'];

/** What the whole town gives each resident's conversion. */
interface TownContext {
  list: readonly ReferenceResident[];
  map: ConvertedMap;
  arenasOf: (sector: string) => ConvertedArena[];
  /** Sectors where nobody lives: workplaces and outings are only there. */
  publicSectors: string[];
  names: string[];
  ids: Map<string, string>;
  firstNameCount: Map<string, number>;
  /** Beds given so far, by bedroom address (residents of one room take its beds in turn). */
  bedsTaken: Map<string, number>;
}

export function convertResidents(list: readonly ReferenceResident[], map: ConvertedMap, whispers: ReadonlyMap<string, string[]>): ResidentsResult {
  const skipped: string[] = [];
  const residents: ConvertedResident[] = [];
  const town = townContextOf(list, map);
  for (const r of list) {
    const converted = convertResident(town, r, whispers);
    if (typeof converted === 'string') skipped.push(converted);
    else residents.push(converted);
  }
  return { residents, skipped };
}

function townContextOf(list: readonly ReferenceResident[], map: ConvertedMap): TownContext {
  const sectors = [...new Set(map.arenas.map((a) => a.sector))];
  const arenasOf = (sector: string) => map.arenas.filter((a) => a.sector === sector);
  // Homes are where someone lives: never a workplace or an outing.
  const homeSectors = new Set(list.map((r) => (r.scratch.living_area ?? '').split(':').map((s) => s.trim())[1]).filter(Boolean));
  const publicSectors = sectors.filter((s) => !homeSectors.has(s));
  const names = list.map((r) => r.scratch.name.trim());
  const ids = new Map<string, string>();
  for (const name of names) {
    let id = idOf(name);
    for (let k = 2; [...ids.values()].includes(id); k++) id = `${idOf(name)}-${k}`;
    ids.set(name, id);
  }
  const firstNameCount = new Map<string, number>();
  for (const name of names) firstNameCount.set(name.split(' ')[0], (firstNameCount.get(name.split(' ')[0]) ?? 0) + 1);
  return { list, map, arenasOf, publicSectors, names, ids, firstNameCount, bedsTaken: new Map() };
}

/** One resident as a persona, or why it cannot be converted. */
function convertResident(town: TownContext, r: ReferenceResident, whispers: ReadonlyMap<string, string[]>): ConvertedResident | string {
  const s = r.scratch;
  const name = s.name.trim();
  const notes: string[] = [];
  const texts = textsOf(s, name, whispers, notes);
  const sleepsAt = bedOf(town, s, name, notes);
  if (typeof sleepsAt === 'string') return sleepsAt;
  const { bedroom, bed } = sleepsAt;
  const times = timesOf(s.lifestyle ?? '', notes);
  const gender = genderOf(`${s.learned ?? ''} ${s.currently ?? ''} ${s.lifestyle ?? ''}`);
  const rooms = roomsOf(town, bedroom, name, gender);
  const req = (s.daily_plan_req ?? '').trim();
  const work = workOf(town, req, times, notes);
  const { outings, undecided, hours } = outingsOf(town, req, texts, work, notes);
  const home = timeAtHomeOf(bedroom, rooms.living, `${req} ${texts.learned} ${texts.currently}`, hours, notes);
  const routine = routineOf({ town, times, rooms, bedroom, bed, work, hours, outings, home }, notes, undecided);
  if (times.dinnerParsed === null) notes.push(`no dinner time in lifestyle: ${hhmm(DEFAULT_DINNER)}, if not at work then`);
  const { fromNodes, seedMemories } = seedMemoriesOf(r, texts, name, bedroom, notes);
  const relationships = relationshipsOf(town, name, gender, [...texts.told, ...fromNodes, texts.learned, texts.currently]);
  const persona = personaOf(s, name, texts, { bedroom, bed, times, work, routine, relationships, seedMemories }, notes);
  const start = r.start && town.map.reachable(r.start.x, r.start.y) ? r.start : null;
  if (r.start && !start) notes.push(`the reference's start tile ${r.start.x},${r.start.y} cannot be walked to: starts at the bed`);
  return { id: town.ids.get(name)!, folder: r.folder, persona, start, notes, undecided };
}

interface Texts {
  learned: string;
  currently: string;
  lifestyleText: string;
  /** The whispers, in the third person. */
  told: string[];
}

/** The reference sometimes speaks to the resident ("You don't like Sam Moore."): the persona speaks of them. */
function textsOf(s: Scratch, name: string, whispers: ReadonlyMap<string, string[]>, notes: string[]): Texts {
  const [learned, currently, lifestyleText] = (['learned', 'currently', 'lifestyle'] as const).map((field) => {
    const raw = (s[field] ?? '').trim();
    const said = thirdPersonText(raw, name);
    if (said !== raw) notes.push(`${field} in the second person, rewritten in the third: "${said}"`);
    return said;
  });
  const told = (whispers.get(name) ?? []).map((w) => thirdPerson(w, name));
  return { learned, currently, lifestyleText, told };
}

// ---- home, bedroom and bed, from living_area "world:sector:arena" ----
function bedOf(town: TownContext, s: Scratch, name: string, notes: string[]): { bedroom: ConvertedArena; bed: string } | string {
  const [, homeSector = '', homeArena = ''] = (s.living_area ?? '').split(':').map((x) => x.trim());
  let bedroom = town.map.arenas.find((a) => a.sector === homeSector && a.name === homeArena);
  if (!bedroom) {
    bedroom = town.arenasOf(homeSector).find((a) => a.objects.some((o) => /\bbed\b/.test(o)));
    if (bedroom) notes.push(`living_area '${s.living_area}' is not an arena of the map; sleeps in '${bedroom.address}', which has a bed`);
  }
  if (!bedroom) return `${name}: living_area '${s.living_area ?? ''}' names no arena of the map with a bed, so there is nowhere to sleep`;
  const beds = bedroom.objects.filter((o) => /^bed( \d+)?$/.test(o));
  if (beds.length) {
    // Residents of one room take its beds in turn, and share once they run out.
    const k = town.bedsTaken.get(bedroom.address) ?? 0;
    town.bedsTaken.set(bedroom.address, k + 1);
    return { bedroom, bed: beds[k % beds.length] };
  }
  const bed = bedroom.objects.find((o) => /bed|sofa|couch/.test(o)) ?? bedroom.objects[0];
  if (!bed) return `${name}: '${bedroom.address}' has no objects at all, not even a bed`;
  notes.push(`'${bedroom.address}' has no bed; sleeps on the '${bed}'`);
  return { bedroom, bed };
}

interface DayTimes {
  wake: number;
  sleep: number;
  dinner: number;
  /** The dinner time lifestyle gives, if it gives one. */
  dinnerParsed: number | null;
  /** Minutes of the waking day: after midnight counts on from 1440. */
  day: (minute: number) => number;
  /** Bedtime in minutes of the waking day. */
  sleepEnd: number;
}

// ---- times of day from lifestyle: "goes to bed around 11pm, awakes up around 6am, eats dinner around 5pm" ----
function timesOf(lifestyle: string, notes: string[]): DayTimes {
  const grab = (re: RegExp, bare: 'am' | 'pm' | 'bed'): number | null => {
    const m = re.exec(lifestyle);
    return m ? parseTimePhrase(m[1], bare) : null;
  };
  let wake = grab(/\b(?:wakes?|awakes?|gets? up|rises?)\b(?:\s+up)?[^,.;\d]*?((?:\d{1,2}(?:[:.]\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)?)|midnight|noon)/i, 'am');
  let sleep = grab(/\b(?:to bed|sleeps?|asleep)\b[^,.;\d]*?((?:\d{1,2}(?:[:.]\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)?)|midnight|noon)/i, 'bed');
  const dinnerParsed = grab(/\bdinner\b[^,.;\d]*?((?:\d{1,2}(?:[:.]\d{2})?\s*(?:a\.?m\.?|p\.?m\.?)?)|midnight|noon)/i, 'pm');
  if (wake === null) notes.push(`no wake-up time in lifestyle: ${hhmm(DEFAULT_WAKE)}`);
  if (sleep === null) notes.push(`no bedtime in lifestyle: ${hhmm(DEFAULT_SLEEP)}`);
  wake ??= DEFAULT_WAKE;
  sleep ??= DEFAULT_SLEEP;
  if (sleep === wake) {
    notes.push(`bedtime equals wake-up time in lifestyle; bedtime ${hhmm(wake + 16 * 60)}`);
    sleep = (wake + 16 * 60) % 1440;
  }
  const woke = wake;
  const day = (m: number) => (m < woke ? m + 1440 : m);
  return { wake, sleep, dinner: dinnerParsed ?? DEFAULT_DINNER, dinnerParsed, day, sleepEnd: day(sleep) };
}

interface HomeRooms {
  bath: ConvertedArena;
  kitchen: ConvertedArena;
  living: ConvertedArena;
}

const KITCHEN_OBJECTS = ['cooking area', 'toaster', 'refrigerator', 'kitchen sink', 'common room table'];

// ---- home's rooms ----
function roomsOf(town: TownContext, bedroom: ConvertedArena, name: string, gender: 'female' | 'male' | null): HomeRooms {
  const home = town.arenasOf(bedroom.sector);
  const own = (a: ConvertedArena) => includesWord(a.name, name) || includesWord(a.name, name.split(' ')[0]);
  const someoneElses = (a: ConvertedArena) => town.names.some((n) => n !== name && (includesWord(a.name, n) || includesWord(a.name, n.split(' ')[0])));
  // Shared bathrooms marked for men or women (the dorm's): the one the resident's pronouns point to.
  const forOther = (a: ConvertedArena) => (gender === 'female' ? /\b(man|men)'s\b/i : gender === 'male' ? /\b(woman|women)'s\b/i : /$^/).test(a.name);
  const bath =
    home.find((a) => /bathroom/.test(a.name) && own(a)) ??
    home.find((a) => /bathroom/.test(a.name) && !someoneElses(a) && !forOther(a)) ??
    home.find((a) => /bathroom/.test(a.name) && !someoneElses(a)) ??
    bedroom;
  const kitchen =
    home.find((a) => a.name === 'kitchen') ??
    (bedroom.objects.some((o) => KITCHEN_OBJECTS.includes(o)) ? bedroom : undefined) ??
    home.find((a) => a.objects.some((o) => KITCHEN_OBJECTS.includes(o))) ??
    bedroom;
  const living = home.find((a) => a.name === 'common room') ?? home.find((a) => a.name === 'main room') ?? bedroom;
  return { bath, kitchen, living };
}

/** A place at home: the room, and the first of the objects preferred that it has. */
function homeRef(a: ConvertedArena, prefer: readonly string[] = []): string {
  const o = prefer.find((p) => a.objects.includes(p));
  return `home: ${a.name}${o ? `: ${o}` : ''}`;
}

interface Work {
  place: Place;
  objectName: string | null;
  activity: string;
  /** Minutes of the waking day. */
  start: number;
  end: number;
}

// ---- the day from daily_plan_req: a workplace, its hours, and other places ----
function workOf(town: TownContext, req: string, t: DayTimes, notes: string[]): Work | null {
  const reqWords = keyWords(req);
  const named = sectorsNamedIn(req, town.publicSectors);
  const working = WORKING_WORDS.test(req);
  const times = timesIn(req);
  if (!working || !named.length) {
    if (req) notes.push(`daily_plan_req names no workplace of the map${named.length ? '' : ' and no place'}: "${req}"`);
    else notes.push('no daily_plan_req');
    return null;
  }
  const sector = named[0].sector;
  const arenas = town.arenasOf(sector);
  const teach = /\bteach/i.test(req);
  const cls = /\bclass/i.test(req);
  // An arena the text names wins; classes and teaching lean to a classroom.
  const arenaScore = (a: ConvertedArena) => 2 * scoreName(a.name, reqWords) + ((teach || cls) && /classroom/.test(a.name) ? 1 : 0);
  const arena = [...arenas].sort((a, b) => arenaScore(b) - arenaScore(a))[0];
  const staff = /\b(open|opens|stand|stands|counter|runs|run|shop keep|keeper)\b/i.test(req);
  const scored = arena.objects
    .filter((o) => !/ \d+$/.test(o))
    .map((o) => ({
      o,
      score:
        scoreName(o, reqWords) +
        (staff && /^behind/.test(o) ? 2 : 0) +
        (teach && /podium/.test(o) ? 2 : 0) +
        (cls && !teach && /student seating/.test(o) ? 2 : 0) +
        (/\b(stud|writ)/i.test(req) && /library table|desk/.test(o) ? 1 : 0),
    }))
    .sort((a, b) => b.score - a.score);
  const objectName = scored[0] && scored[0].score > 0 ? scored[0].o : null;
  const { day } = t;
  const start = times[0]?.minute ?? Math.round((t.wake + 90) / 30) * 30;
  const after = times.find((x) => day(x.minute) > day(start));
  let end = after ? after.minute : start + (cls || teach ? 4 * 60 : 8 * 60);
  if (day(end) > t.sleepEnd - 60) end = t.sleepEnd - 60;
  const activity = teach
    ? `teaching at ${sector}`
    : cls
      ? `taking classes at ${sector}`
      : /\bstud/i.test(req)
        ? `studying at ${sector}`
        : /\bwrit/i.test(req)
          ? `writing at ${sector}`
          : `working at ${sector}`;
  notes.push(
    `workplace '${arena.address}'${objectName ? ` at the '${objectName}'` : ''}, ${hhmm(start)}-${hhmm(end)}, ` +
      `from daily_plan_req${times.length ? '' : ' (no times in it: from 90 minutes after waking)'}${after ? '' : ' (no end time in it: a default length)'}`,
  );
  return { place: { sector, arena }, objectName, activity, start: day(start), end: day(end) };
}

type DailyHours = NonNullable<ReturnType<typeof hoursADay>>;

// ---- habits the text states, clause by clause: places and what is done there, hours a day, evenings ----
function outingsOf(
  town: TownContext,
  req: string,
  texts: Texts,
  work: Work | null,
  notes: string[],
): { outings: Outing[]; undecided: string[]; hours: DailyHours | null } {
  const { publicSectors } = town;
  const { told, learned, currently } = texts;
  const outings: Outing[] = [];
  const undecided: string[] = [];
  const seen = new Set<string>();
  const outingFrom = (clause: string, source: string, guess: boolean) => {
    const sector = sectorsNamedIn(clause, publicSectors)[0]?.sector;
    if (!sector || sector === work?.place.sector) return;
    const o = readOuting(clause, sector);
    if (seen.has(`${sector}|${o.when}`)) return;
    seen.add(sector).add(`${sector}|${o.when}`);
    if (o.undecided) undecided.push(`${source}: ${o.undecided}`);
    outings.push({ ...o, source, guess });
  };
  for (const clause of clausesOf(req)) outingFrom(clause, 'daily_plan_req', false);
  // An evening habit, often told only in a whisper ("You spend most evenings at the pub").
  for (const sentence of [...told, ...sentencesOf(currently), ...sentencesOf(learned)])
    if (/\b(evenings?|nights?|after work)\b/i.test(sentence) && HABIT.test(sentence)) outingFrom(sentence, 'a whisper or the background', false);
  // Places named in a whisper, learned or currently: a habit when the sentence says one, never the past
  // ("planted a tree there years ago"); the others are listed in the report.
  const background = [...told.flatMap((t) => sentencesOf(t)).map((t) => ({ t, from: 'a whisper' }))]
    .concat(sentencesOf(learned).map((t) => ({ t, from: 'learned' })))
    .concat(sentencesOf(currently).map((t) => ({ t, from: 'currently' })));
  for (const { t: sentence, from } of background) {
    const sector = sectorsNamedIn(sentence, publicSectors)[0]?.sector;
    if (!sector || sector === work?.place.sector || seen.has(sector)) continue;
    if (HABIT.test(sentence) && !PAST.test(sentence)) outingFrom(sentence, from, true);
    else undecided.push(`'${sector}' is named in ${from}, not as a habit ("${sentence}"): not in the routine`);
  }
  const guessed = outings.filter((o) => o.guess).map((o) => o.sector);
  if (guessed.length) notes.push(`outings from a whisper or the background: ${guessed.join(', ')}`);
  const hours = hoursADay(`${req} ${currently}`);
  if (hours) notes.push(`${hours.hours} hours a day ${hours.activity}, from the text`);
  return { outings, undecided, hours };
}

interface TimeAtHome {
  /** The desk-like object at home (an easel, a piano, a computer), if there is one. */
  desk: string | undefined;
  /** What is done at home between the day's other blocks, where, and its emoji. */
  atHome: string;
  deskRef: string;
  deskEmoji: string;
}

// ---- time at home: only what the text says is done there (a desk is no job), or what the room is for ----
function timeAtHomeOf(bedroom: ConvertedArena, living: ConvertedArena, everything: string, hours: DailyHours | null, notes: string[]): TimeAtHome {
  const desk = ['easel', 'piano', 'guitar', 'computer desk', 'computer', 'desk', 'game console', 'harp'].find(
    (o) => bedroom.objects.includes(o) || living.objects.includes(o),
  );
  const deskDoing = !desk
    ? null
    : ((
        {
          easel: 'painting at home',
          piano: 'practising the piano',
          guitar: 'playing the guitar',
          harp: 'playing the harp',
          'game console': 'playing games at home',
        } as Record<string, string>
      )[desk] ??
      (/\bwrit(?:e|es|ing|er)\b/i.test(everything)
        ? 'writing at home'
        : /\bwork(?:s|ing)? (?:from|at) home\b|\bremote(?:ly)?\b/i.test(everything)
          ? 'working at home'
          : null));
  const atHome = deskDoing ?? 'spending time at home';
  const deskEmoji = deskDoing
    ? (({ easel: '🎨', piano: '🎹', guitar: '🎸', harp: '🎵', 'game console': '🎮' } as Record<string, string>)[desk!] ??
      (/writ/.test(deskDoing) ? '✍️' : '💻'))
    : '🏠';
  const deskRef = deskDoing ? homeRef(bedroom.objects.includes(desk!) ? bedroom : living, [desk!]) : homeRef(living, ['common room sofa', 'shelf']);
  if (desk && !deskDoing && !hours) notes.push(`a ${desk} at home, but no desk work in the text: time at home is 'spending time at home'`);
  return { desk, atHome, deskRef, deskEmoji };
}

/** What a resident's routine is made of. */
interface ResidentDay {
  town: TownContext;
  times: DayTimes;
  rooms: HomeRooms;
  bedroom: ConvertedArena;
  bed: string;
  work: Work | null;
  hours: DailyHours | null;
  outings: Outing[];
  home: TimeAtHome;
}

/** The routine's blocks as they are added, and the hours taken by work and daily habits. */
interface RoutineDraft {
  blocks: Array<RoutineBlock & { minute: number; keep?: boolean }>;
  busy: Array<{ start: number; end: number }>;
  add: (minute: number, activity: string, place: string, emoji: string, keep?: boolean) => void;
}

// ---- the routine: fixed points, work, habits, outings; each block lasts until the next ----
function routineOf(d: ResidentDay, notes: string[], undecided: string[]): RoutineBlock[] {
  const blocks: RoutineDraft['blocks'] = [];
  const add: RoutineDraft['add'] = (minute, activity, place, emoji, keep = false) =>
    blocks.push({ minute: Math.round(minute / 5) * 5, at: '', activity, place, emoji, keep });
  const draft: RoutineDraft = { blocks, busy: [], add };
  morningOf(d, draft);
  outingsInto(d, draft, notes, undecided);
  eveningOf(d, draft);
  return orderedRoutine(draft, d.times);
}

/** Getting up, work and a daily habit's hours, breakfast, time at home, and home from work. */
function morningOf(d: ResidentDay, { add, busy }: RoutineDraft): void {
  const { times, rooms, bedroom, work, hours, outings, home } = d;
  const { wake } = times;
  add(wake, 'waking up and getting ready', homeRef(rooms.bath, ['shower', 'bathroom sink']), '🚿', true);
  if (work) {
    busy.push({ start: work.start, end: work.end });
    add(
      work.start,
      work.activity,
      work.objectName ? `work: ${work.objectName}` : 'work',
      emojiFor(`${work.place.sector} ${work.place.arena.name} ${work.activity}`, '💼'),
      true,
    );
  }
  if (hours) {
    const start = work && work.start <= wake + 60 + hours.hours * 60 ? work.end : wake + 60;
    const sector = sectorsNamedIn(hours.activity, d.town.publicSectors)[0]?.sector;
    const place = sector
      ? `${sector}: ${d.town.arenasOf(sector)[0].name}`
      : home.deskRef.startsWith('home') && home.desk
        ? homeRef(bedroom.objects.includes(home.desk) ? bedroom : rooms.living, [home.desk])
        : home.deskRef;
    add(start, hours.activity, place, /stream|video|game/i.test(hours.activity) ? '🎥' : emojiFor(hours.activity, '⏳'), true);
    busy.push({ start, end: start + hours.hours * 60 });
    add(start + hours.hours * 60, home.atHome, home.deskRef, home.deskEmoji);
  }
  if (!outings.some((o) => o.when === 'breakfast')) add(wake + 30, 'having breakfast', homeRef(rooms.kitchen, KITCHEN_OBJECTS), '🍳');
  if (!hours) add(wake + 60, home.atHome, home.deskRef, home.deskEmoji);
  if (work) add(work.end, 'relaxing at home', homeRef(rooms.living, ['common room sofa', 'shelf']), '🛋️');
}

/** The outings the text names, at the time it says or the first free one; lunch and a walk when it names none. */
function outingsInto(d: ResidentDay, { add, busy }: RoutineDraft, notes: string[], undecided: string[]): void {
  const { town, times, work, hours, outings, home } = d;
  const { wake, dinner, day, sleepEnd } = times;
  const { arenasOf, publicSectors } = town;
  const free = (m: number) => {
    for (const b of [...busy].sort((x, y) => x.start - y.start)) if (m >= b.start && m < b.end) m = b.end;
    return m;
  };
  const at: Record<NonNullable<Outing['when']>, number> = {
    breakfast: wake + 30,
    morning: Math.max(wake + 90, 9 * 60),
    lunch: 12 * 60,
    afternoon: Math.max(wake + 300, 15 * 60),
    dinner,
    evening: dinner + 60,
  };
  // Outings the text gives no time: after work, or from late morning on; never into dinner.
  let afternoon = work ? work.end : Math.max(wake + 180, 10 * 60);
  const defaults =
    outings.length || hours
      ? []
      : ['cafe', 'park'].map((kind) => publicSectors.find((sec) => new RegExp(kind, 'i').test(sec))).filter((x): x is string => Boolean(x));
  if (defaults.length) notes.push(`no place to go named: lunch and a walk in town (${defaults.join(', ')}) so the day is not all at home`);
  for (const [k, sector] of defaults.entries()) {
    const arena = arenasOf(sector)[0];
    const minute = k === 0 ? Math.max(wake + 180, 12 * 60) : Math.max(wake + 300, 15 * 60);
    add(minute, outingActivity(sector, arena.name, minute), `${sector}: ${arena.name}`, emojiFor(`${sector} ${arena.name}`, '📍'));
    add(minute + 90, home.atHome, home.deskRef, home.deskEmoji);
  }
  for (const o of outings) {
    const arena = arenasOf(o.sector).sort((a, b) => scoreName(b.name, keyWords(o.clause)) - scoreName(a.name, keyWords(o.clause)))[0];
    const wanted = o.when ? at[o.when] : afternoon;
    const minute = free(wanted);
    if (!o.when && day(minute % 1440) > day(dinner) - 90 && day(minute % 1440) < day(dinner) + 60) {
      undecided.push(`${o.activity} at ${o.sector} (${o.source}) has no time said and none is free before dinner: not in the routine`);
      continue;
    }
    if (minute !== wanted) notes.push(`${o.activity} at ${o.sector} moved to ${hhmm(minute)}, after work or a daily habit`);
    // A lunch or breakfast pushed out of its hours is not that meal any more ("having lunch at Hobbs Cafe" at 16:30): what one does
    // there at that hour.
    const mealHours = o.when === 'lunch' ? [11 * 60, 14 * 60 + 30] : o.when === 'breakfast' ? [wake, 11 * 60] : null;
    if (mealHours && minute !== wanted && !(day(minute % 1440) >= day(mealHours[0]) && day(minute % 1440) < day(mealHours[1]))) {
      notes.push(`${o.activity} at ${o.sector} at ${hhmm(minute)} is past its meal's hours: ${outingActivity(o.sector, arena.name, minute)}`);
      o.activity = outingActivity(o.sector, arena.name, minute).replace(/ (?:at|in) .*$/, '');
    }
    if (!o.when) afternoon = minute + 120;
    if (day(minute % 1440) >= sleepEnd - 60) {
      undecided.push(`${o.activity} at ${o.sector} (${o.source}) finds no free time before bed: not in the routine`);
      continue;
    }
    add(
      minute,
      `${o.activity} ${o.activity === 'taking a walk' ? 'in' : 'at'} ${o.sector}`,
      `${o.sector}: ${arena.name}`,
      emojiFor(`${o.sector} ${arena.name} ${o.activity}`, '📍'),
      true,
    );
    const back = o.when === 'evening' ? null : minute + (/having (lunch|breakfast|dinner)/.test(o.activity) ? 60 : 120);
    if (back !== null && o.when !== 'dinner') add(back, home.atHome, home.deskRef, home.deskEmoji);
  }
}

/** Dinner and the evening at home, unless an outing takes them, and getting ready for bed. */
function eveningOf(d: ResidentDay, { add }: RoutineDraft): void {
  const { times, rooms, outings } = d;
  const { dinner } = times;
  if (!outings.some((o) => o.when === 'dinner'))
    add(dinner, 'having dinner', homeRef(rooms.kitchen, ['common room table', 'cooking area', 'refrigerator']), '🍽️');
  if (!outings.some((o) => o.when === 'evening')) add(dinner + 60, 'relaxing at home', homeRef(rooms.living, ['common room sofa', 'shelf', 'closet']), '🛋️');
  add(times.sleep - 30, 'getting ready for bed', `home: ${d.bedroom.name}: ${d.bed}`, '🛏️', true);
}

/** In waking-day order; nothing inside work or a daily habit's hours but it; nothing before waking or after bedtime. */
function orderedRoutine({ blocks, busy }: RoutineDraft, { wake, day, sleepEnd }: DayTimes): RoutineBlock[] {
  for (const b of blocks) b.minute = day(b.minute % 1440);
  const inWork = (m: number) => busy.some((w) => m > w.start && m < w.end);
  const kept = blocks
    .filter((b) => b.keep || (!inWork(b.minute) && b.minute > wake && b.minute < sleepEnd - 5))
    // At one minute a kept block, then a meal, wins (coming home from an outing at dinner time is dinner).
    .sort((a, b) => a.minute - b.minute || Number(b.keep) - Number(a.keep) || Number(MEAL.test(b.activity)) - Number(MEAL.test(a.activity)));
  const routine: RoutineBlock[] = [];
  let last = -1;
  for (const b of kept) {
    if (b.minute <= last) continue;
    if (b.minute >= sleepEnd) continue;
    routine.push({ at: hhmm(b.minute), activity: b.activity, place: b.place, emoji: b.emoji });
    last = b.minute;
  }
  return routine;
}

// ---- memories and relationships ----
function seedMemoriesOf(
  r: ReferenceResident,
  texts: Texts,
  name: string,
  bedroom: ConvertedArena,
  notes: string[],
): { fromNodes: string[]; seedMemories: string[] } {
  const { told, learned } = texts;
  const fromNodes = seedFromNodes(r.nodes);
  if (r.nodes.length)
    notes.push(
      `${fromNodes.length} of ${r.nodes.length} memories from nodes.json as seed ` +
        `memories${fromNodes.length < r.nodes.length ? ' (idle and object-state events dropped; the most poignant kept)' : ''}`,
    );
  if (told.length) notes.push(`${told.length} whispers (agent_history_init) as seed memories, rewritten in the third person`);
  const seedMemories = [...fromNodes, ...told];
  if (seedMemories.length === 0) {
    seedMemories.push(...sentencesOf(learned).slice(0, 2));
    notes.push('no memory stream or whispers: seed memories from learned');
  }
  if (seedMemories.length === 0) seedMemories.push(`${name} lives in ${bedroom.sector}.`);
  return { fromNodes, seedMemories };
}

/** Each line holds only what is said of that person: sentences that name them, cut to the clauses about them. */
function relationshipsOf(town: TownContext, name: string, gender: 'female' | 'male' | null, about: readonly string[]): Record<string, string> {
  const { names, list, ids, firstNameCount } = town;
  const relationships: Record<string, string> = {};
  const namesOf = (other: string) => (t: string) => {
    const first = other.split(' ')[0];
    return includesWord(t, other) || (firstNameCount.get(first) === 1 && includesWord(t, first));
  };
  for (const other of names) {
    if (other === name) continue;
    const others = names.filter((n) => n !== other && n !== name).map(namesOf);
    // A pronoun is theirs when it is of their gender and not of the resident's ("and she works too hard").
    const o = list.find((x) => x.scratch.name.trim() === other)!.scratch;
    const g = genderOf(`${o.learned ?? ''} ${o.currently ?? ''} ${o.lifestyle ?? ''}`);
    const theirs = g === gender || g === null ? /$^/ : g === 'female' ? /\b(she|her|hers)\b/i : /\b(he|him|his)\b/i;
    const said = linesAbout(about, namesOf(other), (t) => others.some((m) => m(t)), name, theirs);
    if (said.length) relationships[ids.get(other)!] = withinChars(said, RELATIONSHIP_CHARS).join(' ');
  }
  return relationships;
}

/** The persona file's content: the texts, with defaults where the reference gives none. */
function personaOf(
  s: Scratch,
  name: string,
  texts: Texts,
  day: Pick<ImportedPersona, 'bed' | 'routine' | 'relationships' | 'seedMemories'> & { bedroom: ConvertedArena; times: DayTimes; work: Work | null },
  notes: string[],
): ImportedPersona {
  const { bedroom, times, work } = day;
  const age = Number.isFinite(Number(s.age)) && Number(s.age) >= 1 ? Math.min(120, Math.round(Number(s.age))) : 30;
  if (age !== Number(s.age)) notes.push(`age '${String(s.age)}' is not a whole number of years: ${age}`);
  const innate = (s.innate ?? '')
    .split(/[,;]/)
    .map((t) => t.trim())
    .filter(Boolean)
    .slice(0, 8);
  const text = (v: string | undefined, fallback: string) => (v && v.trim() ? v.trim() : fallback);
  return {
    name,
    age,
    innate: innate.length ? innate : ['kind'],
    learned: text(texts.learned, `${name} lives in ${bedroom.sector}.`),
    currently: text(texts.currently, `${name} is going about an ordinary day.`),
    lifestyle: text(texts.lifestyleText, `${name} wakes at ${hhmm(times.wake)} and goes to bed at ${hhmm(times.sleep)}.`),
    wakeAt: hhmm(times.wake),
    sleepAt: hhmm(times.sleep),
    home: bedroom.sector,
    bedroom: bedroom.name,
    bed: day.bed,
    workplace: work ? work.place.arena.address : null,
    routine: day.routine,
    relationships: day.relationships,
    seedMemories: day.seedMemories,
    sprite: lookOf(name, age),
  };
}

/** Seed memories from a memory stream: events, thoughts and chats, not idle or object-state events. */
function seedFromNodes(nodes: readonly MemoryNode[]): string[] {
  const useful = nodes
    .map((n, i) => ({ n, i }))
    .filter(({ n }) => typeof n.description === 'string' && n.description.trim() && !/\b(is idle|being used|is sleeping)\s*$/i.test(n.description.trim()));
  const top = [...useful].sort((a, b) => (b.n.poignancy ?? 0) - (a.n.poignancy ?? 0) || a.i - b.i).slice(0, MAX_SEED_NODES);
  return top
    .sort((a, b) => a.i - b.i)
    .map(({ n }) => n.description!.trim().replace(/\s+/g, ' '))
    .filter((d, i, all) => all.indexOf(d) === i);
}

/** 'female' or 'male' from the pronouns a text uses of its subject (more "she/her" or "he/his/him"); null when unclear. */
export function genderOf(text: string): 'female' | 'male' | null {
  const count = (re: RegExp) => (text.match(re) ?? []).length;
  const she = count(/\b(she|her|hers|herself)\b/gi);
  const he = count(/\b(he|his|him|himself)\b/gi);
  return she > he ? 'female' : he > she ? 'male' : null;
}
