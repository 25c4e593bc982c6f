// `npm start`'s entry point (compiled to dist/server/start.js beside the server bundle). First glibc's malloc
// settings (processTuning.ts): where node was started without them, the process replaces itself (same process id,
// same command line) with one that has them, once. Then Node's compile cache on (the bundle's compiled code is kept
// in the system's temporary folder, so a restart skips most of the compiling), then the server. index.ts flushes the
// cache once the town is serving.
import module from 'node:module';
import { relaunchFor } from './processTuning';

const relaunch = relaunchFor({ execPath: process.execPath, execArgv: process.execArgv, argv: process.argv, env: process.env, platform: process.platform });
// process.execve: Node ≥ 22.15 and 23.11, POSIX only; without it the server runs with glibc's defaults.
if (relaunch && typeof process.execve === 'function') {
  try {
    process.execve(relaunch.args[0], relaunch.args, relaunch.env);
  } catch (error) {
    console.warn(`smalltown: running without ${relaunch.added.join(' ')} (${error instanceof Error ? error.message : String(error)})`);
  }
}

module.enableCompileCache?.();
await import('./index.js');
