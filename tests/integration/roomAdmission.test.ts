// Issue 21 §1, §2: only the server makes rooms. A client that asks the matchmaking routes to create a
// town room, or to make replay rooms it never joins, gets nothing that outlives its request: one town
// room per world, at most one replay room waiting per client, and that one gone once its seat expires.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@colyseus/sdk';
import { matchMaker } from '@colyseus/core';
import { TownState } from '../../server/src/protocol/state';
import type { TownList } from '../../server/src/protocol/towns';
import { replayRoomCount } from '../../server/src/rooms/admission';
import { startTestTown, waitFor } from '../helpers';

async function matchmake(url: string, method: string, room: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/matchmake/${method}/${room}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

describe('room admission', () => {
  let server: Awaited<ReturnType<typeof startTestTown>>;
  beforeAll(async () => {
    server = await startTestTown({ replayJoinSeconds: 1 });
  });
  afterAll(async () => server?.close());

  it('refuses 20 anonymous creates of a town room: one room, one listing', async () => {
    for (let i = 0; i < 20; i++) {
      const created = await matchmake(server.url, 'create', 'town', { world: 'smalltown' });
      expect(created.status).toBeGreaterThanOrEqual(400);
      expect(created.status).toBeLessThan(500);
      expect(created.text).toMatch(/the server makes each town's room/);
      const either = await matchmake(server.url, 'joinOrCreate', 'town', { world: 'smalltown' });
      expect(either.status).toBeGreaterThanOrEqual(400);
    }
    expect(await matchMaker.query({ name: 'town' })).toHaveLength(1);
    const list = (await (await fetch(`${server.url}/api/towns`)).json()) as TownList;
    expect(list.towns.filter((t) => t.name === 'smalltown')).toHaveLength(1);
    // A client still joins the town the server made.
    const room = await new Client(server.url).join<TownState>('town', { world: 'smalltown' }, TownState);
    expect(room.roomId).toBeTruthy();
    await room.leave();
  });

  it('makes a replay room for a viewer on join, refuses create, and disposes it when its viewer leaves', async () => {
    expect((await matchmake(server.url, 'create', 'replay', {})).status).toBeGreaterThanOrEqual(400);
    expect((await matchmake(server.url, 'joinOrCreate', 'replay', {})).status).toBeGreaterThanOrEqual(400);
    // The server's own mark cannot be forged: it is stripped from a client's options.
    expect((await matchmake(server.url, 'create', 'town', { world: 'x', __smalltownServer: 'guess' })).status).toBeGreaterThanOrEqual(400);
    const replay = await new Client(server.url).join<TownState>('replay', {}, TownState);
    expect(replayRoomCount()).toBe(1);
    await replay.leave();
    await waitFor('the replay room disposed', () => replayRoomCount() === 0, 5000);
  });

  it('500 replay requests never joined leave at most one room waiting per client, gone once its seat expires', async () => {
    let made = 0;
    let peak = 0;
    for (let i = 0; i < 500; i++) {
      const r = await matchmake(server.url, 'join', 'replay', {});
      if (r.status === 200) made++;
      else expect(r.text).toMatch(/waiting for you to join|too many replay rooms/);
      peak = Math.max(peak, replayRoomCount());
    }
    expect(made).toBeGreaterThanOrEqual(1);
    expect(peak).toBe(1);
    await waitFor('the unjoined replay room gone', () => replayRoomCount() === 0, 10_000);
    // A forged X-Forwarded-For does not make another client: the peer is the socket's address.
    expect((await matchmake(server.url, 'join', 'replay', {})).status).toBe(200);
    const forged = await matchmake(server.url, 'join', 'replay', {}, { 'x-forwarded-for': '10.9.8.7', 'x-smalltown-peer': '10.9.8.7' });
    expect([forged.status, forged.text]).toEqual([429, expect.stringMatching(/waiting for you to join/)]);
    await waitFor('that one gone too', () => replayRoomCount() === 0, 10_000);
  }, 60_000);
});
