// Persona files (personas/*.yaml): the zod schema, the loader, and the checks against the map.
// The JSON Schema published for editors (personas/persona.schema.json) is generated from this schema.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import YAML from 'yaml';
import type { AgentId, TownMap } from './types';
import { CLOCK_PATTERN, parseClock } from './clockText';
import { resolvePlaceRef } from './places';

const clock = z.string().regex(CLOCK_PATTERN, 'expected a time HH:MM, 00:00 to 23:59');
const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'expected a colour "#rrggbb"');
const text = z.string().trim().min(1, 'must not be empty');
const placeRef = text.describe('"home: <arena>[: <object>]", "work[: <object>]" or "<Sector>: <arena>[: <object>]"');

export const RoutineEntrySchema = z
  .strictObject({
    at: clock.describe('When the block starts, HH:MM (24-hour); it lasts until the next block, the last one until sleepAt.'),
    activity: text.describe('What the persona does in this block, e.g. "working at the cafe".'),
    place: z.union([placeRef, z.array(placeRef).min(1)]).describe('Where; a list means the mind picks one each day, for variety.'),
    emoji: text.describe('An emoji shown over the head.'),
    tasks: z.array(text).optional().describe('Smaller actions the block is split into.'),
  })
  .describe('A block of the waking day.');

export const PersonaFileSchema = z
  .strictObject({
    name: text.describe('Full name.'),
    age: z.number().int().min(1).max(120).describe('Age in years.'),
    innate: z.array(text).min(1).max(8).describe('Innate traits, a few words each.'),
    learned: text.describe('Background: who they are, what they do (the paper\'s "learned traits").'),
    currently: text.describe('What they are doing or focused on right now.'),
    lifestyle: text.describe('How they live: sleep, habits.'),
    wakeAt: clock.describe('Wake-up time, HH:MM.'),
    sleepAt: clock.describe('Bedtime, HH:MM, later the same day than wakeAt.'),
    home: text.describe('A sector of the map with a bedroom, e.g. "Rivera House".'),
    bed: text.optional().describe('The bed in the home\'s bedroom (default "bed").'),
    workplace: text.nullable().describe('An arena "Sector: arena", or null.'),
    routine: z.array(RoutineEntrySchema).min(1).describe('The waking day, in order, from wakeAt.'),
    relationships: z.record(z.string(), text).default({}).describe('What they think of others, keyed by persona id (file name).'),
    seedMemories: z.array(text).min(1).describe('Sentences that start the memory stream.'),
    sprite: z
      .strictObject({ skin: colour, hair: colour, shirt: colour, pants: colour })
      .describe('The look: colours painted onto the base character.'),
  })
  .describe('A Smalltown persona');

export type PersonaFile = z.infer<typeof PersonaFileSchema>;
export type Persona = PersonaFile & { id: AgentId; file: string };

export class PersonaError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    what: string,
  ) {
    super(field ? `${file}: ${field}: ${what}` : `${file}: ${what}`);
    this.name = 'PersonaError';
  }
}

export class PersonasError extends Error {
  constructor(readonly errors: PersonaError[]) {
    super(`${errors.length} problem${errors.length === 1 ? '' : 's'} in the persona files:\n  ${errors.map((e) => e.message).join('\n  ')}`);
    this.name = 'PersonasError';
  }
}

const ID_PATTERN = /^[a-z][a-z0-9-]*$/;

function fieldPath(p: ReadonlyArray<PropertyKey>): string {
  return p.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), '');
}

/** Parses one file. Throws a PersonaError naming the file and the field. */
export function parsePersona(yamlText: string, file: string): Persona {
  const id = path.basename(file).replace(/\.ya?ml$/, '');
  if (!ID_PATTERN.test(id)) throw new PersonaError(file, '', `the file name '${id}' is the persona's id: use lowercase letters, digits and '-'`);
  const doc = YAML.parseDocument(yamlText, { prettyErrors: true });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const line = e.linePos?.[0];
    throw new PersonaError(file, line ? `line ${line.line}` : '', `YAML syntax error: ${e.message.split('\n')[0]}`);
  }
  const parsed = PersonaFileSchema.safeParse(doc.toJS());
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const keys = issue.code === 'unrecognized_keys' ? ` (${issue.keys.join(', ')})` : '';
    throw new PersonaError(file, fieldPath(issue.path), `${issue.message}${keys}`);
  }
  return { ...parsed.data, id: id as AgentId, file };
}

