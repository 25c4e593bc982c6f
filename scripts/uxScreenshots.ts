// Screenshots of the first minutes in the page, for comparing the page before and after a change:
// the opening view at 0 s and 30 s from a fresh start (1440×900), and an operator's inspector.
//   npx tsx scripts/uxScreenshots.ts bench/out/screenshots/after-   (run `npm run build:client` first)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTown } from '../server/src/app';
import { launchBrowser } from '../tests/e2e/browser';

async function main(prefix: string): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-ux-shot-'));
  const quiet = { logLevel: 'warn', backupCron: 'off', idleCheckCron: 'off', housekeepingCron: 'off', idlePauseMinutes: 0 } as const;
  const town = await startTown({ port: 0, host: '127.0.0.1', dataDir, operatorToken: 'screenshot-operator', ...quiet });
  const browser = await launchBrowser();
  fs.mkdirSync(path.dirname(prefix), { recursive: true });
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1440, height: 900 });
    await page.goto(town.url);
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await page.waitForTimeout(1000);
    await page.screenshot({ path: `${prefix}opening-0s.png` });
    await page.waitForTimeout(29_000);
    await page.screenshot({ path: `${prefix}opening-30s.png` });
    const operator = await browser.context.newPage();
    await operator.setViewportSize({ width: 1440, height: 900 });
    await operator.goto(`${town.url}/?token=shot`);
    await operator.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await operator.evaluate(() => window.__smalltown!.follow('isabella'));
    await operator.waitForTimeout(4000);
    await operator.screenshot({ path: `${prefix}inspector.png` });
    console.log(`wrote ${prefix}opening-0s.png, ${prefix}opening-30s.png, ${prefix}inspector.png`);
  } finally {
    await browser.close();
    await town.close();
  }
}

void main(process.argv[2] ?? 'bench/out/screenshots/after-');
