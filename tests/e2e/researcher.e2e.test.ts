// A researcher's hour after a run, at human speed at 1024×768 (issue 23): open the analysis page of a
// headless run, change the window twice and the world once, read every section each time (the header,
// the graph, the curves, the conversation list and the agent's day all follow), get a malformed time
// reported by its field, click a chart point into the replay and come back. Any console error or
// warning on any page (a CSP violation, a Chart.js canvas reuse, a Cytoscape warning) fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, typeSlowly, watchConsole, type LaunchedBrowser } from './browser';
import { startTestTown, tempDir } from '../helpers';
import { runRumour } from './rumourRun';
import type { AnalysisReport } from '../../server/src/protocol/analysis';

describe("a researcher's path through the analysis page", () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  let page: Page;
  let watch: { problems: string[] };

  const ready = () => page.waitForFunction(() => window.__analysis?.ready === true || !!window.__analysis?.error, null, { timeout: 60_000 });

  async function report(query: string): Promise<AnalysisReport> {
    const res = await page.request.get(`${town.url}/api/analysis/report${query}`);
    expect(res.status()).toBe(200);
    return (await res.json()) as AnalysisReport;
  }

  /** What each section shows now, read from the page as a reader would. */
  async function sections() {
    return page.evaluate(() => ({
      error: window.__analysis!.error,
      summary: document.getElementById('summary')!.textContent ?? '',
      graph: window.__analysis!.graph('relationships'),
      diffusion: window.__analysis!.chartPoints('diffusion'),
      density: window.__analysis!.chartPoints('density'),
      convCount: document.getElementById('conv-count')!.textContent ?? '',
      convItems: document.querySelectorAll('#conv-list details').length,
      dayOptions: [...document.querySelectorAll<HTMLOptionElement>('#day-date option')].map((o) => o.textContent),
      status: document.getElementById('status')!.textContent ?? '',
    }));
  }

  /** Every section agrees with the server's report for the same world and window. */
  async function expectSectionsOf(query: string): Promise<AnalysisReport> {
    const r = await report(query);
    const s = await sections();
    expect(s.error).toBeNull();
    expect(s.status).toBe('');
    expect(s.summary).toContain(`${r.agents.length} agents`);
    expect(s.summary).toContain(`${r.conversations.total} conversation${r.conversations.total === 1 ? '' : 's'}`);
    expect(s.graph!.nodes).toBe(r.agents.length);
    expect(s.density).toEqual([r.density.series.length]);
    expect(s.diffusion).toEqual(r.topics.length ? [r.topics[0].series.length] : []);
    expect(s.convCount).toContain(`${r.conversations.total} conversation`);
    expect(s.convItems).toBe(Math.min(r.conversations.total, 300));
    expect(s.dayOptions[0]).toBe(r.window.from.slice(0, 10));
    return r;
  }

  async function applyWindow(from: string, to: string): Promise<void> {
    await typeSlowly(page, '#from', from);
    await typeSlowly(page, '#to', to);
    await page.waitForTimeout(300);
    await page.locator('#apply').click();
    await page.waitForFunction(() => window.__analysis?.ready === false || !!window.__analysis?.error, null, { timeout: 5000 }).catch(() => undefined);
    await ready();
  }

  beforeAll(async () => {
    const dataDir = tempDir();
    await runRumour(dataDir);
    town = await startTestTown({ dataDir, world: 'live', rate: 60 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    watch = watchConsole(page);
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${town.url}/analysis?world=rumour`);
    await ready();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  it('opens a headless run with every section drawn and nothing logged', async () => {
    await expectSectionsOf('?world=rumour');
    expect(watch.problems).toEqual([]);
  });

  it('redraws every section for a window typed and applied, twice', async () => {
    await applyWindow('2026-02-13T08:00', '2026-02-13T12:00');
    const first = await expectSectionsOf('?world=rumour&from=2026-02-13T08:00&to=2026-02-13T12:00');
    expect(page.url()).toContain('from=2026-02-13T08%3A00');
    await applyWindow('2026-02-13T11:00', '2026-02-13T15:00');
    const second = await expectSectionsOf('?world=rumour&from=2026-02-13T11:00&to=2026-02-13T15:00');
    expect(second.conversations.total).not.toBe(first.conversations.total);
    expect(watch.problems).toEqual([]);
  });

  it('says a malformed time next to its field, and leaves the page as it was', async () => {
    const before = await sections();
    await typeSlowly(page, '#from', '2026-02-13 8am');
    await page.locator('#apply').click();
    await expect.poll(() => page.locator('#from-error').isVisible()).toBe(true);
    expect(await page.locator('#from-error').textContent()).toContain('from: “2026-02-13 8am” is not a time');
    expect(await page.locator('#from').getAttribute('aria-invalid')).toBe('true');
    const field = (await page.locator('#from').boundingBox())!;
    const message = (await page.locator('#from-error').boundingBox())!;
    expect(message.y).toBeGreaterThanOrEqual(field.y + field.height - 1);
    expect(message.y).toBeLessThan(field.y + field.height + 20);
    expect(Math.abs(message.x - field.x)).toBeLessThan(60);
    expect(await sections()).toEqual(before);
    await typeSlowly(page, '#from', '2026-02-13T11:00');
    await page.locator('#apply').click();
    await ready();
    expect(await page.locator('#from-error').isVisible()).toBe(false);
    expect(watch.problems).toEqual([]);
  });

  it('redraws every section for another world, and its conversation list is that world’s', async () => {
    // The live town stands still meanwhile: a conversation begun between the page's report and the test's own would
    // make them differ (seen once in a full run on a loaded machine).
    town.town.clock.pause();
    try {
      await page.locator('#world').selectOption('');
      await page.waitForFunction(() => window.__analysis?.ready === false, null, { timeout: 5000 }).catch(() => undefined);
      await ready();
      expect(await page.locator('#from').inputValue()).not.toBe('2026-02-13T11:00');
      await expectSectionsOf('');
    } finally {
      town.town.clock.resume();
    }
    await page.locator('#world').selectOption('rumour');
    await page.waitForFunction(() => window.__analysis?.ready === false, null, { timeout: 5000 }).catch(() => undefined);
    await ready();
    await expectSectionsOf('?world=rumour');
    expect(watch.problems).toEqual([]);
  });

  it('fits the time axis labels of each chart without overlap at 1024 px, with a legend', async () => {
    const boxes = await page.evaluate(() => window.__analysis!.charts().map((name) => ({ name, ...window.__analysis!.axisLabels(name) })));
    expect(boxes.length).toBeGreaterThanOrEqual(3);
    for (const chart of boxes) {
      expect(chart.ticks.length, chart.name).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < chart.ticks.length; i++) expect(chart.ticks[i].left, `${chart.name} tick ${i}`).toBeGreaterThan(chart.ticks[i - 1].right);
      if (chart.name !== 'day') expect(chart.legend, chart.name).toBeGreaterThan(0);
    }
  });

  it('keeps the relationship graph’s labels apart', async () => {
    const overlaps = await page.evaluate(() => window.__analysis!.labelOverlaps('relationships'));
    expect(overlaps).toEqual([]);
  });

  it('follows a click on the diffusion curve into the replay at that moment, and comes back', async () => {
    const r = await report('?world=rumour');
    const k = 4;
    await page.locator('#diffusion-section').scrollIntoViewIfNeeded();
    const at = await page.evaluate((i) => window.__analysis!.pointPosition('diffusion', 0, i), k);
    await page.mouse.move(at!.x - 40, at!.y - 20);
    await page.mouse.move(at!.x, at!.y, { steps: 8 });
    await page.mouse.click(at!.x, at!.y);
    const expected = `/?world=rumour&t=${encodeURIComponent(r.topics[0].series[k].t)}`;
    await expect.poll(() => page.locator('#replay-link').getAttribute('href')).toBe(expected);
    // A world file that is no running town replays without asking /api/town (a 404) first.
    const asked: string[] = [];
    page.on('request', (req) => asked.push(new URL(req.url()).pathname));
    await page.locator('#replay-link').click();
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    const view = await page.evaluate(() => window.__smalltown!.view());
    expect(view.mode).toBe('replay');
    expect(view.gameMs).toBe(r.topics[0].series[k].ms);
    expect(asked).toContain('/api/replay/world');
    expect(asked).not.toContain('/api/town');
    await page.goBack();
    await ready();
    await expectSectionsOf('?world=rumour');
    expect(watch.problems).toEqual([]);
  });
});
