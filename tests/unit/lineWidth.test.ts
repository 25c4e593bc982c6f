// Lines a reviewer can read: no line of the project's TypeScript is wider than 160 characters.
// `npm run format -- <files>` (prettier, .prettierrc.json) wraps code; long strings are split by hand.
// Characters are counted as code points, so an emoji is one.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const MAX_CHARS = 160;
const ROOTS = ['server', 'client', 'tests', 'scripts', 'bench', 'maps/scripts', 'vitest.config.ts'];

function sources(entry: string): string[] {
  if (!fs.existsSync(entry)) return [];
  const stat = fs.statSync(entry);
  if (stat.isFile()) return entry.endsWith('.ts') ? [entry] : [];
  return fs
    .readdirSync(entry)
    .filter((name) => name !== 'node_modules' && !name.startsWith('.'))
    .flatMap((name) => sources(path.join(entry, name)));
}

/** Every line over the width, as "file:line (n characters)". */
function wideLines(files: string[], max = MAX_CHARS): string[] {
  const out: string[] = [];
  for (const file of files)
    fs.readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        const chars = [...line].length;
        if (chars > max) out.push(`${file}:${i + 1} (${chars} characters)`);
      });
  return out;
}

describe('line width', () => {
  it('finds a wide line where there is one', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-width-'));
    const file = path.join(dir, 'wide.ts');
    fs.writeFileSync(file, `const ok = 1;\nconst wide = '${'x'.repeat(MAX_CHARS)}';\n// emoji count once: ${'😴'.repeat(100)}\n`);
    expect(wideLines([file])).toEqual([`${file}:2 (${MAX_CHARS + 16} characters)`]);
  });

  it(`keeps every line of the project's TypeScript within ${MAX_CHARS} characters`, () => {
    const files = ROOTS.flatMap(sources);
    expect(files.length).toBeGreaterThan(200);
    expect(wideLines(files)).toEqual([]);
  });
});
