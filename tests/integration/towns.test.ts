// Several towns on one server: each its own Town, room and file, listed at /api/towns, joined by name,
// replayed by name, started and stopped by the operator over HTTP.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, type Room } from '@colyseus/sdk';
import { TownState } from '../../server/src/protocol/state';
import type { TownList } from '../../server/src/protocol/towns';
import { loadConfig } from '../../server/src/config';
import { startTestTown, subsetPersonas, tempDir, waitFor } from '../helpers';

const TOKEN = 'towns-operator';

describe('the settings for several worlds', () => {
  it('read WORLDS as name[:map[:personas]], the first being the default, MAP_FILE and PERSONAS_DIR filling the gaps', () => {
    const c = loadConfig({ WORLDS: 'main, north::north-people ,big:gen/town.tmj:gen/personas', MAP_FILE: 'maps/town.tmj' });
    expect(c.worlds).toEqual([
      { name: 'main', mapFile: 'maps/town.tmj', personasDir: 'personas' },
      { name: 'north', mapFile: 'maps/town.tmj', personasDir: 'north-people' },
      { name: 'big', mapFile: 'gen/town.tmj', personasDir: 'gen/personas' },
    ]);
    expect(c).toMatchObject({ world: 'main', mapFile: 'maps/town.tmj', personasDir: 'personas' });
    expect(loadConfig({}).worlds).toEqual([{ name: 'smalltown', mapFile: 'maps/town.tmj', personasDir: 'personas' }]);
  });

  it('name the variable and the entry when something is wrong', () => {
    expect(() => loadConfig({ WORLDS: 'ok,not ok' })).toThrow(/WORLDS \(1\.name\): letters, digits/);
    expect(() => loadConfig({ WORLDS: 'a,a' })).toThrow(/WORLDS: the world 'a' appears twice/);
    expect(() => loadConfig({ WORLDS: 'a:b:c:d' })).toThrow(/WORLDS: 'a:b:c:d' has more than name:map:personas/);
    expect(() => loadConfig({ WORLDS: 'a', WORLD: 'b' })).toThrow(/either WORLD .* or WORLDS/);
    expect(() => loadConfig({ REDIS_URL: 'redis://127.0.0.1:6379' })).toThrow(/OPERATOR_TOKEN: with REDIS_URL, set the same OPERATOR_TOKEN/);
    expect(() => loadConfig({ REDIS_URL: 'localhost:6379', OPERATOR_TOKEN: 't' })).toThrow(/REDIS_URL: expected redis:\/\/host:port/);
    expect(() => loadConfig({ ADVERTISE_ADDRESS: 'http://x' })).toThrow(/ADVERTISE_ADDRESS: expected host:port/);
    expect(() => loadConfig({ CORS_ORIGINS: 'https://ok.example, https://bad.example/path' })).toThrow(/CORS_ORIGINS \(1\): expected an origin/);
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://b.example:8080' }).corsOrigins).toEqual(['https://a.example', 'http://b.example:8080']);
  });
});

