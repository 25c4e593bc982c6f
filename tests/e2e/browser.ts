// Debian's Chromium, headless, through playwright-core (no browser download): the flags this machine
// needs, and a fresh profile folder each time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface LaunchedBrowser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A persistent context is how playwright takes a --user-data-dir of our own. */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium), as .ci/run does`);
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'smalltown-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: FLAGS,
    viewport: { width: 1280, height: 800 },
  });
  return {
    context,
    async close() {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Waits until the town page has drawn its agents (the page's test hook says ready). */
export async function townReady(page: Page): Promise<void> {
  await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
}

/** A new tab on the town page at `url`, once it is ready. */
export async function openTown(browser: LaunchedBrowser, url: string): Promise<Page> {
  const page = await browser.context.newPage();
  await page.goto(url);
  await townReady(page);
  return page;
}

export type { Browser };

/**
 * Everything a page says went wrong: uncaught errors, console errors and warnings (a CSP violation and a
 * library's warning are both), and failed responses. A test reads `problems` and expects none.
 */
export function watchConsole(page: Page): { problems: string[] } {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror on ${page.url()}: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()} on ${page.url()}: ${m.text()}`);
  });
  return { problems };
}

/** Types as a person does: a key at a time, about 8 a second. */
export async function typeSlowly(page: Page, selector: string, text: string): Promise<void> {
  const field = page.locator(selector);
  await field.click();
  await field.press('ControlOrMeta+a');
  await field.press('Backspace');
  await page.keyboard.type(text, { delay: 120 });
}
