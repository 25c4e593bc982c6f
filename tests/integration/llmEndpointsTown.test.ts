// A town on two LLM endpoints (LLM_ENDPOINTS), over real HTTP to two stubs: per-endpoint figures where a
// user looks (the stack's figures that /healthz serves, the inspector's LLM section, the analysis report and
// its Markdown), each request logged with the endpoint that served it, and an endpoint that dies and comes
// back logged as taken out and back in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenAIStub } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';
import { loadConfig } from '../../server/src/config';
import { Town } from '../../server/src/town/Town';
import { buildMinds } from '../../server/src/town/minds';
import { createLogger } from '../../server/src/town/logger';
import { inspectAgent } from '../../server/src/town/inspect';
import { buildReport, reportMarkdown } from '../../server/src/analysis/report';
import { GAME_MS_PER_HOUR } from '../../server/src/protocol/time';
import type { AgentInspection } from '../../server/src/protocol/inspection';
import type { AnalysisReport } from '../../server/src/protocol/analysis';
import { FIRST_OUT_MS } from '../../server/src/llm/RoutingChatModel';
import { subsetPersonas, tempDir } from '../helpers';

describe('a town on two LLM endpoints', () => {
  let stubs: OpenAIStub[];
  let town: Town;
  let names: string[];
  let report: AnalysisReport;

  beforeAll(async () => {
    stubs = await Promise.all([10, 10].map(async (latencyMs) => installTownResponders(await new OpenAIStub({ latencyMs }).start())));
    names = stubs.map((s) => new URL(s.url).host);
    const config = loadConfig(
      {},
      {
        dataDir: tempDir(),
        personasDir: subsetPersonas(['isabella', 'claire', 'omar']),
        startTime: '2026-02-13T00:00',
        logLevel: 'silent',
        llm: { apiKey: 'test', model: 'stub-model', timeoutMs: 2000, maxRetries: 4, endpoints: stubs.map((s) => ({ baseURL: s.url, concurrency: 1 })) },
      },
    );
    const minds = await buildMinds(config, createLogger('silent'));
    town = await Town.open(config, { embedder: minds.embedder, createMind: minds.createMind, logger: createLogger('silent') });
    const start = town.gameMs;
    await town.loop.runLockstep(start + 9 * GAME_MS_PER_HOUR, 30_000);
    // One call in flight each: whenever two are, the second endpoint serves one.
    // The first endpoint (the one a call goes to when both are free) dies: its calls go to the second; then it comes
    // back and, after its time out, is tried again.
    await stubs[0].disappear();
    await town.loop.runLockstep(start + 11 * GAME_MS_PER_HOUR, 30_000);
    await stubs[0].reappear();
    await new Promise((r) => setTimeout(r, FIRST_OUT_MS * 2 + 200));
    await town.loop.runLockstep(start + 14 * GAME_MS_PER_HOUR, 30_000);
    town.log.flush();
    report = await buildReport(town.db, town.map, town.embedder, { world: 'test' });
  }, 120_000);

  afterAll(async () => {
    await town?.close();
    await Promise.all((stubs ?? []).map((s) => s.close()));
  });

  it('keeps live figures per endpoint: calls, tokens, latency percentiles, taken out and back', () => {
    const figures = town.stack!.endpoints!();
    expect(figures.map((f) => f.name)).toEqual(names);
    for (const f of figures) {
      expect(f.ok, f.name).toBeGreaterThan(3);
      expect(f.promptTokens + f.completionTokens, f.name).toBeGreaterThan(100);
      expect(f.latencyP50Ms, f.name).toBeGreaterThan(0);
      expect(f.latencyP99Ms, f.name).toBeGreaterThanOrEqual(f.latencyP50Ms);
    }
    expect(figures[1]).toMatchObject({ takenOut: 0, broughtBack: 0, failed: 0, state: 'up' });
    expect(figures[0]).toMatchObject({ takenOut: 1, broughtBack: 1, state: 'up' });
    expect(figures[0].failed).toBeGreaterThanOrEqual(1);
  });

  it('shows them in the inspector LLM section', async () => {
    const inspection = (await inspectAgent(town, 'claire')) as AgentInspection;
    expect(inspection.llm.endpoints?.map((e) => e.name)).toEqual(names);
    expect(inspection.llm.endpoints?.[0].takenOut).toBe(1);
  });

  it('logs which endpoint served each request, and the report sums them per endpoint', () => {
    const rows = town.db.db.prepare('SELECT endpoint, count(*) AS n FROM llm_calls WHERE cached = 0 GROUP BY endpoint ORDER BY endpoint').all() as Array<{
      endpoint: string | null;
      n: number;
    }>;
    expect(rows.map((r) => r.endpoint).sort()).toEqual([...names].sort());
    const byEndpoint = report.llm.by_endpoint!;
    expect(byEndpoint.map((e) => e.endpoint).sort()).toEqual([...names].sort());
    const died = byEndpoint.find((e) => e.endpoint === names[0])!;
    expect(died).toMatchObject({ taken_out: 1, back: 1 });
    expect(died.failed).toBeGreaterThanOrEqual(1);
    // Every request that reached an endpoint is in the report, failed ones included, and the stubs agree.
    expect(byEndpoint.reduce((s, e) => s + e.calls, 0)).toBe(rows.reduce((s, r) => s + r.n, 0));
    const other = byEndpoint.find((e) => e.endpoint === names[1])!;
    // (The response-format probe at an adapter's first call is not a logged call.)
    expect(other.calls - other.failed).toBe(stubs[1].stats.ok - (stubs[1].stats.bySchema.probe_reply ?? 0));
    expect(other.latency_p99_ms).toBeGreaterThanOrEqual(other.latency_p50_ms);
    expect(other.prompt_tokens).toBeGreaterThan(0);
    const markdown = reportMarkdown(report);
    expect(markdown).toContain('| Endpoint | Requests | Failed |');
    expect(markdown).toMatch(new RegExp(`\\| ${names[0].replace(/\./g, '\\.')} \\| \\d+ \\| [1-9]\\d* \\|.*\\| 1 / 1 \\|`));
  });

  it('logs the endpoint taken out and back in as events the feed can say', () => {
    const events = town.db.events.read(0, Number.MAX_SAFE_INTEGER, 1_000_000).filter((e) => e.kind === 'llm.endpoint');
    expect(events.map((e) => (e.data as { name: string; state: string }).state)).toEqual(['out', 'back']);
    expect(events.every((e) => (e.data as { name: string }).name === names[0])).toBe(true);
  });
});
