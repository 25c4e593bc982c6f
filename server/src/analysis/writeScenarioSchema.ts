// `npm run schema:scenarios`: writes scenarios/scenario.schema.json from the zod schema, for editor
// autocompletion (each scenario file names it on its first line). A test keeps the file in step.
import fs from 'node:fs';
import { z } from 'zod';
import { ScenarioSchema } from './scenario';

export const SCENARIO_SCHEMA_FILE = 'scenarios/scenario.schema.json';

export function scenarioJsonSchema(): string {
  const schema = z.toJSONSchema(ScenarioSchema, { io: 'input' });
  return `${JSON.stringify({ ...schema, title: 'Smalltown scenario' }, null, 2)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(SCENARIO_SCHEMA_FILE, scenarioJsonSchema());
  console.log(`wrote ${SCENARIO_SCHEMA_FILE}`);
}
