// Replay in a real browser: note the town at a moment, let time pass, scrub back with the timeline and
// see the same; forward and back again, the same again; another viewer stays live and the town keeps
// ticking. World files open from the picker (a backup, a headless run) and play; a broken or foreign
// file says why and harms nothing.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, openTown, townReady, type LaunchedBrowser } from './browser';
import { startTestTown } from '../helpers';
import { formatIsoMoment, GAME_MS_PER_MINUTE } from '../../server/src/protocol/time';
import { loadScenario } from '../../server/src/analysis/scenario';
import { runScenario } from '../../server/src/analysis/runScenario';
import { createLogger } from '../../server/src/town/logger';

const TOKEN = 'e2e-replay-operator';
/** Patches and replies on this shared machine may take a few seconds under load. */
const WAIT = { timeout: 15_000 };

type Seen = Record<string, { x: number; y: number; action: string; speech: string }>;

describe('replay in the browser', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    town = await startTestTown({ operatorToken: TOKEN, rate: 300, startTime: '2026-02-13T09:30' });
    browser = await launchBrowser();
    fs.mkdirSync('test-results', { recursive: true });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  const open = (url: string) => openTown(browser, url);

  const view = (page: Page) => page.evaluate(() => window.__smalltown!.view());
  /** Every agent as drawn: where (px on the map), doing what, saying what. */
  const seen = (page: Page): Promise<Seen> =>
    page.evaluate(() => Object.fromEntries(window.__smalltown!.agents().map((a) => [a.id, { x: a.worldX, y: a.worldY, action: a.action, speech: a.speech }])));
  /** The same town, to the sub-pixel (a seek lands on the very moment; positions are computed from it). */
  function expectSame(now: Seen, then: Seen): void {
    expect(Object.keys(now).sort()).toEqual(Object.keys(then).sort());
    for (const [id, a] of Object.entries(then)) {
      expect({ id, action: now[id].action, speech: now[id].speech }).toEqual({ id, action: a.action, speech: a.speech });
      expect(Math.abs(now[id].x - a.x) + Math.abs(now[id].y - a.y), `${id}'s position`).toBeLessThan(0.5);
    }
  }

  it('scrubs back to a noted moment and shows the town as it was, the same again after going forward and back; another viewer stays live', async () => {
    const operator = await open(`${town.url}/?token=${TOKEN}`);
    const viewer = await open(town.url);
    const other = await open(town.url);
    // The page in front draws frames; the others keep their connections (and their clocks) meanwhile.
    await viewer.bringToFront();
    // Wait for a moment with someone walking and someone talking, then the operator pauses there.
    const busy = async () => {
      const agents = await viewer.evaluate(() => window.__smalltown!.agents());
      return agents.some((a) => a.walking) && agents.some((a) => a.speech !== '');
    };
    await expect.poll(busy, { timeout: 60_000, interval: 100 }).toBe(true);
    await operator.locator('#hud-controls button[data-op="pause"]').click();
    await expect.poll(() => viewer.locator('#hud-speed').textContent(), WAIT).toBe('paused');
    let t0 = -1;
    await expect.poll(async () => t0 === (t0 = (await view(viewer)).gameMs), WAIT).toBe(true);
    await viewer.waitForTimeout(200);
    const noted = await seen(viewer);
    expect(Object.keys(noted)).toHaveLength(10);
    await operator.locator('#hud-controls button[data-op="pause"]').click();

    // Time passes: at least half a game hour.
    await expect.poll(async () => (await view(viewer)).gameMs, { timeout: 30_000 }).toBeGreaterThan(t0 + 30 * GAME_MS_PER_MINUTE);

    // The live span grew meanwhile; its markers (a layer moved and scaled onto it) stand where the span puts them.
    const misplaced = await viewer.evaluate(() => {
      const { span } = window.__smalltown!.view();
      const track = document.querySelector('.timeline-track')!.getBoundingClientRect();
      const nodes = [...document.querySelectorAll<HTMLElement>('.timeline-marker')];
      const off = nodes.map((n) => {
        const at = track.left + ((Number(n.dataset.gameMs) - span.firstGameMs) / (span.lastGameMs - span.firstGameMs)) * track.width;
        return Math.abs(n.getBoundingClientRect().left - at);
      });
      return { markers: nodes.length, worstPx: Math.max(0, ...off) };
    });
    expect(misplaced.markers).toBeGreaterThan(0);
    expect(misplaced.worstPx).toBeLessThan(1.5);

    // Scrub with the mouse: drag the timeline's cursor back to the noted moment.
    const track = viewer.locator('.timeline-track');
    const box = (await track.boundingBox())!;
    const { span, gameMs: now } = await view(viewer);
    const xOf = (t: number) => box.x + ((t - span.firstGameMs) / (span.lastGameMs - span.firstGameMs)) * box.width;
    // From the cursor at the live end of the track.
    await viewer.mouse.move(Math.min(xOf(now), box.x + box.width - 2), box.y + box.height / 2);
    await viewer.mouse.down();
    await viewer.mouse.move(xOf(t0), box.y + box.height / 2, { steps: 12 });
    await viewer.mouse.up();
    await expect.poll(async () => (await view(viewer)).mode, WAIT).toBe('replay');
    // Near the noted moment (the town runs at 300×, so the span grew by a few game minutes between
    // reading it here and the press), said plainly, and in the address.
    await expect.poll(async () => Math.abs((await view(viewer)).gameMs - t0), WAIT).toBeLessThan(5 * GAME_MS_PER_MINUTE);
    expect(await viewer.locator('#hud-clock').textContent()).toMatch(/^Replay · /);
    expect(new URL(viewer.url()).searchParams.get('t')).toMatch(/^2026-02-13T\d\d:\d\d/);
    await viewer.screenshot({ path: 'test-results/replay-scrubbed.png' });

    // The other viewer and the town itself stay live.
    const otherBefore = await view(other);
    expect(otherBefore.mode).toBe('live');
    await expect.poll(async () => (await view(other)).gameMs, WAIT).toBeGreaterThan(otherBefore.gameMs);
    expect(town.town.clock.gameMs).toBeGreaterThan(t0 + 30 * GAME_MS_PER_MINUTE);

    // The exact moment, as a shared link gives it: the same town.
    await viewer.goto(`${town.url}/?t=${formatIsoMoment(t0)}`);
    await townReady(viewer);
    await expect.poll(async () => (await view(viewer)).mode, WAIT).toBe('replay');
    await expect.poll(async () => (await view(viewer)).gameMs, WAIT).toBe(t0);
    await viewer.waitForTimeout(300);
    expectSame(await seen(viewer), noted);

    // Forward and back again with the timeline's keys: the same again.
    await track.focus();
    for (const [key, minutes] of [
      ['Shift+ArrowRight', 10],
      ['ArrowRight', 1],
      ['ArrowRight', 1],
      ['ArrowLeft', -1],
      ['ArrowLeft', -1],
      ['Shift+ArrowLeft', -10],
    ] as const) {
      const before = (await view(viewer)).gameMs;
      await viewer.keyboard.press(key);
      await expect.poll(async () => (await view(viewer)).gameMs, WAIT).toBe(before + minutes * GAME_MS_PER_MINUTE);
    }
    expect((await view(viewer)).gameMs).toBe(t0);
    await viewer.waitForTimeout(300);
    expectSame(await seen(viewer), noted);
    expect((await view(other)).mode).toBe('live');
    await viewer.screenshot({ path: 'test-results/replay-at-noted-moment.png' });
    await Promise.all([viewer.close(), other.close()]);

    // An operator who replays has the controls that change the world disabled, and gets them back live.
    await operator.bringToFront();
    await operator.keyboard.press('[');
    await expect.poll(async () => (await view(operator)).mode, WAIT).toBe('replay');
    await expect.poll(() => operator.locator('#hud-controls button[data-op="pause"]').isDisabled(), WAIT).toBe(true);
    await operator.locator('.timeline-live').click();
    await expect.poll(async () => (await view(operator)).mode, WAIT).toBe('live');
    await expect.poll(() => operator.locator('#hud-controls button[data-op="pause"]').isDisabled(), WAIT).toBe(false);
    expect(new URL(operator.url()).searchParams.get('t')).toBeNull();
    await operator.close();
  }, 120_000);

  it('opens a headless run and a backup from the world picker, and plays them', async () => {
    const backups = path.join(town.dataDir, 'backups');
    fs.mkdirSync(backups, { recursive: true });
    await town.town.db.backupTo(path.join(backups, 'smalltown-copy.sqlite'));
    const scenario = 'scenarios/valentines.yaml';
    await runScenario({
      scenario: loadScenario(scenario),
      scenarioFile: scenario,
      env: { DATA_DIR: town.dataDir },
      days: 0.05,
      logger: createLogger('silent'),
    });

    const page = await open(town.url);
    await page.keyboard.press('w');
    const rows = page.locator('#world-picker tbody tr');
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThanOrEqual(3);
    expect(await page.locator('#world-picker tr[data-world="smalltown"]').textContent()).toMatch(/smalltown \(live\).*10offline/);
    await page.locator('#world-picker tr[data-world="valentines"] a.replay-world').click();
    await page.waitForURL(/\?world=valentines&t=/);
    await townReady(page);
    expect((await view(page)).mode).toBe('replay');
    await expect.poll(() => page.evaluate(() => window.__smalltown!.agents().length), WAIT).toBe(25);
    // Back to its start, then play.
    const { span } = await view(page);
    const box = (await page.locator('.timeline-track').boundingBox())!;
    await page.mouse.click(box.x + 2, box.y + box.height / 2);
    await expect.poll(async () => (await view(page)).gameMs - span.firstGameMs, WAIT).toBeLessThan((span.lastGameMs - span.firstGameMs) / 20);
    const from = (await view(page)).gameMs;
    await page.locator('.timeline-play').click();
    await expect.poll(async () => (await view(page)).playing, WAIT).toBe(true);
    await expect.poll(async () => (await view(page)).gameMs, WAIT).toBeGreaterThan(from + 5 * GAME_MS_PER_MINUTE);
    await expect.poll(() => page.locator('#town-feed li').count(), WAIT).toBeGreaterThan(0);
    await page.screenshot({ path: 'test-results/replay-headless-run.png' });

    await page.keyboard.press('w');
    await page.locator('#world-picker tr[data-world="backups/smalltown-copy"] a.replay-world').click();
    await page.waitForURL(/world=backups%2Fsmalltown-copy/);
    await townReady(page);
    expect((await view(page)).mode).toBe('replay');
    await expect.poll(() => page.evaluate(() => window.__smalltown!.agents().length), WAIT).toBe(10);
    // "Back to live" from a file's page goes to the live town.
    await page.locator('.timeline-live').click();
    await page.waitForFunction(() => window.__smalltown?.ready === true && window.__smalltown.view().mode === 'live', null, { timeout: 60_000 });
    await page.close();
  }, 120_000);

  it('says why a broken or foreign world file cannot be replayed, and harms nothing', async () => {
    fs.writeFileSync(path.join(town.dataDir, 'broken.sqlite'), 'this is not a database '.repeat(50));
    const foreign = path.join(town.dataDir, 'foreign.sqlite');
    await town.town.db.backupTo(foreign);
    const db = new Database(foreign);
    db.prepare("UPDATE meta SET value = 'text-embedding-3-small' WHERE key = 'embedding_model'").run();
    db.prepare("UPDATE meta SET value = '1536' WHERE key = 'embedding_dimension'").run();
    db.close();
    const sizes = () => ['broken.sqlite', 'foreign.sqlite'].map((f) => fs.statSync(path.join(town.dataDir, f)).size);
    const before = sizes();

    const page = await open(town.url);
    await page.locator('.timeline-worlds').click();
    const broken = page.locator('#world-picker tr[data-world="broken"]');
    await expect.poll(() => broken.textContent(), WAIT).toMatch(/broken\.sqlite: not a readable world file/);
    expect(await broken.locator('a').count()).toBe(0);
    await page.keyboard.press('Escape');
    expect(await page.locator('#world-picker').isHidden()).toBe(true);

    for (const [world, reason] of [
      ['broken', /cannot replay broken: .*broken\.sqlite: not a readable world file/],
      ['foreign', /cannot replay foreign: .*foreign\.sqlite.*embed/i],
    ] as const) {
      await page.goto(`${town.url}/?world=${world}`);
      await expect.poll(() => page.locator('#status').textContent(), WAIT).toMatch(reason);
    }
    expect(sizes()).toEqual(before);
    const t = town.town.clock.gameMs;
    await expect.poll(() => town.town.clock.gameMs, WAIT).toBeGreaterThan(t);
    await page.close();
  }, 60_000);
});
