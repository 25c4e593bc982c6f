// A map from elsewhere in a real browser: layers named otherwise (a group among them), its tileset in
// a sibling folder (../tilesets/), a layer above the agents. The page must draw its tiles.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startTestTown } from '../helpers';

const TILE = 32;
const MAP_W = 12 * TILE;
const MAP_H = 8 * TILE;
// The fixture's tile colours (tests/fixtures/adopted/tilesets/meadow.png).
const GRASS = [76, 175, 80];
const WALL = [127, 140, 141];
const FLOOR = [200, 161, 101];
const LEAVES = [30, 107, 48];

describe('an adopted map in the browser', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  let page: Page;
  const errors: string[] = [];

  beforeAll(async () => {
    town = await startTestTown({ mapFile: 'tests/fixtures/adopted/maps/meadow.tmj', personasDir: 'tests/fixtures/adopted/personas', startTime: '2026-02-13T12:00', rate: 60 });
    browser = await launchBrowser();
    page = await browser.context.newPage();
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(town.url);
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  it('loads the map and its tileset from the sibling folder, with no errors, and shows its residents', async () => {
    expect(await page.evaluate(() => window.__smalltown!.scene)).toContain('Town');
    expect(errors).toEqual([]);
    await expect.poll(async () => (await page.evaluate(() => window.__smalltown!.agents())).map((a) => a.id).sort()).toEqual(['rowan', 'sage']);
  });

  it('draws the tiles of every visible layer where they are, the layer above the agents included', async () => {
    // Let a few frames draw, then read the screen. Where the map's origin is on screen follows from
    // any agent: its screen position less its world position (zoom 1).
    await page.waitForTimeout(500);
    fs.mkdirSync('test-results', { recursive: true });
    const shot = PNG.sync.read(await page.screenshot({ path: 'test-results/adopted-map.png' }));
    const [agent] = await page.evaluate(() => window.__smalltown!.agents());
    const left = Math.round(agent.x - agent.worldX);
    const top = Math.round(agent.y - agent.worldY);
    expect(left + MAP_W).toBeLessThanOrEqual(shot.width);
    expect(top + MAP_H).toBeLessThanOrEqual(shot.height);
    const at = (tx: number, ty: number, dx = 8, dy = 5) => {
      const o = ((top + ty * TILE + dy) * shot.width + (left + tx * TILE + dx)) * 4;
      return [shot.data[o], shot.data[o + 1], shot.data[o + 2]];
    };
    const near = (c: number[], want: number[]) => c.every((v, i) => Math.abs(v - want[i]) <= 4);
    // Tiles no resident stands on and the page's bar does not cover: a wall, grass in the south-west,
    // the tent's floor (layers "Buildings/Walls", "Terrain", "Buildings/Floors"), and the canopy.
    expect(at(0, 5), 'wall at 0,5 (Buildings/Walls)').toSatisfy((c: number[]) => near(c, WALL));
    expect(at(1, 6), 'grass at 1,6 (Terrain)').toSatisfy((c: number[]) => near(c, GRASS));
    expect(at(3, 3), 'floor at 3,3 (Buildings/Floors)').toSatisfy((c: number[]) => near(c, FLOOR));
    expect(at(9, 1, 8, 20), 'leaves at 9,1 (Above Player)').toSatisfy((c: number[]) => near(c, LEAVES));
  });
});
