// The persona files of a generated town: each person's background, what they are up to, a routine for
// the day (home, work or school, lunch, a hobby, errands, dinner, the evening) at places near them,
// relationships within their household and workplace (or class), and their first memories.
import { Rng } from '../../server/src/sim/rng';
import { formatClock } from '../../server/src/protocol/time';
import type { PersonaFile, RoutineEntry } from '../../server/src/world/persona';
import { CHILD_PLAY, PURSUITS, type Hobby } from './tables';
import type { Household, Person, Population, Venue } from './population';
import type { Spot, TownLayout } from './layout';
import { distance, type Assignment } from './assign';

const WALK_TILES_PER_MINUTE = 6;
const DAY = 1440;

interface Ctx {
  pop: Population;
  layout: TownLayout;
  assignment: Assignment;
  rng: Rng;
}

const round5 = (m: number) => Math.round(m / 5) * 5;
const clock = (m: number) => formatClock(((m % DAY) + DAY) % DAY);
const they = (p: Person) => (p.gender === 'female' ? 'she' : 'he');
const their = (p: Person) => (p.gender === 'female' ? 'her' : 'his');
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
/** "7am", "10:30pm", as people say it. */
function spoken(m: number): string {
  const min = ((m % DAY) + DAY) % DAY;
  const h = Math.floor(min / 60);
  const mm = min % 60;
  const h12 = h % 12 === 0 ? 12 : h % 12;
  if (min === 0) return 'midnight';
  return `${h12}${mm ? `:${String(mm).padStart(2, '0')}` : ''}${h < 12 ? 'am' : 'pm'}`;
}

function homeOf(ctx: Ctx, p: Person): { sector: string; household: Household; spot: Spot; has: (arena: string) => boolean; living: boolean; bath: boolean } {
  const household = ctx.pop.households[p.household];
  const sector = ctx.layout.homes[p.household];
  const has = (arena: string) => household.rooms.some((r) => r.arena === arena);
  return { sector, household, spot: ctx.layout.spots.get(sector)!, has, living: has('living room'), bath: has('bathroom') };
}

/** The nearest venues of some kinds to a spot, nearest first. */
function nearest(ctx: Ctx, from: Spot, kinds: readonly string[], count: number): Venue[] {
  return ctx.pop.venues
    .filter((v) => kinds.includes(v.kind) && (v.kind === 'park' || v.type?.visit))
    .map((v) => ({ v, d: distance(from, ctx.layout.spots.get(v.sector)!) }))
    .sort((a, b) => a.d - b.d || a.v.index - b.v.index)
    .slice(0, count)
    .map((x) => x.v);
}

const PARK_OBJECTS: Record<string, string[]> = {
  rest: ['bench', 'bench 2', 'bench 3', 'bench 4', 'fountain', 'picnic table', 'picnic table 2'],
  gardening: ['garden', 'flower bed', 'flower bed 2'],
  birdwatching: ['bench', 'bench 3', 'fountain'],
  running: [''],
};

/** A place to do something at a venue: its visitors' room and one of their objects, or the park (an object in it). */
function visitRef(ctx: Ctx, v: Venue, what = 'rest'): string {
  if (v.kind === 'park') {
    const obj = ctx.rng.pick(PARK_OBJECTS[what] ?? PARK_OBJECTS.rest);
    return obj ? `${v.sector}: park: ${obj}` : `${v.sector}: park`;
  }
  const visit = v.type!.visit!;
  return `${v.sector}: ${visit.room}: ${ctx.rng.pick(visit.objects)}`;
}

const HOBBY_VENUES: Record<Hobby['where'], string[]> = {
  park: ['park'],
  pub: ['pub'],
  cafe: ['cafe'],
  library: ['library', 'bookshop'],
  studio: ['studio'],
  music: ['music'],
  shop: ['grocery', 'bakery', 'bookshop'],
  'home-living': [],
  'home-kitchen': [],
};

