// Persona files (personas/*.yaml): the zod schema, the loader, and the checks against the map.
// The JSON Schema published for editors (personas/persona.schema.json) is generated from this schema.
//
// The loader forgives what it can and reports the rest all at once: every problem of every file, the
// map checks of the fields that did parse even when others did not, and warnings (not errors) for what
// does not stop a town, such as a relationship with someone who is not in it.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import YAML from 'yaml';
import jsYaml from 'js-yaml';
import type { AgentId, TownMap } from './types';
import { personaIdProblem } from '../protocol/ids';
import { PersonaProfileSchema, personaText } from '../protocol/persona';
import { CLOCK_PATTERN, minuteOfWakingDay, parseClock } from './clockText';
import { closestFirst, editDistance, resolvePlaceRef } from './places';

const clock = z.string().regex(CLOCK_PATTERN, 'expected a time HH:MM, 00:00 to 23:59');
const colour = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'expected a colour "#rrggbb"');
const text = personaText;
const profile = PersonaProfileSchema.shape;
const placeRef = text.describe('"home: <arena>[: <object>]", "work[: <object>]" or "<Sector>: <arena>[: <object>]"');

export const DEFAULT_BEDROOM = 'bedroom';
export const DEFAULT_BED = 'bed';

export const RoutineEntrySchema = z
  .strictObject({
    at: clock.describe(
      'When the block starts, HH:MM (24-hour); it lasts until the next block, the last one until sleepAt. A time earlier than wakeAt is after midnight.',
    ),
    activity: text.describe('What the persona does in this block, e.g. "working at the cafe".'),
    place: z
      .union([placeRef, z.array(placeRef).min(1)], { error: 'expected a place ("home: kitchen", "work", "Hobbs Cafe: cafe") or a list of places' })
      .describe('Where; a list means the mind picks one each day, for variety.'),
    emoji: text.describe('An emoji shown over the head.'),
    tasks: z.array(text).optional().describe('Smaller actions the block is split into.'),
  })
  .describe('A block of the waking day.');

export const PersonaFileSchema = z
  .strictObject({
    name: profile.name,
    age: profile.age,
    innate: profile.innate,
    learned: profile.learned,
    currently: profile.currently,
    lifestyle: profile.lifestyle,
    wakeAt: clock.describe('Wake-up time, HH:MM.'),
    sleepAt: clock.describe('Bedtime, HH:MM. A time earlier than wakeAt is after midnight: "00:30" with wakeAt "07:00" sleeps at half past midnight.'),
    home: profile.home,
    bedroom: text.optional().describe('The arena of home where the persona sleeps (default "bedroom"), e.g. "main room".'),
    bed: text.optional().describe('The object in that arena the persona sleeps in (default "bed").'),
    workplace: profile.workplace,
    routine: z.array(RoutineEntrySchema).min(1).describe('The waking day, in order, from wakeAt.'),
    relationships: z
      .record(z.string(), text)
      .nullable()
      .optional()
      // Without a prototype: `relationships[otherId]` never reads an inherited property.
      .transform((r) => Object.assign(Object.create(null) as Record<string, string>, r ?? {}))
      .describe('What they think of others, keyed by persona id (file name); empty or left out means none.'),
    seedMemories: z.array(text).min(1).describe('Sentences that start the memory stream.'),
    sprite: z.strictObject({ skin: colour, hair: colour, shirt: colour, pants: colour }).describe('The look: colours painted onto the base character.'),
  })
  .describe('A Smalltown persona');

export type PersonaFile = z.infer<typeof PersonaFileSchema>;
export type RoutineEntry = z.infer<typeof RoutineEntrySchema>;
export type Persona = PersonaFile & { id: AgentId; file: string };

/**
 * What could be read of a persona: the fields that parsed, for the checks against the map. A Persona is
 * one; a file with format errors gives one with the broken fields (and routine blocks) left out.
 */
export interface PersonaDraft {
  file: string;
  name?: string;
  wakeAt?: string;
  sleepAt?: string;
  home?: string;
  bedroom?: string;
  bed?: string;
  workplace?: string | null;
  routine?: ReadonlyArray<RoutineEntry | undefined>;
}

