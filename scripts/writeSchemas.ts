// `npm run schema:personas` and `npm run schema:scenarios`: write the JSON Schema of persona files
// (personas/persona.schema.json) or of scenario files (scenarios/scenario.schema.json) from their zod
// schemas, for editor autocompletion (each file names its schema on its first line). Tests keep both in step.
import fs from 'node:fs';
import { z } from 'zod';
import { PersonaFileSchema } from '../server/src/world/persona';
import { ScenarioSchema } from '../server/src/analysis/scenario';

export const PUBLISHED_SCHEMAS = {
  personas: { file: 'personas/persona.schema.json', schema: PersonaFileSchema, title: 'Smalltown persona' },
  scenarios: { file: 'scenarios/scenario.schema.json', schema: ScenarioSchema, title: 'Smalltown scenario' },
} satisfies Record<string, { file: string; schema: z.ZodType; title: string }>;

export type PublishedSchema = keyof typeof PUBLISHED_SCHEMAS;

/** The file's text: the schema of what a file may hold (zod's input side), titled. */
export function publishedSchemaText(which: PublishedSchema): string {
  const { schema, title } = PUBLISHED_SCHEMAS[which];
  return `${JSON.stringify({ ...z.toJSONSchema(schema, { io: 'input' }), title }, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const asked = process.argv.slice(2);
  const which = (asked.length ? asked : Object.keys(PUBLISHED_SCHEMAS)) as PublishedSchema[];
  for (const w of which) {
    if (!(w in PUBLISHED_SCHEMAS)) throw new Error(`${w}: not a published schema (${Object.keys(PUBLISHED_SCHEMAS).join(', ')})`);
    fs.writeFileSync(PUBLISHED_SCHEMAS[w].file, publishedSchemaText(w));
    console.log(`wrote ${PUBLISHED_SCHEMAS[w].file}`);
  }
}