/** Where a hobby is done: a couple of nearby places (the mind picks one a day), or home. */
function hobbyPlaces(ctx: Ctx, p: Person, hobby: Hobby, near: Spot): string[] {
  const home = homeOf(ctx, p);
  const hasObject = hobby.homeObject !== undefined && home.household.rooms.some((r) => r.objects.includes(hobby.homeObject!));
  const atHome = home.living ? `home: living room: ${hasObject ? hobby.homeObject : 'sofa'}` : 'home: kitchen: table';
  // A hobby that needs an object its home lacks (a housemate's living room holds another's) is not done at home.
  const homeOk = !hobby.homeObject || hasObject;
  if (hobby.where === 'home-living') return homeOk ? [atHome] : [];
  if (hobby.where === 'home-kitchen') return ['home: kitchen: stove'];
  const venues = nearest(ctx, near, HOBBY_VENUES[hobby.where], 2);
  const refs = venues.map((v) => visitRef(ctx, v, hobby.name));
  if (hasObject && home.living) refs.push(atHome);
  return refs.length ? [...new Set(refs)] : homeOk ? [atHome] : [];
}

function foodPlaces(ctx: Ctx, near: Spot): string[] {
  return [...new Set(nearest(ctx, near, ['cafe', 'restaurant', 'bakery'], 2).map((v) => visitRef(ctx, v)))];
}

interface Block {
  at: number;
  activity: string;
  place: string | string[];
  emoji: string;
  tasks?: string[];
}

/** Blocks in order, each at least 10 minutes after the one before and 10 before bed; the rest are dropped. */
function tidy(blocks: Block[], wake: number, sleep: number): RoutineEntry[] {
  const out: Block[] = [];
  for (const b of blocks) {
    const at = round5(b.at);
    if (out.length && at < out[out.length - 1].at + 10) continue;
    if (at > sleep - 10) continue;
    out.push({ ...b, at });
  }
  out[0].at = wake;
  return out.map((b) => ({
    at: clock(b.at),
    activity: b.activity,
    place: Array.isArray(b.place) && b.place.length === 1 ? b.place[0] : b.place,
    emoji: b.emoji,
    ...(b.tasks?.length ? { tasks: b.tasks } : {}),
  }));
}

function commuteMinutes(a: Spot, b: Spot): number {
  return Math.max(5, Math.ceil(distance(a, b) / WALK_TILES_PER_MINUTE / 5) * 5);
}

interface Day {
  wake: number;
  sleep: number;
  blocks: Block[];
}

type Home = ReturnType<typeof homeOf>;
type Placed = NonNullable<Assignment['placeOf'][number]>;
type Job = NonNullable<Placed['job']>;

/** The blocks every kind of day is made of, each at the time the day gives it. */
interface DayBlocks {
  ready: Block;
  breakfast(at: number): Block;
  dinner(at: number): Block;
  relax(at: number): Block;
  hobby(at: number, near: Spot): Block;
  errands(at: number): Block;
  /** A day from `wake` to `sleep`: getting ready, breakfast `breakfastAfter` minutes after waking, then `rest`. */
  day(wake: number, sleep: number, breakfastAfter: number, rest: Block[]): Day;
}

function routineOf(ctx: Ctx, p: Person): Day {
  const home = homeOf(ctx, p);
  const place = ctx.assignment.placeOf[p.index];
  const blocks = dayBlocksOf(ctx, p, home);
  if (p.role === 'child' && place) return schoolDay(ctx, p, home, place, blocks);
  if (p.role === 'college' && place) return collegeDay(ctx, home, place, blocks);
  if (p.role === 'retired' || p.role === 'home' || !place || !place.job) return dayAtHome(ctx, p, home, blocks);
  return workDay(ctx, p, home, { ...place, job: place.job }, blocks);
}

