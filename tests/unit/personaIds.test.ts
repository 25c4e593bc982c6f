// Issue 21 §3: a persona id can never be a property every object has. `constructor` as an id broke every
// conversation (`relationships[otherId]` read Object.prototype.constructor) and crashed a replay seek.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readPersonaText } from '../../server/src/world/persona';
import { personaIdProblem, RESERVED_PERSONA_IDS } from '../../server/src/protocol/ids';
import { AgentMessage } from '../../server/src/protocol/messages';

const isabella = fs.readFileSync('personas/isabella.yaml', 'utf8');

describe('persona ids', () => {
  it('refuse the names objects inherit, with the reason, in a file name and in an add message', () => {
    for (const id of ['constructor', 'prototype']) {
      expect(RESERVED_PERSONA_IDS.has(id)).toBe(true);
      expect(personaIdProblem(id)).toMatch(/reserved name/);
      const read = readPersonaText(isabella, `personas/${id}.yaml`);
      expect(read.persona).toBeNull();
      expect(read.errors.map((e) => e.message).join('\n')).toMatch(new RegExp(`'${id}' is the persona's id: '${id}' is a reserved name`));
      expect(AgentMessage.safeParse({ op: 'add', personaId: id }).success).toBe(false);
    }
    // A control: an ordinary id passes both.
    expect(personaIdProblem('isabella')).toBeNull();
    expect(AgentMessage.safeParse({ op: 'add', personaId: 'isabella' }).success).toBe(true);
  });

  it('refuse a 5,000-character id with its length, not its whole text', () => {
    const problem = personaIdProblem('a'.repeat(5000));
    expect(problem).toMatch(/at most 64 characters \(this one has 5000\)/);
  });

  it('give relationships no prototype: an id the file does not name reads as nothing', () => {
    const read = readPersonaText(isabella, 'personas/isabella.yaml');
    expect(read.persona).not.toBeNull();
    const relationships = read.persona!.relationships;
    expect(relationships['constructor']).toBeUndefined();
    expect(relationships['toString']).toBeUndefined();
    expect(Object.keys(relationships).length).toBeGreaterThan(0);
  });
});

describe('persona files that cost too much to read', () => {
  it('refuse a billion-laughs file and a 100k-deep file quickly, naming the file', () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++)
      laughs.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    const deep = `name: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`;
    for (const [text, reason] of [
      [laughs.join('\n'), /YAML refused: .*alias/i],
      [deep, /nested more than 32 levels deep/],
      ['x'.repeat(300 * 1024), /at most 256 KB/],
    ] as const) {
      const t0 = performance.now();
      const read = readPersonaText(text, 'personas/evil.yaml');
      expect(performance.now() - t0).toBeLessThan(500);
      expect(read.persona).toBeNull();
      expect(read.errors.map((e) => e.message).join('\n')).toMatch(reason);
      expect(read.errors[0]!.message).toMatch(/^personas\/evil\.yaml/);
    }
  });
});
