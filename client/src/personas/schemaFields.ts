// The persona form's fields, derived from the published JSON Schema (personas/persona.schema.json, which
// a test keeps in step with the loader's zod schema): one field per property, its kind from the
// property's type, pattern and limits. What the schema cannot say (which texts are long, which strings
// are places of the map and of what kind) comes from the small HINTS table, whose keys a test checks
// against the schema, as it checks that every property of the schema has a field.
//
// The form only lays fields out; it does not validate. Every check is the server's loader (see api.ts).

/** The subset of JSON Schema the persona schema uses. */
export interface JsonSchema {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  additionalProperties?: JsonSchema | boolean;
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
}

/** What a place field names, and so what a click on the map gives it. */
export type PlaceKind =
  /** A sector (home). */
  | 'sector'
  /** An arena of the home sector (bedroom). */
  | 'arenaOfHome'
  /** An object of the bedroom (bed). */
  | 'objectOfBedroom'
  /** An arena "Sector: arena" (workplace). */
  | 'arena'
  /** A routine place reference: "home: kitchen", "work: counter", "Hobbs Cafe: cafe: table". */
  | 'placeRef';

export type FieldSpec =
  | { kind: 'text'; key: string; label: string; help: string; required: boolean; long: boolean }
  | { kind: 'integer'; key: string; label: string; help: string; required: boolean; min?: number; max?: number }
  | { kind: 'clock'; key: string; label: string; help: string; required: boolean }
  | { kind: 'colour'; key: string; label: string; help: string; required: boolean }
  | { kind: 'place'; key: string; label: string; help: string; required: boolean; place: PlaceKind; nullable: boolean }
  /** One place or several (the mind picks one a day). */
  | { kind: 'places'; key: string; label: string; help: string; required: boolean; place: PlaceKind }
  | { kind: 'textList'; key: string; label: string; help: string; required: boolean; minItems: number; maxItems?: number; long: boolean }
  | { kind: 'objectList'; key: string; label: string; help: string; required: boolean; minItems: number; item: FieldSpec[] }
  | { kind: 'group'; key: string; label: string; help: string; required: boolean; fields: FieldSpec[] }
  /** Persona id → a line about them. */
  | { kind: 'relationships'; key: string; label: string; help: string; required: boolean };

interface Hint {
  label?: string;
  long?: boolean;
  place?: PlaceKind;
  relationships?: boolean;
}

/** What the schema cannot say, by property name (at any depth). Every key is a property of the schema. */
export const HINTS: Record<string, Hint> = {
  name: { label: 'Name' },
  age: { label: 'Age' },
  innate: { label: 'Innate traits' },
  learned: { label: 'Background', long: true },
  currently: { label: 'Currently', long: true },
  lifestyle: { label: 'Lifestyle', long: true },
  wakeAt: { label: 'Wakes at' },
  sleepAt: { label: 'Goes to bed at' },
  home: { label: 'Home', place: 'sector' },
  bedroom: { label: 'Bedroom', place: 'arenaOfHome' },
  bed: { label: 'Bed', place: 'objectOfBedroom' },
  workplace: { label: 'Workplace', place: 'arena' },
  routine: { label: 'Daily routine' },
  at: { label: 'From' },
  activity: { label: 'Activity' },
  place: { label: 'Place', place: 'placeRef' },
  emoji: { label: 'Emoji' },
  tasks: { label: 'Tasks' },
  relationships: { label: 'Relationships', relationships: true },
  seedMemories: { label: 'Seed memories', long: true },
  sprite: { label: 'Look' },
};

const CLOCK_PATTERN = '^([01]\\d|2[0-3]):([0-5]\\d)$';
const COLOUR_PATTERN = '^#[0-9a-fA-F]{6}$';

/** The fields of an object schema, in its order. */
export function fieldsOf(schema: JsonSchema): FieldSpec[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([key, property]) => fieldOf(key, property, required.has(key)));
}

function fieldOf(key: string, s: JsonSchema, required: boolean): FieldSpec {
  const hint = HINTS[key] ?? {};
  const base = { key, label: hint.label ?? words(key), help: s.description ?? '', required };
  const options = s.anyOf ?? [];
  const nonNull = options.filter((o) => o.type !== 'null');
  const nullable = options.length > nonNull.length;
  if (hint.relationships) return { ...base, kind: 'relationships' };
  if (hint.place) {
    // One place, or (anyOf a string and a list of strings) one or several.
    const several = nonNull.some((o) => o.type === 'array');
    return several ? { ...base, kind: 'places', place: hint.place } : { ...base, kind: 'place', place: hint.place, nullable };
  }
  const t = nonNull.length === 1 ? nonNull[0] : s;
  switch (t.type) {
    case 'integer':
    case 'number':
      return { ...base, kind: 'integer', min: t.minimum, max: t.maximum };
    case 'string':
      if (t.pattern === CLOCK_PATTERN) return { ...base, kind: 'clock' };
      if (t.pattern === COLOUR_PATTERN) return { ...base, kind: 'colour' };
      return { ...base, kind: 'text', long: hint.long ?? false };
    case 'array':
      if (t.items?.type === 'object') return { ...base, kind: 'objectList', minItems: t.minItems ?? 0, item: fieldsOf(t.items) };
      return { ...base, kind: 'textList', minItems: t.minItems ?? 0, maxItems: t.maxItems, long: hint.long ?? false };
    case 'object':
      return { ...base, kind: 'group', fields: fieldsOf(t) };
    default:
      throw new Error(`persona schema: no form field for '${key}' (${JSON.stringify(s).slice(0, 80)})`);
  }
}

/** "seedMemories" -> "Seed memories". */
function words(key: string): string {
  const spaced = key.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return spaced[0].toUpperCase() + spaced.slice(1);
}

/** Every property path the fields cover ("routine[].at", "sprite.hair"), for the test against the schema. */
export function coveredPaths(fields: readonly FieldSpec[], prefix = ''): string[] {
  return fields.flatMap((f) => {
    const p = `${prefix}${f.key}`;
    if (f.kind === 'objectList') return [p, ...coveredPaths(f.item, `${p}[].`)];
    if (f.kind === 'group') return [p, ...coveredPaths(f.fields, `${p}.`)];
    return [p];
  });
}