function dayBlocksOf(ctx: Ctx, p: Person, home: Home): DayBlocks {
  const ready: Block = {
    at: 0,
    activity: 'waking up and getting ready',
    place: home.bath ? 'home: bathroom' : `home: ${p.bedroom}`,
    emoji: '🚿',
    tasks: home.bath ? ['taking a shower', 'brushing teeth'] : ['getting dressed'],
  };
  const breakfast = (at: number): Block => ({ at, activity: 'having breakfast', place: 'home: kitchen: table', emoji: '🥣' });
  const dinner = (at: number): Block => ({
    at,
    activity: home.household.members.length > 1 ? 'having dinner at home' : 'cooking dinner',
    place: home.household.members.length > 1 ? 'home: kitchen: table' : 'home: kitchen: stove',
    emoji: '🍝',
  });
  const relax = (at: number): Block => ({
    at,
    activity: 'relaxing at home',
    place: home.living ? ['home: living room: sofa'] : [`home: ${p.bedroom}: ${p.bed}`],
    emoji: '🛋️',
  });
  const hobby = (at: number, near: Spot): Block => {
    const place = hobbyPlaces(ctx, p, p.hobby, near);
    // Nowhere to do it (no piano at home, no music room in town): an evening in instead.
    if (place.length === 0) return relax(at);
    return { at, activity: p.hobby.activity, place, emoji: p.hobby.emoji, tasks: p.hobby.tasks };
  };
  const errands = (at: number): Block => {
    const shops = nearest(ctx, home.spot, ['grocery', 'bakery', 'bookshop'], 2);
    return {
      at,
      activity: 'running errands',
      place: shops.length ? shops.map((v) => visitRef(ctx, v)) : ['home: kitchen: fridge'],
      emoji: '🛍️',
      tasks: ['buying groceries', 'picking up bread'],
    };
  };
  const day = (wake: number, sleep: number, breakfastAfter: number, rest: Block[]): Day => ({
    wake,
    sleep,
    blocks: [{ ...ready, at: wake }, breakfast(wake + breakfastAfter), ...rest],
  });
  return { ready, breakfast, dinner, relax, hobby, errands, day };
}

/** A child's day: school with lunch there, play after, homework, dinner and an evening at home. */
function schoolDay(ctx: Ctx, p: Person, home: Home, place: Placed, { day, dinner, relax }: DayBlocks): Day {
  const { rng } = ctx;
  const school = ctx.layout.spots.get(place.venue.sector)!;
  const wake = round5(rng.int(405, 445));
  const sleep = p.age <= 10 ? 20 * 60 + 30 : p.age <= 13 ? 21 * 60 + 30 : 22 * 60 + 30;
  const leave = 8 * 60 + 30 - commuteMinutes(home.spot, school);
  const desk = `${place.venue.sector}: ${place.room}: ${rng.pick(['desk', 'desk 2', 'desk 3', 'desk 4', 'desk 5'])}`;
  const play = rng.pick(CHILD_PLAY);
  const playPlace =
    play.where === 'park' || play.where === 'library'
      ? nearest(ctx, home.spot, [play.where], 1).map((v) => visitRef(ctx, v))
      : [play.where === 'home-living' && home.living ? 'home: living room: sofa' : 'home: kitchen: table'];
  return day(wake, sleep, 30, [
    {
      at: leave,
      activity: 'attending class',
      place: desk,
      emoji: '✏️',
      tasks: ['listening to the teacher', 'doing sums', 'reading aloud', 'copying notes from the blackboard'],
    },
    { at: 12 * 60, activity: 'having lunch at school', place: `${place.venue.sector}: ${place.room}`, emoji: '🥪' },
    { at: 12 * 60 + 45, activity: 'attending class', place: desk, emoji: '✏️', tasks: ['doing an experiment', 'writing a story', 'learning history'] },
    { at: 15 * 60 + 15, activity: play.activity, place: playPlace.length ? playPlace : ['home: kitchen: table'], emoji: play.emoji },
    { at: 17 * 60, activity: 'doing homework', place: home.has("children's room") ? "home: children's room: desk" : 'home: kitchen: table', emoji: '📓' },
    dinner(18 * 60 + 30),
    relax(19 * 60 + 15),
  ]);
}

