// The persona editor's form is made from the published JSON Schema: every property has a field, every
// hint names a property; and the YAML the editor writes reads back as the fields it was given, keeping
// a file's comments and untouched fields when it is edited.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import schema from '../../personas/persona.schema.json';
import { coveredPaths, fieldsOf, HINTS, type JsonSchema } from '../../client/src/personas/schemaFields';
import { renderPersonaYaml, SCHEMA_COMMENT } from '../../server/src/world/personaText';
import { readPersonaText } from '../../server/src/world/persona';

/** Every property path of an object schema: "routine[].at", "sprite.hair". */
function schemaPaths(s: JsonSchema, prefix = ''): string[] {
  return Object.entries(s.properties ?? {}).flatMap(([key, p]) => {
    const here = `${prefix}${key}`;
    const items = p.type === 'array' ? p.items : undefined;
    if (items?.type === 'object') return [here, ...schemaPaths(items, `${here}[].`)];
    if (p.type === 'object' && p.properties) return [here, ...schemaPaths(p, `${here}.`)];
    return [here];
  });
}

const shipped = fs.readdirSync('personas').filter((f) => f.endsWith('.yaml'));

describe('the persona form', () => {
  it('has a field for every property of the published schema, and none besides', () => {
    const fields = fieldsOf(schema as JsonSchema);
    expect(coveredPaths(fields).sort()).toEqual(schemaPaths(schema as JsonSchema).sort());
    expect(fields.map((f) => f.key)).toEqual(Object.keys(schema.properties));
  });

  it('takes each field\u2019s kind from the schema: times, colours, numbers, lists, places', () => {
    const byKey = new Map(fieldsOf(schema as JsonSchema).map((f) => [f.key, f]));
    expect(byKey.get('wakeAt')!.kind).toBe('clock');
    expect(byKey.get('age')).toMatchObject({ kind: 'integer', min: 1, max: 120 });
    expect(byKey.get('innate')).toMatchObject({ kind: 'textList', minItems: 1, maxItems: 8 });
    expect(byKey.get('workplace')).toMatchObject({ kind: 'place', place: 'arena', nullable: true });
    const routine = byKey.get('routine')!;
    expect(routine.kind === 'objectList' && routine.item.find((f) => f.key === 'place')).toMatchObject({ kind: 'places', place: 'placeRef' });
    const sprite = byKey.get('sprite')!;
    expect(sprite.kind === 'group' && sprite.fields.map((f) => f.kind)).toEqual(['colour', 'colour', 'colour', 'colour']);
  });

  it('hints only at properties the schema has', () => {
    const names = new Set(schemaPaths(schema as JsonSchema).map((p) => p.split(/\.|\[\]\./).pop()!));
    for (const key of Object.keys(HINTS)) expect(names, key).toContain(key);
  });
});

describe('the YAML the editor writes', () => {
  it.each(shipped)('reads back as the fields it was given, and loads: %s', (file) => {
    const fields = YAML.parse(fs.readFileSync(path.join('personas', file), 'utf8')) as Record<string, unknown>;
    const text = renderPersonaYaml(fields);
    expect(text.startsWith(`#${SCHEMA_COMMENT}\n`)).toBe(true);
    expect(YAML.parse(text)).toEqual(fields);
    expect(readPersonaText(text, file).errors).toEqual([]);
  });

  it('keeps a file\u2019s comments and untouched fields when one field is edited', () => {
    const original = fs
      .readFileSync('personas/isabella.yaml', 'utf8')
      .replace('age: 34', '# her birthday is in May\nage: 34')
      .replace('home: Rivera House', 'home: Rivera House # by the square');
    const fields = YAML.parse(original) as Record<string, unknown>;
    const edited = renderPersonaYaml({ ...fields, age: 35 }, original);
    expect(YAML.parse(edited)).toEqual({ ...fields, age: 35 });
    expect(edited).toContain('# her birthday is in May\nage: 35');
    expect(edited).toContain('home: Rivera House # by the square');
    // Everything but the age line is as it was.
    const diff = original.split('\n').filter((line, i) => edited.split('\n')[i] !== line);
    expect(diff).toEqual(['age: 34']);
  });

  it('drops a field taken out and adds a new one at the end, leaving the rest as it was', () => {
    const original = fs.readFileSync('personas/isabella.yaml', 'utf8');
    const { relationships: _gone, ...fields } = YAML.parse(original) as Record<string, unknown>;
    const edited = renderPersonaYaml({ ...fields, bedroom: 'bedroom' }, original);
    expect(YAML.parse(edited)).toEqual({ ...fields, bedroom: 'bedroom' });
    expect(edited).not.toContain('relationships');
    expect(edited.endsWith('bedroom: bedroom\n')).toBe(true);
    expect(edited.startsWith(original.slice(0, original.indexOf('relationships:')))).toBe(true);
  });

  it('replaces a block field followed by others (a shorter routine) and still reads back', () => {
    const original = fs.readFileSync('personas/isabella.yaml', 'utf8');
    const fields = YAML.parse(original) as Record<string, unknown> & { routine: unknown[] };
    const shorter = { ...fields, routine: fields.routine.slice(0, 2) };
    const edited = renderPersonaYaml(shorter, original);
    expect(YAML.parse(edited)).toEqual(shorter);
    expect(edited).toContain('"🥐"\nrelationships:');
  });

  it('puts unknown fields last, for the loader to name', () => {
    const text = renderPersonaYaml({ colour: 'blue', name: 'X' });
    expect(text.split('\n').slice(1, 3)).toEqual(['name: X', 'colour: blue']);
    expect(readPersonaText(text, 'x.yaml').errors.map((e) => e.field)).toContain('colour');
  });
});
