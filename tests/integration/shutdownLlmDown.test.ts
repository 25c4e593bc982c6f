// A stop is prompt whatever the LLM does. The server is `npm start`'s in a process of its own, on the
// LLM mind over real HTTP (the in-process stub), with six retries and the shipped 60 s a call. While its
// residents think, the endpoint fails: it refuses connections, answers every call with a 500, or takes
// requests and never replies. Then SIGTERM: the process must exit 0 within a few seconds (before the fix
// it sat out every retry's backoff and every call's timeout), the world file intact, and a new start must
// resume it.
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIStub } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';
import { exited, startServerProcess, stopChild, type ServerChild } from '../childServer';
import { subsetPersonas, tempDir, waitFor } from '../helpers';

/** The bound a stop must keep: the town's grace for work in flight (1.5 s), then saving and closing. */
const STOP_BOUND_MS = 5_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const stubs: OpenAIStub[] = [];
const children: ServerChild[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
  for (const s of stubs.splice(0)) await s.close();
});

async function healthyStub(options: ConstructorParameters<typeof OpenAIStub>[0] = {}): Promise<OpenAIStub> {
  const stub = installTownResponders(await new OpenAIStub({ latencyMs: 50, ...options }).start());
  stubs.push(stub);
  return stub;
}

function serverEnv(dataDir: string, personasDir: string, stub: OpenAIStub): Record<string, string> {
  return {
    DATA_DIR: dataDir,
    PERSONAS_DIR: personasDir,
    START_TIME: '2026-02-13T08:00',
    CLOCK_RATE: '600',
    OPENAI_BASE_URL: stub.url,
    OPENAI_API_KEY: 'shutdown',
    LLM_MODEL: 'stub-model',
    // Six retries: backoffs of 0.5 to 16 s, 31.5 s in all for one call (the 34 s stop).
    LLM_MAX_RETRIES: '6',
  };
}

/** SIGTERM, and how long until the process is gone (killed at `limitMs` when it is not, so a slow stop fails the test fast). */
async function timedStop(child: ServerChild, limitMs: number): Promise<{ ms: number; code: number | null; killed: boolean }> {
  const started = performance.now();
  const done = exited(child.process);
  child.process.kill('SIGTERM');
  const inTime = await Promise.race([done.then(() => true), sleep(limitMs).then(() => false)]);
  if (!inTime) {
    child.process.kill('SIGKILL');
    await done;
  }
  return { ms: performance.now() - started, code: child.process.exitCode, killed: !inTime };
}

describe('SIGTERM with the LLM down', () => {
  for (const failure of ['refusing connections', 'answering every call with HTTP 500', 'taking requests and never answering'] as const) {
    it(`stops within ${STOP_BOUND_MS / 1000} s with the endpoint ${failure}, and the world resumes`, async () => {
      const dataDir = tempDir();
      const personasDir = subsetPersonas(['isabella', 'kenji', 'ruth', 'arthur']);
      // A 'timeout' fault hangs for hangMs: far past the test, so the endpoint never answers.
      const stub = await healthyStub({ hangMs: 600_000 });
      const child = await startServerProcess(serverEnv(dataDir, personasDir, stub));
      children.push(child);
      // The residents plan and look about through the LLM (the town has logged its start); then the endpoint fails under them.
      await waitFor(
        'the town to log its start',
        async () => ((await (await fetch(`${child.url}/healthz`)).json()) as { eventSeq?: number }).eventSeq! > 0,
        20_000,
        100,
      );
      if (failure === 'refusing connections') await stub.disappear();
      else stub.queueFaults(...Array<'timeout' | '500'>(10_000).fill(failure === 'answering every call with HTTP 500' ? '500' : 'timeout'));
      const requestsAtFailure = stub.stats.requests;
      // Calls were in flight or being retried when the stop came: the town asked again after the failure
      // (waited for, as a loaded machine may take a while), and had a moment to retry.
      if (failure !== 'refusing connections') await waitFor('a call to the failed endpoint', () => stub.stats.requests > requestsAtFailure, 20_000);
      await sleep(1500);

      const stop = await timedStop(child, 20_000);
      const output = child.output.join('');
      console.log(`stop with the endpoint ${failure}: ${Math.round(stop.ms)} ms`);
      expect(stop.killed, output).toBe(false);
      expect(stop.code, output).toBe(0);
      expect(stop.ms, output).toBeLessThan(STOP_BOUND_MS);
      expect(output).toMatch(/SIGTERM: saving the world and stopping/);

      const file = path.join(dataDir, 'smalltown.sqlite');
      const db = new Database(file, { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      const events = db.prepare('SELECT count(*) FROM events').pluck().get() as number;
      db.close();
      expect(events).toBeGreaterThan(0);

      // Resumable: a new start on a working endpoint picks the world up where it stopped.
      const again = await startServerProcess(serverEnv(dataDir, personasDir, await healthyStub()));
      children.push(again);
      expect(again.output.join('')).toMatch(/resumed world 'smalltown'/);
      await stopChild(again);
      expect(again.process.exitCode).toBe(0);
    }, 60_000);
  }
});