/** A student's day: a lecture, lunch near college, the library, a hobby, dinner, perhaps the pub. */
function collegeDay(ctx: Ctx, home: Home, place: Placed, { day, dinner, relax, hobby }: DayBlocks): Day {
  const { rng } = ctx;
  const college = ctx.layout.spots.get(place.venue.sector)!;
  const wake = round5(rng.int(450, 510));
  const sleep = round5(rng.int(23 * 60, 24 * 60 + 45));
  const lectures = 9 * 60 + 30 - commuteMinutes(home.spot, college);
  return day(wake, sleep, 30, [
    {
      at: lectures,
      activity: 'attending a lecture',
      place: `${place.venue.sector}: lecture hall: ${rng.pick(['desk', 'desk 2', 'desk 3'])}`,
      emoji: '🎓',
      tasks: ['taking notes', 'asking a question'],
    },
    { at: 12 * 60 + 15, activity: 'having lunch with classmates', place: foodPlaces(ctx, college), emoji: '🥪' },
    {
      at: 13 * 60 + 15,
      activity: 'studying in the library',
      place: `${place.venue.sector}: library: ${rng.pick(['desk', 'desk 2'])}`,
      emoji: '📚',
      tasks: ['reading for an essay', 'writing notes'],
    },
    hobby(16 * 60 + 45, home.spot),
    dinner(18 * 60 + 45),
    rng.chance(0.5)
      ? { at: 20 * 60, activity: 'meeting friends at the pub', place: nearest(ctx, home.spot, ['pub'], 2).map((v) => visitRef(ctx, v)), emoji: '🍻' }
      : relax(20 * 60),
    relax(22 * 60),
  ]);
}

/** A day at home (retired, keeping house, or no job): a morning pursuit, errands, lunch, a nap or hobby, visits. */
function dayAtHome(ctx: Ctx, p: Person, home: Home, { day, dinner, relax, hobby, errands }: DayBlocks): Day {
  const { rng } = ctx;
  const wake = round5(p.role === 'retired' ? rng.int(390, 480) : rng.int(400, 460));
  const sleep = round5(p.role === 'retired' ? rng.int(21 * 60 + 15, 22 * 60 + 45) : rng.int(22 * 60, 23 * 60 + 30));
  const morning: Block =
    p.role === 'retired'
      ? hobby(wake + 75, home.spot)
      : {
          at: wake + 75,
          activity: rng.pick(['looking after the house', 'writing at the kitchen table', 'looking for work']),
          place: 'home: kitchen: table',
          emoji: '🏠',
          tasks: ['tidying up', 'doing the laundry', 'making phone calls'],
        };
  const visit = nearest(ctx, home.spot, ['cafe', 'park', 'pub', 'library'], 3);
  return day(wake, sleep, 35, [
    morning,
    errands(11 * 60),
    { at: 12 * 60 + 30, activity: 'having lunch', place: 'home: kitchen: table', emoji: '🥗' },
    p.role === 'retired' ? { at: 13 * 60 + 30, activity: 'having a nap', place: `home: ${p.bedroom}: ${p.bed}`, emoji: '💤' } : hobby(13 * 60 + 30, home.spot),
    {
      at: 15 * 60,
      activity: 'visiting friends around town',
      place: visit.length ? visit.map((v) => visitRef(ctx, v)) : ['home: kitchen: table'],
      emoji: '☕',
    },
    dinner(18 * 60),
    relax(19 * 60),
  ]);
}

