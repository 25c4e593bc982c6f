// How the server process's native memory is held over a long run, set where the process starts (start.ts), so
// that `npm start`, `node dist/server/start.js` and the benchmarks' server processes all run with it. Measured on
// the soak's 1,000-agent town (/proc/PID/smaps, BENCHMARKS.md "Round 8"): glibc's main heap grew from 40 to 130 MB
// in the first game day and never gave memory back, and 17 more arenas (V8's and libuv's threads) held 38 MB.
// Freed buffers (SQLite's, the column cache's loads, a snapshot's JSON) leave holes below the top of the main heap,
// which glibc cannot return, and glibc raises its mmap threshold after each large free, so later large buffers land
// in the heap too. A fixed MALLOC_MMAP_THRESHOLD_ (glibc's own default, 128 KiB, made fixed) keeps large buffers in
// mappings that are returned when freed; MALLOC_ARENA_MAX=2 keeps threads from each growing an arena of their own.
// glibc reads them once, as the process starts, so start.ts replaces the process with itself (same id) to set them.
// A variable the user sets is kept. (V8's young generation, capped at 2 × 16 MB with --max-semi-space-size, was
// tried and not kept: the old generation held the difference and more.)

/** glibc malloc's settings. */
export const SERVER_MALLOC_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };

/** Set in the environment of the process image start.ts replaces itself with, so that it is done once. */
export const TUNED_MARK = 'SMALLTOWN_PROCESS_TUNED';

export interface Relaunch {
  /** argv for process.execve: the node binary, its flags, the script and its arguments. */
  args: string[];
  env: Record<string, string>;
  /** What was added, for a warning when the relaunch fails. */
  added: string[];
}

/**
 * What to run instead of this process so that it runs with the settings above (null: nothing to add, done once
 * already, or not glibc's platform). `execArgv` are node's own flags, `argv` is process.argv (node, the script,
 * its arguments): the same command line, run again.
 */
export function relaunchFor(o: {
  execPath: string;
  execArgv: readonly string[];
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  platform: string;
}): Relaunch | null {
  // glibc's variables mean nothing elsewhere (macOS, Windows).
  if (o.env[TUNED_MARK] || o.platform !== 'linux') return null;
  const malloc = Object.entries(SERVER_MALLOC_ENV).filter(([name]) => o.env[name] === undefined);
  if (malloc.length === 0) return null;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.env)) if (v !== undefined) env[k] = v;
  for (const [k, v] of malloc) env[k] = v;
  env[TUNED_MARK] = '1';
  return { args: [o.execPath, ...o.execArgv, ...o.argv.slice(1)], env, added: malloc.map(([k, v]) => `${k}=${v}`) };
}
