// A persona read from its file keeps none of the file's text: the YAML parsers cut values out of it as slices
// that hold the whole text alive (in the town of 10,000, 10,000 files of ~5 KB: 50 MB of the heap, 383,000
// sliced strings). What a persona keeps must cost about what its values do, whatever comments the file has.
import fs from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parsePersona, type Persona } from '../../server/src/world/persona';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const FILES = 300;
/** Bytes of comment added to each file: 300 files hold 30 MB of text. */
const PADDING = 100_000;

/** The heap's growth while `keep` holds what it made, after full collections. */
function retained(make: () => unknown): { bytes: number; kept: unknown } {
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const kept = make();
  gc();
  gc();
  return { bytes: process.memoryUsage().heapUsed - before, kept };
}

describe('a persona read from its file', () => {
  it('keeps none of its text (a padded file costs what an unpadded one does); keeping the texts costs them (the control)', () => {
    const source = fs.readFileSync(path.join(import.meta.dirname, '../../personas/arthur.yaml'), 'utf8');
    // Each file its own text, built at run time (a literal would be shared), with a comment of PADDING bytes.
    const textOf = (i: number) => `${source}# ${String(i).padStart(6, '0')} ${'x'.repeat(PADDING)}\n`;
    const personas = retained(() => Array.from({ length: FILES }, (_, i) => parsePersona(textOf(i), `p${i}.yaml`)));
    expect((personas.kept as Persona[])[FILES - 1].name).toBe('Arthur Bennett');
    // The values alone: a few KB a persona.
    expect(personas.bytes / FILES).toBeLessThan(20_000);

    // The control: the texts kept beside their personas cost the 30 MB the measure must see.
    const withTexts = retained(() =>
      Array.from({ length: FILES }, (_, i) => {
        const text = textOf(i);
        return { text, persona: parsePersona(text, `p${i}.yaml`) };
      }),
    );
    expect(withTexts.bytes / FILES).toBeGreaterThan(PADDING);
  });
});
