// Scenario files: the shipped one loads and agrees with the map and its cast; malformed ones are
// refused with the file and the field named; the published JSON Schema is the zod schema's.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkScenario, loadScenario, parseScenario, personaFilesOf, ScenarioError, scenarioSpan } from '../../server/src/analysis/scenario';
import { PUBLISHED_SCHEMAS, publishedSchemaText } from '../../scripts/writeSchemas';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonas } from '../../server/src/world/persona';
import { stagePersonas } from '../../server/src/analysis/runScenario';
import { tempDir } from '../helpers';

const FILE = 'scenarios/bad.yaml';
const GOOD = `
name: tiny
start: 2026-02-13T06:00
days: 1
interventions:
  - { at: 2026-02-13T07:00, kind: whisper, agent: isabella, text: hello }
  - { at: 2026-02-13T08:00, kind: inject, text: the cafe is closed, place: Hobbs Cafe }
topics:
  - { name: party, phrase: a party }
attendance:
  - { place: "Hobbs Cafe: cafe", from: 2026-02-13T17:00, to: 2026-02-13T19:00, topic: party }
`;

function problemsOf(text: string, check?: (s: ReturnType<typeof parseScenario>) => void): string[] {
  try {
    const s = parseScenario(text, FILE);
    check?.(s);
  } catch (error) {
    expect(error).toBeInstanceOf(ScenarioError);
    return (error as Error).message.split('\n');
  }
  return [];
}

describe('scenario files', () => {
  const map = loadTownMap('maps/town.tmj');
  const shippedIds = new Set(loadPersonas('personas', map).map((p) => p.id as string));

  it('loads the shipped Valentine scenario: 25 residents from two folders, its whispers, topics and the party window', () => {
    const s = loadScenario('scenarios/valentines.yaml');
    const cast = personaFilesOf(s, 'scenarios/valentines.yaml');
    expect(cast.size).toBe(25);
    const staged = stagePersonas(s, 'scenarios/valentines.yaml', tempDir(), 'v');
    const personas = loadPersonas(staged.dir, map);
    expect(personas).toHaveLength(25);
    expect(() => checkScenario(s, 'scenarios/valentines.yaml', map, new Set(personas.map((p) => p.id as string)))).not.toThrow();
    expect(s.topics.map((t) => t.name)).toEqual(['party', 'candidacy']);
    expect(s.interventions.map((i) => (i.kind === 'whisper' ? i.agent : null))).toEqual(['isabella', 'tomas']);
    expect(scenarioSpan(s).endGameMs - scenarioSpan(s).startGameMs).toBe(2 * 86_400_000);
  });

  it('accepts a good file and fills defaults', () => {
    const s = parseScenario(GOOD, FILE);
    expect(s).toMatchObject({ map: 'maps/town.tmj', personas: 'personas', seed: 1, ablation: 'none', interview: true });
    expect(s.attendance[0].minMinutes).toBe(10);
    expect(() => checkScenario(s, FILE, map, shippedIds)).not.toThrow();
  });

  it('refuses bad fields with the file and the field named', () => {
    expect(problemsOf('name: x\nstart: 2026-02-13T06:00\n')).toEqual([`${FILE}: days: Invalid input: expected number, received undefined`]);
    expect(problemsOf(GOOD.replace('start: 2026-02-13T06:00', 'start: 13 Feb'))).toEqual([`${FILE}: start: expected a game time YYYY-MM-DDTHH:MM`]);
    expect(problemsOf(GOOD.replace('kind: inject', 'kind: shout'))[0]).toMatch(new RegExp(`^${FILE}: interventions\\[1\\]\\.kind: `));
    expect(problemsOf(`${GOOD}colour: blue\n`)).toEqual([`${FILE}: Unrecognized key: "colour" (colour)`]);
    expect(problemsOf(GOOD.replace('ablation', 'x').replace('days: 1', 'days: 1\nablation: no-memory'))[0]).toMatch(new RegExp(`^${FILE}: ablation: `));
    expect(problemsOf('name: [unclosed\n')[0]).toMatch(new RegExp(`^${FILE}: line 2: YAML syntax error`));
  });

  it('refuses agents, places, times and topics the map, the cast or the run do not have', () => {
    const bad = GOOD.replace('agent: isabella', 'agent: isabela')
      .replace('place: Hobbs Cafe }', 'place: Hobs Cafe }')
      .replace('at: 2026-02-13T07:00', 'at: 2026-02-15T07:00')
      .replace('topic: party }', 'topic: parade }')
      .replace('to: 2026-02-13T19:00', 'to: 2026-02-13T16:00');
    expect(problemsOf(bad, (s) => checkScenario(s, FILE, map, shippedIds))).toEqual([
      `${FILE}: interventions[0].at: 2026-02-15T07:00 is outside the run (2026-02-13T06:00 for 1 days)`,
      `${FILE}: interventions[0].agent: no persona 'isabela' in personas`,
      `${FILE}: interventions[1].place: no sector or arena 'Hobs Cafe' in maps/town.tmj`,
      `${FILE}: attendance[0].to: must be after from (2026-02-13T17:00)`,
      `${FILE}: attendance[0].topic: no topic 'parade' (topics: party)`,
    ]);
  });

  it('refuses a persona that two folders both hold, naming both files', () => {
    const s = parseScenario(GOOD.replace('days: 1', 'days: 1\npersonas: [personas, personas]'), FILE);
    expect(() => personaFilesOf(s, FILE)).toThrow(`${FILE}: personas[1]: persona 'arthur' is in both personas/arthur.yaml and personas/arthur.yaml`);
    const missing = parseScenario(GOOD.replace('days: 1', 'days: 1\npersonas: nowhere'), FILE);
    expect(() => personaFilesOf(missing, FILE)).toThrow(`${FILE}: personas: cannot read the folder 'nowhere'`);
  });

  it('publishes the JSON Schema of the zod schema', () => {
    expect(fs.readFileSync(PUBLISHED_SCHEMAS.scenarios.file, 'utf8')).toBe(publishedSchemaText('scenarios'));
  });
});
