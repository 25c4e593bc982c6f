// `npm start`'s first step: builds the client and the server only when their sources changed since the last
// build (a hash of every input file's path and bytes, kept in dist/.build-inputs.json), so a restart on an
// unchanged checkout goes straight to serving (the client build was most of an 11–14 s restart).
// `npm run build` (--all) always builds both. Plain JavaScript: no TypeScript loader on the start path.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** What each part is built from, and the file whose absence means it was never built. */
export const PARTS = {
  client: { inputs: ['client', 'server/src/protocol', 'package-lock.json', 'tsconfig.json'], output: 'dist/client/index.html', script: 'build:client' },
  server: { inputs: ['server/src', 'scripts/buildServer.ts', 'package-lock.json', 'tsconfig.json'], output: 'dist/server/start.js', script: 'build:server' },
};
const STAMP = 'dist/.build-inputs.json';
const SKIPPED = new Set(['node_modules', 'dist', '.git']);

/** A hash of every file under the inputs (path and bytes), in a fixed order; a missing input counts as absent. */
export function inputsHash(root, inputs) {
  const hash = createHash('sha1');
  const walk = (relative) => {
    const full = path.join(root, relative);
    let stat;
    try {
      stat = fs.statSync(full);
    } catch {
      hash.update(`absent ${relative}\n`);
      return;
    }
    if (stat.isDirectory()) {
      for (const name of fs.readdirSync(full).sort()) if (!SKIPPED.has(name)) walk(path.join(relative, name));
    } else {
      hash.update(`file ${relative} ${stat.size}\n`);
      hash.update(fs.readFileSync(full));
    }
  };
  for (const input of inputs) walk(input);
  return hash.digest('hex');
}

function readStamp(root) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, STAMP), 'utf8'));
  } catch {
    return {};
  }
}

/** The parts whose build is missing or older than their sources, with each one's current hash. */
export function partsToBuild(root) {
  const stamp = readStamp(root);
  const out = [];
  for (const [name, part] of Object.entries(PARTS)) {
    const hash = inputsHash(root, part.inputs);
    if (stamp[name] !== hash || !fs.existsSync(path.join(root, part.output))) out.push({ name, hash });
  }
  return out;
}

/** Records that these parts were built from these hashes. */
export function recordBuilt(root, built) {
  const stamp = readStamp(root);
  for (const { name, hash } of built) stamp[name] = hash;
  fs.mkdirSync(path.dirname(path.join(root, STAMP)), { recursive: true });
  fs.writeFileSync(path.join(root, STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  // --all (`npm run build`): both parts, whatever changed.
  const all = process.argv.includes('--all');
  const todo = all ? Object.keys(PARTS).map((name) => ({ name, hash: inputsHash(root, PARTS[name].inputs) })) : partsToBuild(root);
  if (todo.length === 0) console.log('smalltown: the client and server builds are up to date');
  for (const part of todo) {
    if (!all) console.log(`smalltown: building the ${part.name} (its sources changed since the last build)`);
    const run = spawnSync('npm', ['run', '--silent', PARTS[part.name].script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    if (run.status !== 0) process.exit(run.status ?? 1);
    recordBuilt(root, [part]);
  }
}
