// Two server processes sharing one real Redis (Debian's redis-server), each holding its own world: a
// client that knows one process's port reaches both worlds, each in the process that holds it.
// Skipped, saying so, where redis-server is not installed (.ci/run installs it).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type Room } from '@colyseus/sdk';
import { TownState } from '../../server/src/protocol/state';
import type { TownList } from '../../server/src/protocol/towns';
import { subsetPersonas, tempDir, waitFor } from '../helpers';
import { freePort, startChild, startServerProcess, stopChild as stop, type Child, type ServerChild } from '../childServer';

const REDIS_SERVER =
  [...(process.env.PATH ?? '').split(path.delimiter), '/usr/bin', '/usr/sbin']
    .map((dir) => path.join(dir, 'redis-server'))
    .find((file) => fs.existsSync(file)) ?? null;
const TOKEN = 'cluster-operator';
const STARTUP_MS = 60_000;

if (!REDIS_SERVER) console.warn('cluster.test.ts skipped: redis-server is not installed (apt-get install redis-server, as .ci/run does)');

/** `npm start`'s entry point, in a process of its own, sharing the Redis. */
function startServer(redisPort: number, env: Record<string, string>): Promise<ServerChild> {
  return startServerProcess({ REDIS_URL: `redis://127.0.0.1:${redisPort}`, OPERATOR_TOKEN: TOKEN, ...env });
}