/** A worker's day: the shift, lunch near work, a hobby or errands after, dinner and the evening at home. */
function workDay(ctx: Ctx, p: Person, home: Home, place: Placed & { job: Job }, parts: DayBlocks): Day {
  const { rng } = ctx;
  const { ready, breakfast, dinner, relax, hobby, errands } = parts;
  const job = place.job;
  const work = ctx.layout.spots.get(place.venue.sector)!;
  const commute = commuteMinutes(home.spot, work);
  const workRef = job.at ? `work: ${job.at}` : 'work';
  const shift = (at: number): Block => ({ at, activity: job.activity, place: workRef, emoji: job.emoji, tasks: job.tasks });
  if (job.start >= 11 * 60) return lateShiftDay(ctx, p, home, { job, commute, shift }, parts);
  const wake = round5(job.start - commute - rng.int(45, 80));
  const sleep = job.start <= 6 * 60 ? round5(rng.int(20 * 60 + 30, 21 * 60 + 30)) : round5(rng.int(22 * 60, 23 * 60 + 45));
  const lunch = job.end > 14 * 60 ? round5(Math.max(job.start + 180, 12 * 60 + rng.int(0, 4) * 15)) : null;
  const blocks: Block[] = [{ ...ready, at: wake }, breakfast(wake + 25), shift(job.start - commute)];
  if (lunch !== null) {
    blocks.push({ at: lunch, activity: 'having lunch', place: [...foodPlaces(ctx, work), 'work'], emoji: '🥪' });
    blocks.push(shift(lunch + 45));
  }
  const off = job.end + 5;
  const evening = rng.chance(0.6) ? hobby(off, rng.chance(0.5) ? work : home.spot) : errands(off);
  const supper = Math.max(off + 90, 18 * 60 + rng.int(0, 6) * 15);
  blocks.push(evening, dinner(supper));
  if (rng.chance(0.3) && sleep > 22 * 60) {
    blocks.push({
      at: supper + 60,
      activity: 'having a drink with friends',
      place: nearest(ctx, home.spot, ['pub'], 2).map((v) => visitRef(ctx, v)),
      emoji: '🍻',
    });
    blocks.push(relax(supper + 150));
  } else blocks.push(relax(supper + 45));
  return { wake, sleep, blocks };
}

/** A late shift: a slow morning, then work until late. */
function lateShiftDay(
  ctx: Ctx,
  p: Person,
  home: Home,
  { job, commute, shift }: { job: Job; commute: number; shift: (at: number) => Block },
  { day, dinner, relax, hobby, errands }: DayBlocks,
): Day {
  const { rng } = ctx;
  const wake = round5(rng.int(8 * 60, 9 * 60 + 30));
  const sleep = job.end >= 22 * 60 ? round5(job.end + commute + rng.int(45, 75)) : round5(rng.int(23 * 60, 24 * 60));
  return day(wake, sleep, 30, [
    rng.chance(0.5) ? hobby(wake + 75, home.spot) : errands(wake + 75),
    { at: job.start - commute - 45, activity: 'having lunch at home', place: 'home: kitchen: table', emoji: '🥗' },
    shift(job.start - commute),
    { at: job.start + Math.floor((job.end - job.start) / 2), activity: 'taking a break', place: 'work', emoji: '🥪' },
    shift(job.start + Math.floor((job.end - job.start) / 2) + 30),
    job.end >= 22 * 60
      ? { at: job.end + commute, activity: 'winding down at home', place: home.living ? 'home: living room: sofa' : `home: ${p.bedroom}`, emoji: '🌙' }
      : dinner(job.end + commute),
    ...(job.end < 22 * 60 ? [relax(job.end + commute + 45)] : []),
  ]);
}