export class PersonaError extends Error {
  constructor(
    readonly file: string,
    readonly field: string,
    /** The problem alone, without the file and field. */
    readonly what: string,
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

/** Something worth saying that does not stop the town, e.g. a relationship with someone not in it. */
export interface PersonaWarning {
  file: string;
  field: string;
  /** "file: field: what". */
  message: string;
}

/** Whether a name can be a persona id (a file name): lowercase letters, digits and '-', starting with a letter, not reserved. */
export function isPersonaId(id: string): boolean {
  return personaIdProblem(id) === null;
}

/** The persona id of a file: its name without `.yaml`. */
export function personaIdOf(file: string): string {
  return path.basename(file).replace(/\.ya?ml$/, '');
}

function fieldPath(p: ReadonlyArray<PropertyKey>): string {
  return p.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), '');
}

function valueAt(root: unknown, p: ReadonlyArray<PropertyKey>): unknown {
  let v = root;
  for (const k of p) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

function describeValue(v: unknown): string {
  if (v === null) return 'nothing (an empty value)';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;
  return String(v);
}

/** Every zod issue as a PersonaError, worded for people: "required field missing", "unknown field". */
function formatIssues(issues: readonly z.core.$ZodIssue[], raw: unknown, file: string, keys: readonly string[]): PersonaError[] {
  const out: PersonaError[] = [];
  const missingTop = new Set(
    issues.filter((i) => i.code === 'invalid_type' && i.path.length === 1 && valueAt(raw, i.path) === undefined).map((i) => String(i.path[0])),
  );
  const explained = new Set<string>();
  for (const issue of issues) {
    if (issue.code !== 'unrecognized_keys') continue;
    const known =
      issue.path.length === 0
        ? keys
        : issue.path[issue.path.length - 1] === 'sprite'
          ? ['skin', 'hair', 'shirt', 'pants']
          : ['at', 'activity', 'place', 'emoji', 'tasks'];
    for (const key of issue.keys) {
      const near = closestFirst(key, known).find((k) => editDistance(key.toLowerCase(), k.toLowerCase()) <= 3);
      const at = fieldPath([...issue.path, key]);
      if (near && issue.path.length === 0 && missingTop.has(near)) {
        explained.add(near);
        out.push(new PersonaError(file, at, `unknown field; did you mean '${near}'? ('${near}' is required)`));
      } else out.push(new PersonaError(file, at, `unknown field${near ? `; did you mean '${near}'?` : ` (fields: ${known.join(', ')})`}`));
    }
  }
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') continue;
    const at = fieldPath(issue.path);
    const value = valueAt(raw, issue.path);
    if (issue.code === 'invalid_type' && value === undefined) {
      if (issue.path.length === 1 && explained.has(String(issue.path[0]))) continue;
      out.push(new PersonaError(file, at, 'required field missing'));
    } else if (issue.code === 'invalid_type')
      out.push(
        new PersonaError(
          file,
          at,
          `expected ${issue.expected === 'object' ? 'a mapping' : issue.expected === 'array' ? 'a list' : `a ${issue.expected}`}, got ${describeValue(value)}`,
        ),
      );
    else out.push(new PersonaError(file, at, issue.message));
  }
  return out;
}

export interface ParsedPersonaFile {
  /** The persona, when the file is valid as a format (its map checks are separate). */
  persona: Persona | null;
  /** What could be read, for the map checks, even when `persona` is null. */
  draft: PersonaDraft;
  errors: PersonaError[];
}

/** The largest persona file read, in bytes; the deepest nesting of [ and { in it; the aliases it may expand. */
export const MAX_PERSONA_FILE_BYTES = 256 * 1024;
const MAX_FLOW_DEPTH = 32;
const MAX_YAML_ALIASES = 100;

/**
 * What makes a persona file too costly to parse, checked on its text before the YAML parser sees it
 * (a 100k-deep file held the event loop for seconds): its size, and how deep its brackets nest.
 */
