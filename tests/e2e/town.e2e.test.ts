// The town in a real browser: headless Debian Chromium through playwright-core, against the real server
// serving the built client (tests/buildClient.ts builds it first).
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startTestTown } from '../helpers';

describe('the town in the browser', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    town = await startTestTown({ rate: 300, startTime: '2026-02-13T08:50' });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(town.url);
    // SwiftShader is slow: give the first frames time.
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  it('reaches the Town scene through Boot and Preloader, with no page errors', async () => {
    expect(await page.evaluate(() => window.__smalltown!.scene)).toContain('Town');
    expect(errors).toEqual([]);
  });

  it('draws at least 8 agents, and one of them moves on screen over time', async () => {
    const first = await page.evaluate(() => window.__smalltown!.agents());
    expect(first.length).toBeGreaterThanOrEqual(8);
    await page.waitForFunction(
      (before) => window.__smalltown!.agents().some((a) => {
        const b = before.find((x) => x.id === a.id);
        return b && Math.hypot(a.worldX - b.worldX, a.worldY - b.worldY) > 16;
      }),
      first,
      { timeout: 30_000 },
    );
  });

  it('follows a clicked agent and shows its current action', async () => {
    // Pick an agent standing still (at this speed a walker crosses the screen in a second), bring it on
    // screen, and click its sprite like a person would. An agent may set off just before the click:
    // then try again, a few times.
    let target: { id: string; name: string } | null = null;
    for (let attempt = 0; attempt < 6 && !target; attempt++) {
      const still = await page.waitForFunction(async () => {
        const a = window.__smalltown!.agents();
        await new Promise((r) => setTimeout(r, 400));
        const b = window.__smalltown!.agents();
        return a.find((x) => b.some((y) => y.id === x.id && y.worldX === x.worldX && y.worldY === x.worldY)) ?? null;
      }, null, { timeout: 30_000 });
      const candidate = (await still.jsonValue())!;
      await page.evaluate((id) => window.__smalltown!.follow(id), candidate.id);
      await page.waitForTimeout(1500);
      await page.evaluate(() => window.__smalltown!.follow(null));
      const now = (await page.evaluate(() => window.__smalltown!.agents())).find((a) => a.id === candidate.id)!;
      await page.mouse.click(now.x, now.y - 4);
      await page.waitForTimeout(300);
      if ((await page.evaluate(() => window.__smalltown!.followed())) === candidate.id) target = candidate;
    }
    expect(target).not.toBeNull();
    const panel = page.locator('#panel');
    await expect.poll(async () => panel.isVisible()).toBe(true);
    await expect.poll(async () => (await panel.textContent()) ?? '').toContain(target!.name);
    fs.mkdirSync('test-results', { recursive: true });
    await page.screenshot({ path: 'test-results/town.png' });
  });

  it('shows the game date, time, speed and which mind runs', async () => {
    const hud = await page.locator('#hud').textContent();
    expect(hud).toMatch(/Feb 2026 · \d\d:\d\d/);
    expect(hud).toContain('5×');
    expect(hud).toContain('mind: offline');
  });
});
