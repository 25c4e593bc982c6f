// Screenshots of where a researcher spends the hour after a run (issue 23), at 1024×768 in headless
// Chromium: the analysis page of a headless scenario run after a window was applied (whole page), and
// the inspector of Isabella in the replay of that run at 13:47, with her plan list.
//   npx tsx scripts/analysisScreenshots.ts bench/out/screenshots/analysis-after-   (run `npm run build:client` first)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTown } from '../server/src/app';
import { runRumour } from '../tests/e2e/rumourRun';
import { launchBrowser } from '../tests/e2e/browser';

async function main(prefix: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-analysis-shot-'));
  await runRumour(dataDir);
  const quiet = { logLevel: 'warn', backupCron: 'off', idleCheckCron: 'off', housekeepingCron: 'off', idlePauseMinutes: 0 } as const;
  const town = await startTown({ port: 0, host: '127.0.0.1', dataDir, seed: 1, ...quiet });
  const browser = await launchBrowser();
  fs.mkdirSync(path.dirname(prefix), { recursive: true });
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${town.url}/analysis?world=rumour`);
    await page.waitForFunction(() => window.__analysis?.ready === true || window.__analysis?.error, null, { timeout: 60_000 });
    await page.locator('#from').fill('2026-02-13T08:00');
    await page.locator('#to').fill('2026-02-13T14:00');
    await page.locator('#apply').click();
    await page.waitForTimeout(3000);
    await page.screenshot({ path: `${prefix}analysis.png`, fullPage: true });
    const replay = await browser.context.newPage();
    await replay.setViewportSize({ width: 1024, height: 768 });
    await replay.goto(`${town.url}/?world=rumour&t=2026-02-13T13:47&agent=isabella`);
    await replay.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await replay.waitForTimeout(5000);
    await replay.screenshot({ path: `${prefix}inspector.png` });
    console.log(`wrote ${prefix}analysis.png, ${prefix}inspector.png`);
  } finally {
    await browser.close();
    await town.close();
  }
}

void main(process.argv[2] ?? 'bench/out/screenshots/analysis-after-');
