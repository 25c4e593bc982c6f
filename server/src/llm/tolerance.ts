// Element-level tolerance: bends a parsed reply toward its JSON Schema where the meaning is clear, and
// says what it did. A number out of range is clamped, "7" becomes 7, "9:30 am" becomes "09:30", an
// emoji of more than 8 characters is cut, a key the schema lacks is dropped, an array element that
// cannot be used is dropped while the rest stay, a list too long is trimmed. A missing key is not
// guessed. Only what has nothing usable left is rejected; the caller's zod schema is the final judge.
import type { JsonSchema } from './types';

export interface Mended {
  value: unknown;
  /** One short note per change, with the path: "$.actions[2].minutes: 90 clamped to 60". */
  notes: string[];
}

const UNUSABLE = Symbol('unusable');
type Out = unknown | typeof UNUSABLE;

/** The reply bent toward the schema, or null when nothing usable is left of it. */
export function mendToSchema(value: unknown, schema: JsonSchema): Mended | null {
  const notes: string[] = [];
  const out = mend(value, schema, '$', notes);
  return out === UNUSABLE ? null : { value: out, notes };
}

function mend(value: unknown, schema: JsonSchema, path: string, notes: string[]): Out {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf) {
    const nullable = anyOf.some((s) => s.type === 'null');
    if (value === null || value === undefined) return nullable ? null : UNUSABLE;
    for (const branch of anyOf.filter((s) => s.type !== 'null')) {
      const out = mend(value, branch, path, notes);
      if (out !== UNUSABLE) return out;
    }
    if (!nullable) return UNUSABLE;
    notes.push(`${path}: unusable, set to null`);
    return null;
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type as string[];
    if (value === null || value === undefined) return types.includes('null') ? null : UNUSABLE;
    for (const type of types.filter((t) => t !== 'null')) {
      const out = mend(value, { ...schema, type }, path, notes);
      if (out !== UNUSABLE) return out;
    }
    if (!types.includes('null')) return UNUSABLE;
    notes.push(`${path}: unusable, set to null`);
    return null;
  }
  switch (schema.type) {
    case 'object':
      return mendObject(value, schema, path, notes);
    case 'array':
      return mendArray(value, schema, path, notes);
    case 'integer':
    case 'number':
      return mendNumber(value, schema, path, notes);
    case 'boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') {
        notes.push(`${path}: the string "${value}" read as a boolean`);
        return value === 'true';
      }
      return UNUSABLE;
    case 'string':
      return mendString(value, schema, path, notes);
    case 'null':
      return value === null ? null : UNUSABLE;
    default:
      return value;
  }
}

const keyOf = (k: string) => k.toLowerCase().replace(/[_\s-]/g, '');

function mendObject(value: unknown, schema: JsonSchema, path: string, notes: string[]): Out {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return UNUSABLE;
  const given = value as Record<string, unknown>;
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? Object.keys(props)) as string[]);
  const byLooseKey = new Map(Object.keys(given).map((k) => [keyOf(k), k]));
  const out: Record<string, unknown> = {};
  const used = new Set<string>();
  for (const [key, sub] of Object.entries(props)) {
    const from = key in given ? key : byLooseKey.get(keyOf(key));
    if (from !== undefined && from !== key) notes.push(`${path}: key "${from}" read as "${key}"`);
    if (from !== undefined) used.add(from);
    const raw = from === undefined ? undefined : given[from];
    // A missing key is not guessed (a missing talkTo is not "nobody"): the reply goes to a repair turn.
    if (raw === undefined) {
      if (!required.has(key)) continue;
      return UNUSABLE;
    }
    const mended = mend(raw, sub, `${path}.${key}`, notes);
    if (mended === UNUSABLE) return UNUSABLE;
    out[key] = mended;
  }
  const extra = Object.keys(given).filter((k) => !used.has(k));
  if (extra.length && schema.additionalProperties === false) notes.push(`${path}: extra key${extra.length > 1 ? 's' : ''} ${extra.join(', ')} dropped`);
  else for (const k of extra) out[k] = given[k];
  return out;
}