function boundYamlText(text: string): string | null {
  if (text.length > MAX_PERSONA_FILE_BYTES)
    return `the file has ${Math.round(text.length / 1024)} KB; a persona file has at most ${MAX_PERSONA_FILE_BYTES / 1024} KB`;
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote) quote = null;
      else if (c === '\n') quote = null;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') {
      if (++depth > MAX_FLOW_DEPTH) return `nested more than ${MAX_FLOW_DEPTH} levels deep ([ and {); a persona file needs at most a few`;
    } else if (c === ']' || c === '}') depth = Math.max(0, depth - 1);
  }
  return null;
}

/** Reads one file's text: every format problem, and whatever parsed. Never throws. */
export function readPersonaText(yamlText: string, file: string): ParsedPersonaFile {
  const id = personaIdOf(file);
  const errors: PersonaError[] = [];
  const idProblem = personaIdProblem(id);
  if (idProblem) errors.push(new PersonaError(file, '', `the file name '${id.slice(0, 80)}' is the persona's id: ${idProblem}`));
  const tooBig = boundYamlText(yamlText);
  if (tooBig) {
    errors.push(new PersonaError(file, '', tooBig));
    return { persona: null, draft: { file }, errors };
  }
  const fast = parseYamlFast(yamlText);
  if (fast !== undefined) return readPersonaValue(ownStrings(fast), id, file, errors);
  const doc = YAML.parseDocument(yamlText, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length) {
    for (const e of doc.errors) {
      const line = e.linePos?.[0];
      errors.push(new PersonaError(file, line ? `line ${line.line}` : '', `YAML syntax error: ${e.message.split('\n')[0]}`));
    }
    return { persona: null, draft: { file }, errors };
  }
  let raw: unknown;
  try {
    // Aliases that expand too far (a "billion laughs" file) are refused by the yaml library here.
    raw = ownStrings(doc.toJS({ maxAliasCount: MAX_YAML_ALIASES }));
  } catch (error) {
    errors.push(new PersonaError(file, '', `YAML refused: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`));
    return { persona: null, draft: { file }, errors };
  }
  return readPersonaValue(raw, id, file, errors);
}

/**
 * A parsed value with strings of its own. Both YAML parsers cut values out of the file's text as slices, and each
 * slice keeps the whole text alive: the town of 10,000 held 50 MB of its persona files so, comments and all. A
 * structured clone writes each string anew (tests/unit/personaRetention.test.ts).
 */
function ownStrings(value: unknown): unknown {
  return structuredClone(value);
}

/**
 * What js-yaml reads `text` as, when it reads it as the yaml library would; undefined sends the file to
 * the yaml library. js-yaml is ~10× faster (0.13 against 1.3 ms of CPU a persona file; YAML was three
 * quarters of loading the 10,000 files of a town of ten thousand), and with its core schema gives the
 * same values for the YAML a persona is written in (`tests/unit/personaYaml.test.ts` compares every
 * persona shipped and generated). The yaml library keeps what differs or needs its guards: anchors and
 * aliases (its cap on their expansion), directives (`%YAML 1.1` changes the schema), the numbers the two
 * read differently (`0b101`, `+.5`, `-.5`), and every file js-yaml refuses (its errors, with their lines).
 */
export function parseYamlFast(text: string): unknown {
  if (YAML_FAST_PATH_REFUSES.test(text)) return undefined;
  try {
    return jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA });
  } catch {
    return undefined;
  }
}

const YAML_FAST_PATH_REFUSES = /[&*]|^%|0b[01_]|[+-]\.\d/m;

/** A persona file's value, read by either parser: checked against the schema (readPersonaText). */
function readPersonaValue(raw: unknown, id: string, file: string, errors: PersonaError[]): ParsedPersonaFile {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    errors.push(
      new PersonaError(
        file,
        '',
        `expected a mapping of fields (name: ..., age: ...), got ${raw === null || raw === undefined ? 'an empty file' : describeValue(raw)}`,
      ),
    );
    return { persona: null, draft: { file }, errors };
  }
  const parsed = PersonaFileSchema.safeParse(raw);
  if (parsed.success) {
    if (errors.length) return { persona: null, draft: { ...parsed.data, file }, errors };
    return { persona: { ...parsed.data, id: id as AgentId, file }, draft: { ...parsed.data, file }, errors };
  }
  const keys = Object.keys(PersonaFileSchema.shape);
  errors.push(...formatIssues(parsed.error.issues, raw, file, keys));
  return { persona: null, draft: draftOf(raw as Record<string, unknown>, file), errors };
}

