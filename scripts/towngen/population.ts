// Who lives in a generated town: households of people with names, ages, genders, traits, hobbies and
// looks, the homes they need (a bed each), and the workplaces, schools and parks the town needs for
// them. Everything is drawn from the tables with one seeded Rng, in a fixed order.
import { Rng } from '../../server/src/sim/rng';
import type { Room } from '../../maps/scripts/townBuilder';
import {
  BUSINESS_WORDS,
  COLLEGE_AGE_MAX,
  FEMALE_NAMES,
  GREY_HAIR,
  HAIR_COLOURS,
  HOBBIES,
  MALE_NAMES,
  PANTS_COLOURS,
  PARK_JOB,
  PEOPLE_PER_STAFF_SCALE,
  PARK_WORDS,
  PUB_NAMES,
  PUPILS_PER_CLASSROOM,
  RETIRE_AGE,
  SCHOOL_AGE_MAX,
  SCHOOL_AGE_MIN,
  SHIRT_COLOURS,
  SKIN_TONES,
  STUDENTS_PER_COLLEGE,
  SURNAMES,
  TOWN_NAMES,
  TRAIT_CLASHES,
  TRAIT_GROUPS,
  WORKPLACES,
  type Gender,
  type Hobby,
  type Job,
  type WorkplaceKind,
  type WorkplaceType,
} from './tables';

export type Role = 'child' | 'college' | 'worker' | 'home' | 'retired';
export type Kin = 'partner' | 'parent' | 'child' | 'sibling' | 'housemate';

export interface Person {
  index: number;
  id: string;
  first: string;
  surname: string;
  name: string;
  gender: Gender;
  age: number;
  role: Role;
  household: number;
  traits: string[];
  hobby: Hobby;
  sprite: { skin: string; hair: string; shirt: string; pants: string };
  /** Where in the home they sleep. */
  bedroom: string;
  bed: string;
  /** Kin within the household, by person index. */
  kin: Array<{ other: number; as: Kin }>;
}

export type HouseholdKind = 'single' | 'couple' | 'family' | 'single parent' | 'housemates' | 'students' | 'retired couple' | 'retired single';

export interface Household {
  index: number;
  kind: HouseholdKind;
  members: number[];
  /** The rooms of its home (a bed for everyone), and the room with the front door. */
  rooms: Room[];
  doorRoom: number;
}

/** A place in town that is not a home: a workplace of a kind, or a park. */
export interface Venue {
  index: number;
  kind: WorkplaceKind | 'park';
  sector: string;
  type: WorkplaceType | null;
  jobs: Job[];
}

export interface Population {
  people: Person[];
  households: Household[];
  venues: Venue[];
  townName: string;
}

const HOUSEHOLD_WEIGHTS: Array<[HouseholdKind, number]> = [
  ['single', 0.2],
  ['couple', 0.2],
  ['family', 0.28],
  ['single parent', 0.07],
  ['housemates', 0.07],
  ['students', 0.04],
  ['retired couple', 0.08],
  ['retired single', 0.06],
];

function weighted<T>(rng: Rng, items: ReadonlyArray<[T, number]>): T {
  const total = items.reduce((s, [, w]) => s + w, 0);
  let r = rng.next() * total;
  for (const [item, w] of items) if ((r -= w) < 0) return item;
  return items[items.length - 1][0];
}

/** An id for a file name: lowercase ASCII letters and digits joined by '-'. */
export function idOf(first: string, surname: string): string {
  return `${first}-${surname}`.toLowerCase().replace(/[^a-z0-9-]+/g, '');
}

interface Draft {
  age: number;
  gender: Gender;
  surname?: string;
}

