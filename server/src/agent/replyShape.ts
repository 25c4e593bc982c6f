// A reply's JSON schema narrowed to what this town and this agent's day allow: the places as an enum, the
// clock times as the grid of the span asked about. Sent beside the request's schema as `grammarShape`: the embedded
// model's grammar follows it, so a small model can only name real places and times (an endpoint gets the schema as
// declared); the zod schema still judges the reply, as for any other.
import type { JsonSchema } from '../llm/types';
import { formatClock } from '../protocol/time';

/** At most this many times in one grid: a longer enum makes a grammar slower a token (the step grows instead). */
export const CLOCK_GRID_MAX = 48;

/**
 * The clock times from `fromMinute` (inclusive) to `toMinute` (exclusive) every `step` minutes, "HH:MM", past
 * midnight wrapped; over a span too long for CLOCK_GRID_MAX times, the step grows by whole multiples of itself.
 */
export function clockGrid(fromMinute: number, toMinute: number, minStep: number): string[] {
  const step = minStep * Math.max(1, Math.ceil((toMinute - fromMinute) / minStep / CLOCK_GRID_MAX));
  const out: string[] = [];
  for (let m = Math.ceil(fromMinute / step) * step; m < toMinute; m += step) out.push(formatClock(m));
  return out;
}

/**
 * `schema` (an object whose `list` property is an array of objects) with each item's string properties
 * named in `enums` held to those values, those named in `maxLength` to that many characters, and at most
 * `maxItems` items (never fewer than the schema's least); the rest as it was. Throws on a shape it does not know.
 */
export function withItemEnums(
  schema: JsonSchema,
  list: string,
  enums: Record<string, string[]>,
  maxItems?: number,
  maxLength: Record<string, number> = {},
): JsonSchema {
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  const array = props?.[list];
  const items = array?.items as JsonSchema | undefined;
  const itemProps = items?.properties as Record<string, JsonSchema> | undefined;
  if (!props || !array || !items || !itemProps) throw new Error(`replyShape: the schema has no array of objects at '${list}'`);
  const narrowed: Record<string, JsonSchema> = { ...itemProps };
  for (const [key, values] of Object.entries(enums)) {
    const prop = itemProps[key];
    if (!prop || prop.type !== 'string') throw new Error(`replyShape: '${list}[].${key}' is not a string property`);
    if (values.length === 0) continue;
    const { pattern: _pattern, minLength: _min, maxLength: _max, ...rest } = prop;
    narrowed[key] = { ...rest, enum: [...new Set(values)] };
  }
  for (const [key, n] of Object.entries(maxLength)) {
    const prop = narrowed[key];
    if (!prop || prop.type !== 'string') throw new Error(`replyShape: '${list}[].${key}' is not a string property`);
    narrowed[key] = { ...prop, maxLength: Math.min(n, Number(prop.maxLength ?? n)) };
  }
  const bound = maxItems === undefined ? {} : { maxItems: Math.max(maxItems, Number(array.minItems ?? 0)) };
  return { ...schema, properties: { ...props, [list]: { ...array, ...bound, items: { ...items, properties: narrowed } } } };
}

/**
 * `schema` with its top-level property `key` (a string or null) held to `values` or null; with no values, to
 * null alone (nobody is there to name).
 */
export function withNameOrNull(schema: JsonSchema, key: string, values: string[]): JsonSchema {
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (!props?.[key]) throw new Error(`replyShape: the schema has no property '${key}'`);
  const shape: JsonSchema = values.length ? { type: ['string', 'null'], enum: [...new Set(values), null] } : { type: 'null' };
  return { ...schema, properties: { ...props, [key]: shape } };
}

/** `schema` with its top-level array property `key` held to exactly `n` items (one rating per observation). */
export function withLength(schema: JsonSchema, key: string, n: number): JsonSchema {
  const props = schema.properties as Record<string, JsonSchema> | undefined;
  if (props?.[key]?.type !== 'array') throw new Error(`replyShape: '${key}' is not an array property`);
  return { ...schema, properties: { ...props, [key]: { ...props[key], minItems: n, maxItems: n } } };
}
