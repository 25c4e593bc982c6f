// A model file checked before anything loads it or any world is touched: there, a folder or not, readable,
// GGUF by its magic bytes, and small enough for this machine's memory.
import fs from 'node:fs';
import os from 'node:os';

/** Why `file` cannot be a model, or null: missing, a folder, unreadable, not GGUF, larger than this machine's memory. Reads 4 bytes. */
export function modelFileProblem(file: string): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    return `'${file}' does not exist (run \`npm run models:fetch\` for the test models, or give the path of a .gguf file)`;
  }
  if (stat.isDirectory()) return `'${file}' is a folder, not a .gguf model file`;
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch (error) {
    return `'${file}' cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  const magic = Buffer.alloc(4);
  try {
    fs.readSync(fd, magic, 0, 4, 0);
  } finally {
    fs.closeSync(fd);
  }
  if (magic.toString('latin1') !== 'GGUF') return `'${file}' is not a GGUF model file (it does not start with the GGUF magic bytes)`;
  const total = os.totalmem();
  if (stat.size > total * 0.9)
    return (
      `'${file}' is ${(stat.size / 2 ** 30).toFixed(1)} GiB, more than this machine's memory allows ` +
      `(${(total / 2 ** 30).toFixed(1)} GiB in all): use a smaller or more quantised model`
    );
  return null;
}

/** Where `npm run models:fetch` puts the sentence embedder, used when EMBEDDER_FILE is unset and it is there. */
export const DEFAULT_EMBEDDER_FILE = 'models/all-MiniLM-L6-v2.f32.gguf';
