// Panels that never steal or drop input, and a layout that holds at two window sizes: typing at human
// speed across inspector refreshes, Esc, the find box, the plan's numbering and its step in force at
// full speed, the whisper's shelf, the panels not covering each other, and the favicon.
import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startTestTown } from '../helpers';

const TOKEN = 'e2e-panels-operator';
/** Spaces, an "f", a "t", digits and a "?": each a shortcut when typed outside a field. */
const QUESTION = 'What are you planning for 5 pm tomorrow, and who is coming to the fair? Tell me 1 thing.';
const WHISPER = 'Freya found 3 old town maps for the library; they are fragile and need care.';

describe('panels keep what you type, and the layout holds', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  /** One operator page for the whole file (a page takes seconds to start in software rendering). */
  let page: Page;

  beforeAll(async () => {
    town = await startTestTown({ operatorToken: TOKEN, startTime: '2026-02-13T09:30' });
    browser = await launchBrowser();
    fs.mkdirSync('test-results', { recursive: true });
    page = await open();
  }, 120_000);
  beforeEach(async () => {
    // Each test starts from the page at rest: no field focused, no inspector, no tools.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await page.setViewportSize({ width: 1440, height: 900 });
  });
  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  async function open(): Promise<Page> {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(`${town.url}/?token=${TOKEN}`);
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await page.waitForFunction(() => document.getElementById('hud-role')?.textContent === 'operator');
    return page;
  }

  async function inspect(id: string): Promise<Locator> {
    await page.evaluate((agent) => window.__smalltown!.follow(agent), id);
    const panel = page.locator('#panel');
    await expect.poll(() => panel.locator('ol.plan li').count(), { timeout: 15_000 }).toBeGreaterThan(9);
    return panel;
  }

  /** The focused element: its name, else its id, else its tag. */
  const activeName = () =>
    page.evaluate(() => {
      const e = document.activeElement as HTMLInputElement | null;
      return e?.name || e?.id || e?.tagName;
    });

  it('keeps the text and the focus of the interview and whisper fields while the inspector refreshes, and types no shortcuts', async () => {
    const panel = await inspect('isabella');
    const rate = town.town.clock.rate;
    for (const [name, text] of [
      ['question', QUESTION],
      ['whisper', WHISPER],
    ] as const) {
      const field = panel.locator(`input[name="${name}"]`);
      await field.click();
      const repliesBefore = await page.evaluate(() => window.__smalltown!.inspectorReplies());
      // ~80 characters at 80 ms each: longer than the 3 s between refreshes.
      await field.pressSequentially(text, { delay: 80, timeout: 60_000 });
      expect(await page.evaluate(() => window.__smalltown!.inspectorReplies())).toBeGreaterThan(repliesBefore);
      expect(await field.inputValue()).toBe(text);
      expect(await activeName()).toBe(name);
      // Space did not pause, the digits did not change the speed, "f" did not jump to the find box, "?" opened no help.
      expect(town.town.clock.paused).toBe(false);
      expect(town.town.clock.rate).toBe(rate);
      expect(await page.locator('#help').isVisible()).toBe(false);
      expect(await page.locator('#tools').isVisible()).toBe(false);
    }
    // Sending still works, and the answer lands without touching the field.
    await panel.locator('form.interview-form button').click();
    await expect.poll(() => panel.locator('.interview-answer').textContent(), { timeout: 15_000 }).not.toBe('…');
    await page.screenshot({ path: 'test-results/panels-typing.png' });
  }, 150_000);

  it('Esc leaves a field (the draft stays), the next closes the inspector; Enter in the find box goes to the agent and gives the keys back', async () => {
    const panel = await inspect('isabella');
    await panel.locator('input[name="question"]').click();
    await page.keyboard.type('half a question', { delay: 120 });
    await page.keyboard.press('Escape');
    expect(await activeName()).toBe('BODY');
    await page.waitForTimeout(500);
    expect(await panel.isVisible()).toBe(true);
    expect(await panel.locator('input[name="question"]').inputValue()).toBe('half a question');
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(await page.evaluate(() => window.__smalltown!.followed())).toBeNull();

    // F focuses the find box without typing an "f" into it.
    await page.keyboard.press('f');
    expect(await activeName()).toBe('hud-find');
    expect(await page.locator('#hud-find').inputValue()).toBe('');
    await page.keyboard.type('claire', { delay: 40 });
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => window.__smalltown!.inspected())).toBe('claire');
    expect(await activeName()).toBe('BODY');
    // The keys are shortcuts again: "−" zooms out, Esc closes the inspector.
    const zoom = await page.evaluate(() => window.__smalltown!.camera().zoom);
    await page.keyboard.press('-');
    expect(await page.evaluate(() => window.__smalltown!.camera().zoom)).toBeLessThan(zoom);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#panel').isVisible()).toBe(false);

    // Esc in the find box leaves it, too; a name nobody has says so.
    await page.keyboard.press('f');
    await page.keyboard.type('nobody', { delay: 20 });
    await page.keyboard.press('Enter');
    expect(await page.locator('#status').textContent()).toContain('No agent called “nobody”');
    await page.keyboard.press('f');
    await page.keyboard.press('Escape');
    expect(await activeName()).toBe('BODY');
  });

  it('shelves a whisper under "Whispered thoughts", not under Reflections', async () => {
    const panel = await inspect('claire');
    await panel.locator('input[name="whisper"]').fill('The library will host a poetry night on Saturday.');
    await panel.locator('form.whisper-form button').click();
    const whispers = panel.locator('section[data-section="whispers"]');
    await expect.poll(() => whispers.textContent(), { timeout: 15_000 }).toContain('poetry night');
    expect(await whispers.locator('h3').textContent()).toBe('Whispered thoughts');
    expect((await panel.locator('section[data-section="reflections"]').textContent()) ?? '').not.toContain('poetry night');
  });

  it('at full speed, the highlighted plan step is the action the header shows', async () => {
    const panel = await inspect('isabella');
    await page.keyboard.press('5');
    await expect.poll(() => town.town.clock.rate).toBe(3600);
    const samples: Array<{ header: string; step: string | null }> = [];
    for (let i = 0; i < 40; i++) {
      samples.push(
        await page.evaluate(() => ({
          header: document.querySelector('#panel .action')!.textContent!.replace(/^\S+\s/, ''),
          step: document.querySelector('#panel ol.plan li.current .step-what')?.textContent?.replace(/^\S+\s/, '') ?? null,
        })),
      );
      await page.waitForTimeout(100);
    }
    await page.keyboard.press('1');
    await expect.poll(() => town.town.clock.rate).toBe(60);
    // Only the plan's own actions can agree (not sleeping, talking or getting ready).
    const planned = samples.filter((s) => !/^(sleeping|talking with|getting ready)/.test(s.header));
    expect(planned.length).toBeGreaterThan(10);
    // The step comes from the server's inspection (the plan's step at the agent's own clock), asked afresh
    // when the header's action changes: it may trail the header by that round trip (the header of the
    // sample before), and at full speed on a loaded machine an agent still walking to its next step
    // shows the last action while the plan has moved on. Most samples agree; a page that took the step
    // from elsewhere, or never moved it, agrees with almost none.
    const disagree = planned.filter((s) => s.step !== s.header && s.step !== samples[samples.indexOf(s) - 1]?.header);
    expect(disagree.length, JSON.stringify(disagree)).toBeLessThanOrEqual(Math.ceil(planned.length / 4));
    // The step moved with the clock: the samples span several steps.
    expect(new Set(planned.map((s) => s.step)).size).toBeGreaterThan(1);
  });

  for (const [width, height] of [
    [1440, 900],
    [1024, 768],
  ] as const) {
    it(`lays out the bars and panels without overlap at ${width}×${height}, plan numbers in full`, async () => {
      await page.setViewportSize({ width, height });
      const panel = await inspect('isabella');
      await page.keyboard.press('t');
      await expect.poll(() => page.locator('#tools select[name="place"] option').count()).toBeGreaterThan(10);
      const boxes: Record<string, { x: number; y: number; width: number; height: number }> = {};
      for (const id of ['hud', 'panel', 'tools', 'log', 'bottom-bar']) boxes[id] = (await page.locator(`#${id}`).boundingBox())!;
      for (const [id, b] of Object.entries(boxes)) {
        expect(b.x, id).toBeGreaterThanOrEqual(0);
        expect(b.y, id).toBeGreaterThanOrEqual(0);
        expect(b.x + b.width, id).toBeLessThanOrEqual(width + 0.5);
        expect(b.y + b.height, id).toBeLessThanOrEqual(height + 0.5);
      }
      const ids = Object.keys(boxes);
      for (const a of ids)
        for (const b of ids) {
          if (a >= b) continue;
          const p = boxes[a];
          const q = boxes[b];
          const overlap = p.x < q.x + q.width - 0.5 && q.x < p.x + p.width - 0.5 && p.y < q.y + q.height - 0.5 && q.y < p.y + p.height - 0.5;
          expect(overlap, `#${a} and #${b} overlap`).toBe(false);
        }
      // The conversation list shows (with its heading), and the feed heading sits below it, not over it.
      const list = (await page.locator('#conversation-log').boundingBox())!;
      const feedHead = (await page.locator('#log .feed h3').boundingBox())!;
      expect(list.height).toBeGreaterThan(40);
      expect(feedHead.y).toBeGreaterThanOrEqual(list.y + list.height - 0.5);
      const middle = { x: list.x + list.width / 2, y: list.y + list.height / 2 };
      expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('#conversation-log') !== null, middle)).toBe(true);
      // Plan numbers of two digits show whole: "10." is inside the list, not clipped at its left edge.
      const plan = panel.locator('ol.plan');
      const tenth = plan.locator('li').nth(9).locator('.step-no');
      await tenth.scrollIntoViewIfNeeded();
      expect(await tenth.textContent()).toBe('10.');
      const [planBox, noBox] = [(await plan.boundingBox())!, (await tenth.boundingBox())!];
      expect(noBox.x).toBeGreaterThanOrEqual(planBox.x);
      expect(await tenth.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
      await page.screenshot({ path: `test-results/layout-${width}x${height}.png` });
    });
  }

  it('has a favicon: no 404 while the page loads', async () => {
    const fresh = await browser.context.newPage();
    const missing: string[] = [];
    fresh.on('response', (r) => {
      if (r.status() >= 400) missing.push(`${r.status()} ${r.url()}`);
    });
    await fresh.goto(town.url);
    await fresh.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    const icon = await fresh.request.get(`${town.url}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()['content-type']).toMatch(/image/);
    expect(missing).toEqual([]);
    await fresh.close();
  });
});
