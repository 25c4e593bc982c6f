// The server process's malloc settings (server/src/processTuning.ts): start.js replaces itself once, in the same
// process, with glibc's malloc kept from growing arenas and from raising its mmap threshold; what the user sets
// themselves is kept. Read from the running server's /proc entry (Linux).
import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { relaunchFor, SERVER_MALLOC_ENV, TUNED_MARK } from '../../server/src/processTuning';
import { startServerProcess, stopChild, type ServerChild } from '../childServer';
import { subsetPersonas, tempDir } from '../helpers';

const base = { execPath: '/usr/bin/node', execArgv: ['--enable-source-maps'], argv: ['/usr/bin/node', 'dist/server/start.js', '--x'], platform: 'linux' };

describe('relaunchFor', () => {
  it('runs the same command line again with the malloc settings in the environment, and marks it done', () => {
    const r = relaunchFor({ ...base, env: { PATH: '/bin' } })!;
    expect(r.args).toEqual(['/usr/bin/node', '--enable-source-maps', 'dist/server/start.js', '--x']);
    expect(r.env).toEqual({ PATH: '/bin', ...SERVER_MALLOC_ENV, [TUNED_MARK]: '1' });
    expect(relaunchFor({ ...base, env: r.env })).toBeNull();
  });

  it("keeps the user's own malloc variables, adding only those not set", () => {
    expect(relaunchFor({ ...base, env: { MALLOC_ARENA_MAX: '4', MALLOC_MMAP_THRESHOLD_: '65536' } })).toBeNull();
    const r = relaunchFor({ ...base, env: { MALLOC_ARENA_MAX: '4' } })!;
    expect(r.env.MALLOC_ARENA_MAX).toBe('4');
    expect(r.added).toEqual(['MALLOC_MMAP_THRESHOLD_=131072']);
  });

  it('does nothing off Linux (no glibc)', () => {
    expect(relaunchFor({ ...base, platform: 'darwin', env: {} })).toBeNull();
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
    expect(args.at(-1)).toMatch(/dist\/server\/start\.js$/);
    expect(seen).toMatchObject({ ...SERVER_MALLOC_ENV, [TUNED_MARK]: '1' });
  });

  it("control: started with the user's own variable and node flag, it keeps them", async () => {
    const child = await startServerProcess({ ...env(), MALLOC_ARENA_MAX: '3' }, { nodeArgs: ['--max-semi-space-size=8'] });
    children.push(child);
    const { args, env: seen } = procOf(child.process.pid!);
    expect(args).toContain('--max-semi-space-size=8');
    expect(seen.MALLOC_ARENA_MAX).toBe('3');
    expect(seen.MALLOC_MMAP_THRESHOLD_).toBe('131072');
  });
});
