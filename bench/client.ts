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
  agents(): Array<{ id: string; name: string; x: number; y: number; onScreen: boolean; walking: boolean }>;
  camera(): { zoom: number; fitZoom: number };
  follow(id: string | null): void;
  inspected(): string | null;
}
type PageWindow = Window & { __smalltown?: Smalltown };

type Page = import('playwright-core').Page;

/** Opens the town's page and shows the whole town, held still (free camera), with every agent in view. */
export async function openWholeTown(page: Page, url: string, agents = AGENTS): Promise<void> {
  // Functions this file hands the page are compiled by tsx, which names them with a helper the page lacks.
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  await page.goto(url, { timeout: 600_000, waitUntil: 'commit' });
  await page.waitForFunction(() => (window as PageWindow).__smalltown?.ready === true, null, { timeout: 600_000 });
  await page.waitForFunction((n) => (window as PageWindow).__smalltown!.agents().length >= n, agents, { timeout: 300_000 });
  await page.evaluate(() => (window as PageWindow).__smalltown!.follow(null));
  await page.keyboard.press('0');
  await page.waitForFunction((n) => (window as PageWindow).__smalltown!.agents().filter((a) => a.onScreen).length >= n, agents, {
    timeout: 60_000,
    polling: 500,
  });
}

export async function benchClient(): Promise<Record<string, number>> {
  await build({ configFile: 'client/vite.config.ts', logLevel: 'error' });
  return { ...(await benchGeneratedTown()), ...(await benchResearcher()), ...(await benchAnalysis()), ...(await benchCrowd()) };
}

/**
 * The analysis page on the generated town of 1,000 (issue 46), at 1280×800: from the address typed to the page's
 * `analysis:ready` mark (every section drawn, the relationship graph laid out in its worker and drawn), and
 * the longest main-thread task meanwhile (the browser's own PerformanceObserver 'longtask' entries, buffered
 * from the first byte). The median of three loads; the long task is the worst of them.
 */
