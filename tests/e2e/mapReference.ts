// A map composed here from its file, to check what the page paints: each map pixel's colour from the
// drawn layers' tiles in the tileset images (read with pngjs), over the page's background. And how much
// of the town's viewport matches it, read from a screenshot at sampled points that nothing drawn for an
// agent or a place name covers; with the same screen read against two controls that must match less:
// the map one tile to the right, and the map without its walls.
import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';
import type { Page } from 'playwright-core';
import { drawnLayers } from '../../server/src/protocol/mapLayers';

type Rgb = [number, number, number];
/** The page's background (client/src/main.ts), under the map's transparent pixels. */
const BACKGROUND: Rgb = [0x1d, 0x23, 0x30];

interface TiledJson {
  width: number;
  height: number;
  tilewidth: number;
  layers: Array<{ name: string; type: string; data?: number[] }>;
  tilesets: Array<{ firstgid: number; image: string; columns: number; margin?: number; spacing?: number }>;
}

export interface MapReference {
  tilePx: number;
  widthPx: number;
  heightPx: number;
  /** A map pixel's colour; `skip`: a layer left out. */
  pixel(wx: number, wy: number, skip?: string): Rgb;
}

/** The reference of a map whose drawn layers are top-level tile layers with JSON array data (a generated town's). */
export function mapReference(mapFile: string): MapReference {
  const map = JSON.parse(fs.readFileSync(mapFile, 'utf8')) as TiledJson;
  const px = map.tilewidth;
  const layers = drawnLayers(map).map((d) => ({ name: d.name, data: map.layers.find((l) => l.name === d.name)!.data! }));
  const tilesets = [...map.tilesets]
    .sort((a, b) => b.firstgid - a.firstgid)
    .map((ts) => ({ ...ts, png: PNG.sync.read(fs.readFileSync(path.resolve(path.dirname(mapFile), ts.image))) }));
  return {
    tilePx: px,
    widthPx: map.width * px,
    heightPx: map.height * px,
    pixel(wx, wy, skip) {
      const [x, y] = [Math.floor(wx), Math.floor(wy)];
      const out: Rgb = [...BACKGROUND];
      if (x < 0 || y < 0 || x >= map.width * px || y >= map.height * px) return out;
      const cell = Math.floor(y / px) * map.width + Math.floor(x / px);
      for (const layer of layers) {
        const gid = layer.data[cell];
        const ts = gid ? tilesets.find((t) => t.firstgid <= gid) : undefined;
        if (layer.name === skip || !ts) continue;
        const id = gid - ts.firstgid;
        const step = px + (ts.spacing ?? 0);
        const sx = (ts.margin ?? 0) + (id % ts.columns) * step + (x % px);
        const sy = (ts.margin ?? 0) + Math.floor(id / ts.columns) * step + (y % px);
        const i = (sy * ts.png.width + sx) * 4;
        const a = ts.png.data[i + 3] / 255;
        for (let c = 0; c < 3; c++) out[c] = ts.png.data[i + c] * a + out[c] * (1 - a);
      }
      return out;
    },
  };
}

/** Where the control differs from the map: how many points, the share the map matches there, and the control's. */
interface ControlShare {
  n: number;
  real: number;
  control: number;
}

const distance = (a: Rgb, b: Rgb) => Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));

/**
 * Holds the camera still, reads the screen, and gives the share of sampled points whose colour matches the map
 * there: exactly (within a world pixel, for full-size chunks) or, `fuzzy`, the average of 4 × 4 map pixels within
 * a screen pixel of it (an overview's pixel is an average, and the screen shows one of several). The controls:
 * `shifted`, the map a tile to the right; `withoutWalls`, the map without its `walls` layer.
 */