function mendArray(value: unknown, schema: JsonSchema, path: string, notes: string[]): Out {
  if (!Array.isArray(value)) return UNUSABLE;
  const items = (schema.items ?? {}) as JsonSchema;
  const kept: unknown[] = [];
  value.forEach((element, i) => {
    const local: string[] = [];
    const out = mend(element, items, `${path}[${i}]`, local);
    if (out === UNUSABLE) notes.push(`${path}[${i}]: unusable, dropped`);
    else {
      notes.push(...local);
      kept.push(out);
    }
  });
  const max = schema.maxItems === undefined ? Infinity : Number(schema.maxItems);
  if (kept.length > max) {
    notes.push(`${path}: ${kept.length} items trimmed to ${max}`);
    kept.length = max;
  }
  if (kept.length < Number(schema.minItems ?? 0)) return UNUSABLE;
  return kept;
}

function mendNumber(value: unknown, schema: JsonSchema, path: string, notes: string[]): Out {
  let n = value;
  if (typeof n === 'string' && n.trim() !== '' && Number.isFinite(Number(n))) {
    notes.push(`${path}: the string "${n}" read as a number`);
    n = Number(n);
  }
  if (typeof n !== 'number' || !Number.isFinite(n)) return UNUSABLE;
  let x = n;
  if (schema.type === 'integer' && !Number.isInteger(x)) x = Math.round(x);
  const min = schema.minimum === undefined ? -Infinity : Number(schema.minimum);
  const max = schema.maximum === undefined ? Infinity : Number(schema.maximum);
  x = Math.min(max, Math.max(min, x));
  if (x !== n) notes.push(`${path}: ${n} ${x === Math.round(n) ? 'rounded' : 'clamped'} to ${x}`);
  return x;
}

function mendString(value: unknown, schema: JsonSchema, path: string, notes: string[]): Out {
  let s = value;
  if (typeof s === 'number' || typeof s === 'boolean') {
    notes.push(`${path}: ${String(s)} read as a string`);
    s = String(s);
  }
  if (typeof s !== 'string') return UNUSABLE;
  let text = s.trim();
  if (schema.pattern === '^\\d{1,2}:\\d{2}$' && !/^\d{1,2}:\d{2}$/.test(text)) {
    const clock = readClock(text);
    if (clock === null) return UNUSABLE;
    notes.push(`${path}: "${text}" read as ${clock}`);
    text = clock;
  } else if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern).test(text)) return UNUSABLE;
  const max = schema.maxLength === undefined ? Infinity : Number(schema.maxLength);
  if (text.length > max) {
    // Cut at a character boundary that keeps whole code points (an emoji is one or two UTF-16 units).
    let cut = '';
    for (const ch of text) {
      if (cut.length + ch.length > max) break;
      cut += ch;
    }
    notes.push(`${path}: ${text.length} characters cut to ${cut.length}`);
    text = cut;
  }
  if (text.length < Number(schema.minLength ?? 0)) return UNUSABLE;
  return text;
}

/** "9am", "9:30 PM", "09:30:00", "0930" → "HH:MM"; null when it is not a time of day. */
export function readClock(text: string): string | null {
  const m = /^(\d{1,2})(?::?(\d{2}))?(?::\d{2})?\s*([ap])?\.?\s*m?\.?$/i.exec(text.trim());
  if (!m) return null;
  let h = Number(m[1]);
  const min = Number(m[2] ?? 0);
  const ampm = m[3]?.toLowerCase();
  if (ampm === 'p' && h < 12) h += 12;
  if (ampm === 'a' && h === 12) h = 0;
  if (!m[2] && !ampm) return null;
  if (h > 23 || min > 59) return null;
  return `${String(h).padStart(2, '0')}:${String(min).padStart(2, '0')}`;
}
