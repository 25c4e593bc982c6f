// How the server process holds memory over a long run, set where the process starts (start.ts), so that `npm start`,
// `node dist/server/start.js` and the benchmarks' server processes all run with it. Measured on the soak's 1,000-agent
// town (BENCHMARKS.md, "What grows"):
// - V8's young generation swung between 16 and 128 MB with the hour's allocation rate (two 64 MB semi-spaces at
//   the busy hours, shrunk at quiet ones): a ±100 MB swing of resident memory that is no leak but reads as one.
//   --max-semi-space-size=16 caps it at 2 × 16 MB.
// - glibc's main heap grew from 40 to 130 MB in the first game day and never gave memory back: freed buffers
//   (SQLite's, the column cache's loads, a snapshot's JSON) leave holes below the top of the heap, and glibc raises
//   its mmap threshold after each large free, so later large buffers land in the heap too. A fixed
//   MALLOC_MMAP_THRESHOLD_ (glibc's own default, 128 KiB, made fixed) keeps large buffers in mappings that are
//   returned when freed; MALLOC_ARENA_MAX=2 keeps V8's and libuv's threads from each growing an arena of its own.
// A setting the user gives (the node flag on the command line or in NODE_OPTIONS, a MALLOC_* variable) is kept.

/** The V8 flags the server runs with, by name. */
export const SERVER_V8_FLAGS: Record<string, string> = { '--max-semi-space-size': '16' };

/** glibc malloc's settings (read by glibc as the process starts, so only a fresh process image takes them). */
export const SERVER_MALLOC_ENV: Record<string, string> = { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' };

/** Set in the environment of the process image start.ts replaces itself with, so that it is done once. */
export const TUNED_MARK = 'SMALLTOWN_PROCESS_TUNED';

export interface Relaunch {
  /** argv for process.execve: the node binary, its flags, the script and its arguments. */
  args: string[];
  env: Record<string, string>;
  /** What was added, for the start-up line. */
  added: string[];
}

/** The flag's name in `--name=value` or `--name value` (and V8's `_` spelling). */
const flagName = (arg: string) => arg.split('=')[0].replace(/_/g, '-');

/**
 * What to run instead of this process so that it runs with the settings above (null: nothing to add, or done once
 * already). `execArgv` are node's own flags, `argv` is process.argv (node, the script, its arguments).
 */
export function relaunchFor(o: {
  execPath: string;
  execArgv: readonly string[];
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  platform: string;
}): Relaunch | null {
  if (o.env[TUNED_MARK]) return null;
  const given = new Set([...o.execArgv, ...(o.env.NODE_OPTIONS ?? '').split(/\s+/)].filter((a) => a.startsWith('--')).map(flagName));
  const flags = Object.entries(SERVER_V8_FLAGS)
    .filter(([name]) => !given.has(name))
    .map(([name, value]) => `${name}=${value}`);
  // glibc's variables mean nothing elsewhere (macOS, Windows, musl).
  const malloc = o.platform === 'linux' ? Object.entries(SERVER_MALLOC_ENV).filter(([name]) => o.env[name] === undefined) : [];
  if (flags.length === 0 && malloc.length === 0) return null;
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.env)) if (v !== undefined) env[k] = v;
  for (const [k, v] of malloc) env[k] = v;
  env[TUNED_MARK] = '1';
  return {
    args: [o.execPath, ...o.execArgv, ...flags, ...o.argv.slice(1)],
    env,
    added: [...flags, ...malloc.map(([k, v]) => `${k}=${v}`)],
  };
}