export async function matchedShare(
  page: Page,
  ref: MapReference,
  { fuzzy }: { fuzzy: boolean },
): Promise<{ samples: number; share: number; shifted: ControlShare; withoutWalls: ControlShare; misses: string[] }> {
  let cam = await page.evaluate(() => window.__smalltown!.camera());
  for (let still = 0; still < 3;) {
    await page.waitForTimeout(300);
    const before = cam;
    cam = await page.evaluate(() => window.__smalltown!.camera());
    still = cam.zoom === before.zoom && cam.centerX === before.centerX && cam.centerY === before.centerY ? still + 1 : 0;
  }
  // Chunks come two a frame.
  await page.waitForTimeout(2000);
  const covers = () =>
    page.evaluate(() => [
      ...window.__smalltown!.agentBoxes(),
      ...window
        .__smalltown!.placeLabels()
        .filter((l) => l.drawn)
        .map((l) => ({ left: l.left, top: l.top, width: l.width, height: l.height })),
      // Dots at whole-town zoom: a few px above the agent's feet.
      ...window
        .__smalltown!.agents()
        .filter((a) => a.onScreen)
        .map((a) => ({ left: a.x - 8, top: a.y - 14, width: 16, height: 18 })),
    ]);
  // Points under the page's panels and bars (HTML over the canvas) are not the map.
  const onCanvas = async (points: Array<[number, number]>) =>
    new Set(await page.evaluate((ps) => ps.filter(([x, y]) => document.elementFromPoint(x, y)?.tagName === 'CANVAS').map(([x, y]) => `${x},${y}`), points));
  const before = await covers();
  const shot = PNG.sync.read(await page.screenshot());
  const covered = [...before, ...(await covers())];
  const { zoom, viewport } = cam;
  const left = viewport.x + viewport.width / 2 - cam.centerX * zoom;
  const top = viewport.y + viewport.height / 2 - cam.centerY * zoom;
  const matches = (seen: Rgb, wx: number, wy: number, skip?: string): boolean => {
    if (!fuzzy) {
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) if (distance(seen, ref.pixel(wx + dx, wy + dy, skip)) <= 12) return true;
      return false;
    }
    const reach = Math.ceil(1 / zoom);
    for (let dy = -reach; dy <= reach; dy += 2)
      for (let dx = -reach; dx <= reach; dx += 2) {
        const mean: Rgb = [0, 0, 0];
        for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) ref.pixel(wx + dx + x - 2, wy + dy + y - 2, skip).forEach((v, c) => (mean[c] += v / 16));
        if (distance(seen, mean) <= 24) return true;
      }
    return false;
  };
  // A control is read only where it differs from the map (most of a town is grass, the same a tile to the right).
  const look = (wx: number, wy: number, skip?: string) => ref.pixel(Math.floor(wx), Math.floor(wy), skip);
  const controls = { shifted: { dx: ref.tilePx, skip: undefined }, withoutWalls: { dx: 0, skip: 'walls' } };
  const tally = { shifted: { n: 0, real: 0, control: 0 }, withoutWalls: { n: 0, real: 0, control: 0 } };
  let samples = 0;
  let hits = 0;
  const misses: string[] = [];
  const grid: Array<[number, number]> = [];
  for (let gy = 0; gy < 24; gy++)
    for (let gx = 0; gx < 30; gx++)
      grid.push([
        Math.round(viewport.x + 12 + ((viewport.width - 24) * (gx + 0.5)) / 30),
        Math.round(viewport.y + 12 + ((viewport.height - 24) * (gy + 0.5)) / 24),
      ]);
  const canvas = await onCanvas(grid);
  for (const [sx, sy] of grid) {
    if (!canvas.has(`${sx},${sy}`)) continue;
    const wx = (sx + 0.5 - left) / zoom;
    const wy = (sy + 0.5 - top) / zoom;
    if (wx < 2 || wy < 2 || wx > ref.widthPx - 2 || wy > ref.heightPx - 2) continue;
    if (covered.some((b) => sx >= b.left - 3 && sx <= b.left + b.width + 3 && sy >= b.top - 3 && sy <= b.top + b.height + 3)) continue;
    const i = (sy * shot.width + sx) * 4;
    const seen: Rgb = [shot.data[i], shot.data[i + 1], shot.data[i + 2]];
    samples++;
    const real = matches(seen, wx, wy);
    if (real) hits++;
    else if (misses.length < 5) misses.push(`(${sx},${sy}) seen ${seen.join(' ')} map ${look(wx, wy).map(Math.round).join(' ')}`);
    for (const [name, c] of Object.entries(controls) as Array<[keyof typeof controls, (typeof controls)['shifted']]>) {
      if (distance(look(wx, wy), look(wx + c.dx, wy, c.skip)) <= 40) continue;
      tally[name].n++;
      if (real) tally[name].real++;
      if (matches(seen, wx + c.dx, wy, c.skip)) tally[name].control++;
    }
  }
  const share = (n: number, of: number) => Math.round((1000 * n) / Math.max(1, of)) / 1000;
  const control = (t: { n: number; real: number; control: number }) => ({ n: t.n, real: share(t.real, t.n), control: share(t.control, t.n) });
  return { samples, share: share(hits, samples), shifted: control(tally.shifted), withoutWalls: control(tally.withoutWalls), misses };
}
