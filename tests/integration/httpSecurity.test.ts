// What a probe of the HTTP side finds: errors without internals, no secret in the log, CORS only for
// the origins the settings list, and the headers a public page is expected to send.
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../server/src/town/logger';
import { redactUrl } from '../../server/src/config';
import { describeHttpError, HttpError } from '../../server/src/api/errors';
import { startTestTown } from '../helpers';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A raw request: fetch would tidy `..` out of the path before sending it. */
function request(url: string, rawPath: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: hostname, port, path: rawPath, method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Nothing that tells an outsider how the server is built or where it lives. */
function expectNoInternals(answer: Answer): void {
  const here = new RegExp(process.cwd().replace(/[/\\]/g, '.'));
  for (const leak of [/\n\s+at /, /node_modules/, /\.ts:\d+/, /\.m?js:\d+/, here, /<!DOCTYPE/i, /\/(tmp|home|work|usr)\//])
    expect(answer.body, `${answer.status} ${answer.body}`).not.toMatch(leak);
}

describe('HTTP errors, headers and CORS', () => {
  let server: Awaited<ReturnType<typeof startTestTown>>;
  const lines: string[] = [];
  const TOKEN = 'a-secret-the-user-chose';

  beforeAll(async () => {
    server = await startTestTown({ operatorToken: TOKEN, logLevel: 'info' }, { logger: createLogger('debug', (line) => lines.push(line)) });
  });
  afterAll(async () => server?.close());

  it('answers a refused static path, an unknown page and an unknown API route without internals', async () => {
    const forbidden = await request(server.url, '/maps/../package.json');
    expect([forbidden.status, forbidden.headers['content-type'], forbidden.body]).toEqual([400, 'text/plain; charset=utf-8', 'bad path']);
    const encoded = await request(server.url, '/maps/%2e%2e/%2e%2e/etc/passwd');
    expect([400, 403, 404]).toContain(encoded.status);
    const missingFile = await request(server.url, '/maps/nope.png');
    expect([missingFile.status, missingFile.body]).toEqual([404, 'not found']);
    // Static serving's own refusals (here: a dotfile under the client folder) answer the same way.
    const dotfile = await request(server.url, '/.env');
    expect([dotfile.status, dotfile.headers['content-type']]).toEqual([404, 'text/plain; charset=utf-8']);
    const page = await request(server.url, '/no/such/page');
    expect([page.status, page.headers['content-type'], page.body]).toEqual([404, 'text/plain; charset=utf-8', 'nothing at GET /no/such/page\n']);
    const route = await request(server.url, '/api/no-such-route');
    expect([route.status, route.headers['content-type'], JSON.parse(route.body)]).toEqual([
      404,
      'application/json; charset=utf-8',
      { error: 'nothing at GET /api/no-such-route' },
    ]);
    for (const answer of [forbidden, encoded, missingFile, dotfile, page, route]) expectNoInternals(answer);
  });

  it('turns what Express\u2019s parts throw into a status and a message fit for a client', () => {
    // serve-static and body-parser throw http-errors: 4xx with `expose`, whose message may be shown.
    expect(describeHttpError(Object.assign(new Error('Forbidden'), { status: 403, expose: true }))).toEqual({ status: 403, message: 'Forbidden' });
    const hidden = Object.assign(new Error('ENOENT /srv/app/dist/x'), { status: 404, expose: false });
    expect(describeHttpError(hidden)).toEqual({ status: 404, message: 'Not Found' });
    expect(describeHttpError(new HttpError(400, 'map: /srv/maps/x.tmj is not a map'))).toEqual({ status: 400, message: 'map: x.tmj is not a map' });
    expect(describeHttpError(new Error('SQLITE_CORRUPT at /srv/data/w.sqlite'))).toEqual({ status: 500, message: 'Internal Server Error' });
    expect(describeHttpError('a string')).toEqual({ status: 500, message: 'Internal Server Error' });
  });

  it('answers a malformed JSON body with what is wrong, and an error thrown in a route with its status only', async () => {
    const json = { 'content-type': 'application/json' };
    const malformed = await request(server.url, '/api/town', { method: 'POST', headers: json, body: '{"name": ' });
    expect([malformed.status, JSON.parse(malformed.body)]).toEqual([400, { error: 'malformed JSON body' }]);
    const tooLarge = await request(server.url, '/api/town', { method: 'POST', headers: json, body: JSON.stringify({ name: 'x'.repeat(100_000) }) });
    expect([tooLarge.status, JSON.parse(tooLarge.body)]).toEqual([413, { error: 'request body too large' }]);

    // A route that throws: the world's file is closed under it (SQLite's message would name the file). Only the route's
    // own reads (of llm_calls) throw: the town ticks on at 10 Hz meanwhile, and a tick's write that threw here was an
    // uncaught error of the test run.
    const db = server.town.db.db;
    const prepare = db.prepare.bind(db);
    db.prepare = ((sql: string) => {
      if (!sql.includes('llm_calls')) return prepare(sql);
      throw new Error(`SqliteError: unable to open database file ${path.resolve(server.dataDir, 'smalltown.sqlite')}`);
    }) as typeof db.prepare;
    try {
      const thrown = await request(server.url, '/api/llm/calls');
      expect([thrown.status, JSON.parse(thrown.body)]).toEqual([500, { error: 'Internal Server Error' }]);
      expectNoInternals(thrown);
      for (const answer of [malformed, tooLarge]) expectNoInternals(answer);
      // The operator's log has the whole story.
      expect(lines.some((l) => l.includes('GET /api/llm/calls') && l.includes('unable to open database file'))).toBe(true);
    } finally {
      db.prepare = prepare;
    }
  });

  it('names no server folder when matchmaking refuses a room (a replay of a file that is not there)', async () => {
    const json = { 'content-type': 'application/json' };
    const refused = await request(server.url, '/matchmake/join/replay', { method: 'POST', headers: json, body: '{"world":"missing"}' });
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(JSON.parse(refused.body).error).toBe('missing.sqlite: no such world file');
    expectNoInternals(refused);
  });

  it('never logs an operator token the user gave, nor the credentials in a URL it logs', () => {
    expect(lines.some((l) => l.includes('operator token: the one set in OPERATOR_TOKEN'))).toBe(true);
    expect(lines.filter((l) => l.includes(TOKEN))).toEqual([]);
    expect(redactUrl('redis://:hunter2@10.0.0.5:6379/0')).toBe('redis://***@10.0.0.5:6379/0');
    expect(redactUrl('https://user:pw@llm.example/v1?api-key=k')).toBe('https://***@llm.example/v1?api-key=***');
    expect(redactUrl('http://localhost:11434/v1')).toBe('http://localhost:11434/v1');
  });

  it('sends a content security policy that fits the client, and the usual security headers, and no X-Powered-By', async () => {
    for (const route of ['/', '/api/town', '/no/such/page', '/maps/../package.json']) {
      const { headers } = await request(server.url, route);
      const csp = String(headers['content-security-policy']);
      const directives = ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: blob:", "connect-src 'self'"];
      for (const directive of [...directives, "object-src 'none'", "frame-ancestors 'none'", "base-uri 'self'"]) expect(csp, route).toContain(directive);
      expect(csp).not.toContain('unsafe-inline');
      expect(headers['x-powered-by'], route).toBeUndefined();
      expect(headers, route).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
      });
    }
  });

  it('gives other origins no CORS headers by default: not on pages, the API, preflights or matchmaking', async () => {
    const origin = { origin: 'https://evil.example' };
    const answers = [
      await request(server.url, '/api/town', { headers: origin }),
      await request(server.url, '/api/town', { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'POST' } }),
      await request(server.url, '/matchmake/joinOrCreate/town', { method: 'OPTIONS', headers: { ...origin, 'access-control-request-method': 'POST' } }),
      await request(server.url, '/matchmake/joinOrCreate/town', { method: 'POST', headers: { ...origin, 'content-type': 'application/json' }, body: '{}' }),
    ];
    for (const { headers } of answers) {
      expect(headers['access-control-allow-origin']).toBeUndefined();
      expect(headers['access-control-allow-credentials']).toBeUndefined();
    }
  });
});