/** The people of one household, oldest first, and how they are related. */
function draftHousehold(rng: Rng, kind: HouseholdKind): { drafts: Draft[]; kin: Array<[number, number, Kin]> } {
  const gender = (): Gender => (rng.chance(0.5) ? 'female' : 'male');
  const partnerOf = (g: Gender): Gender => (rng.chance(0.1) ? g : g === 'female' ? 'male' : 'female');
  const kin: Array<[number, number, Kin]> = [];
  const drafts: Draft[] = [];
  const couple = (minAge: number, maxAge: number) => {
    const a = rng.int(minAge, maxAge);
    const g = gender();
    drafts.push({ age: a, gender: g }, { age: Math.max(minAge, Math.min(maxAge + 4, a + rng.int(-5, 5))), gender: partnerOf(g) });
    kin.push([0, 1, 'partner']);
  };
  const children = (count: number, youngestParent: number) => {
    const first = drafts.length;
    for (let i = 0; i < count; i++)
      drafts.push({ age: Math.max(SCHOOL_AGE_MIN, Math.min(youngestParent - 20, rng.int(SCHOOL_AGE_MIN, COLLEGE_AGE_MAX - 1))), gender: gender() });
    for (let c = first; c < drafts.length; c++) {
      for (let p = 0; p < first; p++) kin.push([p, c, 'parent']);
      for (let s = first; s < c; s++) kin.push([s, c, 'sibling']);
    }
  };
  switch (kind) {
    case 'single':
      drafts.push({ age: rng.int(22, RETIRE_AGE - 1), gender: gender() });
      break;
    case 'couple':
      couple(23, RETIRE_AGE - 3);
      break;
    case 'family':
      couple(30, 52);
      children(
        weighted(rng, [
          [1, 0.4],
          [2, 0.45],
          [3, 0.15],
        ]),
        Math.min(drafts[0].age, drafts[1].age),
      );
      break;
    case 'single parent':
      drafts.push({ age: rng.int(28, 50), gender: rng.chance(0.75) ? 'female' : 'male' });
      children(rng.int(1, 2), drafts[0].age);
      break;
    case 'housemates':
      for (let i = rng.int(2, 3); i > 0; i--) drafts.push({ age: rng.int(22, 34), gender: gender() });
      break;
    case 'students':
      for (let i = rng.int(2, 3); i > 0; i--) drafts.push({ age: rng.int(18, COLLEGE_AGE_MAX), gender: gender() });
      break;
    case 'retired couple':
      couple(RETIRE_AGE, 86);
      break;
    case 'retired single':
      drafts.push({ age: rng.int(RETIRE_AGE, 92), gender: gender() });
      break;
  }
  if (kind === 'housemates' || kind === 'students')
    for (let a = 0; a < drafts.length; a++) for (let b = a + 1; b < drafts.length; b++) kin.push([a, b, 'housemate']);
  // Adults come first, so a household cut short to fit the count keeps its grown-ups.
  return { drafts, kin };
}

function roleOf(age: number, rng: Rng): Role {
  if (age <= SCHOOL_AGE_MAX) return 'child';
  if (age <= COLLEGE_AGE_MAX) return 'college';
  if (age >= RETIRE_AGE) return 'retired';
  return rng.chance(0.07) ? 'home' : 'worker';
}

function pickTraits(rng: Rng): string[] {
  const groups: number[] = [];
  const want = rng.int(2, 4);
  for (let tries = 0; groups.length < want && tries < 40; tries++) {
    const g = rng.int(0, TRAIT_GROUPS.length - 1);
    if (groups.includes(g) || TRAIT_CLASHES.some(([a, b]) => (a === g && groups.includes(b)) || (b === g && groups.includes(a)))) continue;
    groups.push(g);
  }
  return groups.map((g) => rng.pick(TRAIT_GROUPS[g]));
}

