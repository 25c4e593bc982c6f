// Scenario files (scenarios/*.yaml): an experiment as data. The map and personas, when and how long it
// runs, the seed, timed interventions (whispers, world events), the topics whose spread is measured,
// the places and windows where attendance is counted, and the paper's ablations. The zod schema is
// the format; scenarios/scenario.schema.json is generated from it (`npm run schema:scenarios`).
// Every problem is reported with the file and the field.
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import YAML from 'yaml';
import { parseIsoMinute } from '../protocol/time';
import type { TownMap } from '../world/types';
import { ABLATIONS } from '../config';

const text = z.string().trim().min(1, 'must not be empty');
const ISO_MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const isoMinute = z
  .string()
  .regex(ISO_MINUTE, 'expected a game time YYYY-MM-DDTHH:MM')
  .refine((s) => !ISO_MINUTE.test(s) || parseIsoMinute(s) !== null, 'not a valid date and time')
  .describe('A game time, YYYY-MM-DDTHH:MM (UTC, like START_TIME).');
const personaId = z.string().regex(/^[a-z][a-z0-9-]*$/, 'a persona id: the file name without .yaml');

export const WhisperSchema = z
  .strictObject({
    at: isoMinute,
    kind: z.literal('whisper'),
    agent: personaId.describe('Who hears it (a persona id).'),
    text: text.describe('The thought, written into the agent\'s memory as the paper\'s "inner voice".'),
  })
  .describe('A whisper to one agent at a game time.');

export const InjectSchema = z
  .strictObject({
    at: isoMinute,
    kind: z.literal('inject'),
    text: text.describe('What happens, as those present perceive it: "Hobbs Cafe is closed for repairs".'),
    place: text.nullable().default(null).describe('A sector ("Hobbs Cafe") or arena ("Hobbs Cafe: cafe") where it is perceived; null: everywhere.'),
  })
  .describe('A world event at a place and game time.');

export const TopicSchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9_-]*$/, 'a short name: lowercase letters, digits, - and _')
      .describe('How the report names it.'),
    phrase: text.describe('The news, in words: "Isabella\'s Valentine\'s Day party at Hobbs Cafe".'),
    words: z
      .array(z.string().regex(/^[a-z0-9']+$/i, 'one word, letters and digits'))
      .min(1)
      .optional()
      .describe("Words a memory must all contain (as word starts, any case) to count; default: the phrase's content words, at least half of them."),
    minRelevance: z
      .number()
      .min(-1)
      .max(1)
      .optional()
      .describe('Least cosine similarity between a memory and the phrase (offline word vectors); default 0.75.'),
    question: text.optional().describe('The end-of-run interview question; default: "Have you heard about <phrase>? …".'),
  })
  .describe('A piece of news whose spread is measured.');

export const AttendanceSchema = z
  .strictObject({
    place: text.describe('A sector ("Hobbs Cafe") or arena ("Hobbs Cafe: cafe").'),
    from: isoMinute,
    to: isoMinute,
    topic: z.string().optional().describe('The topic whose holders count as invited (heard of it before `from`).'),
    minMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(10)
      .describe('Game minutes inside the place during the window to count as present.'),
  })
  .describe('Who was at a place during a window.');

export const ScenarioSchema = z
  .strictObject({
    name: z
      .string()
      .regex(/^[a-zA-Z0-9_-]+$/, 'letters, digits, - and _ only (it names the world file)')
      .describe('The scenario; the default world name.'),
    description: z.string().optional(),
    map: text.default('maps/town.tmj').describe('The Tiled map, relative to the working directory.'),
    personas: z
      .union([text, z.array(text).min(1)])
      .default('personas')
      .describe('A persona folder, or several whose files together are the cast (ids must not repeat).'),
    start: isoMinute.describe('When the world starts (game time).'),
    days: z.number().positive().max(365).describe('How many game days it runs (may be fractional).'),
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
    ablation: z.enum(ABLATIONS).default('none').describe("The paper's ablations: one part of cognition turned off."),
    interview: z.boolean().default(true).describe('Ask every agent about every topic at the end, as the paper did (the LLM or the offline mind answers).'),
    interventions: z.array(z.discriminatedUnion('kind', [WhisperSchema, InjectSchema])).default([]),
    topics: z.array(TopicSchema).default([]),
    attendance: z.array(AttendanceSchema).default([]),
  })
  .describe('A Smalltown scenario');

export type Scenario = z.infer<typeof ScenarioSchema>;
export type Topic = z.infer<typeof TopicSchema>;
export type AttendanceWindow = z.infer<typeof AttendanceSchema>;
export type Intervention = Scenario['interventions'][number];

export class ScenarioError extends Error {
  constructor(
    readonly file: string,
    readonly problems: Array<{ field: string; message: string }>,
  ) {
    super(problems.map((p) => `${file}: ${p.field ? `${p.field}: ` : ''}${p.message}`).join('\n'));
    this.name = 'ScenarioError';
  }
}

function fieldPath(p: ReadonlyArray<PropertyKey>): string {
  return p.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc ? `${acc}.${String(k)}` : String(k)), '');
}

