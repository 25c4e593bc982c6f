// `--llm` of the importer: the model writes each resident's persona from its scratch file (scratch.json,
// the memories the rules kept from nodes.json and the whispers, the converted map's places, the other
// residents' ids), as JSON of a schema (PersonaReply). The reply is checked as the town checks a persona
// file: zod with the mind's tolerance (agent/LlmMind.ts checkReply), then the persona loader on the
// YAML it becomes (world/persona.ts checkPersonaText: places exist, times, beds, relationships). A reply
// that fails gets one repair turn, told every problem; after that, or when the endpoint fails, the
// rules' persona (convertResidents.ts) stands, and the report lists the resident and why.
import YAML from 'yaml';
import { z } from 'zod';
import type { ChatMessage, ChatModel } from '../../server/src/llm/types';
import { checkReply, jsonSchemaOf, repairMessages } from '../../server/src/agent/llmAsk';
import { checkPersonaText } from '../../server/src/world/persona';
import type { TownMap } from '../../server/src/world/types';
import type { ConvertedResident, ImportedPersona } from './convertResidents';
import type { ReferenceResident } from './reference';

const clock = z.string().regex(/^\d{2}:\d{2}$/);
const text = z.string().trim().min(1);

/** What the model writes: a persona file's fields but the look (the rules' sprite is kept), in a shape strict structured outputs accept. */
export const PersonaReply = z.strictObject({
  name: text,
  age: z.number().int().min(1).max(120),
  innate: z.array(text).min(1).max(8),
  learned: text,
  currently: text,
  lifestyle: text,
  wakeAt: clock,
  sleepAt: clock,
  home: text,
  bedroom: text,
  bed: text,
  workplace: text.nullable(),
  routine: z
    .array(z.strictObject({ at: clock, activity: text, place: text, emoji: text }))
    .min(1)
    .max(24),
  relationships: z.array(z.strictObject({ id: text, line: text })).max(40),
  seedMemories: z.array(text).min(1).max(60),
});
export type PersonaReply = z.infer<typeof PersonaReply>;

export const PERSONA_SCHEMA_NAME = 'persona_file';
/** Room for a day's routine and forty memories. */
const MAX_TOKENS = 4000;

export interface LlmPersonaOutcome {
  id: string;
  name: string;
  /** 'model': the model's persona at once; 'repaired': after the repair turn; 'rules': the rules' persona stands. */
  source: 'model' | 'repaired' | 'rules';
  /** Why the rules' persona stands, or what the repair turn fixed. */
  reason: string | null;
}

export interface LlmPersonasOptions {
  model: ChatModel;
  /** The converted map as the server loads it: the model is told its places, and the loader checks against it. */
  map: TownMap;
  /** Written at each outcome (the command line's progress). */
  onOutcome?: (outcome: LlmPersonaOutcome) => void;
}

/** The place tree as lines the model can copy from: "Sector: arena: object, object". */
export function describePlaces(map: TownMap): string {
  return map.places.sectors
    .flatMap((s) => s.arenas.map((a) => `- ${s.name}: ${a.name}: ${a.objects.map((o) => o.name).join(', ') || '(no objects)'}`))
    .join('\n');
}

/** The prompt: the persona format's rules, the places, the other residents and this resident's scratch file. */
export function personaMessages(
  resident: ConvertedResident,
  reference: ReferenceResident,
  places: string,
  others: ReadonlyArray<[string, string]>,
): ChatMessage[] {
  const { name, age, innate, learned, currently, lifestyle, living_area, daily_plan_req } = reference.scratch;
  const scratch = { name, age, innate, learned, currently, lifestyle, living_area, daily_plan_req };
  const memories = resident.persona.seedMemories.map((m) => `- ${m}`).join('\n');
  return [
    {
      role: 'system',
      content:
        'You turn a resident of the Generative Agents reference simulation into a Smalltown persona file. Keep to what the ' +
        'scratch file and the memories say: invent no habits, outings or work. Write in the third person. Times are HH:MM, ' +
        '24-hour. home is a sector; bedroom an arena of it; bed an object in that arena. workplace is "Sector: arena" or null. ' +
        'routine is the waking day in order from wakeAt, each block until the next: a place is "home: <arena>[: <object>]", ' +
        '"work[: <object>]" or "<Sector>: <arena>[: <object>]", only places listed below. relationships are keyed by the ' +
        "other residents' ids, each a sentence of what this resident thinks of that person. seedMemories are sentences that " +
        'start the memory stream.',
    },
    {
      role: 'user',
      content: [
        `Places of the town (Sector: arena: objects):\n${places}`,
        `Other residents (id: name):\n${others.map(([id, n]) => `- ${id}: ${n}`).join('\n') || '- none'}`,
        `scratch.json of ${resident.persona.name} (id ${resident.id}):\n${JSON.stringify(scratch, null, 1)}`,
        `What ${resident.persona.name} remembers (nodes.json and the whispers, oldest first):\n${memories}`,
        'Write the persona.',
      ].join('\n\n'),
    },
  ];
}

