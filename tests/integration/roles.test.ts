// Spectators watch; operators act. Every message is checked, and nothing a spectator sends changes the world.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type Room } from '@colyseus/sdk';
import { TownState } from '../../server/src/protocol/state';
import { asAgentId } from '../../server/src/world/types';
import { startTestTown, waitFor } from '../helpers';

type ErrorReply = { type: string; message: string };

async function join(url: string, options: Record<string, unknown> = {}) {
  const room: Room<unknown, TownState> = await new Client(url).join<TownState>('town', options, TownState);
  const errors: ErrorReply[] = [];
  const inbox: Array<[string, unknown]> = [];
  room.onMessage('error', (e: ErrorReply) => errors.push(e));
  room.onMessage('*', (type: string | number, m: unknown) => inbox.push([String(type), m]));
  for (const t of ['welcome', 'news', 'interview', 'whispered', 'inspect']) room.onMessage(t, (m: unknown) => inbox.push([t, m]));
  return { room, errors, inbox };
}

describe('roles', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  beforeAll(async () => {
    town = await startTestTown({ operatorToken: 'let-me-in-please', startTime: '2026-02-13T09:00' });
  });
  afterAll(async () => town?.close());

  // What a message could change (the town itself goes on living, so memories keep coming).
  const worldSnapshot = () => ({
    paused: town.town.clock.paused,
    rate: town.town.clock.rate,
    whispered: town.town.db.memories.search(asAgentId('isabella'), 'mayor', 5).length,
    agents: town.town.sim.agents().length,
    operatorEvents: town.town.db.db.prepare("SELECT count(*) FROM events WHERE kind IN ('operator.action','world.event')").pluck().get(),
  });

  it('refuses a spectator\u2019s pause, speed, whisper, interview, inject and agent changes, and the world is unchanged', async () => {
    const before = worldSnapshot();
    const s = await join(town.url);
    s.room.send('control', { op: 'pause' });
    s.room.send('control', { op: 'speed', rate: 600 });
    s.room.send('whisper', { agentId: 'isabella', text: 'You are the mayor now.' });
    s.room.send('interview', { requestId: '1', agentId: 'isabella', question: 'Who are you?' });
    s.room.send('inject', { text: 'A storm hits the town' });
    s.room.send('agent', { op: 'remove', agentId: 'isabella' });
    await waitFor('six refusals', () => s.errors.length >= 6);
    expect(s.errors.map((e) => e.type)).toEqual(['control', 'control', 'whisper', 'interview', 'inject', 'agent']);
    for (const e of s.errors) expect(e.message).toMatch(/needs the operator token/);
    await new Promise((r) => setTimeout(r, 300));
    expect(worldSnapshot()).toEqual(before);
    expect(s.inbox.some(([t]) => t === 'interview')).toBe(false);
    await s.room.leave();
  });

  it('lets a spectator inspect an agent, read-only', async () => {
    const before = worldSnapshot();
    const s = await join(town.url);
    s.room.send('inspect', { requestId: 'r1', agentId: 'isabella' });
    const reply = await waitFor(
      'the inspector data',
      () => s.inbox.find(([t]) => t === 'inspect')?.[1] as { name: string; plan: unknown; recent: unknown[] } | undefined,
    );
    expect(reply.name).toBe('Isabella Rivera');
    expect(reply.recent.length).toBeGreaterThan(0);
    expect(worldSnapshot()).toEqual(before);
    await s.room.leave();
  });

  it('refuses a wrong token at the door', async () => {
    await expect(join(town.url, { token: 'guess' })).rejects.toThrow(/invalid operator token/);
  });

  it('lets an operator pause, interview and whisper', async () => {
    const o = await join(town.url, { token: 'let-me-in-please' });
    await waitFor('the welcome', () => o.inbox.find(([t]) => t === 'welcome'));
    expect(o.inbox.find(([t]) => t === 'welcome')![1]).toMatchObject({ role: 'operator' });
    o.room.send('control', { op: 'pause' });
    await waitFor('the pause', () => town.town.clock.paused);
    const frozen = town.town.clock.gameMs;
    await new Promise((r) => setTimeout(r, 300));
    expect(town.town.clock.gameMs).toBe(frozen);

    o.room.send('interview', { requestId: 'q1', agentId: 'isabella', question: 'What are you planning?' });
    const answer = await waitFor('the answer', () => o.inbox.find(([t]) => t === 'interview')?.[1] as { answer: string; requestId: string } | undefined);
    expect(answer.requestId).toBe('q1');
    expect(answer.answer.length).toBeGreaterThan(10);

    const count = town.town.db.memories.count(asAgentId('claire'));
    o.room.send('whisper', { agentId: 'claire', text: 'There is a secret garden behind Town Hall.' });
    await waitFor('the whispered memory', () => town.town.db.memories.count(asAgentId('claire')) > count);
    expect(town.town.db.memories.search(asAgentId('claire'), 'secret garden', 1)).toHaveLength(1);
    await waitFor('the whisper in the feed', () => o.inbox.some(([t, m]) => t === 'news' && JSON.stringify(m).includes('Whisper to Claire Moreau')));

    o.room.send('control', { op: 'resume' });
    await waitFor('the resume', () => !town.town.clock.paused);
    expect(o.errors).toEqual([]);
    await o.room.leave();
  });

  it('refuses malformed, oversized and unknown messages without harm, and slows down floods', async () => {
    const o = await join(town.url, { token: 'let-me-in-please' });
    // Let the previous test's last operator event reach the log (it is written on the next tick).
    await new Promise((r) => setTimeout(r, 300));
    const before = worldSnapshot();
    o.room.send('control', { op: 'fly' });
    o.room.send('control', 'pause');
    o.room.send('whisper', { agentId: 'claire', text: 'x'.repeat(600) });
    o.room.send('whisper', { agentId: 'claire', text: 'hi', extra: true });
    o.room.send('interview', { requestId: 'z', agentId: 'nobody', question: 'Hello?' });
    o.room.send('teleport', { agentId: 'claire' });
    await waitFor('six refusals', () => o.errors.length >= 6);
    // Interviews run asynchronously, so their refusal may come after the others.
    expect(o.errors.slice(0, 6).map((e) => e.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/bad 'control' message/),
        expect.stringMatching(/bad 'control' message/),
        expect.stringMatching(/bad 'whisper' message: text: .*500/),
        expect.stringMatching(/bad 'whisper' message/),
        expect.stringMatching(/no agent 'nobody'/),
        expect.stringMatching(/unknown message type 'teleport'/),
      ]),
    );
    const after = worldSnapshot();
    expect(after, JSON.stringify([before, after])).toEqual(before);
    for (let i = 0; i < 30; i++) o.room.send('inspect', { requestId: String(i), agentId: 'claire' });
    await waitFor('a slow-down', () => o.errors.some((e) => /too many messages/.test(e.message)));
    expect(o.room.connection.isOpen).toBe(true);
    await o.room.leave();
  });

  it('drops a client that sends a frame over the size limit, and the town goes on', async () => {
    const s = await join(town.url);
    const before = worldSnapshot();
    const closed = new Promise<boolean>((resolve) => s.room.onLeave(() => resolve(true)));
    s.room.send('whisper', { agentId: 'claire', text: 'x'.repeat(200_000) });
    expect(await closed).toBe(true);
    expect(worldSnapshot()).toEqual(before);
    const again = await join(town.url);
    await waitFor('the state', () => again.room.state.agents.size > 0);
    await again.room.leave();
  });
});
