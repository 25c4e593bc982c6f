// The analysis and export routes over real HTTP, as a spectator (no token): the hand-built world
// (tests/fixtures/analysisWorld.ts) beside a live town in the same DATA_DIR.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { parse as parseCsv } from 'csv-parse/sync';
import { startTestTown, waitFor } from '../helpers';
import { buildAnalysisWorld, PARTY } from '../fixtures/analysisWorld';
import type { AnalysisReport, ConversationView, WorldListing } from '../../server/src/protocol/analysis';

describe('the analysis API', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let dataDir: string;
  const get = (path: string) => fetch(`${town.url}${path}`);

  beforeAll(async () => {
    const w = await buildAnalysisWorld();
    w.db.close();
    dataDir = w.dataDir;
    town = await startTestTown({ dataDir: w.dataDir, world: 'live' });
    // The residents' arrival is logged by the town's first step.
    await waitFor('the live town to log its residents', () => [...town.town.db.events.scan({ kinds: ['agent.added'] })].length === 10);
  }, 60_000);

  afterAll(async () => {
    await town?.close();
  });

  it('lists the world files, the live one named', async () => {
    const list = (await (await get('/api/worlds')).json()) as WorldListing;
    expect(list.live).toBe('live');
    expect(list.worlds.map((w) => w.id).sort()).toEqual(['handmade', 'live']);
  });

  it('reports a recorded world over a window, with an ad-hoc topic', async () => {
    const res = await get(`/api/analysis/report?world=handmade&from=2026-02-13T06:00&to=2026-02-13T10:00&topic=${encodeURIComponent(PARTY.phrase)}`);
    expect(res.status).toBe(200);
    const r = (await res.json()) as AnalysisReport;
    expect(r.agents.map((a) => a.id)).toEqual(['ada', 'bo', 'cy']);
    expect(r.density.start).toBeCloseTo(1 / 3, 3);
    expect(r.topics.map((t) => [t.name, t.aware_start, t.aware_end])).toEqual([['query', 1, 3]]);
  });

  it('reports the live world when none is named', async () => {
    const r = (await (await get('/api/analysis/report')).json()) as AnalysisReport;
    expect(r.world).toBe('live');
    expect(r.agents).toHaveLength(10);
    expect(r.density.start).toBeGreaterThan(0);
  });

  it('filters conversations and searches their words', async () => {
    const body = (await (await get('/api/analysis/conversations?world=handmade&pair=cy,bo&q=flowers')).json()) as {
      total: number;
      conversations: ConversationView[];
    };
    expect(body.total).toBe(1);
    expect(body.conversations[0]).toMatchObject({ id: 2, nameA: 'Bo Park', nameB: 'Cy Reed', summary: 'Bo and Cy talked about flowers' });
  });

  it('streams exports as downloads', async () => {
    const res = await get('/api/export/conversations?world=handmade&agent=ada');
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="handmade.conversations.csv"');
    const rows = parseCsv(await res.text(), { columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.conversation_id)).toEqual(['1']);
    const events = (await (await get('/api/export/events?world=handmade&kinds=conversation.end')).text()).trimEnd().split('\n');
    expect(events).toHaveLength(2);
  });

  it('exports the same from the command line, with the same kinds filter and errors', async () => {
    const cli = (...args: string[]) =>
      promisify(execFile)('node_modules/.bin/tsx', ['scripts/export.ts', '--world', 'handmade', '--out', '-', ...args], {
        env: { ...process.env, DATA_DIR: dataDir },
      });
    const { stdout } = await cli('--what', 'events', '--kinds', 'conversation.end');
    const api = await (await get('/api/export/events?world=handmade&kinds=conversation.end')).text();
    expect(stdout).toBe(api);
    expect(stdout.trimEnd().split('\n')).toHaveLength(2);
    // Controls: an unknown export and an unknown event kind are refused by name, as the API refuses them.
    await expect(cli('--what', 'pictures')).rejects.toMatchObject({ stderr: expect.stringContaining("no export 'pictures'") });
    await expect(cli('--what', 'events', '--kinds', 'agent.dance')).rejects.toMatchObject({
      stderr: expect.stringContaining('kinds: no event kind agent.dance'),
    });
  }, 60_000);

  it('refuses bad requests by naming the parameter, and unknown worlds', async () => {
    const cases: Array<[string, number, string]> = [
      ['/api/analysis/report?world=handmade&from=yesterday', 400, "from: expected a game time YYYY-MM-DDTHH:MM, got 'yesterday'"],
      ['/api/analysis/conversations?world=handmade&pair=ada', 400, 'pair: expected two agent ids'],
      ['/api/analysis/agent-day?world=handmade', 400, 'agent: required'],
      ['/api/analysis/report?world=nosuch', 404, 'no such world file'],
      ['/api/analysis/report?world=../etc/passwd', 404, 'is not a world name'],
      ['/api/export/pictures?world=handmade', 400, "no export 'pictures'"],
      ['/api/export/events?world=handmade&kinds=agent.dance', 400, 'kinds: no event kind agent.dance'],
    ];
    for (const [path, status, message] of cases) {
      const res = await get(path);
      expect([path, res.status]).toEqual([path, status]);
      expect(((await res.json()) as { error: string }).error).toContain(message);
    }
  });

  it('serves the analysis page at /analysis', async () => {
    const res = await get('/analysis?world=handmade');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Smalltown · analysis');
  });
});
