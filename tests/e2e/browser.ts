// Debian's Chromium, headless, through playwright-core (no browser download): the flags this machine
// needs, and a fresh profile folder each time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A persistent context is how playwright takes a --user-data-dir of our own. */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium), as .ci/run does`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS, viewport: { width: 1280, height: 800 } });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export type { Browser };