/** The rooms of a home for these people: a bed each, a kitchen, and a living room and bathroom for most. */
function homeRooms(rng: Rng, kind: HouseholdKind, people: Person[]): { rooms: Room[]; doorRoom: number } {
  const rooms: Room[] = [];
  const adults = people.filter(
    (p) => p.role !== 'child' && !(p.role === 'college' && kind === 'family') && !(p.role === 'college' && kind === 'single parent'),
  );
  const young = people.filter((p) => !adults.includes(p));
  const shared = kind === 'housemates' || kind === 'students';
  const bedroomsOfAdults = shared ? adults.map((p) => [p]) : [adults];
  bedroomsOfAdults.forEach((group, i) => {
    const arena = i === 0 ? 'bedroom' : `bedroom ${i + 1}`;
    const objects = group.map((p, k) => {
      p.bedroom = arena;
      p.bed = k === 0 ? 'bed' : `bed ${k + 1}`;
      return p.bed;
    });
    objects.push(shared ? 'desk' : rng.pick(['wardrobe', 'desk']));
    rooms.push({ arena, width: 5, floor: 'wood floor', objects });
  });
  if (young.length) {
    const objects: Array<string | [string, number, number]> = young.map((p, k) => {
      p.bedroom = "children's room";
      p.bed = k === 0 ? 'bed' : `bed ${k + 1}`;
      return p.bed;
    });
    objects.push(['desk', 2, 3]);
    rooms.push({ arena: "children's room", width: 5, floor: 'carpet', objects });
  }
  const kitchenIndex = rooms.length;
  rooms.push({ arena: 'kitchen', width: 5, floor: 'tile floor', objects: ['stove', 'fridge', 'table'] });
  const living = people.length > 1 || rng.chance(0.5);
  if (living) {
    const extra = people.map((p) => p.hobby.homeObject).find((o) => o !== undefined) ?? rng.pick(['tv', 'bookshelf'] as const);
    rooms.push({ arena: 'living room', width: 4, floor: 'carpet', objects: ['sofa', extra] });
  }
  if (people.length > 1 || rng.chance(0.4)) rooms.push({ arena: 'bathroom', width: 3, floor: 'tile floor', objects: ['shower', 'sink'] });
  return { rooms, doorRoom: living ? kitchenIndex + 1 : kitchenIndex };
}

function pickLook(rng: Rng, age: number, skinIndex: number): Person['sprite'] {
  const skin = SKIN_TONES[Math.max(0, Math.min(SKIN_TONES.length - 1, skinIndex + rng.int(-1, 1)))];
  const hair = age >= 60 && rng.chance(0.7) ? rng.pick(GREY_HAIR) : rng.pick(HAIR_COLOURS);
  return { skin, hair, shirt: rng.pick(SHIRT_COLOURS), pants: rng.pick(PANTS_COLOURS) };
}

/** Households of people until there are exactly `count`; the last household is cut to fit. */
export function drawPeople(count: number, seed: number): { people: Person[]; households: Household[] } {
  const rng = Rng.fromKey(seed, 'people');
  const people: Person[] = [];
  const households: Household[] = [];
  const names = new Set<string>();
  const ids = new Set<string>();
  while (people.length < count) {
    const kind = weighted(rng, HOUSEHOLD_WEIGHTS);
    const { drafts, kin } = draftHousehold(rng, kind);
    const keep = Math.min(drafts.length, count - people.length);
    const familySurname = rng.pick(SURNAMES);
    const skinIndex = rng.int(0, SKIN_TONES.length - 1);
    const members: Person[] = [];
    for (let i = 0; i < keep; i++) {
      const d = drafts[i];
      const related =
        kind !== 'housemates' && kind !== 'students' && !(i === 1 && kin.some(([a, b, k]) => a === 0 && b === 1 && k === 'partner') && rng.chance(0.3));
      const surname = related ? familySurname : rng.pick(SURNAMES);
      const pool = d.gender === 'female' ? FEMALE_NAMES : MALE_NAMES;
      let first = rng.pick(pool);
      for (let tries = 0; names.has(`${first} ${surname}`) && tries < 30; tries++) first = rng.pick(pool);
      let name = `${first} ${surname}`;
      // A name already in town gets a middle initial, as people do.
      for (let k = 0; names.has(name); k++) name = `${first} ${String.fromCharCode(65 + ((k + rng.int(0, 25)) % 26))}. ${surname}`;
      names.add(name);
      let id = idOf(first, surname);
      for (let k = 2; ids.has(id); k++) id = `${idOf(first, surname)}-${k}`;
      ids.add(id);
      const person: Person = {
        index: people.length,
        id,
        first,
        surname,
        name,
        gender: d.gender,
        age: d.age,
        role: roleOf(d.age, rng),
        household: households.length,
        traits: pickTraits(rng),
        hobby: rng.pick(HOBBIES),
        sprite: pickLook(rng, d.age, skinIndex),
        bedroom: 'bedroom',
        bed: 'bed',
        kin: [],
      };
      members.push(person);
      people.push(person);
    }
    const first = members[0].index;
    for (const [a, b, k] of kin) {
      if (a >= keep || b >= keep) continue;
      const back: Kin = k === 'parent' ? 'child' : k;
      people[first + a].kin.push({ other: first + b, as: k });
      people[first + b].kin.push({ other: first + a, as: back });
    }
    const { rooms, doorRoom } = homeRooms(rng, kind, members);
    const cut =
      keep < drafts.length
        ? keep === 1
          ? members[0].role === 'retired'
            ? 'retired single'
            : 'single'
          : kind === 'family' && keep === 2
            ? 'couple'
            : kind
        : kind;
    households.push({ index: households.length, kind: cut, members: members.map((m) => m.index), rooms, doorRoom });
  }
  return { people, households };
}

