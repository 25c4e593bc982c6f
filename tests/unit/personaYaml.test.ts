// Persona files are read by js-yaml where it reads them as the yaml library does (ten times faster: YAML
// was most of loading a town of ten thousand), and by the yaml library otherwise (parseYamlFast).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import jsYaml from 'js-yaml';
import { generateTown } from '../../scripts/generateTown';
import { loadTownMap } from '../../server/src/world/map';
import { parseYamlFast, readPersonaText, checkPersonaText } from '../../server/src/world/persona';
import { tempDir } from '../helpers';

const yamlFiles = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => path.join(dir, f));

describe('reading persona files', () => {
  it('reads every shipped and generated persona on the fast path, as the yaml library reads it', () => {
    const town = generateTown({ agents: 40, outDir: tempDir(), seed: 3 });
    const files = [...yamlFiles('personas'), ...yamlFiles(town.personasDir)];
    expect(files.length).toBeGreaterThan(45);
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      const fast = parseYamlFast(text);
      expect(fast, file).not.toBeUndefined();
      expect(fast, file).toEqual(YAML.parse(text, { uniqueKeys: true }));
    }
  });

  it('leaves to the yaml library what js-yaml reads otherwise: binary and signed-dot numbers, directives, anchors', () => {
    const cases = ['age: 0b11', 'age: +.5', 'age: -.5', '%YAML 1.1\n---\nname: yes', 'a: &x 1\nb: *x'];
    for (const text of cases) {
      expect(parseYamlFast(text), text).toBeUndefined();
    }
    // The control: js-yaml alone reads the first four otherwise than the yaml library does.
    for (const text of cases.slice(0, 4)) expect(jsYaml.load(text, { schema: jsYaml.CORE_SCHEMA }), text).not.toEqual(YAML.parse(text));
  });

  it('gives a broken file the yaml library’s errors, with their lines', () => {
    const duplicate = fs.readFileSync('personas/isabella.yaml', 'utf8') + '\nage: 40\n';
    expect(parseYamlFast(duplicate)).toBeUndefined();
    const read = readPersonaText(duplicate, 'personas/isabella.yaml');
    expect(read.persona).toBeNull();
    expect(read.errors.map((e) => e.message).join('\n')).toMatch(/line \d+.*YAML syntax error: Map keys must be unique/);
  });

  it('reads a persona the same on either path: the checked persona is equal', () => {
    const map = loadTownMap('maps/town.tmj');
    const ids = new Set(yamlFiles('personas').map((f) => path.basename(f, '.yaml')));
    for (const file of yamlFiles('personas')) {
      const text = fs.readFileSync(file, 'utf8');
      // An anchor nobody uses sends the same file down the yaml library's path.
      const slow = checkPersonaText(text.replace(/^name: /m, 'name: &n '), file, map, ids);
      const fast = checkPersonaText(text, file, map, ids);
      expect(fast.errors, file).toEqual([]);
      expect(fast.persona, file).toEqual(slow.persona);
    }
  });
});
