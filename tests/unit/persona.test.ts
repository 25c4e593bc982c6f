import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonas, parsePersona, PersonaError, PersonasError } from '../../server/src/world/persona';
import { personaJsonSchema, PERSONA_SCHEMA_FILE } from '../../server/src/world/writePersonaSchema';
import { tempDir } from '../helpers';

const map = loadTownMap('maps/town.tmj');
const isabella = fs.readFileSync('personas/isabella.yaml', 'utf8');

function folderWith(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

function problems(files: Record<string, string>): string[] {
  try {
    loadPersonas(folderWith(files), map);
  } catch (error) {
    expect(error).toBeInstanceOf(PersonasError);
    return (error as PersonasError).errors.map((e) => e.message);
  }
  throw new Error('the broken personas loaded');
}

describe('the shipped personas', () => {
  it('are 8 or more, valid, and consistent with the map and each other', () => {
    const personas = loadPersonas('personas', map);
    expect(personas.length).toBeGreaterThanOrEqual(8);
    for (const p of personas) {
      expect(Object.keys(p.relationships).length).toBeGreaterThanOrEqual(3);
      expect(p.seedMemories.length).toBeGreaterThan(0);
    }
    expect(personas.find((p) => p.id === 'isabella')!.seedMemories.join(' ')).toMatch(/Valentine's Day party at Hobbs Cafe/);
  });

  it('publish a JSON Schema that matches the zod schema', () => {
    expect(fs.readFileSync(PERSONA_SCHEMA_FILE, 'utf8')).toBe(personaJsonSchema());
  });
});

describe('a broken persona', () => {
  // The whole cast, with Isabella's file changed.
  const cast = Object.fromEntries(fs.readdirSync('personas').filter((f) => f.endsWith('.yaml')).map((f) => [f, fs.readFileSync(path.join('personas', f), 'utf8')]));
  const only = (text: string) => problems({ ...cast, 'isabella.yaml': text });

  it('names the file and the field of a missing or mistyped value', () => {
    expect(only(isabella.replace(/^name: .*$/m, ''))).toEqual([expect.stringMatching(/isabella\.yaml: name: /)]);
    expect(only(isabella.replace(/^age: 34$/m, 'age: thirty'))).toEqual([expect.stringMatching(/isabella\.yaml: age: .*number/)]);
    expect(only(isabella.replace('wakeAt: "06:00"', 'wakeAt: "25:00"'))).toEqual([expect.stringMatching(/wakeAt: expected a time HH:MM/)]);
  });

  it('catches a typo in a key', () => {
    expect(only(isabella.replace('lifestyle:', 'lifestlye:'))).toEqual([expect.stringMatching(/isabella\.yaml: .*(lifestlye|lifestyle)/)]);
  });

  it('names an unknown place and suggests the closest one', () => {
    const out = only(isabella.replace('place: "Hobbs Cafe: kitchen"', 'place: "Hobs Cafe: kitchen"'));
    expect(out).toEqual([expect.stringMatching(/routine\[4\]\.place: .*no place 'Hobs Cafe: kitchen'.*did you mean 'Hobbs Cafe: kitchen'/)]);
  });

  it('refuses a routine out of order', () => {
    expect(only(isabella.replace('at: "08:00"', 'at: "07:00"'))).toEqual([expect.stringMatching(/routine\[3\]\.at: 07:00 is not after/)]);
  });

  it('refuses a relationship with nobody', () => {
    expect(only(isabella.replace('  omar: Omar', '  omarr: Omar'))).toEqual([expect.stringMatching(/relationships\.omarr: no persona 'omarr'/)]);
  });

  it('reports a YAML syntax error with its line', () => {
    expect(() => parsePersona('name: [unclosed\nage: 3', 'x.yaml')).toThrow(PersonaError);
    expect(() => parsePersona('name: [unclosed\nage: 3', 'x.yaml')).toThrow(/x\.yaml: line \d+: YAML syntax error/);
  });

  it('reports every problem in every file at once', () => {
    const out = problems({ 'isabella.yaml': isabella.replace(/^age: 34$/m, 'age: -1'), 'klaus.yaml': 'name: Klaus\n' });
    expect(out.some((m) => m.includes('isabella.yaml: age'))).toBe(true);
    expect(out.some((m) => m.includes('klaus.yaml'))).toBe(true);
  });
});