describe('several towns on one server', () => {
  let server: Awaited<ReturnType<typeof startTestTown>>;
  const rooms: Room<unknown, TownState>[] = [];
  const api = async (method: string, route: string, options: { token?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(`${server.url}${route}`, { method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const list = async () => (await api('GET', '/api/towns')).body as unknown as TownList;
  const join = async (options: Record<string, unknown>) => {
    const room = await new Client(server.url).join<TownState>('town', options, TownState);
    room.onMessage('welcome', () => undefined);
    rooms.push(room);
    return room;
  };

  let northDir = '';
  beforeAll(async () => {
    northDir = subsetPersonas(['isabella', 'kenji', 'ruth']);
    const north = { name: 'north', personasDir: northDir };
    server = await startTestTown({ operatorToken: TOKEN, worlds: [{ name: 'main' }, north] });
  });
  afterAll(async () => {
    // leave() of a room the server already closed would wait forever.
    for (const room of rooms) if (room.connection?.isOpen) await room.leave();
    await server?.close();
  });

  it('lists every running town with its agents, mind and spectators, the default first', async () => {
    expect(await list()).toEqual({
      defaultWorld: 'main',
      towns: [
        { name: 'main', agents: 10, mind: 'offline', spectators: 0, here: true, url: '/?world=main' },
        { name: 'north', agents: 3, mind: 'offline', spectators: 0, here: true, url: '/?world=north' },
      ],
    });
    expect(server.town.config.world).toBe('main');
    expect(fs.existsSync(path.join(server.dataDir, 'main.sqlite')) && fs.existsSync(path.join(server.dataDir, 'north.sqlite'))).toBe(true);
  });

  it('joins each town by name, each room showing its own world, and serves each world its map', async () => {
    const north = await join({ world: 'north' });
    const main = await join({ world: 'main' });
    await waitFor('both rooms to have their agents', () => north.state.agents.size === 3 && main.state.agents.size === 10);
    await waitFor('the listing to count the spectator', async () => (await list()).towns.find((t) => t.name === 'north')?.spectators === 1);

    const town = (await api('GET', '/api/town?world=north')).body;
    expect(town).toMatchObject({ name: 'north', mapUrl: '/towns/north/map/town.tmj' });
    expect((town.agents as unknown[]).length).toBe(3);
    expect((await api('GET', '/api/town')).body).toMatchObject({ name: 'main', mapUrl: '/maps/town.tmj' });
    const map = await fetch(`${server.url}/towns/north/map/town.tmj`);
    expect(map.status).toBe(200);
    expect(((await map.json()) as { tilesets: unknown[] }).tilesets.length).toBeGreaterThan(0);
    const image = await fetch(`${server.url}/towns/north/map/assets/0/town.png`);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);
    // Only the map and the images it names: not the rest of the folder.
    expect((await fetch(`${server.url}/towns/north/map/README.md`)).status).toBe(404);

    expect(await api('GET', '/api/town?world=nowhere')).toEqual({ status: 404, body: { error: "no town 'nowhere' is running" } });
    expect((await api('GET', '/api/feed?world=north')).status).toBe(200);
    await expect(new Client(server.url).join('town', { world: 'nowhere' })).rejects.toThrow(/no rooms found/);
  });

  it('replays any hosted world by its name', async () => {
    const replay = await new Client(server.url).join<TownState>('replay', { live: 'north' }, TownState);
    await waitFor('the replay to show the north town', () => replay.state.mode === 'replay' && replay.state.agents.size === 3);
    await replay.leave();
    // As the page asks for ?world=north&t=…: the world's file, which is a live town here.
    const byFile = await new Client(server.url).join<TownState>('replay', { world: 'north', t: '2026-02-13T06:00' }, TownState);
    await waitFor('the replay of north\u2019s file', () => byFile.state.agents.size === 3 && byFile.state.replayWorld === 'north');
    await byFile.leave();
    const fallback = await new Client(server.url).join<TownState>('replay', {}, TownState);
    await waitFor('a replay without `live` to show the default town', () => fallback.state.agents.size === 10);
    await fallback.leave();
  });

  it('refuses to start or stop a town without the operator token, and names what is wrong with a request', async () => {
    const noToken = await api('POST', '/api/towns', { body: { name: 'x' } });
    expect(noToken).toEqual({ status: 401, body: { error: 'operator only: send Authorization: Bearer <operator token>' } });
    expect(await api('POST', '/api/towns', { token: 'not-it', body: { name: 'x' } })).toEqual({ status: 403, body: { error: 'wrong operator token' } });
    expect((await api('DELETE', '/api/towns/north')).status).toBe(401);
    const badName = await api('POST', '/api/towns', { token: TOKEN, body: { name: 'no spaces' } });
    expect(badName).toEqual({ status: 400, body: { error: 'name: letters, digits, - and _ only (at most 64)' } });
    expect((await api('POST', '/api/towns', { token: TOKEN, body: { name: 'x', size: 3 } })).body.error).toMatch(/size/);
    expect((await api('POST', '/api/towns', { token: TOKEN, body: {} })).body.error).toMatch(/^name: /);
    const badMap = await api('POST', '/api/towns', { token: TOKEN, body: { name: 'x', map: 'maps/missing.tmj' } });
    expect([badMap.status, badMap.body.error]).toEqual([400, expect.stringMatching(/missing\.tmj/)]);
    expect(server.host.has('x')).toBe(false);
    // Issue 45: the persona folder is confined as the map is: /etc, a folder of other YAML, valid personas elsewhere.
    const yamlElsewhere = tempDir('smalltown-yaml-');
    fs.writeFileSync(path.join(yamlElsewhere, 'secrets.yaml'), 'password: hunter2\n');
    for (const personas of ['/etc', '../../etc', yamlElsewhere, subsetPersonas(['arthur'])]) {
      const refused = await api('POST', '/api/towns', { token: TOKEN, body: { name: 'x', personas } });
      expect([personas, refused.status, refused.body.error]).toEqual([
        personas,
        400,
        expect.stringMatching(/^personas: '[^/]+' is not a persona folder this server offers \(personas\/, [^/]+\/ or a folder inside one\)$/),
      ]);
      expect(JSON.stringify(refused.body)).not.toMatch(/password|secrets|hunter2/);
    }
    expect(server.host.has('x')).toBe(false);
    const twice = await api('POST', '/api/towns', { token: TOKEN, body: { name: 'north' } });
    expect(twice).toEqual({ status: 409, body: { error: "the world 'north' is already running here" } });
    const stopDefault = await api('DELETE', '/api/towns/main', { token: TOKEN });
    expect(stopDefault).toEqual({ status: 409, body: { error: "'main' is this server's default world: it stops with the server" } });
    expect(await api('DELETE', '/api/towns/nowhere', { token: TOKEN })).toEqual({ status: 404, body: { error: "no world 'nowhere' is running" } });
  });

  it('starts a town for the operator, and stops it: its viewers are told, its file stays, and it resumes when started again', async () => {
    // A persona folder the operator names must be inside one of the server's (issue 45): here, inside north's.
    const personas = path.join(northDir, 'south');
    fs.cpSync(subsetPersonas(['arthur', 'omar']), personas, { recursive: true });
    const started = await api('POST', '/api/towns', { token: TOKEN, body: { name: 'south', personas } });
    expect(started).toEqual({ status: 201, body: { name: 'south', url: '/?world=south' } });
    expect((await list()).towns.map((t) => [t.name, t.agents])).toEqual([
      ['main', 10],
      ['north', 3],
      ['south', 2],
    ]);
    const south = await join({ world: 'south' });
    await waitFor('the south town', () => south.state.agents.size === 2);
    let left = false;
    south.onLeave(() => (left = true));

    expect(await api('DELETE', '/api/towns/south', { token: TOKEN })).toEqual({ status: 200, body: { stopped: 'south' } });
    await waitFor('the viewer of the stopped town to be let go', () => left);
    expect((await list()).towns.map((t) => t.name)).toEqual(['main', 'north']);
    expect(fs.existsSync(path.join(server.dataDir, 'south.sqlite'))).toBe(true);
    expect((await api('GET', '/api/town?world=south')).status).toBe(404);

    expect((await api('POST', '/api/towns', { token: TOKEN, body: { name: 'south', personas } })).status).toBe(201);
    expect(server.host.get('south')!.town.resumed).toBe(true);
    expect((await api('DELETE', '/api/towns/south', { token: TOKEN })).status).toBe(200);
  });
});