/** The model's persona as a persona file's content (the rules' look kept), in the shipped field order. */
export function personaOfReply(reply: PersonaReply, rules: ImportedPersona): ImportedPersona {
  return {
    name: reply.name,
    age: reply.age,
    innate: reply.innate,
    learned: reply.learned,
    currently: reply.currently,
    lifestyle: reply.lifestyle,
    wakeAt: reply.wakeAt,
    sleepAt: reply.sleepAt,
    home: reply.home,
    bedroom: reply.bedroom,
    bed: reply.bed,
    workplace: reply.workplace,
    routine: reply.routine,
    relationships: Object.fromEntries(reply.relationships.map((r) => [r.id, r.line])),
    seedMemories: reply.seedMemories,
    sprite: rules.sprite,
  };
}

/** A persona file's YAML as the importer writes it: times quoted, so no YAML reader takes "06:00" for a number. */
export function personaYaml(persona: ImportedPersona): string {
  return YAML.stringify(persona, { lineWidth: 100 }).replace(/^(\s*(?:- )?(?:at|wakeAt|sleepAt): )(\d\d:\d\d)$/gm, '$1"$2"');
}

/** The reply's problems, as the mind's schema check and then the persona loader see them; empty when it is a good persona. */
export function checkPersonaReply(
  json: unknown,
  resident: ConvertedResident,
  map: TownMap,
  ids: ReadonlySet<string>,
): { persona: ImportedPersona; errors: [] } | { persona: null; errors: string[] } {
  const reply = checkReply(PersonaReply, json);
  if (!reply.ok) return { persona: null, errors: reply.errors };
  const persona = personaOfReply(reply.value, resident.persona);
  const errors: string[] = [];
  if (persona.name !== resident.persona.name) errors.push(`name: must be "${resident.persona.name}", as in scratch.json`);
  const checked = checkPersonaText(personaYaml(persona), `${resident.id}.yaml`, map, ids);
  errors.push(...checked.errors.map((e) => (e.field ? `${e.field}: ${e.what}` : e.what)));
  for (const w of checked.warnings) errors.push(w.message.replace(`${resident.id}.yaml: `, ''));
  return errors.length ? { persona: null, errors } : { persona, errors: [] };
}

/**
 * Asks the model for each resident's persona, one after another (an import is 25 residents: no hurry, and
 * the endpoint's limits stay the user's). Returns the residents with the personas that passed the check,
 * the rules' where none did, and an outcome per resident.
 */
export async function writePersonasWithLlm(
  residents: readonly ConvertedResident[],
  references: readonly ReferenceResident[],
  o: LlmPersonasOptions,
): Promise<{ residents: ConvertedResident[]; outcomes: LlmPersonaOutcome[] }> {
  const places = describePlaces(o.map);
  const ids = new Set(residents.map((r) => r.id));
  const out: ConvertedResident[] = [];
  const outcomes: LlmPersonaOutcome[] = [];
  for (const resident of residents) {
    const reference = references.find((r) => r.folder === resident.folder)!;
    const others = residents.filter((r) => r !== resident).map((r): [string, string] => [r.id, r.persona.name]);
    let messages = personaMessages(resident, reference, places, others);
    let outcome: LlmPersonaOutcome = { id: resident.id, name: resident.persona.name, source: 'rules', reason: null };
    let persona: ImportedPersona | null = null;
    for (let turn = 0; turn < 2 && !persona; turn++) {
      try {
        const reply = await o.model.complete({
          purpose: 'plan',
          agentId: resident.id,
          messages,
          schemaName: PERSONA_SCHEMA_NAME,
          schema: jsonSchemaOf(PersonaReply),
          maxTokens: MAX_TOKENS,
          temperature: 0,
        });
        const checked = checkPersonaReply(reply.json, resident, o.map, ids);
        if (checked.persona) {
          persona = checked.persona;
          outcome = { ...outcome, source: turn === 0 ? 'model' : 'repaired', reason: turn === 0 ? null : outcome.reason };
        } else {
          const reason = checked.errors.slice(0, 8).join('; ');
          outcome = { ...outcome, reason: turn === 0 ? `repaired: ${reason}` : `still wrong after the repair turn: ${reason}` };
          messages = repairMessages(messages, reply.text, checked.errors.slice(0, 12));
        }
      } catch (error) {
        outcome = { ...outcome, reason: `the endpoint failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300) };
        break;
      }
    }
    if (outcome.source === 'rules' && !outcome.reason) outcome = { ...outcome, reason: 'no usable reply' };
    outcomes.push(outcome);
    o.onOutcome?.(outcome);
    const notes = [`written by the model${outcome.source === 'repaired' ? ' after a repair turn' : ''} from scratch.json`];
    out.push(persona ? { ...resident, persona, notes, undecided: [] } : resident);
  }
  return { residents: out, outcomes };
}