const KIN_WORDS = {
  partner: (o: Person) => (o.gender === 'female' ? 'wife' : 'husband'),
  parent: (o: Person) => (o.gender === 'female' ? 'daughter' : 'son'),
  child: (o: Person) => (o.gender === 'female' ? 'mother' : 'father'),
  sibling: (o: Person) => (o.gender === 'female' ? 'sister' : 'brother'),
};
const OPINIONS = [
  'reliable',
  'funny',
  'kind',
  'hard-working',
  'a good listener',
  'a bit chatty',
  'easy to work with',
  'thoughtful',
  'always cheerful',
  'clever',
];

/** What each person thinks of the others in their household, workplace or class, keyed by id. */
function relationshipsOf(ctx: Ctx, p: Person, colleagues: Person[], classmates: Person[]): Record<string, string> {
  const out: Record<string, string> = {};
  const home = ctx.layout.homes[p.household];
  for (const { other, as } of p.kin) {
    const o = ctx.pop.people[other];
    if (as === 'partner')
      out[o.id] =
        `${o.name} is ${p.first}'s ${p.surname === o.surname || ctx.rng.chance(0.6) ? KIN_WORDS.partner(o) : 'partner'}; they live together at ${home}.`;
    else if (as === 'parent') out[o.id] = `${o.name} is ${p.first}'s ${KIN_WORDS.parent(o)}, ${o.age} years old.`;
    else if (as === 'child') out[o.id] = `${o.name} is ${p.first}'s ${KIN_WORDS.child(o)}.`;
    else if (as === 'sibling') out[o.id] = `${o.name} is ${p.first}'s ${o.age > p.age ? 'older' : 'younger'} ${KIN_WORDS.sibling(o)}.`;
    else
      out[o.id] = `${o.name} shares the house at ${home} with ${p.first}; ${they(p)} finds ${o.gender === 'female' ? 'her' : 'him'} ${ctx.rng.pick(OPINIONS)}.`;
  }
  const place = ctx.assignment.placeOf[p.index];
  for (const o of colleagues) {
    const job = ctx.assignment.placeOf[o.index]?.job;
    out[o.id] ??=
      `${o.name} works with ${p.first} at ${place!.venue.sector}${job ? ` as a ${job.title}` : ''}; ${p.first} ` +
      `finds ${o.gender === 'female' ? 'her' : 'him'} ${ctx.rng.pick(OPINIONS)}.`;
  }
  for (const o of classmates) out[o.id] ??= `${o.name} is in ${p.first}'s class at ${place!.venue.sector}.`;
  return out;
}

/** Up to `k` neighbours on each side in a ring: a few colleagues or classmates each, known both ways. */
function ringNeighbours<T>(list: readonly T[], i: number, k: number): T[] {
  const out: T[] = [];
  for (let d = 1; d <= k && d < list.length; d++) {
    for (const j of [(i + d) % list.length, (i - d + list.length) % list.length]) if (j !== i && !out.includes(list[j])) out.push(list[j]);
  }
  return out;
}