/** The fields of a broken file that parse on their own (and the routine blocks that do). */
function draftOf(raw: Record<string, unknown>, file: string): PersonaDraft {
  const shape = PersonaFileSchema.shape;
  const field = <K extends 'wakeAt' | 'sleepAt' | 'home' | 'bedroom' | 'bed' | 'workplace'>(k: K) => {
    const r = shape[k].safeParse(raw[k]);
    return r.success ? (r.data as PersonaFile[K]) : undefined;
  };
  const routine = Array.isArray(raw.routine)
    ? raw.routine.map((entry) => {
        const r = RoutineEntrySchema.safeParse(entry);
        return r.success ? r.data : undefined;
      })
    : undefined;
  const name = shape.name.safeParse(raw.name);
  const draft: PersonaDraft = {
    file,
    name: name.success ? name.data : undefined,
    wakeAt: field('wakeAt'),
    sleepAt: field('sleepAt'),
    home: field('home'),
    bedroom: field('bedroom'),
    bed: field('bed'),
    routine,
  };
  const workplace = shape.workplace.safeParse(raw.workplace);
  if (workplace.success) draft.workplace = workplace.data;
  return draft;
}

/** Parses one file. Throws the first PersonaError naming the file and the field (see readPersonaText for all). */
export function parsePersona(yamlText: string, file: string): Persona {
  const r = readPersonaText(yamlText, file);
  if (r.errors.length) throw r.errors[0];
  return r.persona!;
}

/** Everything in a persona (or what could be read of one) that must agree with the map, and with itself. */
export function validatePersonaAgainstMap(p: PersonaDraft, map: TownMap): PersonaError[] {
  const errors: PersonaError[] = [];
  const err = (field: string, what: string) => errors.push(new PersonaError(p.file, field, what));
  const wake = p.wakeAt !== undefined ? parseClock(p.wakeAt) : null;
  const sleepRaw = p.sleepAt !== undefined ? parseClock(p.sleepAt) : null;
  // A bedtime earlier than waking is after midnight: the waking day runs past 24:00.
  const sleep = wake !== null && sleepRaw !== null ? minuteOfWakingDay(sleepRaw, wake) : null;
  if (wake !== null && sleepRaw === wake) err('sleepAt', `is the same time as wakeAt (${p.wakeAt}); a bedtime after midnight is fine ("00:30")`);

  let homeOk = false;
  if (p.home !== undefined) {
    const sector = sectorNamed(map, p.home);
    const bedroomName = p.bedroom ?? DEFAULT_BEDROOM;
    const bedName = p.bed ?? DEFAULT_BED;
    if (!sector) {
      const names = closestFirst(
        p.home,
        map.places.sectors.map((s) => s.name),
      );
      err('home', `there is no sector '${p.home}' in ${map.file}; its sectors, closest first: ${listSome(names)}`);
    } else {
      homeOk = true;
      const bedroom = sector.arenas.find((a) => a.name === bedroomName);
      const field = p.bedroom !== undefined ? 'bedroom' : 'home';
      if (!bedroom)
        err(
          field,
          `'${p.home}' has no '${bedroomName}' arena in ${map.file} (it ` +
            `has: ${sector.arenas.map((a) => a.name).join(', ')}). A persona sleeps in an arena of home with a bed ` +
            `object: ` +
            (p.bedroom !== undefined ? `name one of these` : `add a place '${p.home}: bedroom' to the map, or say which arena with 'bedroom: <arena>'`),
        );
      else if (!bedroom.objects.some((o) => o.name === bedName))
        err(
          p.bed !== undefined ? 'bed' : field,
          `'${bedroom.address}' has no '${bedName}' object (it has: ${bedroom.objects.map((o) => o.name).join(', ') || 'nothing'}); ` +
            `add an object named '${bedName}' there, or name another with 'bed: <object>'`,
        );
    }
  }
  let workOk = p.workplace === null;
  if (p.workplace !== undefined && p.workplace !== null) {
    if (map.arenasByAddress.has(p.workplace)) workOk = true;
    else {
      const r = resolvePlaceRef(p.workplace, { home: p.home ?? '', workplace: null }, map);
      err('workplace', 'error' in r ? r.error : `must be an arena "Sector: arena", not an object`);
    }
  }

  const routine = p.routine ?? [];
  let previous = -1;
  const afterBedtime: Array<{ index: number; at: string }> = [];
  routine.forEach((entry, i) => {
    if (!entry) return;
    if (wake !== null) {
      const at = minuteOfWakingDay(parseClock(entry.at), wake);
      if (i === 0 && at !== wake) err(`routine[0].at`, `the first block must start at wakeAt (${p.wakeAt})`);
      else if (at <= previous) err(`routine[${i}].at`, `${entry.at} is not after the block before it`);
      if (sleep !== null && sleepRaw !== wake && at >= sleep) afterBedtime.push({ index: i, at: entry.at });
      previous = Math.max(previous, at);
    }
    const refs = Array.isArray(entry.place) ? entry.place : [entry.place];
    refs.forEach((ref, k) => {
      const head = ref.split(':')[0].trim();
      // A broken home or workplace is reported once, on its own field, not again on every block.
      if ((head === 'home' && !homeOk) || (head === 'work' && p.workplace !== null && !workOk)) return;
      const r = resolvePlaceRef(ref, { home: p.home ?? '', workplace: p.workplace ?? null }, map);
      if ('error' in r) err(`routine[${i}].place${Array.isArray(entry.place) ? `[${k}]` : ''}`, r.error);
    });
  });
  if (afterBedtime.length)
    err(
      'sleepAt',
      `${p.sleepAt} comes before the routine's block${afterBedtime.length > 1 ? 's' : ''} ` +
        `at ${afterBedtime.map((b) => `${b.at} (routine[${b.index}])`).join(', ')}; ` +
        `make sleepAt later (a time after midnight such as "00:30" is fine) or end the routine earlier`,
    );
  return errors;
}

