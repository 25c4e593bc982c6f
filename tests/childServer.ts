// Server processes for tests and benchmarks: what `npm start` runs (the compiled dist/server/start.js,
// built by the test setup or `npm run build:server`) in a process of its own, started with settings and waited for by its own log line, stopped politely or
// killed with SIGKILL. Also any other command that says when it is ready (redis-server).
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { ENV_NAMES } from '../server/src/config';
import { SERVER_ENTRY } from '../scripts/buildServer';

export const STARTUP_MS = 60_000;

export interface Child {
  process: ChildProcess;
  /** Everything it printed, stdout and stderr, in order. */
  output: string[];
  /** performance.now() when it was spawned, and when its ready line came. */
  spawnedAt: number;
  readyAt: number;
  match: RegExpMatchArray;
}

export interface ServerChild extends Child {
  url: string;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

/** The environment without any Smalltown setting of the caller's (a test's own OPENAI_BASE_URL must not leak into a child). */
function hermeticEnv(env: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const ours = new Set(Object.values(ENV_NAMES));
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !ours.has(k) && !k.startsWith('LLM_MODEL_') && k !== 'SMALLTOWN_DEV') out[k] = v;
  return { ...out, ...env };
}

/**
 * Starts a command and resolves once its output matches `ready`, or fails with its output when it exits
 * first or is not ready in time. `started` sees the process at once (a caller may kill it before it is ready).
 */
export function startChild(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  options: { startupMs?: number; started?: (p: ChildProcess) => void } = {},
): Promise<Child> {
  const spawnedAt = performance.now();
  const child = spawn(command, args, { env: hermeticEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  options.started?.(child);
  const output: string[] = [];
  const startupMs = options.startupMs ?? STARTUP_MS;
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      finish(new Error(`${command} not ready in ${startupMs} ms:\n${output.join('')}`));
    }, startupMs);
    const finish = (error: Error | null, match?: RegExpMatchArray) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (error) reject(error);
      else resolve({ process: child, output, spawnedAt, readyAt: performance.now(), match: match! });
    };
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const match = ready.exec(output.join(''));
      if (match) finish(null, match);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code, signal) => finish(new Error(`${command} exited (${signal ?? code}) before it was ready:\n${output.join('')}`)));
  });
}

/**
 * `npm start`'s server in a process of its own (on this Node, or `options.node` with `nodeArgs`): no cron
 * jobs, no idle pause, port chosen by the system (LOG_LEVEL info or lower: its ready line is info).
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { startupMs?: number; started?: (p: ChildProcess) => void; node?: string; nodeArgs?: string[] } = {},
): Promise<ServerChild> {
  const child = await startChild(
    options.node ?? process.execPath,
    [...(options.nodeArgs ?? []), '--enable-source-maps', SERVER_ENTRY],
    {
      PORT: '0',
      HOST: '127.0.0.1',
      IDLE_PAUSE_MINUTES: '0',
      BACKUP_CRON: 'off',
      IDLE_CHECK_CRON: 'off',
      HOUSEKEEPING_CRON: 'off',
      LOG_LEVEL: 'info',
      // The word vectors, as in-process tests have them: a sentence embedder in models/ would otherwise be picked up.
      EMBEDDER_FILE: 'none',
      ...env,
    },
    /Smalltown on (http:\/\/localhost:\d+)/,
    options,
  );
  return { ...child, url: child.match[1]! };
}

/** Waits for the process to end (at once when it has). */
export function exited(p: ChildProcess): Promise<void> {
  if (p.exitCode !== null || p.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => p.once('exit', () => resolve()));
}

/** SIGTERM (the server saves and stops), and waits for the exit. */
export async function stopChild(child: Pick<Child, 'process'> | undefined): Promise<void> {
  if (!child) return;
  const done = exited(child.process);
  child.process.kill('SIGTERM');
  await done;
}

/** kill -9: no handler runs, nothing is saved; waits until the process is gone. */
export async function killChild(p: ChildProcess): Promise<void> {
  const done = exited(p);
  p.kill('SIGKILL');
  await done;
}
