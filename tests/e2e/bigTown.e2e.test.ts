// A generated town of a few hundred in the browser: a map larger than one texture may be (drawn as a
// scaled overview, and in full-size chunks when zoomed in), everyone in view at once, and place names
// that never cover one another. The map is painted from its tile data (client/src/view/tilePainter.ts):
// what the page shows is compared with the tiles composed here from the map file and the tileset image.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startTestTown, tempDir } from '../helpers';
import { generateTown } from '../../scripts/generateTown';
import { mapReference, matchedShare } from './mapReference';

const AGENTS = 200;

/** How many distinct colours the town's viewport shows (a blank or unbaked map has a handful). */
async function coloursInView(page: Page): Promise<number> {
  const cam = await page.evaluate(() => window.__smalltown!.camera());
  const shot = PNG.sync.read(
    await page.screenshot({
      clip: { x: cam.viewport.width / 2, y: cam.viewport.y + 10, width: cam.viewport.width / 2 - 10, height: cam.viewport.height - 20 },
    }),
  );
  const seen = new Set<number>();
  for (let i = 0; i < shot.data.length; i += 4) seen.add((shot.data[i] << 16) | (shot.data[i + 1] << 8) | shot.data[i + 2]);
  return seen.size;
}

describe('a generated town in the browser', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  let page: Page;
  let mapFile: string;
  const errors: string[] = [];

  beforeAll(async () => {
    const out = tempDir('smalltown-gen-');
    const generated = generateTown({ agents: AGENTS, outDir: out, seed: 3 });
    expect(generated.widthTiles * 32).toBeGreaterThan(4096);
    mapFile = generated.mapFile;
    town = await startTestTown({ mapFile: generated.mapFile, personasDir: generated.personasDir, startTime: '2026-02-13T10:00' });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.goto(town.url);
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 90_000 });
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  it('shows the whole town with everyone in it', async () => {
    await page.waitForFunction((n) => window.__smalltown!.agents().length === n, AGENTS, { timeout: 60_000 });
    await page.evaluate(() => window.__smalltown!.follow(null));
    await page.keyboard.press('0');
    await page.waitForFunction((n) => window.__smalltown!.agents().filter((a) => a.onScreen).length === n, AGENTS, { timeout: 30_000 });
    const cam = await page.evaluate(() => window.__smalltown!.camera());
    expect(cam.zoom).toBeLessThan(0.2);
    // The scaled overview is drawn: grass, roads, roofs, furniture.
    expect(await coloursInView(page)).toBeGreaterThan(200);
    expect(errors).toEqual([]);
  });

  it('follows the agent whose dot is clicked at whole-town zoom, and "⌂ town" flies back out in under a second', async () => {
    await page.keyboard.press('0');
    await page.waitForFunction(() => Math.abs(Math.log(window.__smalltown!.camera().zoom / window.__smalltown!.camera().fitZoom)) < 0.02);
    // Standing still, on screen and on the canvas itself (not under the log, the clock bar or the bottom bar).
    const standing = () =>
      page.evaluate(() =>
        window.__smalltown!.agents().filter((a) => a.onScreen && !a.walking && document.elementFromPoint(a.x, a.y - 2)?.tagName === 'CANVAS'),
      );
    // The standing agent farthest from any other on screen, walking or not: a click on its dot can mean only it. The
    // town lives on while the pointer travels, so the dot is looked at again under the pointer, and another chosen if it moved off.
    const onScreen = () => page.evaluate(() => window.__smalltown!.agents().filter((a) => a.onScreen));
    let lone: Awaited<ReturnType<typeof standing>>[number] | undefined;
    for (let attempt = 0; attempt < 5 && !lone; attempt++) {
      const [agents, everyone] = [await standing(), await onScreen()];
      const pick = agents
        .map((a) => ({ a, gap: Math.min(...everyone.filter((b) => b.id !== a.id).map((b) => Math.hypot(a.x - b.x, a.y - b.y))) }))
        .sort((p, q) => q.gap - p.gap)[0].a;
      await page.mouse.move(pick.x - 30, pick.y - 30);
      await page.mouse.move(pick.x, pick.y - 2, { steps: 5 });
      const now = (await standing()).find((a) => a.id === pick.id);
      if (now && Math.hypot(now.x - pick.x, now.y - pick.y) < 1) lone = pick;
    }
    if (!lone) throw new Error('no agent stood still under the pointer in 5 tries');
    await page.mouse.down();
    await page.mouse.up();
    await expect.poll(() => page.evaluate(() => window.__smalltown!.followed()), { timeout: 5000 }).toBe(lone.id);
    await expect.poll(() => page.locator('#panel h2').textContent()).toBe(lone.name);
    await page.waitForTimeout(1500);
    // Timed in the page, from the click to the frame that shows the whole town (the flight is 600 ms of real time).
    await page.evaluate(() => {
      const w = window as unknown as { zoomOut: { t0: number; t1: number } };
      w.zoomOut = { t0: 0, t1: 0 };
      document.getElementById('hud-whole')!.addEventListener('click', () => (w.zoomOut.t0 = performance.now()), { once: true });
      const check = () => {
        const cam = window.__smalltown!.camera();
        if (w.zoomOut.t0 && Math.abs(Math.log(cam.zoom / cam.fitZoom)) < 0.02) w.zoomOut.t1 = performance.now();
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
    await page.locator('#hud-whole').click();
    await page.waitForFunction(() => (window as unknown as { zoomOut: { t1: number } }).zoomOut.t1 > 0, null, { timeout: 10_000 });
    const took = await page.evaluate(() => {
      const z = (window as unknown as { zoomOut: { t0: number; t1: number } }).zoomOut;
      return z.t1 - z.t0;
    });
    expect(took).toBeLessThan(1000);
    await page.keyboard.press('Escape');
    expect(errors).toEqual([]);
  });

  it('keeps the bigger places named where names would overlap, and no name covers another', async () => {
    const labels = (await page.evaluate(() => window.__smalltown!.placeLabels())).filter((l) => l.visible);
    expect(labels.length).toBeGreaterThan(5);
    expect(labels.some((l) => l.text === 'Town Hall' || l.text.endsWith(' Park'))).toBe(true);
    for (let i = 0; i < labels.length; i++)
      for (let j = i + 1; j < labels.length; j++) {
        const [a, b] = [labels[i], labels[j]];
        const overlap = a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
        expect(overlap, `${a.text} / ${b.text}`).toBe(false);
      }
    // More places than fit: some names wait for a closer look.
    expect((await page.evaluate(() => window.__smalltown!.placeLabels())).filter((l) => l.kind === 'sector' && !l.visible).length).toBeGreaterThan(0);
  });

  it('draws the map when zoomed in, with room names', async () => {
    for (let i = 0; i < 14; i++) await page.keyboard.press('+');
    await page.waitForFunction(() => window.__smalltown!.camera().zoom > 0.6, null, { timeout: 10_000 });
    await expect.poll(() => coloursInView(page), { timeout: 15_000 }).toBeGreaterThan(200);
    const labels = await page.evaluate(() => window.__smalltown!.placeLabels());
    const rooms = labels.filter((l) => l.kind === 'arena' && l.visible);
    expect(rooms.length).toBeGreaterThan(0);
    // Only the names in the camera's view are drawn (thousands are shown at this zoom; drawing them all took most of a frame).
    const cam = await page.evaluate(() => window.__smalltown!.camera().viewport);
    const inView = (l: (typeof labels)[number]) =>
      l.left + l.width > cam.x && l.left < cam.x + cam.width && l.top + l.height > cam.y && l.top < cam.y + cam.height;
    const drawn = labels.filter((l) => l.drawn);
    expect(drawn.length).toBeGreaterThan(0);
    expect(drawn.length).toBeLessThan(labels.filter((l) => l.visible).length / 2);
    for (const l of drawn) expect(l.visible && inView(l), l.text).toBe(true);
    for (const l of labels.filter((x) => x.visible && inView(x))) expect(l.drawn, l.text).toBe(true);
    expect(errors).toEqual([]);
  });

  it('paints the tiles where they are: the overview at whole-town zoom, full-size chunks zoomed in (a map shifted a tile does not match)', async () => {
    const reference = mapReference(mapFile);
    // At whole-town zoom an overview pixel is the average of a few map pixels, and the screen shows one of them.
    await page.keyboard.press('0');
    const whole = await matchedShare(page, reference, { fuzzy: true });
    // Zoomed in to full size, where chunks painted tile by tile are drawn (two a frame: let them come in).
    for (let i = 0; i < 30 && (await page.evaluate(() => window.__smalltown!.camera().zoom)) < 1; i++) await page.keyboard.press('+');
    const close = await matchedShare(page, reference, { fuzzy: false });
    console.log(`map painted: overview ${JSON.stringify(whole)}, chunks ${JSON.stringify(close)}`);
    expect(whole.samples).toBeGreaterThan(200);
    expect(close.samples).toBeGreaterThan(200);
    expect(whole.share).toBeGreaterThan(0.9);
    expect(close.share).toBeGreaterThan(0.9);
    // The controls, where they differ from the map: the same screens read against the map a tile to the right, and without its walls.
    for (const c of [whole.shifted, close.shifted, whole.withoutWalls, close.withoutWalls]) {
      expect(c.n).toBeGreaterThanOrEqual(10);
      expect(c.real).toBeGreaterThan(0.8);
      expect(c.control).toBeLessThan(0.4);
    }
    expect(errors).toEqual([]);
  }, 120_000);
});