/** Parses a scenario's text; throws a ScenarioError naming the file and every bad field. */
export function parseScenario(yamlText: string, file: string): Scenario {
  const doc = YAML.parseDocument(yamlText, { prettyErrors: true });
  if (doc.errors.length) {
    const e = doc.errors[0];
    const line = e.linePos?.[0];
    throw new ScenarioError(file, [{ field: line ? `line ${line.line}` : '', message: `YAML syntax error: ${e.message.split('\n')[0]}` }]);
  }
  const parsed = ScenarioSchema.safeParse(doc.toJS() ?? {});
  if (!parsed.success) {
    throw new ScenarioError(
      file,
      parsed.error.issues.map((i) => ({ field: fieldPath(i.path), message: `${i.message}${i.code === 'unrecognized_keys' ? ` (${i.keys.join(', ')})` : ''}` })),
    );
  }
  return parsed.data;
}

export function loadScenario(file: string): Scenario {
  let textIn: string;
  try {
    textIn = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ScenarioError(file, [{ field: '', message: `cannot read: ${error instanceof Error ? error.message : String(error)}` }]);
  }
  return parseScenario(textIn, file);
}

/** Game ms of the scenario's start and end. */
export function scenarioSpan(s: Pick<Scenario, 'start' | 'days'>): { startGameMs: number; endGameMs: number } {
  const startGameMs = parseIsoMinute(s.start)!;
  return { startGameMs, endGameMs: startGameMs + Math.round(s.days * 86_400_000) };
}

/** The persona folders, as a list. */
export function personaFolders(s: Pick<Scenario, 'personas'>): string[] {
  return Array.isArray(s.personas) ? s.personas : [s.personas];
}

/** A place name that the map knows: a sector or an arena address. */
export function placeExists(map: TownMap, place: string): boolean {
  return map.arenasByAddress.has(place) || map.places.sectors.some((s) => s.name === place);
}

/**
 * What must agree with the map, the cast and itself: agents and places that exist, times inside the
 * run, windows that end after they start, topics named once and referred to by name.
 */
export function checkScenario(s: Scenario, file: string, map: TownMap, personaIds: ReadonlySet<string>): void {
  const problems: Array<{ field: string; message: string }> = [];
  const { startGameMs, endGameMs } = scenarioSpan(s);
  const inRun = (field: string, iso: string) => {
    const t = parseIsoMinute(iso)!;
    if (t < startGameMs || t > endGameMs) problems.push({ field, message: `${iso} is outside the run (${s.start} for ${s.days} days)` });
  };
  s.interventions.forEach((iv, i) => {
    inRun(`interventions[${i}].at`, iv.at);
    if (iv.kind === 'whisper' && !personaIds.has(iv.agent))
      problems.push({ field: `interventions[${i}].agent`, message: `no persona '${iv.agent}' in ${personaFolders(s).join(', ')}` });
    if (iv.kind === 'inject' && iv.place !== null && !placeExists(map, iv.place))
      problems.push({ field: `interventions[${i}].place`, message: `no sector or arena '${iv.place}' in ${map.file}` });
  });
  const topics = new Set<string>();
  s.topics.forEach((t, i) => {
    if (topics.has(t.name)) problems.push({ field: `topics[${i}].name`, message: `'${t.name}' is named twice` });
    topics.add(t.name);
  });
  s.attendance.forEach((a, i) => {
    if (!placeExists(map, a.place)) problems.push({ field: `attendance[${i}].place`, message: `no sector or arena '${a.place}' in ${map.file}` });
    inRun(`attendance[${i}].from`, a.from);
    inRun(`attendance[${i}].to`, a.to);
    if (parseIsoMinute(a.to)! <= parseIsoMinute(a.from)!) problems.push({ field: `attendance[${i}].to`, message: `must be after from (${a.from})` });
    if (a.topic !== undefined && !topics.has(a.topic))
      problems.push({ field: `attendance[${i}].topic`, message: `no topic '${a.topic}' (topics: ${[...topics].join(', ') || 'none'})` });
  });
  if (problems.length) throw new ScenarioError(file, problems);
}

/** The folders' persona files by id; a repeated id is an error naming both files. */
export function personaFilesOf(s: Pick<Scenario, 'personas'>, file: string): Map<string, string> {
  const out = new Map<string, string>();
  const problems: Array<{ field: string; message: string }> = [];
  personaFolders(s).forEach((dir, i) => {
    const field = Array.isArray(s.personas) ? `personas[${i}]` : 'personas';
    let names: string[];
    try {
      names = fs
        .readdirSync(dir)
        .filter((f) => /\.ya?ml$/.test(f))
        .sort();
    } catch (error) {
      problems.push({ field, message: `cannot read the folder '${dir}': ${error instanceof Error ? error.message : String(error)}` });
      return;
    }
    for (const name of names) {
      const id = name.replace(/\.ya?ml$/, '');
      const previous = out.get(id);
      if (previous) problems.push({ field, message: `persona '${id}' is in both ${previous} and ${path.join(dir, name)}` });
      else out.set(id, path.join(dir, name));
    }
  });
  if (problems.length) throw new ScenarioError(file, problems);
  return out;
}
