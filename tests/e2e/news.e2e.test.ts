// The side log of a live town in the browser, fed by the room's `news` messages: lines said appear in the
// conversation list as they are said, with the speaker, the listener and the game time; feed items logged after the
// page opened appear in the town feed. Any console error or warning on the page fails the test.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, townReady, watchConsole, type LaunchedBrowser } from './browser';
import { startTestTown } from '../helpers';
import type { FeedItem } from '../../server/src/protocol/messages';

describe('the side log of the live town', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    // Ten game minutes a real second, from 9:15: Yumi and Kenji meet at the college a few real seconds in.
    town = await startTestTown({ rate: 600, startTime: '2026-02-13T09:15' });
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  it('shows each line said as it is said, and feed items logged after the page opened', async () => {
    const page = await browser.context.newPage();
    const watch = watchConsole(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(town.url);
    await townReady(page);
    const { items } = (await (await fetch(`${town.url}/api/feed?limit=500`)).json()) as { items: FeedItem[] };
    const seenAtOpen = Math.max(0, ...items.map((i) => i.seq));

    await expect.poll(() => page.locator('#conversation-log li').count(), { timeout: 40_000 }).toBeGreaterThan(0);
    const line = page.locator('#conversation-log li').first();
    const said = town.town.db.events.read(1, Number.MAX_SAFE_INTEGER, 100_000).filter((e) => e.kind === 'conversation.utterance');
    const shown = (await line.textContent())!;
    // "Yumi → Kenji: …": the text of a line the log holds, under the speaker's and listener's first names.
    expect(said.some((e) => shown.endsWith(`: ${(e.data as { text: string }).text}`))).toBe(true);
    expect(shown).toMatch(/^\S+ → \S+: /);
    expect(await line.getAttribute('title')).toMatch(/13 Feb 2026, \d\d:\d\d/);

    await expect
      .poll(() => page.evaluate(() => Math.max(0, ...[...document.querySelectorAll<HTMLElement>('#town-feed li')].map((l) => Number(l.dataset.seq)))), {
        timeout: 40_000,
      })
      .toBeGreaterThan(seenAtOpen);
    await page.close();
    expect(watch.problems).toEqual([]);
  }, 120_000);
});
