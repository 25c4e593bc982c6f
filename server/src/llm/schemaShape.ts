// A JSON Schema said the short way, for prompts: the keys, their types and their limits, e.g.
// {"ratings": [integer 1..10, exactly as many as asked], "react": true|false, "talkTo": string|null}.
// A model that is not held to the schema by the server still knows what to write.
import type { JsonSchema } from './types';

export function describeShape(schema: JsonSchema): string {
  const anyOf = schema.anyOf as JsonSchema[] | undefined;
  if (anyOf) return anyOf.map((s) => describeShape(s)).join('|');
  if (Array.isArray(schema.type)) return (schema.type as string[]).map((type) => describeShape({ ...schema, type })).join('|');
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join('|');
  switch (schema.type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
      return `{${Object.entries(props)
        .map(([k, s]) => `"${k}": ${describeShape(s)}`)
        .join(', ')}}`;
    }
    case 'array': {
      const min = schema.minItems === undefined ? null : Number(schema.minItems);
      const max = schema.maxItems === undefined ? null : Number(schema.maxItems);
      const count = min !== null && max !== null ? `${min} to ${max} items` : min !== null ? `at least ${min}` : max !== null ? `at most ${max}` : '';
      return `[${describeShape((schema.items ?? {}) as JsonSchema)}, …${count ? ` ${count}` : ''}]`;
    }
    case 'integer':
    case 'number': {
      const range =
        schema.minimum !== undefined && schema.maximum !== undefined && Number(schema.maximum) < 1e9
          ? ` ${String(schema.minimum)}..${String(schema.maximum)}`
          : '';
      return `${schema.type as string}${range || (schema.minimum !== undefined ? ` >= ${String(schema.minimum)}` : '')}`;
    }
    case 'string':
      if (schema.pattern === '^\\d{1,2}:\\d{2}$') return '"HH:MM"';
      return schema.maxLength !== undefined ? `string (at most ${String(schema.maxLength)} characters)` : 'string';
    case 'boolean':
      return 'true|false';
    case 'null':
      return 'null';
    default:
      return 'any';
  }
}
