// Issue 21: a fast-check fuzz of every HTTP route, with and without the operator token: odd ids (5,000
// characters, reserved names, traversals), odd query values, bodies of any shape and depth. No answer
// is a 500, and none names a server path. The persona folder is a copy, so writes the fuzz makes are its own.
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestTown, subsetPersonas } from '../helpers';

const TOKEN = 'fuzz-operator-token';
const SEED = 21;

const segment = fc.oneof(
  fc.constantFrom('isabella', 'kenji', 'smalltown', 'constructor', '__proto__', 'prototype', '..', '%2e%2e', '..%2F..%2Fetc%2Fpasswd', '%00', 'a'.repeat(5000)),
  fc.constantFrom('events', 'conversations', 'memories', 'series', 'graphml', 'edges', 'town.tmj', 'backups%2Fx', '%2Fetc%2Fshadow'),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
);
const queryValue = fc.oneof(
  fc.constantFrom('', 'smalltown', 'missing', '../etc/passwd', '/etc/shadow', 'backups/x', '2026-02-13T08:00', '-1', '1e309', 'isabella,kenji'),
  fc.string({ maxLength: 16 }),
);
const query = fc
  .dictionary(fc.constantFrom('world', 'from', 'to', 'agent', 'limit', 'pair', 'q', 'kinds', 't', 'vectors', 'place', 'topic', 'after'), queryValue, {
    maxKeys: 3,
  })
  .map((q) => new URLSearchParams(q).toString());

/** Routes with `:x` where a segment goes. */
const ROUTES: Array<[string, string]> = [
  ['GET', '/healthz'],
  ['GET', '/api/town'],
  ['GET', '/api/personas'],
  ['GET', '/api/agents/:x'],
  ['GET', '/api/events'],
  ['GET', '/api/feed'],
  ['GET', '/api/llm/calls'],
  ['GET', '/api/towns'],
  ['GET', '/api/worlds'],
  ['GET', '/api/timeline'],
  ['GET', '/api/replay/world'],
  ['GET', '/api/analysis/report'],
  ['GET', '/api/analysis/graph'],
  ['GET', '/api/analysis/conversations'],
  ['GET', '/api/analysis/agent-day'],
  ['GET', '/api/export/:x'],
  ['GET', '/api/persona-files'],
  ['GET', '/api/persona-files/:x'],
  ['GET', '/towns/:x/map/:x'],
  ['GET', '/replays/:x/map/:x'],
  ['GET', '/personas'],
  ['GET', '/analysis'],
  ['POST', '/api/persona-files/:x/check'],
  ['POST', '/api/persona-files/:x/preview'],
  ['PUT', '/api/persona-files/:x'],
  ['DELETE', '/api/persona-files/:x'],
  ['POST', '/api/agents'],
  ['DELETE', '/api/agents/:x'],
  ['POST', '/api/towns'],
  ['DELETE', '/api/towns/:x'],
  ['POST', '/matchmake/join/replay'],
  ['POST', '/matchmake/create/town'],
  ['POST', '/matchmake/join/town'],
  ['POST', '/matchmake/reconnect/:x'],
  ['POST', '/matchmake/joinById/:x'],
  ['POST', '/matchmake/:x/:x'],
  ['GET', '/matchmake/join/town'],
];
/** Issue 45: multipart/form-data to /matchmake/* answered 500 with a stack trace in the log. */
const contentType = fc.constantFrom('application/json', 'application/json', 'application/json', 'multipart/form-data; boundary=xyz', 'text/plain');

/** JSON nested `depth` levels deep, as text (JSON.stringify of such a value would itself overflow). */
const deep = (depth: number, inside: string) => `${'{"a":'.repeat(depth)}${inside}${'}'.repeat(depth)}`;
const body = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
  fc.record({ fields: fc.jsonValue({ maxDepth: 3 }) }).map((v) => JSON.stringify(v)),
  fc
    .record({ name: fc.constantFrom('x', 'no spaces', 'a'.repeat(70)), map: fc.constantFrom('/etc/shadow', '../../etc/passwd', 'maps/town.tmj', '/tmp') })
    .map((v) => JSON.stringify(v)),
  fc.constantFrom(
    `{"fields":${deep(5000, '1')}}`,
    deep(20_000, '1'),
    `[${'['.repeat(3000)}${']'.repeat(3000)}]`,
    '{"personaId":"constructor"}',
    '{bad json',
    '',
  ),
);

