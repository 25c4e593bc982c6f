// The analysis page in a real browser (headless Debian Chromium through playwright-core), on a world
// a headless scenario run wrote: the relationship graph renders, the diffusion curve has points, a
// click on the chart gives a replay link to that moment, an edge click lists that pair's
// conversations, and the downloads answer.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startTestTown, tempDir } from '../helpers';
import type { RunOutcome } from '../../server/src/analysis/runScenario';
import { runRumour } from './rumourRun';

describe('the analysis page in the browser', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  let page: Page;
  let run: RunOutcome;
  const errors: string[] = [];

  beforeAll(async () => {
    const dataDir = tempDir();
    run = await runRumour(dataDir);
    town = await startTestTown({ dataDir, world: 'live', rate: 60 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.setViewportSize({ width: 1400, height: 1800 });
    await page.goto(`${town.url}/analysis?world=rumour`);
    await page.waitForFunction(() => window.__analysis?.ready === true || window.__analysis?.error, null, { timeout: 60_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  it('opens a recorded world with no errors and renders the relationship graph', async () => {
    expect(await page.evaluate(() => window.__analysis!.error)).toBeNull();
    expect(errors).toEqual([]);
    const graph = await page.evaluate(() => window.__analysis!.graph('relationships'));
    expect(graph!.nodes).toBe(10);
    expect(graph!.edges).toBeGreaterThan(5);
    expect(await page.locator('#graph canvas').count()).toBeGreaterThan(0);
    expect(await page.locator('#summary').textContent()).toContain('10 agents');
  });

  it('draws the diffusion curve with a point per game hour, and the who-told-whom tree', async () => {
    const hours = run.report!.topics[0].series.length;
    expect(await page.evaluate(() => window.__analysis!.chartPoints('diffusion'))).toEqual([hours]);
    const tree = await page.evaluate(() => window.__analysis!.graph('tree-party'));
    expect(tree!.nodes).toBe(run.report!.topics[0].aware_end);
    expect(tree!.edges).toBe(run.report!.topics[0].aware_end - 1);
  });

  it('turns a click on the diffusion curve into a link to the replay at that moment', async () => {
    const k = 4;
    const at = await page.evaluate((i) => window.__analysis!.pointPosition('diffusion', 0, i), k);
    await page.mouse.click(at!.x, at!.y);
    const expected = `/?world=rumour&t=${encodeURIComponent(run.report!.topics[0].series[k].t)}`;
    await expect.poll(() => page.locator('#replay-link').getAttribute('href')).toBe(expected);
    expect(await page.locator('#replay-link').textContent()).toContain('Replay at');
  });

  it("lists a pair's conversations when their edge is clicked", async () => {
    const edges = await page.evaluate(() => window.__analysis!.graph('relationships')!.edges);
    let found = false;
    for (let i = 0; i < edges && !found; i++) {
      const at = await page.evaluate((k) => window.__analysis!.edgePosition('relationships', k), i);
      await page.locator('#graph').scrollIntoViewIfNeeded();
      const fresh = await page.evaluate((k) => window.__analysis!.edgePosition('relationships', k), i);
      await page.mouse.click((fresh ?? at)!.x, (fresh ?? at)!.y);
      found = ((await page.locator('#conv-count').textContent()) ?? '').startsWith('conversations of');
    }
    expect(found).toBe(true);
    expect(await page.locator('#linkbar').textContent()).toMatch(/Replay at|knew each other/);
  });

  it('offers the exports as downloads that answer with the data', async () => {
    const href = await page.locator('#downloads a', { hasText: 'GraphML' }).getAttribute('href');
    expect(href).toBe('/api/export/graphml?world=rumour');
    const res = await page.request.get(`${town.url}${href}`);
    expect(res.status()).toBe(200);
    expect(res.headers()['content-disposition']).toContain('rumour.graphml');
    expect(await res.text()).toContain('<node id="isabella">');
    const bad = await page.request.get(`${town.url}/api/export/graphml?world=nosuch`);
    expect(bad.status()).toBe(404);
    fs.mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: path.join('test-results', 'analysis.png') });
  });

  it('opens the live world when no world is named', async () => {
    await page.goto(`${town.url}/analysis`);
    await page.waitForFunction(() => window.__analysis?.ready === true || window.__analysis?.error, null, { timeout: 60_000 });
    expect(await page.evaluate(() => window.__analysis!.error)).toBeNull();
    expect(await page.locator('#world').inputValue()).toBe('');
    expect(await page.evaluate(() => window.__analysis!.graph('relationships')!.nodes)).toBe(10);
  });
});