/** A business name not yet in town: "<word> Cafe", a pub's name, "<word> Park". */
function nameVenue(rng: Rng, pattern: string, taken: Set<string>): string {
  for (let tries = 0; tries < 60; tries++) {
    const name = pattern.replace('{word}', rng.pick(BUSINESS_WORDS)).replace('{pub}', rng.pick(PUB_NAMES)).replace('{park}', rng.pick(PARK_WORDS));
    if (!taken.has(name)) {
      taken.add(name);
      return name;
    }
  }
  const base = pattern.replace('{word}', rng.pick(BUSINESS_WORDS)).replace('{pub}', rng.pick(PUB_NAMES)).replace('{park}', rng.pick(PARK_WORDS));
  let k = 2;
  while (taken.has(`${base} ${k}`)) k++;
  taken.add(`${base} ${k}`);
  return `${base} ${k}`;
}

/**
 * The places the town needs: a town hall, schools and a college for its pupils and students, a park per
 * 150 people, a cafe, a shop and a pub, then workplaces drawn by weight until every worker has a job.
 * Big towns have bigger workplaces (PEOPLE_PER_STAFF_SCALE).
 */
export function planVenues(people: readonly Person[], seed: number): Venue[] {
  const rng = Rng.fromKey(seed, 'venues');
  const taken = new Set<string>();
  const venues: Venue[] = [];
  const type = (kind: WorkplaceKind) => WORKPLACES.find((w) => w.kind === kind)!;
  const scale = Math.min(3, 1 + Math.floor(people.length / PEOPLE_PER_STAFF_SCALE));
  const staffed = (jobs: readonly Job[]) => jobs.map((j) => ({ ...j, slots: j.slots * scale }));
  const add = (kind: WorkplaceKind | 'park') => {
    if (kind === 'park') {
      venues.push({ index: venues.length, kind, sector: nameVenue(rng, '{park} Park', taken), type: null, jobs: staffed([PARK_JOB]) });
      return;
    }
    const t = type(kind);
    venues.push({ index: venues.length, kind, sector: t.name.includes('{') ? nameVenue(rng, t.name, taken) : t.name, type: t, jobs: staffed(t.jobs) });
  };
  const pupils = people.filter((p) => p.role === 'child').length;
  const students = people.filter((p) => p.role === 'college').length;
  const workers = people.filter((p) => p.role === 'worker').length;
  add('townhall');
  for (let i = Math.ceil(pupils / (2 * PUPILS_PER_CLASSROOM)); i > 0; i--) add('school');
  for (let i = Math.ceil(students / STUDENTS_PER_COLLEGE); i > 0; i--) add('college');
  for (let i = Math.max(1, Math.round(people.length / 150)); i > 0; i--) add('park');
  for (const kind of ['cafe', 'grocery', 'pub'] as const) add(kind);
  const slots = () => venues.reduce((s, v) => s + v.jobs.reduce((t, j) => t + j.slots, 0), 0);
  const drawable: Array<[WorkplaceKind, number]> = WORKPLACES.filter((w) => w.weight > 0).map((w) => [w.kind, w.weight]);
  while (slots() < workers) add(weighted(rng, drawable));
  return venues;
}

export function drawPopulation(count: number, seed: number): Population {
  const { people, households } = drawPeople(count, seed);
  const venues = planVenues(people, seed);
  const townName = Rng.fromKey(seed, 'town').pick(TOWN_NAMES);
  return { people, households, venues, townName };
}
