// The server process's memory settings (server/src/processTuning.ts): start.js replaces itself once, in the same
// process, with V8's young generation capped and glibc's malloc kept from growing arenas and raising its mmap
// threshold; what the user sets themselves is kept. Read from the running server's /proc entry (Linux).
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { relaunchFor, SERVER_MALLOC_ENV, TUNED_MARK } from '../../server/src/processTuning';
import { startServerProcess, stopChild, type ServerChild } from '../childServer';
import { subsetPersonas, tempDir } from '../helpers';

const base = { execPath: '/usr/bin/node', execArgv: ['--enable-source-maps'], argv: ['/usr/bin/node', 'dist/server/start.js', '--x'], platform: 'linux' };

describe('relaunchFor', () => {
  it('adds the V8 flag before the script and the malloc settings to the environment, and marks it done', () => {
    const r = relaunchFor({ ...base, env: { PATH: '/bin' } })!;
    expect(r.args).toEqual(['/usr/bin/node', '--enable-source-maps', '--max-semi-space-size=16', 'dist/server/start.js', '--x']);
    expect(r.env).toEqual({ PATH: '/bin', ...SERVER_MALLOC_ENV, [TUNED_MARK]: '1' });
    expect(relaunchFor({ ...base, env: r.env })).toBeNull();
  });

  it("keeps the user's own flag (command line, NODE_OPTIONS, V8's underscore spelling) and malloc variables", () => {
    const own = { MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '65536' };
    for (const o of [
      { execArgv: ['--max-semi-space-size=64'], env: own },
      { execArgv: [], env: { ...own, NODE_OPTIONS: '--max_semi_space_size=64 --trace-warnings' } },
    ])
      expect(relaunchFor({ ...base, ...o })).toBeNull();
    const r = relaunchFor({ ...base, env: { MALLOC_ARENA_MAX: '4' } })!;
    expect(r.env.MALLOC_ARENA_MAX).toBe('4');
    expect(r.added).toEqual(['--max-semi-space-size=16', 'MALLOC_MMAP_THRESHOLD_=131072']);
  });

  it('sets no glibc variable off Linux', () => {
    const r = relaunchFor({ ...base, platform: 'darwin', env: {} })!;
    expect(r.added).toEqual(['--max-semi-space-size=16']);
  });
});

const children: ServerChild[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) await stopChild(c);
});

/** The running server's command line and environment, from /proc. */
function procOf(pid: number): { args: string[]; env: Record<string, string> } {
  const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  const env = Object.fromEntries(
    fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
  return { args, env };
}

describe.runIf(process.platform === 'linux')('the server process', () => {
  const env = () => ({ DATA_DIR: tempDir(), PERSONAS_DIR: subsetPersonas(['isabella', 'kenji']), START_TIME: '2026-02-13T08:00' });

  it('runs with the settings, in the process that was started', async () => {
    const child = await startServerProcess(env());
    children.push(child);
    const { args, env: seen } = procOf(child.process.pid!);
    expect(args).toContain('--max-semi-space-size=16');
    expect(args.indexOf('--max-semi-space-size=16')).toBeLessThan(args.findIndex((a) => a.endsWith('start.js')));
    expect(seen).toMatchObject({ ...SERVER_MALLOC_ENV, [TUNED_MARK]: '1' });
  });

  it("control: started with the user's own flag and variable, it keeps them", async () => {
    const child = await startServerProcess({ ...env(), MALLOC_ARENA_MAX: '3' }, { nodeArgs: ['--max-semi-space-size=8'] });
    children.push(child);
    const { args, env: seen } = procOf(child.process.pid!);
    expect(args).toContain('--max-semi-space-size=8');
    expect(args).not.toContain('--max-semi-space-size=16');
    expect(seen.MALLOC_ARENA_MAX).toBe('3');
    expect(seen.MALLOC_MMAP_THRESHOLD_).toBe('131072');
  });
});
