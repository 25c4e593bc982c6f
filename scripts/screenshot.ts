// Regenerates docs/screenshot.png: the town in headless Chromium, as the README shows it.
//   npx tsx scripts/screenshot.ts   (builds nothing: run `npm run build:client` first)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startTown } from '../server/src/app';
import { launchBrowser } from '../tests/e2e/browser';

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-shot-'));
  const town = await startTown({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    operatorToken: 'screenshot-operator',
    startTime: '2026-02-13T12:20',
    rate: 60,
    logLevel: 'warn',
    backupCron: 'off',
    idleCheckCron: 'off',
    housekeepingCron: 'off',
    idlePauseMinutes: 0,
  });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1400, height: 860 });
    await page.goto(`${town.url}/?token=screenshot-operator`);
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await page.evaluate(() => window.__smalltown!.follow('isabella'));
    await page.waitForTimeout(6000);
    fs.mkdirSync('docs', { recursive: true });
    await page.screenshot({ path: 'docs/screenshot.png' });
    console.log('wrote docs/screenshot.png');
  } finally {
    await browser.close();
    await town.close();
  }
}

void main();
