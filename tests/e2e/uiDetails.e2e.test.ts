// Small things a researcher met using the page at 1280 px (issue 46): a world file's replay names that
// world and its "back to live" goes to that world's running town or says none runs; the timeline says
// "connecting…" until it has a game time; "⌂ town" keeps the inspector open; the paused operator's clock
// bar fits at 1280 px. Any console error or warning on a page fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchBrowser, watchConsole, type LaunchedBrowser } from './browser';
import { startTestTown } from '../helpers';

const TOKEN = 'e2e-ui-details';
/** Patches and replies on this shared machine may take a few seconds under load. */
const WAIT = { timeout: 15_000 };

describe('the page’s small details', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  const problems: string[] = [];

  beforeAll(async () => {
    town = await startTestTown({ operatorToken: TOKEN, rate: 60, startTime: '2026-02-13T09:00' });
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  /** A page at 1280 × 800, its console watched; `ready` waits for the town to be drawn. */
  async function open(address: string, ready = true): Promise<Page> {
    const page = await browser.context.newPage();
    const watch = watchConsole(page);
    page.on('close', () => problems.push(...watch.problems));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${town.url}${address}`);
    if (ready) await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    return page;
  }

  it('names the world file it replays, and says it has no live town rather than going to another world’s', async () => {
    // A world in DATA_DIR that is not running: a copy of the live one under another name.
    await town.town.db.backupTo(path.join(town.dataDir, 'elsewhere.sqlite'));
    const page = await open('/?world=elsewhere');
    expect(await page.evaluate(() => window.__smalltown!.view().mode)).toBe('replay');
    await expect.poll(() => page.locator('#hud-world').textContent(), WAIT).toBe('elsewhere');
    const live = page.locator('.timeline-live');
    expect(await live.isDisabled()).toBe(true);
    expect(await live.textContent()).not.toContain('live');
    expect(await live.getAttribute('title')).toMatch(/elsewhere has no live town/);
    // The key says so too, and the page stays where it is.
    const address = page.url();
    await page.keyboard.press('l');
    await expect.poll(() => page.locator('#status').textContent(), WAIT).toMatch(/elsewhere has no live town/);
    expect(page.url()).toBe(address);
    expect(await page.evaluate(() => window.__smalltown!.view().mode)).toBe('replay');
    await page.close();

    // A backup of the running town goes back to that town, named in the address.
    fs.mkdirSync(path.join(town.dataDir, 'backups'), { recursive: true });
    await town.town.db.backupTo(path.join(town.dataDir, 'backups', 'smalltown-2026-02-13T10-00-00-000Z.sqlite'));
    const backup = await open(`/?world=${encodeURIComponent('backups/smalltown-2026-02-13T10-00-00-000Z')}`);
    await expect.poll(() => backup.locator('#hud-world').textContent(), WAIT).toBe('backups/smalltown-2026-02-13T10-00-00-000Z');
    expect(await backup.locator('.timeline-live').textContent()).toBe('● live');
    await backup.locator('.timeline-live').click();
    await backup.waitForURL(/\/\?world=smalltown$/);
    await backup.waitForFunction(() => window.__smalltown?.ready === true && window.__smalltown.view().mode === 'live', null, { timeout: 60_000 });
    await backup.close();
    expect(problems).toEqual([]);
  });

  it('says "connecting…" on the timeline until the first game time, not 1 Jan 1970', async () => {
    // The map held back: the page has joined and drawn its panels, and the town (whose frames bring game time) waits.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const page = await browser.context.newPage();
    const watch = watchConsole(page);
    page.on('close', () => problems.push(...watch.problems));
    await page.route('**/maps/*.tmj', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(town.url);
    const label = page.locator('.timeline-label');
    await label.waitFor(WAIT);
    expect(await label.textContent()).toBe('connecting…');
    expect(await page.locator('#hud-clock').textContent()).toBe('connecting…');
    release();
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await expect.poll(() => label.textContent(), WAIT).toMatch(/ 2026 \d\d:\d\d$/);
    await page.close();
    expect(problems).toEqual([]);
  });

  it('keeps the inspector open when "⌂ town" shows the whole town, and when the camera is panned or dragged away', async () => {
    const page = await open('/');
    await page.evaluate(() => window.__smalltown!.follow('isabella'));
    await expect.poll(() => page.locator('#panel').isVisible(), WAIT).toBe(true);
    await page.locator('#hud-whole').click();
    // The camera goes to the whole town and follows no one…
    await expect.poll(() => page.evaluate(() => window.__smalltown!.followed()), WAIT).toBeNull();
    await expect.poll(() => page.evaluate(() => window.__smalltown!.camera().mode), WAIT).toBe('free');
    // …and the inspector stays on Isabella.
    expect(await page.locator('#panel').isVisible()).toBe(true);
    expect(await page.evaluate(() => window.__smalltown!.inspected())).toBe('isabella');
    // Panned away with the arrow keys, or dragged: the same.
    await page.evaluate(() => window.__smalltown!.follow('isabella'));
    await expect.poll(() => page.evaluate(() => window.__smalltown!.camera().mode), WAIT).toBe('follow');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.evaluate(() => window.__smalltown!.followed()), WAIT).toBeNull();
    expect(await page.evaluate(() => window.__smalltown!.inspected())).toBe('isabella');
    await page.evaluate(() => window.__smalltown!.follow('isabella'));
    await expect.poll(() => page.evaluate(() => window.__smalltown!.camera().mode), WAIT).toBe('follow');
    // A drag from the spot of the map farthest from anyone (a press on someone, or on someone walking in, would pick them).
    const from = await page.evaluate(() => {
      const agents = window.__smalltown!.agents();
      const spots: Array<[number, number]> = [];
      for (let x = 60; x < innerWidth; x += 60)
        for (let y = 80; y < innerHeight - 60; y += 60) if (document.elementFromPoint(x, y)?.tagName === 'CANVAS') spots.push([x, y]);
      const clearance = ([x, y]: [number, number]) => Math.min(...agents.map((g) => Math.hypot(g.x - x, g.y - y)));
      return spots.reduce((best, spot) => (clearance(spot) > clearance(best) ? spot : best));
    });
    await page.mouse.move(from[0], from[1]);
    await page.mouse.down();
    await page.mouse.move(from[0] + 80, from[1] + 40, { steps: 8 });
    await page.mouse.up();
    await expect.poll(() => page.evaluate(() => window.__smalltown!.followed()), WAIT).toBeNull();
    expect(await page.locator('#panel').isVisible()).toBe(true);
    expect(await page.evaluate(() => window.__smalltown!.inspected())).toBe('isabella');
    // Its close button still closes it.
    await page.locator('#panel button.close').click();
    await expect.poll(() => page.locator('#panel').isVisible(), WAIT).toBe(false);
    await page.close();
    expect(problems).toEqual([]);
  });

  it('fits the paused operator’s clock bar at 1280 px: no word cut short, nothing past the edge', async () => {
    const page = await open(`/?token=${TOKEN}`);
    await expect.poll(() => page.locator('#hud-role').textContent(), WAIT).toBe('operator');
    await page.locator('#hud-controls button[data-op="pause"]').click();
    await expect.poll(() => page.locator('#hud-speed').textContent(), WAIT).toBe('paused');
    // The step button shows while paused: the bar at its widest.
    await expect.poll(() => page.locator('#hud-controls button[data-op="step"]').isVisible(), WAIT).toBe(true);
    const bar = await page.evaluate(() => {
      const hud = document.getElementById('hud')!;
      const shown = [...hud.children].filter((c): c is HTMLElement => c instanceof HTMLElement && c.offsetParent !== null);
      const cut = ['hud-world', 'hud-clock', 'hud-speed', 'hud-mind', 'hud-agents', 'hud-role']
        .map((id) => document.getElementById(id)!)
        .filter((e) => e.scrollWidth > e.clientWidth)
        .map((e) => `${e.id}: ${e.textContent}`);
      return { cut, right: Math.max(...shown.map((c) => c.getBoundingClientRect().right)), width: window.innerWidth };
    });
    expect(bar.cut).toEqual([]);
    expect(bar.right).toBeLessThanOrEqual(bar.width);
    await page.locator('#hud-controls button[data-op="pause"]').click();
    await expect.poll(() => page.locator('#hud-speed').textContent(), WAIT).not.toBe('paused');
    await page.close();
    expect(problems).toEqual([]);
  });
});
