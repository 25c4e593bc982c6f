// Issue 45: Colyseus's matchmaking routes held to the API's rules. A 100 MB JSON body to /matchmake/join/town
// was read whole and accepted (RSS 371 → 950 MB); multipart/form-data to any /matchmake route answered 500
// with a stack trace on the console; /matchmake/reconnect/<unknown> answered 522; the replies carried no
// security headers.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestTown } from '../helpers';
import { MATCHMAKE_BODY_LIMIT_BYTES } from '../../server/src/api/matchmaking';

/** POSTs `total` bytes of a JSON-looking body a megabyte at a time until the server answers; what it answered and how much was sent. */
function postHuge(url: string, total: number, chunked: boolean): Promise<{ status: number; body: string; sentBytes: number }> {
  return new Promise((resolve, reject) => {
    let sentBytes = 0;
    let answered = false;
    const req = http.request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(chunked ? {} : { 'content-length': String(total) }) },
    });
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, sentBytes }));
      res.on('error', reject);
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    const chunk = Buffer.alloc(1 << 20, 0x20);
    chunk[0] = 0x7b; // '{' at the start of every megabyte: a body no parser finishes early
    const write = () => {
      while (!answered && sentBytes < total) {
        sentBytes += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      if (!answered) req.end();
    };
    write();
  });
}

describe('matchmaking routes as strict as the API', () => {
  let server: Awaited<ReturnType<typeof startTestTown>>;
  const logged: string[] = [];
  beforeAll(async () => {
    const keep = (m: string) => void logged.push(m);
    server = await startTestTown({}, { logger: { debug: () => undefined, info: () => undefined, warn: keep, error: keep } });
  });
  afterAll(async () => server?.close());

  it('refuses a 100 MB body with 413 without reading it, declared or chunked', async () => {
    for (const chunked of [false, true]) {
      const answer = await postHuge(`${server.url}/matchmake/join/town`, 100 * 1024 * 1024, chunked);
      expect([answer.status, JSON.parse(answer.body)]).toEqual([413, { error: 'request body too large' }]);
      expect(answer.sentBytes, chunked ? 'chunked' : 'declared').toBeLessThan(50 * 1024 * 1024);
    }
  }, 60_000);

  it('takes JSON only: multipart and text answer 415, bad JSON 400, nothing logged', async () => {
    const form = new FormData();
    form.append('world', 'smalltown');
    for (const route of ['/matchmake/join/town', '/matchmake/join/replay', '/matchmake/create/town', '/matchmake/reconnect/x']) {
      const multipart = await fetch(`${server.url}${route}`, { method: 'POST', body: form });
      expect([route, multipart.status, await multipart.json()]).toEqual([
        route,
        415,
        { error: 'matchmaking takes a JSON body (Content-Type: application/json)' },
      ]);
      const text = await fetch(`${server.url}${route}`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'world=smalltown' });
      expect(text.status).toBe(415);
    }
    const bad = await fetch(`${server.url}/matchmake/join/town`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect([bad.status, await bad.json()]).toEqual([400, { error: 'malformed JSON body' }]);
    const list = await fetch(`${server.url}/matchmake/join/town`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '[1]' });
    expect(list.status).toBe(400);
    expect(logged.filter((l) => /\n\s+at /.test(l) || /multipart|FormData/i.test(l))).toEqual([]);
  });

  it('answers a reconnect to an unknown room with a 4xx, and every reply carries the security headers', async () => {
    const reconnect = await fetch(`${server.url}/matchmake/reconnect/aaaaaaaa`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ reconnectionToken: 'x:y' }),
    });
    expect(reconnect.status).toBeGreaterThanOrEqual(400);
    expect(reconnect.status).toBeLessThan(500);
    const join = await fetch(`${server.url}/matchmake/join/town`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ world: 'smalltown' }),
    });
    expect(join.status).toBe(200);
    expect(((await join.json()) as { roomId?: string }).roomId).toBeTruthy();
    const tooBig = await fetch(`${server.url}/matchmake/join/town`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ world: 'x'.repeat(MATCHMAKE_BODY_LIMIT_BYTES) }),
    });
    expect(tooBig.status).toBe(413);
    for (const res of [reconnect, join, tooBig]) {
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
    }
  });
});
