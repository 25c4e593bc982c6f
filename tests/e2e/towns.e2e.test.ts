// Several towns in a real browser: the start page lists them, a click opens one (?world=<name>), an
// operator starts and stops towns there, and the built page runs under the server's content security
// policy without a single violation.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startTestTown, subsetPersonas } from '../helpers';

const TOKEN = 'e2e-towns-operator';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

describe('several towns in the browser', () => {
  let server: Awaited<ReturnType<typeof startTestTown>>;
  let northPersonas = '';
  let browser: LaunchedBrowser;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const north = { name: 'north', personasDir: subsetPersonas(['isabella', 'kenji', 'ruth']) };
    northPersonas = north.personasDir;
    server = await startTestTown({ operatorToken: TOKEN, worlds: [{ name: 'main' }, north] });
    browser = await launchBrowser();
    fs.mkdirSync('test-results', { recursive: true });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  async function newPage(): Promise<Page> {
    const page = await browser.context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && /Content Security Policy|Refused to/.test(m.text()) && pageErrors.push(m.text()));
    // Every violation of the policy, whatever the page does about it.
    await page.addInitScript(() => {
      window.__cspViolations = [];
      document.addEventListener('securitypolicyviolation', (e) =>
        window.__cspViolations!.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`),
      );
    });
    return page;
  }

  it('lists the towns on the start page, and a click opens the town by its name, under the content security policy', async () => {
    const page = await newPage();
    const response = await page.goto(`${server.url}/towns`);
    expect(response!.headers()['content-security-policy']).toContain("default-src 'self'");
    const rows = page.locator('#towns tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).textContent()).toMatch(/main \(default\)10offline0this process/);
    expect(await rows.nth(1).textContent()).toMatch(/north3offline0this process/);
    // A spectator sees no operator form.
    expect(await page.locator('form.start-town').count()).toBe(0);
    await page.screenshot({ path: 'test-results/towns.png' });

    await page.locator('#towns a', { hasText: 'north' }).click();
    await page.waitForURL(/\?world=north$/);
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await expect.poll(() => page.evaluate(() => window.__smalltown!.agents().length)).toBe(3);
    // Its map comes from its own address, its feed is its own, and the page links back to the start page.
    expect(
      await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((e) => new URL(e.name).pathname)
          .filter((p) => p.includes('/map/')),
      ),
    ).toEqual(expect.arrayContaining(['/towns/north/map/town.tmj', '/towns/north/map/assets/0/town.png']));
    await expect.poll(() => page.locator('#towns-link').textContent()).toBe('2 towns');
    await page.waitForTimeout(500);
    expect(await page.evaluate(() => window.__cspViolations)).toEqual([]);
    expect(pageErrors).toEqual([]);
    await page.screenshot({ path: 'test-results/towns-north.png' });
    await page.close();
  });

  it('opens the default town without ?world=, and says plainly when a town is not running', async () => {
    const page = await newPage();
    await page.goto(server.url);
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    expect(await page.evaluate(() => window.__smalltown!.agents().length)).toBe(10);
    await page.goto(`${server.url}/?world=atlantis`);
    await expect.poll(() => page.locator('#status').textContent()).toBe("Could not join the town: no town 'atlantis' is running (see /towns). try again");
    expect(await page.evaluate(() => window.__cspViolations)).toEqual([]);
    await page.close();
  });

  it('lets an operator start a town from the start page, see what is wrong with a bad name, and stop it', async () => {
    const page = await newPage();
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${server.url}/towns?token=${TOKEN}`);
    const form = page.locator('form.start-town');
    await form.locator('input[name="name"]').fill('not ok');
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => page.locator('.towns-status').textContent()).toBe('name: letters, digits, - and _ only (at most 64)');

    await form.locator('input[name="name"]').fill('south');
    // A persona folder the operator names must be inside one of the server's (issue 45): here, inside north's.
    const southPersonas = path.join(northPersonas, 'south');
    fs.cpSync(subsetPersonas(['arthur', 'omar']), southPersonas, { recursive: true });
    await form.locator('input[name="personas"]').fill(southPersonas);
    await form.locator('button[type="submit"]').click();
    await expect.poll(() => page.locator('#towns tbody tr[data-world="south"]').count(), { timeout: 15_000 }).toBe(1);
    expect(server.host.has('south')).toBe(true);
    // The default town has no stop button; the others do.
    expect(await page.locator('#towns tbody tr[data-world="main"] button').count()).toBe(0);
    await page.locator('#towns tbody tr[data-world="south"] button', { hasText: 'stop' }).click();
    await expect.poll(() => page.locator('#towns tbody tr[data-world="south"]').count(), { timeout: 15_000 }).toBe(0);
    expect(server.host.has('south')).toBe(false);
    expect(await page.evaluate(() => window.__cspViolations)).toEqual([]);
    await page.close();
  });
});
