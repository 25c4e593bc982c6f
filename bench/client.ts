// The page's frame rate with a generated town of 1,000 people, all of them in view: headless Chromium
// (Debian's, through playwright-core) on the page `npm start` serves, the server running the town live
// (offline mind, 1×) in its own process on the same machine. Headless Chromium has no GPU: its WebGL
// is SwiftShader (software), so the page picks Phaser's CANVAS renderer (client/src/main.ts
// hardwareWebGl) and so does this benchmark. Frames are counted with requestAnimationFrame over 10 s:
// the whole town (every agent in view, drawn as dots at that zoom), closer (agents as sprites), and
// zoomed in on a part of it (the map from full-size chunks); then the shipped town crowded with 1,000
// clones of its residents, all in view.
// Run alone with `npx tsx bench/client.ts`.
import { build } from 'vite';
import { launchBrowser } from '../tests/e2e/browser';
import { percentile } from './sim';
import { generatedTown, startServerProcess } from './bigTown';
import { clonePersonas } from './fixtures';

const AGENTS = 1000;
const MEASURE_MS = 10_000;

interface Smalltown {
  ready: boolean;
  agents(): Array<{ onScreen: boolean }>;
  camera(): { zoom: number; fitZoom: number };
  follow(id: string | null): void;
}
type PageWindow = Window & { __smalltown?: Smalltown };

type Page = import('playwright-core').Page;

/** Opens the town's page and shows the whole town, held still (free camera), with every agent in view. */
async function openWholeTown(page: Page, url: string): Promise<void> {
  // Functions this file hands the page are compiled by tsx, which names them with a helper the page lacks.
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  await page.goto(url);
  await page.waitForFunction(() => (window as PageWindow).__smalltown?.ready === true, null, { timeout: 300_000 });
  await page.waitForFunction((n) => (window as PageWindow).__smalltown!.agents().length >= n, AGENTS, { timeout: 300_000 });
  await page.evaluate(() => (window as PageWindow).__smalltown!.follow(null));
  await page.keyboard.press('0');
  await page.waitForFunction((n) => (window as PageWindow).__smalltown!.agents().filter((a) => a.onScreen).length >= n, AGENTS, {
    timeout: 60_000,
    polling: 500,
  });
}

export async function benchClient(): Promise<Record<string, number>> {
  await build({ configFile: 'client/vite.config.ts', logLevel: 'error' });
  return { ...(await benchGeneratedTown()), ...(await benchCrowd()) };
}

/** A generated town of 1,000: the whole town, closer, zoomed in. */
async function benchGeneratedTown(): Promise<Record<string, number>> {
  const server = await startServerProcess(generatedTown(AGENTS), { START_TIME: '2026-02-13T08:30' });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await openWholeTown(page, server.url);
    const webgl = await page.evaluate(() => {
      const canvas = document.querySelector('#game canvas') as HTMLCanvasElement;
      return canvas.getContext('webgl2') !== null || canvas.getContext('webgl') !== null;
    });
    const whole = await measureFrames(page);
    const inView = await page.evaluate(() => (window as PageWindow).__smalltown!.agents().filter((a) => a.onScreen).length);
    // Closer, where agents are sprites again (zoom about 0.25), as many as are in view.
    const inViewNow = () => page.evaluate(() => (window as PageWindow).__smalltown!.agents().filter((a) => a.onScreen).length);
    for (let i = 0; i < 8; i++) await page.keyboard.press('+');
    await new Promise((r) => setTimeout(r, 3000));
    const sprites = await measureFrames(page);
    const spritesInView = await inViewNow();
    // Zoomed in on the middle of the town (about 0.5), where the map is drawn from full-size chunks.
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    await new Promise((r) => setTimeout(r, 3000));
    const zoomed = await measureFrames(page);
    const zoomedInView = await inViewNow();
    return {
      [`client.fps.agents_${AGENTS}`]: whole.fps,
      [`client.frame_p99_ms.agents_${AGENTS}`]: whole.p99,
      [`client.agents_in_view.agents_${AGENTS}`]: inView,
      [`client.fps_sprites.agents_${AGENTS}`]: sprites.fps,
      [`client.agents_in_view_sprites.agents_${AGENTS}`]: spritesInView,
      [`client.fps_zoomed.agents_${AGENTS}`]: zoomed.fps,
      [`client.agents_in_view_zoomed.agents_${AGENTS}`]: zoomedInView,
      'client.webgl': webgl ? 1 : 0,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The shipped town (100 × 80 tiles) crowded with 1,000 clones of its 10 residents, all in view at once. */
async function benchCrowd(): Promise<Record<string, number>> {
  const server = await startServerProcess({ mapFile: 'maps/town.tmj', personasDir: clonePersonas(AGENTS) }, { START_TIME: '2026-02-13T08:30' });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await openWholeTown(page, server.url);
    const crowd = await measureFrames(page);
    return { [`client.fps.crowd_${AGENTS}`]: crowd.fps, [`client.frame_p99_ms.crowd_${AGENTS}`]: crowd.p99 };
  } finally {
    await browser.close();
    await server.close();
  }
}

async function measureFrames(page: Page): Promise<{ fps: number; p99: number }> {
  const deltas = await page.evaluate(
    (ms) =>
      new Promise<number[]>((resolve) => {
        const out: number[] = [];
        const t0 = performance.now();
        let last = t0;
        const frame = (t: number) => {
          out.push(t - last);
          last = t;
          if (t - t0 < ms) requestAnimationFrame(frame);
          else resolve(out);
        };
        requestAnimationFrame(frame);
      }),
    MEASURE_MS,
  );
  const total = deltas.reduce((a, b) => a + b, 0);
  return { fps: (1000 * deltas.length) / total, p99: percentile(deltas.slice(1), 99) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  benchClient().then((r) => console.table(r));
}