describe('HTTP fuzz', () => {
  let server: Awaited<ReturnType<typeof startTestTown>>;
  const errors: string[] = [];
  const warnings: string[] = [];
  beforeAll(async () => {
    server = await startTestTown(
      { operatorToken: TOKEN, personasDir: subsetPersonas(['isabella', 'kenji', 'ruth']), rate: 600 },
      { logger: { debug: () => undefined, info: () => undefined, warn: (m) => warnings.push(m), error: (m) => errors.push(m) } },
    );
  });
  afterAll(async () => server?.close());

  /** The server's own folders (a request's own text, echoed in a refusal, is not one of them). */
  const serverPaths = () => [process.cwd(), `${os.tmpdir()}/`, server.dataDir, path.resolve(server.config.personasDir)];

  for (const withToken of [false, true]) {
    it(`answers every route ${withToken ? 'with' : 'without'} the token: no 500, no server path`, async () => {
      // Nothing is printed outside the logger either (Colyseus's router printed '# SERVER_ERROR' and a stack for multipart).
      const printed: string[] = [];
      const original = { error: console.error, log: console.log, warn: console.warn };
      console.error = (...a: unknown[]) => void printed.push(a.map(String).join(' '));
      console.warn = console.error;
      let sent = 0;
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...ROUTES), segment, segment, query, body, contentType, async ([method, route], a, b, q, text, type) => {
          let n = 0;
          const url = `${server.url}${route.replace(/:x/g, () => (n++ === 0 ? a : b))}${q ? `?${q}` : ''}`;
          const headers: Record<string, string> = { 'content-type': type };
          if (withToken) headers.authorization = `Bearer ${TOKEN}`;
          const res = await fetch(url, { method, headers, body: method === 'GET' ? undefined : text });
          const answer = await res.text();
          sent++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const named = serverPaths().filter((p) => answer.includes(p));
          if (res.status >= 500 && res.status !== 503) throw new Error(`${method} ${url.slice(0, 200)} answered ${res.status}: ${answer.slice(0, 300)}`);
          if (named.length) throw new Error(`${method} ${url.slice(0, 200)} named ${named.join(', ')}: ${answer.slice(0, 300)}`);
        }),
        { seed: SEED + (withToken ? 1 : 0), numRuns: 400, endOnFailure: true },
      );
      console.log(`http fuzz ${withToken ? 'with' : 'without'} token: ${sent} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
      expect(errors).toEqual([]);
      // Nothing a client sends puts a stack trace in the log.
      expect(warnings.filter((w) => /\n\s+at /.test(w))).toEqual([]);
      Object.assign(console, original);
      expect(printed).toEqual([]);
    }, 240_000);
  }

  it('answers the reported attacks with 400 and the reason: a map outside the maps folder, a 5,000-character id, deep JSON', async () => {
    const as = (method: string, url: string, text?: string) =>
      fetch(`${server.url}${url}`, { method, headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` }, body: text });
    for (const map of ['/etc/shadow', '../../../etc/passwd', 'maps/../package.json']) {
      const res = await as('POST', '/api/towns', JSON.stringify({ name: 'x', map }));
      const answer = (await res.json()) as { error: string };
      expect([res.status, answer.error]).toEqual([
        400,
        expect.stringMatching(/^map: '[^/]+' is not a map this server offers \(a \.tmj or \.json file in maps\/\)$/),
      ]);
    }
    expect(server.host.has('x')).toBe(false);
    const long = await as('GET', `/api/persona-files/${'a'.repeat(5000)}`);
    expect([long.status, ((await long.json()) as { error: string }).error]).toEqual([400, expect.stringMatching(/at most 64 characters/)]);
    const nested = await as('PUT', '/api/persona-files/nadia', `{"fields":${deep(5000, '1')}}`);
    expect([nested.status, ((await nested.json()) as { error: string }).error]).toEqual([400, 'request body nested too deeply (at most 32 levels)']);
  });

  it('a control: a route that answered 500 would fail this check', async () => {
    // The same check, pointed at an answer that names a server path and is a 500, must throw.
    const check = (status: number, answer: string) => {
      if (status >= 500 && status !== 503) throw new Error('500');
      if (serverPaths().some((p) => answer.includes(p))) throw new Error('path');
    };
    expect(() => check(500, 'Internal Server Error')).toThrow('500');
    expect(() => check(404, `${server.dataDir}/x.sqlite: no such world file`)).toThrow('path');
    expect(() => check(404, 'x.sqlite: no such world file')).not.toThrow();
  });
});
