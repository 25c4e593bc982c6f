import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTownMap } from '../../server/src/world/map';
import { loadPersonaFile, loadPersonaFolder, loadPersonas, parsePersona, PersonaError, PersonasError } from '../../server/src/world/persona';
import { planFromRoutine } from '../../server/src/agent/offlineMind';
import { toResident } from '../../server/src/town/residents';
import { PUBLISHED_SCHEMAS, publishedSchemaText } from '../../scripts/writeSchemas';
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
    expect(fs.readFileSync(PUBLISHED_SCHEMAS.personas.file, 'utf8')).toBe(publishedSchemaText('personas'));
  });
});

describe('a broken persona', () => {
  // The whole cast, with Isabella's file changed.
  const cast = Object.fromEntries(
    fs
      .readdirSync('personas')
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => [f, fs.readFileSync(path.join('personas', f), 'utf8')]),
  );
  const only = (text: string) => problems({ ...cast, 'isabella.yaml': text });

  it('names the file and the field of a missing or mistyped value', () => {
    expect(only(isabella.replace(/^name: .*$/m, ''))).toEqual([expect.stringMatching(/isabella\.yaml: name: required field missing$/)]);
    expect(only(isabella.replace(/^age: 34$/m, 'age: thirty'))).toEqual([expect.stringMatching(/isabella\.yaml: age: expected a number, got 'thirty'$/)]);
    expect(only(isabella.replace('wakeAt: "06:00"', 'wakeAt: "25:00"'))).toEqual([expect.stringMatching(/wakeAt: expected a time HH:MM/)]);
  });

  it('catches a typo in a key', () => {
    // One problem, not two ("lifestyle missing" and "lifestlye unknown").
    expect(only(isabella.replace('lifestyle:', 'lifestlye:'))).toEqual([
      expect.stringMatching(/isabella\.yaml: lifestlye: unknown field; did you mean 'lifestyle'\?/),
    ]);
  });

  it('names an unknown place and suggests the closest one', () => {
    const out = only(isabella.replace('place: "Hobbs Cafe: kitchen"', 'place: "Hobs Cafe: kitchen"'));
    expect(out).toEqual([expect.stringMatching(/routine\[4\]\.place: .*no place 'Hobs Cafe: kitchen'.*did you mean 'Hobbs Cafe: kitchen'/)]);
  });

  it('refuses a routine out of order', () => {
    expect(only(isabella.replace('at: "08:00"', 'at: "07:00"'))).toEqual([expect.stringMatching(/routine\[3\]\.at: 07:00 is not after/)]);
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

describe('persona files that forgive what people do', () => {
  const cast = Object.fromEntries(
    fs
      .readdirSync('personas')
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => [f, fs.readFileSync(path.join('personas', f), 'utf8')]),
  );
  const only = (text: string) => problems({ ...cast, 'isabella.yaml': text });
  // Isabella as a night owl: up at 07:00, a last block after midnight, in bed at 00:30.
  const nightOwl = isabella
    .replace('wakeAt: "06:00"', 'wakeAt: "07:00"')
    .replace('sleepAt: "22:30"', 'sleepAt: "00:30"')
    .replace('at: "06:00"', 'at: "07:00"')
    .replace('at: "06:40"', 'at: "07:20"')
    .replace('at: "07:15"', 'at: "07:45"')
    .replace('relationships:', '  - at: "00:05"\n    activity: reading in bed\n    place: "home: bedroom: bed"\n    emoji: "📖"\nrelationships:');

  it('takes a bedtime after midnight, and plans the waking day up to it', () => {
    const { personas } = loadPersonaFolder(folderWith({ ...cast, 'isabella.yaml': nightOwl }), map);
    const owl = personas.find((p) => p.id === 'isabella')!;
    const plan = planFromRoutine(owl, map, 1, 0);
    const last = plan.actions[plan.actions.length - 1];
    expect(plan.actions.find((a) => a.description === 'reading in bed')!.startMinute).toBe(24 * 60 + 5);
    expect(last.address).toBe('Rivera House: bedroom: bed');
    expect(last.startMinute + last.durationMinutes).toBe(24 * 60 + 30);
    expect(plan.actions[0].startMinute).toBe(7 * 60);
    const resident = toResident(owl, map);
    expect([resident.wakeMinute, resident.sleepMinute]).toEqual([7 * 60, 30]);
  });

  it('says a bedtime that cuts the routine short once, not once per block', () => {
    expect(only(isabella.replace('sleepAt: "22:30"', 'sleepAt: "13:00"'))).toEqual([
      expect.stringMatching(
        /isabella\.yaml: sleepAt: 13:00 comes before the routine's blocks at 13:15 \(routine\[5\]\), 19:00 \(routine\[6\]\), 19:45 \(routine\[7\]\)/,
      ),
    ]);
    expect(only(isabella.replace('sleepAt: "22:30"', 'sleepAt: "06:00"'))).toEqual([expect.stringMatching(/sleepAt: is the same time as wakeAt/)]);
  });

  it('warns, and loads, when a relationship names someone not in town', () => {
    const { marek: _m, ...rest } = Object.fromEntries(Object.entries(cast).map(([f, t]) => [f.replace('.yaml', ''), t]));
    const files = Object.fromEntries(Object.entries(rest).map(([id, t]) => [`${id}.yaml`, t]));
    const { personas, warnings } = loadPersonaFolder(folderWith(files), map);
    expect(personas.map((p) => p.id)).not.toContain('marek');
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.map((w) => w.message)).toContainEqual(expect.stringMatching(/isabella\.yaml: relationships\.marek: 'marek' is not in town/));
    const seen: string[] = [];
    loadPersonas(folderWith(files), map, (w) => seen.push(w.field));
    expect(seen).toContain('relationships.marek');
    // A typo is still only a warning, with a suggestion.
    const typo = loadPersonaFolder(folderWith({ ...cast, 'isabella.yaml': isabella.replace('  omar: Omar', '  omarr: Omar') }), map);
    expect(typo.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/relationships\.omarr: 'omarr' is not in town \(did you mean 'omar'\?\)/)]);
  });

  it('reads an empty relationships key as none', () => {
    const lonely = isabella.replace(/relationships:\n(  .*\n)+/, 'relationships:\n');
    expect(lonely).toMatch(/relationships:\nseedMemories/);
    const { personas } = loadPersonaFolder(folderWith({ 'isabella.yaml': lonely }), map);
    expect(personas[0].relationships).toEqual({});
  });

  it('still checks the places of a file with a format error, and every other file', () => {
    const out = problems({
      ...cast,
      'isabella.yaml': isabella
        .replace(/^age: 34$/m, 'age: thirty')
        .replace('place: "Hobbs Cafe: kitchen"', 'place: "Hobs Cafe: kitchen"')
        .replace('emoji: "🧾"', 'emoji: ""'),
      'claire.yaml': cast['claire.yaml'].replace(/^home: .*$/m, 'home: Moreau Hose'),
    });
    expect(out).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/isabella\.yaml: age: expected a number/),
        expect.stringMatching(/isabella\.yaml: routine\[6\]\.emoji: must not be empty/),
        expect.stringMatching(/isabella\.yaml: routine\[4\]\.place: .*did you mean 'Hobbs Cafe: kitchen'/),
        expect.stringMatching(/claire\.yaml: home: there is no sector 'Moreau Hose'/),
      ]),
    );
    expect(out).toHaveLength(4);
  });

  it('lists the sectors, closest first, for an unknown home', () => {
    const out = only(isabella.replace('home: Rivera House', 'home: Rivera Hose'));
    expect(out).toEqual([expect.stringMatching(/home: there is no sector 'Rivera Hose' in maps\/town\.tmj; its sectors, closest first: 'Rivera House', /)]);
    expect(out[0]).toContain("'Town Hall'");
  });

  it('sleeps where `bedroom` and `bed` say, for a home without a bedroom', () => {
    const camper = isabella.replace('home: Rivera House', 'home: Johnson Park\nbedroom: park\nbed: bench').replace(/"home: [^"]*"/g, '"Johnson Park: park"');
    const { personas } = loadPersonaFolder(folderWith({ 'isabella.yaml': camper }), map);
    expect(toResident(personas[0], map).bedAddress).toBe('Johnson Park: park: bench');
    const out = only(isabella.replace('home: Rivera House', 'home: Johnson Park').replace(/"home: [^"]*"/g, '"Johnson Park: park"'));
    expect(out).toEqual([expect.stringMatching(/home: 'Johnson Park' has no 'bedroom' arena .*\(it has: park\).*'bedroom: <arena>'/)]);
  });

  it('loads one persona file by id for a running town, or says every problem in it', () => {
    const dir = folderWith({ ...cast, 'isabella.yaml': isabella.replace('  omar: Omar', '  omarr: Omar') });
    const { persona, warnings } = loadPersonaFile(dir, 'isabella', map, ['claire', 'ayo', 'marek', 'omar']);
    expect(persona.name).toBe('Isabella Rivera');
    expect(warnings.map((w) => w.field)).toEqual(['relationships.omarr']);
    const broken = folderWith({ 'isabella.yaml': isabella.replace(/^age: 34$/m, '').replace('home: Rivera House', 'home: Nowhere') });
    expect(() => loadPersonaFile(broken, 'isabella', map, [])).toThrow(PersonasError);
    try {
      loadPersonaFile(broken, 'isabella', map, []);
    } catch (error) {
      expect((error as PersonasError).errors.map((e) => e.field).sort()).toEqual(['age', 'home']);
    }
    expect(() => loadPersonaFile(dir, 'nobody', map, [])).toThrow(/nobody\.yaml: no such persona file/);
  });
});