/** Everything in a persona that must agree with the map, and with itself. */
export function validatePersonaAgainstMap(p: Persona, map: TownMap): PersonaError[] {
  const errors: PersonaError[] = [];
  const err = (field: string, what: string) => errors.push(new PersonaError(p.file, field, what));
  const wake = parseClock(p.wakeAt);
  const sleep = parseClock(p.sleepAt);
  if (sleep <= wake) err('sleepAt', `must be later than wakeAt (${p.wakeAt}) on the same day`);
  const sector = map.places.sectors.find((s) => s.name === p.home);
  if (!sector) err('home', `there is no sector '${p.home}' in ${map.file}`);
  else {
    const bedroom = sector.arenas.find((a) => a.name === 'bedroom');
    if (!bedroom) err('home', `'${p.home}' has no 'bedroom' arena in ${map.file}`);
    else if (!bedroom.objects.some((o) => o.name === (p.bed ?? 'bed'))) err(p.bed ? 'bed' : 'home', `'${p.home}: bedroom' has no '${p.bed ?? 'bed'}' (it has: ${bedroom.objects.map((o) => o.name).join(', ') || 'nothing'})`);
  }
  if (p.workplace !== null && !map.arenasByAddress.has(p.workplace)) {
    const r = resolvePlaceRef(p.workplace, { home: p.home, workplace: null }, map);
    err('workplace', 'error' in r ? r.error : `must be an arena "Sector: arena", not an object`);
  }
  let previous = -1;
  p.routine.forEach((entry, i) => {
    const at = parseClock(entry.at);
    if (i === 0 && at !== wake) err(`routine[0].at`, `the first block must start at wakeAt (${p.wakeAt})`);
    if (at <= previous) err(`routine[${i}].at`, `${entry.at} is not after the block before it`);
    if (at >= sleep) err(`routine[${i}].at`, `${entry.at} is not before sleepAt (${p.sleepAt})`);
    previous = at;
    const refs = Array.isArray(entry.place) ? entry.place : [entry.place];
    refs.forEach((ref, k) => {
      const r = resolvePlaceRef(ref, p, map);
      if ('error' in r) err(`routine[${i}].place${Array.isArray(entry.place) ? `[${k}]` : ''}`, r.error);
    });
  });
  return errors;
}

/** Loads every persona in `dir`, checked against the map and each other; reports all problems at once. */
export function loadPersonas(dir: string, map: TownMap): Persona[] {
  let files: string[];
  try {
    files = fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort();
  } catch (error) {
    throw new PersonasError([new PersonaError(dir, '', `cannot read the persona folder: ${error instanceof Error ? error.message : String(error)}`)]);
  }
  const errors: PersonaError[] = [];
  const personas: Persona[] = [];
  for (const f of files) {
    const file = path.join(dir, f);
    try {
      personas.push(parsePersona(fs.readFileSync(file, 'utf8'), file));
    } catch (error) {
      if (error instanceof PersonaError) errors.push(error);
      else throw error;
    }
  }
  if (files.length === 0) errors.push(new PersonaError(dir, '', 'has no persona files (*.yaml)'));
  // Every file is a persona id, even one that failed to parse: no cascade of "unknown persona" errors.
  const ids = new Set(files.map((f) => f.replace(/\.ya?ml$/, '')));
  for (const p of personas) {
    errors.push(...validatePersonaAgainstMap(p, map));
    for (const other of Object.keys(p.relationships)) {
      if (other === p.id) errors.push(new PersonaError(p.file, `relationships.${other}`, 'a persona cannot have a relationship with itself'));
      else if (!ids.has(other)) errors.push(new PersonaError(p.file, `relationships.${other}`, `no persona '${other}' (ids are file names: ${[...ids].join(', ')})`));
    }
  }
  if (errors.length) throw new PersonasError(errors);
  return personas;
}
