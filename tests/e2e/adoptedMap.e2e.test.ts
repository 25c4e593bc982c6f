// Maps from elsewhere in a real browser: layers named otherwise (a group among them), the tileset in
// a sibling folder (../tilesets/), a layer above the agents; and the Phaser-example-shaped map adopted
// by adding layers (tests/fixtures/phaser). The page must draw their tiles.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startTestTown } from '../helpers';

const TILE = 32;
// The fixtures' tile colours (tests/fixtures/adopted/tilesets/meadow.png, tests/fixtures/phaser/tilesets/tuxlike.png).
const GRASS = [76, 175, 80];
const WALL = [127, 140, 141];
const FLOOR = [200, 161, 101];
const LEAVES = [30, 107, 48];

interface Sample {
  what: string;
  tile: [number, number];
  /** Where in the tile, px (default 8, 5). */
  at?: [number, number];
  colour: number[];
}

const MAPS: Array<{ name: string; mapFile: string; personasDir: string; tiles: [number, number]; ids: string[]; samples: Sample[] }> = [
  {
    name: 'an adopted map',
    mapFile: 'tests/fixtures/adopted/maps/meadow.tmj',
    personasDir: 'tests/fixtures/adopted/personas',
    tiles: [12, 8],
    ids: ['rowan', 'sage'],
    // Tiles no resident stands on and no panel covers: a wall, grass in the south-east,
    // the tent's floor (layers "Buildings/Walls", "Terrain", "Buildings/Floors"), and the canopy.
    samples: [
      { what: 'wall at 0,1 (Buildings/Walls)', tile: [0, 1], colour: WALL },
      { what: 'grass at 10,6 (Terrain)', tile: [10, 6], colour: GRASS },
      { what: 'floor at 3,3 (Buildings/Floors)', tile: [3, 3], colour: FLOOR },
      { what: 'leaves at 9,1 (Above Player)', tile: [9, 1], at: [8, 20], colour: LEAVES },
    ],
  },
  {
    name: 'a Phaser-shaped map, adopted',
    mapFile: 'tests/fixtures/phaser/maps/town-adopted.json',
    personasDir: 'tests/fixtures/phaser/personas',
    tiles: [16, 12],
    ids: ['ivy', 'moss'],
    samples: [
      { what: 'wall at 8,4 (World)', tile: [8, 4], colour: WALL },
      { what: 'grass at 15,11 (Below Player)', tile: [15, 11], colour: GRASS },
      { what: 'floor at 6,6 (Below Player)', tile: [6, 6], colour: FLOOR },
      { what: 'leaves at 13,2 (Above Player)', tile: [13, 2], at: [8, 20], colour: LEAVES },
    ],
  },
];

for (const fixture of MAPS)
  describe(`${fixture.name} in the browser`, () => {
    const MAP_W = fixture.tiles[0] * TILE;
    const MAP_H = fixture.tiles[1] * TILE;
    let town: Awaited<ReturnType<typeof startTestTown>>;
    let browser: LaunchedBrowser;
    let page: Page;
    const errors: string[] = [];

    beforeAll(async () => {
      town = await startTestTown({
        mapFile: fixture.mapFile,
        personasDir: fixture.personasDir,
        startTime: '2026-02-13T12:00',
        rate: 60,
      });
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
      await expect.poll(async () => (await page.evaluate(() => window.__smalltown!.agents())).map((a) => a.id).sort()).toEqual(fixture.ids);
    });

    it('draws the tiles of every visible layer where they are, the layer above the agents included', async () => {
      // Show the whole map and hold still (auto-follow off), let the flight end, then read the screen.
      // Where the map's origin is on screen follows from the camera: its centre and zoom.
      await page.locator('body').press('0');
      let cam = await page.evaluate(() => window.__smalltown!.camera());
      await expect
        .poll(async () => {
          const before = cam;
          cam = await page.evaluate(() => window.__smalltown!.camera());
          return cam.mode === 'free' && cam.zoom === before.zoom && cam.centerX === before.centerX && cam.centerY === before.centerY;
        })
        .toBe(true);
      await page.waitForTimeout(300);
      fs.mkdirSync('test-results', { recursive: true });
      const shot = PNG.sync.read(await page.screenshot({ path: `test-results/${path.basename(fixture.mapFile)}.png` }));
      const { zoom, viewport } = cam;
      const left = viewport.x + viewport.width / 2 - cam.centerX * zoom;
      const top = viewport.y + viewport.height / 2 - cam.centerY * zoom;
      expect(left).toBeGreaterThanOrEqual(0);
      expect(left + MAP_W * zoom).toBeLessThanOrEqual(shot.width);
      expect(top + MAP_H * zoom).toBeLessThanOrEqual(shot.height);
      const at = (tx: number, ty: number, dx = 8, dy = 5) => {
        const o = (Math.round(top + (ty * TILE + dy) * zoom) * shot.width + Math.round(left + (tx * TILE + dx) * zoom)) * 4;
        return [shot.data[o], shot.data[o + 1], shot.data[o + 2]];
      };
      const near = (c: number[], want: number[]) => c.every((v, i) => Math.abs(v - want[i]) <= 4);
      for (const sample of fixture.samples)
        expect(at(sample.tile[0], sample.tile[1], ...(sample.at ?? [8, 5])), sample.what).toSatisfy((c: number[]) => near(c, sample.colour));
    });
  });