/** Each map's sectors by name: a search of every sector per persona made checking a town of 10,000 quadratic. */
const sectorsByName = new WeakMap<TownMap['places']['sectors'], Map<string, TownMap['places']['sectors'][number]>>();

function sectorNamed(map: TownMap, name: string): TownMap['places']['sectors'][number] | undefined {
  let byName = sectorsByName.get(map.places.sectors);
  if (!byName) {
    byName = new Map();
    // The first of a name, as a search in order finds it.
    for (const s of map.places.sectors) if (!byName.has(s.name)) byName.set(s.name, s);
    sectorsByName.set(map.places.sectors, byName);
  }
  return byName.get(name);
}

function listSome(names: readonly string[], max = 12): string {
  const shown = names
    .slice(0, max)
    .map((n) => `'${n}'`)
    .join(', ');
  return names.length > max ? `${shown} and ${names.length - max} more` : shown || 'none';
}

/** Relationships with ids that are not in town are warnings; with oneself, an error. */
function checkRelationships(p: Persona, knownIds: ReadonlySet<string>): { errors: PersonaError[]; warnings: PersonaWarning[] } {
  const errors: PersonaError[] = [];
  const warnings: PersonaWarning[] = [];
  for (const other of Object.keys(p.relationships)) {
    const field = `relationships.${other}`;
    if (other === p.id) errors.push(new PersonaError(p.file, field, 'a persona cannot have a relationship with itself'));
    else if (!knownIds.has(other)) {
      const near = closestFirst(other, [...knownIds]).find((k) => editDistance(other, k) <= 2);
      warnings.push({
        file: p.file,
        field,
        message: `${p.file}: ${field}: '${other}' is not in town${near ? ` (did you mean '${near}'?)` : ''}; kept, it matters only if '${other}' arrives`,
      });
    }
  }
  return { errors, warnings };
}

export interface LoadedPersonas {
  personas: Persona[];
  warnings: PersonaWarning[];
}

/**
 * Loads every persona in `dir`, checked against the map and each other. Throws a PersonasError with
 * every problem of every file; returns the warnings with the personas.
 */
/**
 * The personas of a running town by id, counting its changes: what is derived from all of them (the
 * names and pronouns every mind call is given) is rebuilt when one is added, edited or renamed, not on
 * every call, which cost a pass over every persona per call (10,000 of them at the start of a town of 10,000).
 */
