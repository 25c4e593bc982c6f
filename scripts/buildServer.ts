// `npm run build:server`: the server compiled into dist/server/, which `npm start` runs with plain Node
// (no TypeScript compiler on the start path):
// - index.js: the server and the pure-JavaScript packages it imports, in one ES module. One file to
//   read and compile instead of about 1,500 (a restart is mostly module loading); the `@protocol/*`
//   alias is resolved from tsconfig.json. Native packages, and those loaded on demand, stay in
//   node_modules.
// - start.js: the entry point; it sets glibc's malloc settings (processTuning.ts, by replacing itself once)
//   and turns on Node's compile cache before loading index.js.
// The test setup and the benchmarks build it too, so the server processes they start run what
// `npm start` runs.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_ENTRY = path.join(ROOT, 'dist/server/start.js');

/** Packages kept out of the bundle: native addons and their loaders, optional peers, and client-only ones. */
const EXTERNAL = [
  ...['better-sqlite3', 'sqlite-vec', 'msgpackr-extract', 'bufferutil', 'utf-8-validate', 'compromise', 'vite', 'phaser', 'node-llama-cpp'],
  // Loaded only with REDIS_URL (host/cluster.ts connectRedis).
  ...['@colyseus/redis-presence', '@colyseus/redis-driver'],
];

export async function buildServer(): Promise<void> {
  const common = { absWorkingDir: ROOT, platform: 'node', format: 'esm', target: 'node22', logLevel: 'warning' } as const;
  await build({
    ...common,
    entryPoints: ['server/src/index.ts'],
    outfile: path.join(ROOT, 'dist/server/index.js'),
    bundle: true,
    external: EXTERNAL,
    // Stack traces name the TypeScript file and line; the sources themselves stay out of the map (a third
    // of the size Node reads and parses at every start).
    sourcemap: true,
    sourcesContent: false,
    // CommonJS packages inside an ES module bundle still call require() for Node's built-ins.
    banner: { js: "import { createRequire as smalltownRequire } from 'node:module'; const require = smalltownRequire(import.meta.url);" },
  });
  // start.js with its malloc settings (processTuning.ts) inlined; the server bundle stays a file of its own.
  await build({ ...common, entryPoints: ['server/src/start.ts'], outfile: SERVER_ENTRY, bundle: true, external: ['./index.js'] });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildServer().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