describe.skipIf(!REDIS_SERVER)('two server processes sharing one Redis', () => {
  let redis: Child | undefined;
  let alpha: ServerChild | undefined;
  let beta: ServerChild | undefined;
  const rooms: Room<unknown, TownState>[] = [];
  const api = async (base: string, method: string, route: string, body?: unknown) => {
    const headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${base}${route}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const towns = async (base: string) => ((await api(base, 'GET', '/api/towns')).body as unknown as TownList).towns.map((t) => [t.name, t.agents, t.here]);
  const health = async (base: string) => (await (await fetch(`${base}/healthz`)).json()) as { world: string; paused: boolean };
  const join = async (base: string, options: Record<string, unknown>) => {
    const room = await new Client(base).join<TownState>('town', options, TownState);
    for (const type of ['welcome', 'news']) room.onMessage(type, () => undefined);
    rooms.push(room);
    return room;
  };

  // Alpha's cast: the town's ten, with gamma's two in a folder inside (an operator may only name folders the server offers).
  const alphaPersonas = tempDir('smalltown-alpha-');
  fs.cpSync('personas', alphaPersonas, { recursive: true });
  const gammaPersonas = path.join(alphaPersonas, 'gamma');

  beforeAll(async () => {
    fs.cpSync(subsetPersonas(['arthur', 'omar']), gammaPersonas, { recursive: true });
    const redisPort = await freePort();
    const redisArgs = ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    redis = await startChild(REDIS_SERVER!, redisArgs, {}, /Ready to accept connections/);
    // Each process its own world, folder and cast (beta has three people), started side by side.
    [alpha, beta] = await Promise.all([
      startServer(redisPort, { WORLDS: `alpha::${alphaPersonas}`, DATA_DIR: tempDir() }),
      startServer(redisPort, { WORLDS: `beta::${subsetPersonas(['isabella', 'kenji', 'ruth'])}`, DATA_DIR: tempDir() }),
    ]);
  }, 2 * STARTUP_MS);

  afterAll(async () => {
    for (const room of rooms) if (room.connection?.isOpen) await room.leave();
    await Promise.all([stop(alpha), stop(beta)]);
    await stop(redis);
  });

  it('lists both towns from either process, each saying which one holds it', async () => {
    expect(await towns(alpha!.url)).toEqual([
      ['alpha', 10, true],
      ['beta', 3, false],
    ]);
    expect(await towns(beta!.url)).toEqual([
      ['beta', 3, true],
      ['alpha', 10, false],
    ]);
  });

  it('joins both worlds through one process\u2019s port, each in the process that holds it', async () => {
    const inAlpha = await join(alpha!.url, { world: 'alpha', token: TOKEN });
    const inBeta = await join(alpha!.url, { world: 'beta', token: TOKEN });
    await waitFor('both rooms to show their towns', () => inAlpha.state.agents.size === 10 && inBeta.state.agents.size === 3);
    // The operator's pause, sent through alpha's port, stops the clock of the process that runs beta, and only that one.
    inBeta.send('control', { op: 'pause' });
    await waitFor('beta\u2019s process to pause', async () => (await health(beta!.url)).paused);
    expect(await health(alpha!.url)).toMatchObject({ world: 'alpha', paused: false });
    await waitFor('the room to say so', () => inBeta.state.paused);
    inBeta.send('control', { op: 'resume' });
    await waitFor('beta\u2019s process to resume', async () => !(await health(beta!.url)).paused);
    await waitFor('the shared listing to count both viewers', async () => {
      const list = ((await api(beta!.url, 'GET', '/api/towns')).body as unknown as TownList).towns;
      return list.every((t) => t.spectators === 1);
    });
  });

  it('answers a page\u2019s HTTP about a world, and replays it, from the process that holds it', async () => {
    const town = await api(alpha!.url, 'GET', '/api/town?world=beta');
    expect(town.body).toMatchObject({ name: 'beta', mapUrl: '/towns/beta/map/town.tmj' });
    expect((town.body.agents as unknown[]).length).toBe(3);
    expect((await fetch(`${alpha!.url}/towns/beta/map/town.tmj`)).status).toBe(200);
    expect((await fetch(`${alpha!.url}/towns/beta/map/assets/0/town.png`)).headers.get('content-type')).toBe('image/png');
    const replay = await new Client(alpha!.url).join<TownState>('replay', { live: 'beta' }, TownState);
    replay.onMessage('welcome', () => undefined);
    await waitFor('the replay of beta', () => replay.state.mode === 'replay' && replay.state.agents.size === 3);
    await replay.leave();
    // As the page asks for ?world=beta&t=…: only the world's name, which the other process holds.
    const byFile = await new Client(alpha!.url).join<TownState>('replay', { world: 'beta', t: '2026-02-13T06:00' }, TownState);
    byFile.onMessage('welcome', () => undefined);
    await waitFor('the replay of beta\u2019s file', () => byFile.state.agents.size === 3);
    await byFile.leave();
  });

  it('starts and stops towns through either process, and refuses a name another process holds', async () => {
    expect(await api(beta!.url, 'POST', '/api/towns', { name: 'alpha' })).toEqual({
      status: 409,
      body: { error: "the world 'alpha' is already running on another process" },
    });
    expect((await api(alpha!.url, 'POST', '/api/towns', { name: 'gamma', personas: gammaPersonas })).status).toBe(201);
    expect(await towns(beta!.url)).toEqual([
      ['beta', 3, true],
      ['alpha', 10, false],
      ['gamma', 2, false],
    ]);
    const inGamma = await join(beta!.url, { world: 'gamma' });
    await waitFor('gamma, reached through beta\u2019s port', () => inGamma.state.agents.size === 2);
    // Asked of beta's process, answered by alpha's, which holds gamma.
    expect(await api(beta!.url, 'DELETE', '/api/towns/gamma')).toEqual({ status: 200, body: { stopped: 'gamma' } });
    expect(await api(alpha!.url, 'DELETE', '/api/towns/beta')).toEqual({
      status: 409,
      body: { error: "'beta' is this server's default world: it stops with the server" },
    });
    await waitFor('gamma to leave the listing', async () => (await towns(alpha!.url)).length === 2);
  });

  it('stops cleanly, taking its towns out of the shared listing', async () => {
    await stop(beta);
    expect(beta!.process.exitCode).toBe(0);
    expect(beta!.output.join('')).toMatch(/SIGTERM: saving the world and stopping/);
    expect(await towns(alpha!.url)).toEqual([['alpha', 10, true]]);
  });
});
