// `npm run schema:personas`: writes personas/persona.schema.json from the zod schema, for editor
// autocompletion (each persona file names it on its first line). A test keeps the file in step.
import fs from 'node:fs';
import { z } from 'zod';
import { PersonaFileSchema } from './persona';

export const PERSONA_SCHEMA_FILE = 'personas/persona.schema.json';

export function personaJsonSchema(): string {
  const schema = z.toJSONSchema(PersonaFileSchema, { io: 'input' });
  return `${JSON.stringify({ ...schema, title: 'Smalltown persona' }, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(PERSONA_SCHEMA_FILE, personaJsonSchema());
  console.log(`wrote ${PERSONA_SCHEMA_FILE}`);
}