function livesWith(ctx: Ctx, p: Person): string {
  const others = ctx.pop.households[p.household].members.filter((m) => m !== p.index).map((m) => ctx.pop.people[m]);
  if (others.length === 0) return 'alone';
  const names = others.map((o) => {
    const kin = p.kin.find((k) => k.other === o.index);
    const word = kin && kin.as !== 'housemate' ? `${their(p)} ${KIN_WORDS[kin.as](o)} ` : '';
    return `${word}${o.first}`;
  });
  return `with ${names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}` : names[0]}`;
}

export function personaOf(ctx: Ctx, p: Person, colleagues: Person[], classmates: Person[]): PersonaFile {
  const rng = ctx.rng;
  const home = ctx.layout.homes[p.household];
  const place = ctx.assignment.placeOf[p.index];
  const day = routineOf(ctx, p);
  const routine = tidy(day.blocks, day.wake, day.sleep);
  const what = place?.job
    ? `a ${p.age}-year-old ${place.job.title} at ${place.venue.sector}`
    : `${p.age} and ${
        p.role === 'child' && place
          ? `a pupil at ${place.venue.sector}`
          : p.role === 'college' && place
            ? `a student at ${place.venue.sector}`
            : p.role === 'retired'
              ? 'retired'
              : 'at home for now'
      }`;
  const sub = (s: string) =>
    s
      .replaceAll('{first}', p.first)
      .replaceAll('{their}', their(p))
      .replaceAll('{work}', place?.venue.sector ?? 'work')
      .replaceAll('{hobby}', p.hobby.loves);
  const kids = p.kin.some((k) => k.as === 'parent');
  const pool =
    p.role === 'retired'
      ? PURSUITS.retired
      : p.role === 'child'
        ? PURSUITS.student
        : p.role === 'college'
          ? PURSUITS.college
          : p.role === 'home'
            ? PURSUITS.home
            : kids && rng.chance(0.5)
              ? PURSUITS.parent
              : PURSUITS.worker;
  const currently = sub(rng.pick(pool));
  const meals =
    p.role === 'child'
      ? 'has lunch at school'
      : place?.job && place.job.start < 11 * 60 && place.job.end > 14 * 60
        ? 'has lunch near work'
        : 'eats most meals at home';
  const partner = p.kin.find((k) => k.as === 'partner');
  const seedMemories = [
    `${p.name} lives at ${home} ${livesWith(ctx, p)}.`,
    place?.job
      ? `${p.name} works as a ${place.job.title} at ${place.venue.sector}.`
      : place
        ? `${p.name} goes to ${place.venue.sector}.`
        : p.role === 'retired'
          ? `${p.name} is retired and enjoys the slower pace of life.`
          : `${p.name} is at home these days.`,
    `${p.name} loves ${p.hobby.loves}.`,
    ...(partner
      ? [`${p.name} and ${ctx.pop.people[partner.other].name} have been together for ${Math.max(1, Math.min(p.age - 20, rng.int(2, 40)))} years.`]
      : []),
    ...(colleagues.length ? [`${colleagues[0].name} is ${p.first}'s colleague at ${place!.venue.sector}.`] : []),
  ];
  return {
    name: p.name,
    age: p.age,
    innate: p.traits,
    learned: `${p.name} is ${what}. ${cap(they(p))} lives at ${home} ${livesWith(ctx, p)} and loves ${p.hobby.loves}.`,
    currently,
    lifestyle: `${p.first} goes to bed around ${spoken(day.sleep)}, wakes up at ${spoken(day.wake)}, and ${meals}.`,
    wakeAt: clock(day.wake),
    sleepAt: clock(day.sleep),
    home,
    ...(p.bedroom !== 'bedroom' ? { bedroom: p.bedroom } : {}),
    ...(p.bed !== 'bed' ? { bed: p.bed } : {}),
    workplace: place?.job ? `${place.venue.sector}: ${place.room}` : null,
    routine,
    relationships: relationshipsOf(ctx, p, colleagues, classmates),
    seedMemories,
    sprite: p.sprite,
  };
}

/** Every person's persona, in person order. */
export function drawPersonas(pop: Population, layout: TownLayout, assignment: Assignment, seed: number): PersonaFile[] {
  const ctx: Ctx = { pop, layout, assignment, rng: Rng.fromKey(seed, 'personas') };
  // Staff of each venue and pupils of each classroom, in person order: the rings of who knows whom.
  const groups = new Map<string, Person[]>();
  for (const p of pop.people) {
    const place = assignment.placeOf[p.index];
    if (!place) continue;
    const key = `${place.venue.sector}|${place.job ? 'staff' : place.room}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return pop.people.map((p) => {
    const place = assignment.placeOf[p.index];
    const group = place ? groups.get(`${place.venue.sector}|${place.job ? 'staff' : place.room}`)! : [];
    const known = ringNeighbours(group, group.indexOf(p), place?.job ? 2 : 1);
    return personaOf(ctx, p, place?.job ? known : [], place?.job ? [] : known);
  });
}
