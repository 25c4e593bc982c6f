// Zoomed out, agents' emoji and speech bubbles keep their size on screen while the map shrinks: they yield
// rather than pile onto the place names and onto one another (client/src/view/markLayout.ts). In the
// whole-town view at 1280 × 800: the small town at night, when everyone sleeps (😴, beds under the house
// names), and a generated town at 07:15, when some still sleep, some are up and about (action emoji) and
// some talk; then the followed agent's bubble there, close up and zoomed out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, watchConsole, type LaunchedBrowser } from './browser';
import { startTestTown, tempDir } from '../helpers';
import { generateTown } from '../../scripts/generateTown';
import { YIELD_ZOOM } from '../../client/src/view/markLayout';

/** Few enough that everyone on screen has a name, an emoji and a bubble (AgentCrowd's MAX_LABELLED_ON_SCREEN is 150). */
const AGENTS = 120;
const WAIT = { timeout: 30_000 };

interface PageBox {
  left: number;
  top: number;
  width: number;
  height: number;
}

/** Whether two boxes on the page overlap by more than half a pixel each way (rounding is not overlap). */
function overlap(a: PageBox, b: PageBox): boolean {
  const EPS = 0.5;
  return a.left + EPS < b.left + b.width && b.left + EPS < a.left + a.width && a.top + EPS < b.top + b.height && b.top + EPS < a.top + a.height;
}

/**
 * What the page draws now, read in one go after two more frames: emoji and bubbles shown, and place names
 * drawn; and what `id` says, when it said it before those frames too (so that they drew it), else ''.
 */
async function drawnNow(page: Page, id = '') {
  return page.evaluate(async (who) => {
    const hooks = window.__smalltown!;
    const says = () => hooks.agents().find((a) => a.id === who)?.speech ?? '';
    const before = says();
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    return {
      zoom: hooks.camera().zoom,
      marks: hooks.agentBoxes().filter((b) => b.part === 'emoji' || b.part === 'bubble'),
      places: hooks.placeLabels().filter((l) => l.drawn),
      speaking: hooks.agents().filter((a) => a.onScreen && a.speech !== '').length,
      speech: says() === before ? before : '',
    };
  }, id);
}

type Drawn = Awaited<ReturnType<typeof drawnNow>>;

/** Every overlap of a mark with a place name or with another mark, readable. */
function overlaps({ marks, places }: Drawn): string[] {
  const out: string[] = [];
  for (const m of marks) for (const p of places) if (overlap(m, p)) out.push(`${m.id}'s ${m.part} over "${p.text}"`);
  for (let i = 0; i < marks.length; i++)
    for (let j = i + 1; j < marks.length; j++)
      if (overlap(marks[i], marks[j])) out.push(`${marks[i].id}'s ${marks[i].part} over ${marks[j].id}'s ${marks[j].part}`);
  return out;
}

/** A page at 1280 × 800 on the town, once it has drawn its `agents`; its console watched. */
async function openTown(browser: LaunchedBrowser, url: string, agents: number): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.context.newPage();
  const { problems } = watchConsole(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(url);
  await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 90_000 });
  await page.waitForFunction((n) => window.__smalltown!.agents().length === n, agents, { timeout: 60_000 });
  return { page, problems };
}

/** The whole town, fitted, nobody followed. */
async function showWholeTown(page: Page): Promise<void> {
  await page.evaluate(() => window.__smalltown!.follow(null));
  await page.keyboard.press('0');
  await page.waitForFunction(() => Math.abs(Math.log(window.__smalltown!.camera().zoom / window.__smalltown!.camera().fitZoom)) < 0.01, null, WAIT);
}

function describeDrawn(what: string, drawn: Drawn): string {
  const bubbles = drawn.marks.filter((m) => m.part === 'bubble').length;
  return (
    `${what} at zoom ${drawn.zoom.toFixed(3)}: ${drawn.places.length} place names drawn, ${drawn.marks.length} emoji and bubbles shown ` +
    `(${bubbles} bubbles), ${drawn.speaking} agents speaking`
  );
}

