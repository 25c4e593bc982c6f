// The diffusion curve over seeds, end to end: three seeds of the Valentine scenario run headless (short
// runs), then the analysis API serves the band over real HTTP, by world names and by a seeds run, and
// agrees with each world's own report; bad requests are refused with what was wrong; and the analysis
// page, in a real browser, draws the band for a seeds run and keeps it across its own URL rewrites.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadScenario } from '../../server/src/analysis/scenario';
import { runScenario, type RunOutcome } from '../../server/src/analysis/runScenario';
import { createLogger } from '../../server/src/town/logger';
import type { DiffusionBand } from '../../server/src/protocol/band';
import { startTestTown, tempDir } from '../helpers';
import { launchBrowser } from '../e2e/browser';

const VALENTINES = path.resolve('scenarios/valentines.yaml');
const SEEDS = [1, 2, 3];

describe('the diffusion band over seeds', () => {
  let dataDir: string;
  let town: Awaited<ReturnType<typeof startTestTown>>;
  const outcomes: RunOutcome[] = [];
  const get = (p: string) => fetch(`${town.url}${p}`);

  beforeAll(async () => {
    dataDir = tempDir();
    for (const seed of SEEDS)
      outcomes.push(
        await runScenario({
          scenario: loadScenario(VALENTINES),
          scenarioFile: VALENTINES,
          env: { DATA_DIR: dataDir },
          world: 'vday',
          seed,
          days: 0.25,
          logger: createLogger('silent'),
        }),
      );
    // What `npm run simulate -- --seeds 1..3 --world vday` writes beside the worlds.
    fs.writeFileSync(path.join(dataDir, 'vday.seeds.json'), JSON.stringify({ scenario: 'valentines', seeds: SEEDS, worlds: outcomes.map((o) => o.world) }));
    town = await startTestTown({ dataDir, world: 'live' });
  }, 180_000);

  afterAll(async () => {
    await town?.close();
  });

  it('gives, per topic and game hour, each world value with its mean, sd and 95% interval, ending where each report ends', async () => {
    const res = await get(`/api/analysis/band?worlds=${outcomes.map((o) => o.world).join(',')}`);
    expect(res.status).toBe(200);
    const band = (await res.json()) as DiffusionBand;
    expect(band.worlds).toEqual(['vday-seed1', 'vday-seed2', 'vday-seed3']);
    expect(band.agents).toBe(25);
    expect(band.topics.map((t) => t.name)).toEqual(['party', 'candidacy']);
    for (const [k, topic] of band.topics.entries()) {
      expect(topic.points.length).toBeGreaterThan(4);
      for (const p of topic.points) {
        expect(p.values).toHaveLength(3);
        expect(p.mean).toBeCloseTo((p.values[0] + p.values[1] + p.values[2]) / 3, 9);
        expect(p.lo).toBeLessThanOrEqual(p.mean);
        expect(p.hi).toBeGreaterThanOrEqual(p.mean);
        expect(p.lo).toBeGreaterThanOrEqual(0);
        expect(p.hi).toBeLessThanOrEqual(25);
        // t(0.975, 2) = 4.303: the interval is the mean ± 4.303 sd / √3, clamped to [0, 25].
        expect(p.hi).toBeCloseTo(Math.min(25, p.mean + (4.303 * p.sd) / Math.sqrt(3)), 6);
        expect(p.lo).toBeCloseTo(Math.max(0, p.mean - (4.303 * p.sd) / Math.sqrt(3)), 6);
      }
      expect(topic.points.at(-1)!.values).toEqual(outcomes.map((o) => o.report!.topics[k].aware_end));
    }
    console.log('band (party, end):', JSON.stringify(band.topics[0].points.at(-1)));
  });

  it('reads the worlds of a seeds run', async () => {
    const band = (await (await get('/api/analysis/band?seeds=vday')).json()) as DiffusionBand;
    expect(band.worlds).toEqual(['vday-seed1', 'vday-seed2', 'vday-seed3']);
  });

  it('draws the band on the analysis page for a seeds run, a chart per topic, and keeps it in the URL', async () => {
    const browser = await launchBrowser();
    try {
      const page = await browser.context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.setViewportSize({ width: 1400, height: 1800 });
      await page.goto(`${town.url}/analysis?world=vday-seed1&seeds=vday`);
      await page.waitForFunction(() => window.__analysis?.ready === true || window.__analysis?.error, null, { timeout: 60_000 });
      expect(await page.evaluate(() => window.__analysis!.error)).toBeNull();
      expect(errors).toEqual([]);
      await expect.poll(() => page.locator('#band-section').isVisible()).toBe(true);
      expect(await page.locator('#band-section h2').textContent()).toBe('Information diffusion over 3 seeds');
      expect(await page.locator('#band-section canvas').evaluateAll((cs) => cs.map((c) => c.id))).toEqual(['band-party', 'band-candidacy']);
      expect(await page.locator('#band-section h3').first().textContent()).toMatch(/^party: .* — at the end \d+\.\d ± \d+\.\d of 25$/);
      expect(new URL(page.url()).searchParams.get('seeds')).toBe('vday');
      // Round game hours along x, from the run's start; a legend whose every entry has a drawn swatch (band, mean, each world).
      const axis = await page.evaluate(() => window.__analysis!.axisLabels('band-party'));
      expect(axis.ticks.length).toBeGreaterThanOrEqual(2);
      for (const t of axis.ticks) expect(t.text).toMatch(/^\d\d:00 /);
      expect(axis.legend).toBe(3);
      expect(await page.locator('#band-section .muted').textContent()).toContain('clamped to 0–25');
      fs.mkdirSync('test-results', { recursive: true });
      await page.setViewportSize({ width: 1280, height: 1800 });
      await page.locator('#band-section').screenshot({ path: path.join('test-results', 'analysis-band.png') });
      // A topic only one agent knew: its tree is one node, drawn at its own size, not blown up to fill the box.
      const trees = await page.evaluate(() => window.__analysis!.trees());
      const single = trees.find((t) => t.nodes === 1);
      if (single) {
        expect(single.labelPx).toBeLessThanOrEqual(16);
        await page.locator(`#tree-${single.name}`).screenshot({ path: path.join('test-results', 'analysis-one-node-tree.png') });
      }
      for (const t of trees) expect(t.labelPx, t.name).toBeGreaterThanOrEqual(9);
      await page.setViewportSize({ width: 1400, height: 1800 });
      // Another window width redraws the chart to its box's new width.
      const width = () => page.locator('#band-party').evaluate((c) => [c.clientWidth, c.parentElement!.clientWidth]);
      const [before] = await width();
      await page.setViewportSize({ width: 800, height: 1800 });
      await expect.poll(async () => (await width())[0]).not.toBe(before);
      const [canvas, box] = await width();
      expect(Math.abs(canvas - box)).toBeLessThanOrEqual(2);
      // Without a seeds run the section stays hidden.
      await page.goto(`${town.url}/analysis?world=vday-seed1`);
      await page.waitForFunction(() => window.__analysis?.ready === true || window.__analysis?.error, null, { timeout: 60_000 });
      expect(await page.locator('#band-section').isVisible()).toBe(false);
    } finally {
      await browser.close();
    }
  });

  it('refuses what it cannot draw, saying why', async () => {
    const error = async (p: string, status: number) => {
      const res = await get(p);
      expect(res.status, p).toBe(status);
      return ((await res.json()) as { error: string }).error;
    };
    expect(await error('/api/analysis/band', 400)).toMatch(/give seeds=.* or worlds=/);
    expect(await error('/api/analysis/band?worlds=vday-seed1', 400)).toMatch(/expected 2 to 50 worlds, got 1/);
    expect(await error('/api/analysis/band?seeds=nothing', 400)).toMatch(/no such seeds run nothing/);
    expect(await error('/api/analysis/band?seeds=../etc', 400)).toMatch(/is not a seeds run name/);
    expect(await error('/api/analysis/band?worlds=vday-seed1,nowhere', 404)).toMatch(/nowhere/);
  });
});