describe('CORS_ORIGINS', () => {
  let server: Awaited<ReturnType<typeof startTestTown>>;
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startTestTown({ corsOrigins: ['https://friend.example'], logLevel: 'info' }, { logger: createLogger('info', (line) => lines.push(line)) });
  });
  afterAll(async () => server?.close());

  it('lets a listed origin read the API and use matchmaking, without credentials, and still no other origin', async () => {
    const friend = { origin: 'https://friend.example' };
    const read = await request(server.url, '/api/town', { headers: friend });
    expect(read.headers).toMatchObject({ 'access-control-allow-origin': 'https://friend.example', vary: expect.stringContaining('Origin') });
    const asking = { ...friend, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization, content-type' };
    const preflight = await request(server.url, '/api/town', { method: 'OPTIONS', headers: asking });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': 'https://friend.example',
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, DELETE',
      'access-control-allow-headers': 'Authorization, Content-Type',
    });
    const matchmake = await request(server.url, '/matchmake/joinOrCreate/town', {
      method: 'POST',
      headers: { ...friend, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(matchmake.headers['access-control-allow-origin']).toBe('https://friend.example');
    for (const answer of [read, preflight, matchmake]) expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
    const stranger = await request(server.url, '/api/town', { headers: { origin: 'https://friend.example.evil.example' } });
    expect(stranger.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('prints the operator token the server made itself, once: the operator has no other way to learn it', () => {
    expect(server.operatorToken).toMatch(/^[\w-]{24}$/);
    expect(lines.filter((l) => l.includes(server.operatorToken))).toEqual([expect.stringContaining(`operator token: ${server.operatorToken}`)]);
  });
});
