// The analysis page on a generated town of 1,000: the relationship graph is laid out off the main thread, so
// no task on it runs over 200 ms while the page loads (the browser's own long-task entries, PerformanceObserver
// 'longtask', buffered from the first byte). A busy machine can stretch one task past it by chance: a load over
// it is measured once more, and the better of the two must hold (work on the main thread is long in both); the
// graph shows every agent
// and the strongest ties first, the rest on demand; the page says how far the layout has got.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startTestTown, tempDir } from '../helpers';
import { generateTown } from '../../scripts/generateTown';

const AGENTS = 1000;
const LONG_TASK_LIMIT_MS = 200;

type Watched = Window & { __longTasks?: number[]; __layoutNotes?: string[] };

describe('the analysis page on a town of 1,000', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  let page: Page;
  let readyMs = 0;
  const errors: string[] = [];

  beforeAll(async () => {
    const generated = generateTown({ agents: AGENTS, outDir: tempDir('smalltown-gen-'), seed: 1 });
    town = await startTestTown({ mapFile: generated.mapFile, personasDir: generated.personasDir, startTime: '2026-02-13T10:00' });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    // Before any of the page's scripts: every long task from here on, and what the status line says as it changes.
    await page.addInitScript(() => {
      const w = window as Watched;
      w.__longTasks = [];
      w.__layoutNotes = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longTasks!.push(Math.round(e.duration));
      }).observe({ type: 'longtask', buffered: true });
      addEventListener('DOMContentLoaded', () => {
        const status = document.getElementById('status');
        if (status)
          new MutationObserver(() => {
            const text = status.textContent ?? '';
            if (text && w.__layoutNotes!.at(-1) !== text) w.__layoutNotes!.push(text);
          }).observe(status, { childList: true, characterData: true, subtree: true });
      });
    });
    const t0 = Date.now();
    await page.goto(`${town.url}/analysis`);
    await page.waitForFunction(() => window.__analysis?.ready === true || window.__analysis?.error, null, { timeout: 90_000, polling: 200 });
    readyMs = Date.now() - t0;
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  it(`loads with no main-thread task over ${LONG_TASK_LIMIT_MS} ms`, async () => {
    expect(await page.evaluate(() => window.__analysis!.error)).toBeNull();
    // A moment more: the graph's first paint comes after the page says it is ready.
    await page.waitForTimeout(1000);
    const tasks = await page.evaluate(() => (window as Watched).__longTasks!);
    console.log(`analysis at ${AGENTS}: ready in ${readyMs} ms; long tasks ${JSON.stringify(tasks)}`);
    let longest = Math.max(0, ...tasks);
    if (longest > LONG_TASK_LIMIT_MS) {
      await page.reload();
      await page.waitForFunction(() => window.__analysis?.ready === true || window.__analysis?.error, null, { timeout: 90_000, polling: 200 });
      await page.waitForTimeout(1000);
      const again = await page.evaluate(() => (window as Watched).__longTasks!);
      console.log(`analysis at ${AGENTS}, loaded again: long tasks ${JSON.stringify(again)}`);
      longest = Math.min(longest, Math.max(0, ...again));
    }
    expect(longest).toBeLessThanOrEqual(LONG_TASK_LIMIT_MS);
    expect(errors).toEqual([]);
    fs.mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: path.join('test-results', 'analysis-1000.png') });
  });

  it('shows every agent with the strongest ties, says how many more there are, and draws them all on demand', async () => {
    const shown = await page.evaluate(() => window.__analysis!.graph('relationships'));
    expect(shown!.nodes).toBe(AGENTS);
    const total = await page.evaluate(() => window.__analysis!.graphTotals());
    expect(total.edges).toBeGreaterThan(shown!.edges);
    expect(shown!.edges).toBeGreaterThan(0);
    const more = page.locator('#graph-more');
    expect(await more.textContent()).toContain(`all ${total.edges.toLocaleString('en')}`);
    await page.evaluate(() => ((window as Watched).__longTasks = []));
    await more.click();
    await page.waitForFunction((n) => window.__analysis!.graph('relationships')!.edges === n, total.edges, { timeout: 30_000 });
    await page.waitForTimeout(500);
    const tasks = await page.evaluate(() => (window as Watched).__longTasks!);
    console.log(`all ${total.edges} edges drawn; long tasks ${JSON.stringify(tasks)}`);
    expect(errors).toEqual([]);
  });

  it('said how far the layout had got while it ran', async () => {
    const notes = await page.evaluate(() => (window as Watched).__layoutNotes!);
    expect(notes.some((n) => /laying out .*1,000 agents/.test(n))).toBe(true);
    expect(await page.locator('#status').textContent()).toBe('');
  });
});
