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
  /** Tiles of that layer, in order of preference: the first that nothing drawn for an agent covers is read. */
  tiles: Array<[number, number]>;
  /** Where in the tile, px (default 8, 5). */
  at?: [number, number];
  colour: number[];
}

type Box = { id: string; left: number; top: number; width: number; height: number };

/** The rectangle each box sweeps from one read to the next: a box of an agent paired with its box of the same size after. */
function spans(before: Box[], after: Box[]): Box[] {
  return before.flatMap((b) =>
    after
      .filter((a) => a.id === b.id && Math.abs(a.width - b.width) <= 1 && Math.abs(a.height - b.height) <= 1)
      .map((a) => {
        const left = Math.min(a.left, b.left);
        const top = Math.min(a.top, b.top);
        return { id: b.id, left, top, width: Math.max(a.left + a.width, b.left + b.width) - left, height: Math.max(a.top + a.height, b.top + b.height) - top };
      }),
  );
}

const MAPS: Array<{ name: string; mapFile: string; personasDir: string; tiles: [number, number]; ids: string[]; samples: Sample[] }> = [
  {
    name: 'an adopted map',
    mapFile: 'tests/fixtures/adopted/maps/meadow.tmj',
    personasDir: 'tests/fixtures/adopted/personas',
    tiles: [12, 8],
    ids: ['rowan', 'sage'],
    // Tiles no panel covers: a wall, grass in the south-east, the tent's floor (layers "Buildings/Walls",
    // "Terrain", "Buildings/Floors"), and the canopy. Residents walk, and their names and speech bubbles
    // (wide at this zoom) may lie over a tile when the screen is read: then the next tile of the layer is read.
    samples: [
      {
        what: 'wall (Buildings/Walls)',
        tiles: [
          [0, 1],
          [11, 3],
          [4, 4],
          [0, 2],
        ],
        colour: WALL,
      },
      {
        what: 'grass (Terrain)',
        tiles: [
          [10, 6],
          [8, 5],
          [6, 6],
          [9, 4],
        ],
        colour: GRASS,
      },
      {
        what: 'floor (Buildings/Floors)',
        tiles: [
          [3, 3],
          [1, 3],
          [3, 1],
          [1, 1],
          [2, 2],
        ],
        colour: FLOOR,
      },
      {
        what: 'leaves (Above Player)',
        tiles: [
          [9, 1],
          [8, 2],
          [8, 1],
          [9, 2],
        ],
        at: [8, 20],
        colour: LEAVES,
      },
    ],
  },
  {
    name: 'a Phaser-shaped map, adopted',
    mapFile: 'tests/fixtures/phaser/maps/town-adopted.json',
    personasDir: 'tests/fixtures/phaser/personas',
    tiles: [16, 12],
    ids: ['ivy', 'moss'],
    samples: [
      {
        what: 'wall (World)',
        tiles: [
          [8, 4],
          [8, 2],
          [1, 4],
          [4, 1],
        ],
        colour: WALL,
      },
      {
        what: 'grass (Below Player)',
        tiles: [
          [15, 11],
          [12, 9],
          [14, 6],
          [10, 2],
        ],
        colour: GRASS,
      },
      {
        what: 'floor (Below Player)',
        tiles: [
          [6, 6],
          [3, 3],
          [5, 4],
          [6, 2],
        ],
        colour: FLOOR,
      },
      {
        what: 'leaves (Above Player)',
        tiles: [
          [13, 2],
          [11, 2],
          [12, 2],
        ],
        at: [8, 20],
        colour: LEAVES,
      },
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
      // What agents draw is asked just before and just after the screenshot. A resident walking between the two reads is
      // drawn somewhere on the way when the screen is read, so a tile under either box, or between a box and the same
      // box after (the rectangle spanning both), is not read.
      const agentBoxes = () => page.evaluate(() => window.__smalltown!.agentBoxes());
      const before = await agentBoxes();
      const shot = PNG.sync.read(await page.screenshot({ path: `test-results/${path.basename(fixture.mapFile)}.png` }));
      const after = await agentBoxes();
      const overAgents = [...before, ...after, ...spans(before, after)];
      const { zoom, viewport } = cam;
      const left = viewport.x + viewport.width / 2 - cam.centerX * zoom;
      const top = viewport.y + viewport.height / 2 - cam.centerY * zoom;
      expect(left).toBeGreaterThanOrEqual(0);
      expect(left + MAP_W * zoom).toBeLessThanOrEqual(shot.width);
      expect(top + MAP_H * zoom).toBeLessThanOrEqual(shot.height);
      const point = (tx: number, ty: number, [dx, dy]: [number, number]) => [
        Math.round(left + (tx * TILE + dx) * zoom),
        Math.round(top + (ty * TILE + dy) * zoom),
      ];
      const covered = ([x, y]: number[]) => overAgents.some((b) => x >= b.left - 2 && x <= b.left + b.width + 2 && y >= b.top - 2 && y <= b.top + b.height + 2);
      const near = (c: number[], want: number[]) => c.every((v, i) => Math.abs(v - want[i]) <= 4);
      for (const sample of fixture.samples) {
        const free = sample.tiles.map((t) => ({ t, p: point(t[0], t[1], sample.at ?? [8, 5]) })).find(({ p }) => !covered(p));
        expect(free, `${sample.what}: every tile tried is under an agent's sprite, name or bubble`).toBeDefined();
        const o = (free!.p[1] * shot.width + free!.p[0]) * 4;
        const colour = [shot.data[o], shot.data[o + 1], shot.data[o + 2]];
        expect(colour, `${sample.what} at ${free!.t.join(',')}`).toSatisfy((c: number[]) => near(c, sample.colour));
      }
    });
  });