async function benchAnalysis(): Promise<Record<string, number>> {
  const server = await startServerProcess(generatedTown(AGENTS), { START_TIME: '2026-02-13T10:30' });
  const browser = await launchBrowser();
  try {
    const ready: number[] = [];
    const longest: number[] = [];
    for (let i = 0; i < 3; i++) {
      const page = await browser.context.newPage();
      await page.addInitScript({
        content:
          'window.__name = (f) => f; window.__longTasks = []; ' +
          'new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push(e.duration); })' +
          ".observe({ type: 'longtask', buffered: true });",
      });
      await page.goto(`${server.url}/analysis`, { waitUntil: 'commit' });
      const ok = await page
        // A function, not a string: the page's CSP allows no eval.
        .waitForFunction(
          () => {
            const a = (window as Window & { __analysis?: { ready: boolean; error: string | null } }).__analysis;
            return a?.ready === true || !!a?.error;
          },
          null,
          { timeout: 120_000, polling: 100 },
        )
        .then(() => page.evaluate('window.__analysis.error === null'))
        .catch(() => false);
      // The graph's first frame comes after the mark: a moment more for any task it takes.
      await new Promise((r) => setTimeout(r, 1000));
      ready.push(ok ? Math.round((await page.evaluate("performance.getEntriesByName('analysis:ready')[0]?.startTime ?? -1")) as number) : -1);
      longest.push(Math.round((await page.evaluate('Math.max(0, ...window.__longTasks)')) as number));
      await page.close();
    }
    console.error(`analysis page at ${AGENTS}: ready ${JSON.stringify(ready)} ms, longest task ${JSON.stringify(longest)} ms`);
    return {
      [`client.analysis_ready_ms.agents_${AGENTS}`]: median(ready),
      [`client.analysis_long_task_ms.agents_${AGENTS}`]: Math.max(...longest),
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The median; any failed try (-1) makes it -1. */
const median = (xs: number[]) => (xs.includes(-1) ? -1 : [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]);
const TRIES = 5;
/** Clicks on an agent timed to the inspector: the figure is their 90th percentile. */
const CLICKS = 20;

/**
 * The generated town of 1,000 used as a researcher does (issue 23), at 1440×900: a click on an agent's dot
 * at whole-town zoom until the inspector shows that agent (painted), the frame rate while following an
 * agent with the inspector open, "⌂ town" until the whole town is in view, and a 20-step drag. Times are
 * the median of five tries (the click: the 90th percentile of twenty, each on another lone agent), measured in
 * the page from the input event to the frame that shows the result;
 * the frame rate while dragging (a move every 30 ms) is counted in the page.
 */
async function benchResearcher(): Promise<Record<string, number>> {
  const server = await startServerProcess(generatedTown(AGENTS), { START_TIME: '2026-02-13T10:30' });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openWholeTown(page, server.url);
    await new Promise((r) => setTimeout(r, 2000));
    const clicks: number[] = [];
    const zoomOuts: number[] = [];
    let fps = 0;
    // Names by id, for the check that the inspector shows whoever the click picked.
    await page.evaluate(() => {
      const w = window as PageWindow & { __names?: Map<string, string> };
      w.__names = new Map(w.__smalltown!.agents().map((a) => [a.id, a.name]));
    });
    let pickedAnother = 0;
    for (let i = 0; i < CLICKS; i++) {
      const target = await loneAgent(page, i);
      // Done when the inspector shows the agent the click picked: with a thousand walking, another may have stepped onto
      // the spot between finding it and the click (then that one is picked, as it should be). A click that picks nobody
      // never gets there (-1).
      clicks.push(
        await timeToFrame(
          page,
          () => page.mouse.click(target.x, target.y),
          `window.__smalltown.inspected() !== null && !document.getElementById('panel').hidden` +
            ` && document.querySelector('#panel h2').textContent === window.__names.get(window.__smalltown.inspected())`,
        ),
      );
      if ((await page.evaluate(() => (window as PageWindow).__smalltown!.inspected())) !== target.id) pickedAnother++;
      // A click that picked nobody: follow by the page's hook, so the other figures are still measured.
      if ((await page.evaluate(() => (window as PageWindow).__smalltown!.inspected())) !== target.id)
        await page.evaluate((id) => (window as PageWindow).__smalltown!.follow(id), target.id);
      if (i >= TRIES) {
        // The rest of the twenty clicks: only the click is timed; then back to the whole town, held still.
        await page.keyboard.press('Escape');
        await page.evaluate(() => (window as PageWindow).__smalltown!.follow(null));
        await page.keyboard.press('0');
        await new Promise((r) => setTimeout(r, 1500));
        continue;
      }
      await new Promise((r) => setTimeout(r, 2500));
      if (i === 0) fps = (await measureFrames(page)).fps;
      const whole = await page.locator('#hud-whole').boundingBox();
      zoomOuts.push(
        await timeToFrame(
          page,
          () => page.mouse.click(whole!.x + whole!.width / 2, whole!.y + whole!.height / 2),
          'Math.abs(Math.log(window.__smalltown.camera().zoom / window.__smalltown.camera().fitZoom)) < 0.02',
        ),
      );
      await page.keyboard.press('Escape');
      await new Promise((r) => setTimeout(r, 500));
    }
    // A drag across the town: 20 moves of the pointer, as a hand drags (the free camera follows each).
    const box = await page.evaluate(() => {
      const c = document.querySelector('#game canvas')!.getBoundingClientRect();
      return { x: c.x + c.width / 2, y: c.y + c.height / 2 };
    });
    for (let i = 0; i < 6; i++) await page.keyboard.press('+');
    await new Promise((r) => setTimeout(r, 1500));
    // Frames drawn while the hand drags: a move every 30 ms (a hand's pace), the page counting its frames meanwhile.
    await page.evaluate(() => {
      const w = window as PageWindow & { __dragFrames?: number[]; __dragCounting?: boolean };
      w.__dragFrames = [];
      w.__dragCounting = true;
      const frame = (t: number) => {
        w.__dragFrames!.push(t);
        if (w.__dragCounting) requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    });
    const t0 = Date.now();
    await page.mouse.move(box.x, box.y);
    await page.mouse.down();
    for (let i = 1; i <= 20; i++) {
      await page.mouse.move(box.x - i * 15, box.y - i * 8);
      await new Promise((r) => setTimeout(r, 30));
    }
    await page.mouse.up();
    const drag = Date.now() - t0;
    const frames = await page.evaluate(() => {
      const w = window as PageWindow & { __dragFrames?: number[]; __dragCounting?: boolean };
      w.__dragCounting = false;
      return w.__dragFrames!;
    });
    const dragFps = frames.length > 1 ? (1000 * (frames.length - 1)) / (frames.at(-1)! - frames[0]!) : 0;
    console.error(`clicks to the inspector, ms: ${clicks.map((c) => Math.round(c)).join(' ')} (${pickedAnother} picked another agent who stepped in)`);
    return {
      [`client.click_to_inspector_ms.agents_${AGENTS}`]: clicks.includes(-1) ? -1 : Math.round(percentile(clicks, 90)),
      [`client.fps.agents_${AGENTS}_inspector_open`]: fps,
      [`client.zoom_out_ms.agents_${AGENTS}`]: Math.round(median(zoomOuts)),
      [`client.drag_20_moves_ms.agents_${AGENTS}`]: drag,
      [`client.fps.agents_${AGENTS}_drag`]: dragFps,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The on-screen agent farthest from any other (the k-th such, for a different one each try): a click on it can mean only it. */
async function loneAgent(page: Page, k: number): Promise<{ id: string; name: string; x: number; y: number }> {
  const agents = await page.evaluate(() =>
    (window as PageWindow).__smalltown!.agents().filter((a) => a.onScreen && !a.walking && document.elementFromPoint(a.x, a.y)?.tagName === 'CANVAS'),
  );
  const scored = agents.map((a) => ({ a, gap: Math.min(...agents.filter((b) => b !== a).map((b) => Math.hypot(a.x - b.x, a.y - b.y))) }));
  scored.sort((p, q) => q.gap - p.gap);
  if (scored.length === 0) throw new Error('no agent stands still on screen to click');
  const { id, name, x, y } = scored[k % scored.length].a;
  return { id, name, x, y };
}

/** Milliseconds from the input `act` sends to the first frame painted after `doneExpr` holds (checked every frame in the page). */
async function timeToFrame(page: Page, act: () => Promise<void>, doneExpr: string): Promise<number> {
  await page.evaluate(`(() => {
    window.__t0 = null; window.__t1 = null;
    addEventListener('pointerdown', () => { window.__t0 ??= performance.now(); }, { capture: true, once: true });
    const check = () => {
      if (window.__t0 !== null && (${doneExpr})) requestAnimationFrame(() => { window.__t1 = performance.now(); });
      else requestAnimationFrame(check);
    };
    requestAnimationFrame(check);
  })()`);
  await act();
  const done = await page
    .waitForFunction(() => (window as { __t1?: number | null }).__t1 !== null, null, { timeout: 20_000, polling: 100 })
    .then(() => true)
    .catch(() => false);
  // Never: the input did not have its effect (recorded as -1, which fails every bound).
  return done ? (page.evaluate('window.__t1 - window.__t0') as Promise<number>) : -1;
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

/**
 * The page with a big town (issue 24 §3; bench/tenK.ts runs it on the town of 10,000): its load, from the address
 * typed to the town drawn with every agent (and in between, the map and tilesets loaded, then painted, from the
 * page's performance marks), and the frame rate at whole-town zoom (agents as dots) and zoomed in (full-size
 * chunks). The server is one already running this town (start-up is measured by bench/server.ts).
 */
export async function benchBigTownPage(url: string, agents: number): Promise<Record<string, number>> {
  await build({ configFile: 'client/vite.config.ts', logLevel: 'error' });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const t0 = Date.now();
    await openWholeTown(page, url, agents);
    const loadMs = Date.now() - t0;
    const marks = Object.fromEntries(
      await page.evaluate(() => performance.getEntriesByType('mark').map((m): [string, number] => [m.name.replace('smalltown:', ''), m.startTime])),
    );
    await new Promise((r) => setTimeout(r, 2000));
    const whole = await measureFrames(page);
    const inView = await page.evaluate(() => (window as PageWindow).__smalltown!.agents().filter((a) => a.onScreen).length);
    // Zoomed in on the middle (about 0.6), where the map is drawn from full-size chunks.
    for (let i = 0; i < 16; i++) await page.keyboard.press('+');
    await new Promise((r) => setTimeout(r, 4000));
    const zoomed = await measureFrames(page);
    const zoom = await page.evaluate(() => (window as PageWindow).__smalltown!.camera().zoom);
    return {
      [`client.load_ms.agents_${agents}`]: loadMs,
      [`client.map_loaded_ms.agents_${agents}`]: marks['map-loaded'] ?? -1,
      [`client.map_paint_ms.agents_${agents}`]: (marks['map-painted'] ?? -1) - (marks['map-read'] ?? 0),
      [`client.fps.agents_${agents}`]: whole.fps,
      [`client.frame_p99_ms.agents_${agents}`]: whole.p99,
      [`client.agents_in_view.agents_${agents}`]: inView,
      [`client.fps_zoomed.agents_${agents}`]: zoomed.fps,
      [`client.zoom_zoomed.agents_${agents}`]: zoom,
    };
  } finally {
    await browser.close();
  }
}

export async function measureFrames(page: Page, ms = MEASURE_MS): Promise<{ fps: number; p99: number }> {
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
    ms,
  );
  const total = deltas.reduce((a, b) => a + b, 0);
  return { fps: (1000 * deltas.length) / total, p99: percentile(deltas.slice(1), 99) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `npx tsx bench/client.ts researcher`, `town` or `analysis`: only the researcher's figures, the generated town's,
  // or the analysis page's (the client and server must be built).
  const only = { researcher: benchResearcher, town: benchGeneratedTown, analysis: benchAnalysis }[process.argv[2] ?? ''];
  (only ? only() : benchClient()).then((r) => console.table(r));
}