describe('sleep emoji in the small town at night, zoomed out', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    town = await startTestTown({ startTime: '2026-02-13T02:00' });
    browser = await launchBrowser();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  it('sit on no house name and on no other, and some still show', async () => {
    const agents = town.town.sim.agents().length;
    const { page, problems } = await openTown(browser, town.url, agents);
    await showWholeTown(page);
    const drawn = await drawnNow(page);
    console.log(describeDrawn(`small town of ${agents} at 02:00`, drawn));
    expect(drawn.zoom).toBeLessThan(YIELD_ZOOM);
    expect(drawn.places.length).toBeGreaterThan(5);
    // Beds stand by the top wall, under the house's name: most 😴 yield, not all.
    expect(drawn.marks.length).toBeGreaterThan(0);
    expect(overlaps(drawn)).toEqual([]);
    expect(problems).toEqual([]);
  });
});

describe('emoji and bubbles in a generated town at breakfast, zoomed out', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    const generated = generateTown({ agents: AGENTS, outDir: tempDir('smalltown-yield-'), seed: 3 });
    town = await startTestTown({ mapFile: generated.mapFile, personasDir: generated.personasDir, startTime: '2026-02-13T07:15' });
    browser = await launchBrowser();
    ({ page, problems } = await openTown(browser, town.url, AGENTS));
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  it('in the whole-town view, no emoji or bubble covers a place name or another, and many still show', async () => {
    await showWholeTown(page);
    // Someone talks on screen (the town wakes and meets at breakfast), and the view is read then.
    await expect.poll(async () => (await drawnNow(page)).speaking, WAIT).toBeGreaterThan(0);
    const drawn = await drawnNow(page);
    console.log(describeDrawn(`generated town of ${AGENTS} at 07:15`, drawn));
    expect(drawn.zoom).toBeLessThan(0.5);
    expect(drawn.places.length).toBeGreaterThan(20);
    // Not hidden all: a good share of the crowd's emoji still show.
    expect(drawn.marks.length).toBeGreaterThanOrEqual(10);
    expect(overlaps(drawn)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('keeps the followed agent’s bubble, close up and zoomed out (over everyone’s, and over no place name)', async () => {
    // A conversation lasts seconds here: whoever speaks now is followed, and another if they fell silent first.
    let checked = false;
    for (let attempt = 0; attempt < 6 && !checked; attempt++) {
      const speaker = await page.waitForFunction(() => window.__smalltown!.agents().find((a) => a.speech !== '')?.id ?? null, null, WAIT);
      const id = (await speaker.jsonValue())!;
      // Followed, it is flown to at the normal zoom, where nothing yields.
      await page.evaluate((who) => window.__smalltown!.follow(who), id);
      await page.waitForFunction(() => window.__smalltown!.camera().zoom >= 0.999, null, WAIT);
      const close = await whenSpeaking(page, id);
      if (!close) continue;
      expect(close.bubble, `${id} says "${close.speech}" at zoom 1`).toBe(true);
      // Zoomed out while following: its bubble shows over everyone's, and no place name is drawn under it.
      const cam = await page.evaluate(() => window.__smalltown!.camera().viewport);
      await page.mouse.move(cam.x + cam.width / 2, cam.y + cam.height / 2);
      for (let i = 0; i < 14; i++) await page.mouse.wheel(0, 120);
      await page.waitForFunction(() => window.__smalltown!.camera().zoom < 0.3, null, WAIT);
      expect(await page.evaluate(() => window.__smalltown!.followed())).toBe(id);
      const far = await whenSpeaking(page, id);
      if (!far) continue;
      console.log(`followed ${id} at zoom ${far.drawn.zoom.toFixed(3)}: "${far.speech}", ${far.drawn.marks.length} emoji and bubbles shown`);
      expect(far.bubble, `${id} says "${far.speech}" at zoom ${far.drawn.zoom}`).toBe(true);
      expect(overlaps(far.drawn)).toEqual([]);
      checked = true;
    }
    expect(checked, 'a followed agent was seen speaking, close up and zoomed out').toBe(true);
    expect(problems).toEqual([]);
    // Each try waits up to 10 s for its speaker's next line, twice.
  }, 180_000);
});

/** The followed agent `id` while it speaks (within 10 s), with what the page draws then; null if it did not speak. */
async function whenSpeaking(page: Page, id: string) {
  for (const end = Date.now() + 10_000; Date.now() < end; await page.waitForTimeout(100)) {
    const drawn = await drawnNow(page, id);
    if (drawn.speech === '') continue;
    return { speech: drawn.speech, bubble: drawn.marks.some((m) => m.id === id && m.part === 'bubble'), drawn };
  }
  return null;
}