export class PersonaMap extends Map<string, Persona> {
  #version = 0;

  constructor(entries: Iterable<readonly [string, Persona]> = []) {
    // Filled here, not by Map's constructor: that calls set() before #version exists.
    super();
    for (const [id, persona] of entries) this.set(id, persona);
  }

  /** Changes whenever a persona is set or deleted. */
  get version(): number {
    return this.#version;
  }

  override set(id: string, persona: Persona): this {
    this.#version++;
    return super.set(id, persona);
  }

  override delete(id: string): boolean {
    this.#version++;
    return super.delete(id);
  }

  override clear(): void {
    this.#version++;
    super.clear();
  }
}

export function loadPersonaFolder(dir: string, map: TownMap): LoadedPersonas {
  let files: string[];
  try {
    files = fs
      .readdirSync(dir)
      .filter((f) => /\.ya?ml$/.test(f))
      .sort();
  } catch (error) {
    throw new PersonasError([new PersonaError(dir, '', `cannot read the persona folder: ${error instanceof Error ? error.message : String(error)}`)]);
  }
  const errors: PersonaError[] = [];
  const warnings: PersonaWarning[] = [];
  const personas: Persona[] = [];
  if (files.length === 0) errors.push(new PersonaError(dir, '', 'has no persona files (*.yaml)'));
  // Every file is a persona id, even one that failed to parse: no cascade of "not in town" warnings.
  const ids = new Set(files.map(personaIdOf));
  for (const f of files) {
    const r = checkPersonaText(fs.readFileSync(path.join(dir, f), 'utf8'), path.join(dir, f), map, ids);
    errors.push(...r.errors);
    warnings.push(...r.warnings);
    if (r.persona) personas.push(r.persona);
  }
  if (errors.length) throw new PersonasError(errors);
  return { personas, warnings };
}

/** Loads every persona in `dir` (see loadPersonaFolder); warnings go to `onWarning`. */
export function loadPersonas(dir: string, map: TownMap, onWarning: (w: PersonaWarning) => void = (w) => console.warn(`warning: ${w.message}`)): Persona[] {
  const { personas, warnings } = loadPersonaFolder(dir, map);
  warnings.forEach(onWarning);
  return personas;
}

/**
 * Loads and checks one persona, `<dir>/<id>.yaml`, against the map, for bringing it into a running
 * town: `knownIds` are the ids in town (relationships with others are warnings). Throws a
 * PersonasError with every problem of the file.
 */
export function loadPersonaFile(dir: string, id: string, map: TownMap, knownIds: Iterable<string>): { persona: Persona; warnings: PersonaWarning[] } {
  const idProblem = personaIdProblem(id);
  if (idProblem) throw new PersonasError([new PersonaError(id.slice(0, 80), '', `'${id.slice(0, 80)}' is not a persona id: ${idProblem}`)]);
  const file = [path.join(dir, `${id}.yaml`), path.join(dir, `${id}.yml`)].find((f) => fs.existsSync(f));
  if (!file) throw new PersonasError([new PersonaError(path.join(dir, `${id}.yaml`), '', 'no such persona file')]);
  const r = checkPersonaText(fs.readFileSync(file, 'utf8'), file, map, new Set([...knownIds, id]));
  if (r.errors.length || !r.persona) throw new PersonasError(r.errors);
  return { persona: r.persona, warnings: r.warnings };
}

/** One file's text, checked as a format, against the map, and against the ids in town. */
export function checkPersonaText(
  yamlText: string,
  file: string,
  map: TownMap,
  knownIds: ReadonlySet<string>,
): { persona: Persona | null; draft: PersonaDraft; errors: PersonaError[]; warnings: PersonaWarning[] } {
  const read = readPersonaText(yamlText, file);
  const errors = [...read.errors, ...validatePersonaAgainstMap(read.draft, map)];
  let warnings: PersonaWarning[] = [];
  if (read.persona) {
    const rel = checkRelationships(read.persona, knownIds);
    errors.push(...rel.errors);
    warnings = rel.warnings;
  }
  return { persona: errors.length ? null : read.persona, draft: read.draft, errors, warnings };
}
