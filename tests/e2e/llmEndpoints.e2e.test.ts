// A town on two LLM endpoints (two stubs over real HTTP), as a user sees it: the inspector's LLM section
// lists each endpoint's figures, /healthz has the same endpoints, and the analysis page has a row per
// endpoint. Any console error or warning on a page fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watchConsole, type LaunchedBrowser } from './browser';
import { startTestTown, subsetPersonas } from '../helpers';
import { OpenAIStub } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';

describe('a town on two LLM endpoints, in the browser', () => {
  let stubs: OpenAIStub[];
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  let hosts: string[];

  beforeAll(async () => {
    stubs = await Promise.all([0, 1].map(async () => installTownResponders(await new OpenAIStub({ latencyMs: 5 }).start())));
    hosts = stubs.map((s) => new URL(s.url).host);
    town = await startTestTown({
      rate: 60,
      startTime: '2026-02-13T08:40',
      personasDir: subsetPersonas(['isabella', 'claire', 'omar']),
      llm: { apiKey: 'test', model: 'stub-model', timeoutMs: 5000, endpoints: stubs.map((s) => ({ baseURL: s.url, concurrency: 1 })) },
    });
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await town?.close();
    await Promise.all((stubs ?? []).map((s) => s.close()));
  });

  it('shows each endpoint in the inspector, as /healthz has them, and in the analysis page', async () => {
    const page = await browser.context.newPage();
    const watch = watchConsole(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(town.url);
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await page.evaluate(() => window.__smalltown!.follow('claire'));
    const rows = page.locator('#panel table.llm-endpoints tr');
    // A header and one row per endpoint, once the town has made calls (it refreshes every 3 s).
    await expect.poll(() => rows.count(), { timeout: 30_000 }).toBe(3);
    const cells = await page.evaluate(() =>
      [...document.querySelectorAll('#panel table.llm-endpoints tr')].slice(1).map((tr) => [...tr.children].map((td) => td.textContent ?? '')),
    );
    expect(cells.map((c) => c[0])).toEqual(hosts);
    for (const c of cells) {
      expect(c[1]).toBe('up');
      expect(c[2]).toMatch(/^\d of 1$/);
    }
    await expect
      .poll(async () => Number((await page.locator('#panel table.llm-endpoints tr').nth(1).locator('td').nth(3).textContent()) ?? 0))
      .toBeGreaterThan(0);
    // Resized narrower, the table stays inside the panel.
    await page.setViewportSize({ width: 1024, height: 700 });
    await page.waitForTimeout(300);
    const panel = (await page.locator('#panel').boundingBox())!;
    const table = (await page.locator('#panel table.llm-endpoints').boundingBox())!;
    expect(table.x).toBeGreaterThanOrEqual(panel.x - 1);
    expect(table.x + table.width).toBeLessThanOrEqual(panel.x + panel.width + 1);
    // Nothing scrolls sideways in the panel: every column is in view.
    expect(await page.evaluate(() => document.getElementById('panel')!.scrollWidth - document.getElementById('panel')!.clientWidth)).toBeLessThanOrEqual(1);

    const health = (await (await fetch(`${town.url}/healthz`)).json()) as { llmEndpoints: Array<{ name: string; calls: number; latencyP50Ms: number }> };
    expect(health.llmEndpoints.map((e) => e.name)).toEqual(hosts);
    expect(health.llmEndpoints[0].calls).toBeGreaterThan(0);
    expect(health.llmEndpoints[0].latencyP50Ms).toBeGreaterThan(0);

    town.town.log.flush();
    await page.goto(`${town.url}/analysis`);
    await page.waitForFunction(() => window.__analysis?.ready === true || window.__analysis?.error, null, { timeout: 60_000 });
    expect(await page.evaluate(() => window.__analysis!.error)).toBeNull();
    const reportRows = await page.evaluate(() => [...document.querySelectorAll('#llm-endpoints tr')].slice(1).map((tr) => tr.children[0]?.textContent));
    expect(reportRows.sort()).toEqual([...hosts].sort());
    expect(await page.locator('#llm-endpoints').isVisible()).toBe(true);
    await page.close();
    expect(watch.problems).toEqual([]);
  }, 120_000);
});
