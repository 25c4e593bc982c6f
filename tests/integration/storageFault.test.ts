// Issue 21 §4: a full disk is a state, not a crash. SQLite's own SQLITE_FULL, made real and deterministic
// with PRAGMA max_page_count (the file may not grow by a page), arrives from TownLog.flush inside the
// room's tick, as it would on a full disk. The town pauses, says why in /healthz, the room state and
// the log, keeps serving the API and replays, and resumes by itself once writes succeed; the event
// log stays gap-free and nothing committed is lost.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@colyseus/sdk';
import { TownState } from '../../server/src/protocol/state';
import { createLogger } from '../../server/src/town/logger';
import { startTestTown, waitFor } from '../helpers';

interface Health {
  ok: boolean;
  gameMs: number;
  holds: string[];
  eventSeq: number;
  storage: 'ok' | { error: string; failedWrites: number };
}

describe('a full disk', () => {
  let server: Awaited<ReturnType<typeof startTestTown>>;
  const lines: string[] = [];
  const health = async () => (await (await fetch(`${server.url}/healthz`)).json()) as Health;
  beforeAll(async () => {
    server = await startTestTown({ rate: 1200, logLevel: 'info' }, { logger: createLogger('info', (line) => lines.push(line)) });
  });
  afterAll(async () => server?.close());

  it('pauses the town with the reason, keeps serving, and resumes by itself when writes succeed; no event lost', async () => {
    const db = server.town.db.db;
    const live = await new Client(server.url).join<TownState>('town', { world: 'smalltown' }, TownState);
    live.onMessage('*', () => undefined);
    await waitFor('events flowing', async () => (await health()).eventSeq > 50);
    // The file may not grow by one more page: the next write that needs one fails with SQLITE_FULL.
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages}`);
    const faulted = await waitFor('the storage fault reported', async () => {
      const h = await health();
      return h.storage !== 'ok' ? h : null;
    });
    expect(faulted.storage).toMatchObject({ error: expect.stringMatching(/^SQLITE_FULL: database or disk is full/) });
    expect(faulted.holds).toContain('storage');
    expect(lines.some((l) => /the world file refuses writes \(SQLITE_FULL/.test(l))).toBe(true);
    await waitFor('the room state says why', () => live.state.storageProblem.startsWith('SQLITE_FULL') && live.state.holdReason.includes('storage'));
    // Paused: game time stands still while the disk is full.
    const frozen = (await health()).gameMs;
    await new Promise((r) => setTimeout(r, 600));
    expect((await health()).gameMs).toBe(frozen);
    // Still serving: the API, and a replay of what was committed.
    expect((await fetch(`${server.url}/api/town`)).status).toBe(200);
    const replay = await new Client(server.url).join<TownState>('replay', {}, TownState);
    replay.onMessage('*', () => undefined);
    await waitFor('the replay state', () => replay.state.mode === 'replay');
    await replay.leave();
    const committed = db.prepare('SELECT count(*) FROM events').pluck().get() as number;

    // Space again: the next write succeeds and the town goes on by itself.
    db.pragma('max_page_count = 1073741823');
    const recovered = await waitFor('writes succeeding again', async () => {
      const h = await health();
      return h.storage === 'ok' && h.gameMs > frozen ? h : null;
    });
    expect(recovered.holds).not.toContain('storage');
    expect(lines.some((l) => /writes succeed again after \d+ failed; the town resumes/.test(l))).toBe(true);
    await waitFor('the room state cleared', () => live.state.storageProblem === '');
    const { n, first, last } = db.prepare('SELECT count(*) AS n, min(seq) AS first, max(seq) AS last FROM events').get() as {
      n: number;
      first: number;
      last: number;
    };
    expect(n).toBeGreaterThan(committed);
    expect(last - first + 1).toBe(n);
    expect(db.pragma('quick_check', { simple: true }) as string).toBe('ok');
    await live.leave();
  }, 60_000);
});
