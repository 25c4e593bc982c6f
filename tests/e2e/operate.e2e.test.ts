// Watching and operating in a real browser: the inspector for anyone; pause, interview, whisper, inject
// an event and add or remove an agent for an operator with the token; a refused token's ways on.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, openTown, type LaunchedBrowser } from './browser';
import { startTestTown, tempDir } from '../helpers';

const TOKEN = 'e2e-operator';

describe('watching and operating the town in the browser', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  // A copy of the personas, so that a test can write a new persona file for the operator to add.
  const personasDir = tempDir('smalltown-personas-');

  beforeAll(async () => {
    fs.cpSync('personas', personasDir, { recursive: true });
    town = await startTestTown({ operatorToken: TOKEN, rate: 120, startTime: '2026-02-13T09:30', personasDir });
    browser = await launchBrowser();
    fs.mkdirSync('test-results', { recursive: true });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  const open = (url: string): Promise<Page> => openTown(browser, url);

  const feedText = (page: Page) => page.locator('#town-feed').textContent();

  it('a spectator inspects an agent: its plan with the current step, and scored memories', async () => {
    const page = await open(town.url);
    expect(await page.locator('#hud-role').textContent()).toBe('spectator');
    await page.evaluate(() => window.__smalltown!.follow('isabella'));
    const panel = page.locator('#panel');
    await expect.poll(() => panel.locator('ol.plan li').count(), { timeout: 15_000 }).toBeGreaterThan(3);
    expect(await panel.locator('ol.plan li.current').count()).toBe(1);
    await expect.poll(() => panel.locator('table.memories tr').count()).toBeGreaterThan(2);
    expect(await panel.textContent()).toContain('Isabella Rivera');
    expect(await panel.textContent()).toMatch(/Valentine/);
    // No operator forms for a spectator.
    expect(await panel.locator('form.op-form').count()).toBe(0);
    await page.screenshot({ path: 'test-results/inspector.png' });
    await page.close();
  });

  it('an operator pauses the town and the clock stops', async () => {
    const page = await open(`${town.url}/?token=${TOKEN}`);
    await expect.poll(() => page.locator('#hud-role').textContent()).toBe('operator');
    await page.locator('#hud-controls button[data-op="pause"]').click();
    await expect.poll(() => town.town.clock.paused).toBe(true);
    await expect.poll(() => page.locator('#hud-speed').textContent()).toBe('paused');
    const frozen = await page.locator('#hud-clock').textContent();
    await page.waitForTimeout(1500);
    expect(await page.locator('#hud-clock').textContent()).toBe(frozen);
    // While paused, the operator can step the town forward by 15 game minutes.
    const before = town.town.clock.gameMs;
    await page.locator('#hud-controls button[data-op="step"]').click();
    await expect.poll(() => town.town.clock.gameMs).toBe(before + 15 * 60_000);
    expect(town.town.clock.paused).toBe(true);
    await page.keyboard.press('Space');
    await expect.poll(() => town.town.clock.paused).toBe(false);
    await page.close();
  });

  it('an operator interviews an agent and gets an answer', async () => {
    const page = await open(`${town.url}/?token=${TOKEN}`);
    await page.evaluate(() => window.__smalltown!.follow('isabella'));
    const form = page.locator('#panel form.op-form').first();
    await form.locator('input').fill('Who are you?');
    await form.locator('button').click();
    await expect.poll(() => page.locator('#panel .interview-answer').textContent(), { timeout: 15_000 }).toMatch(/I'm Isabella Rivera/);
    await page.screenshot({ path: 'test-results/interview.png' });
    await page.close();
  });

  it('an operator whispers to an agent, and the feed shows it', async () => {
    const page = await open(`${town.url}/?token=${TOKEN}`);
    await page.evaluate(() => window.__smalltown!.follow('claire'));
    const form = page.locator('#panel form.op-form').nth(1);
    await form.locator('input').fill('The library will host a poetry night on Saturday.');
    await form.locator('button').click();
    await expect.poll(() => page.locator('#town-feed').textContent(), { timeout: 15_000 }).toContain('Whisper to Claire Moreau');
    await page.screenshot({ path: 'test-results/whisper.png' });
    await page.close();
  });

  it('shows the keyboard shortcuts in a help overlay', async () => {
    const page = await open(town.url);
    await page.keyboard.press('?');
    await expect.poll(() => page.locator('#help').isVisible()).toBe(true);
    expect(await page.locator('#help').textContent()).toContain('pause / resume');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#help').isVisible()).toBe(false);
    await page.close();
  });

  it('a refused token says so, and "continue as spectator" watches; reloading the plain address works', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${town.url}/?token=stale-from-yesterday`);
    const dialog = page.locator('#token-dialog');
    await expect.poll(() => dialog.isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await dialog.textContent()).toContain('was not accepted');
    // The token is out of the address bar, and forgotten: a reload of the plain address joins as a spectator.
    expect(new URL(page.url()).search).toBe('');
    await page.screenshot({ path: 'test-results/token-refused.png' });
    await page.reload();
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    expect(await page.locator('#hud-role').textContent()).toBe('spectator');
    expect(await dialog.count()).toBe(0);

    await page.goto(`${town.url}/?token=stale-again`);
    await expect.poll(() => dialog.isVisible(), { timeout: 30_000 }).toBe(true);
    await dialog.getByRole('button', { name: 'Continue as spectator' }).click();
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    expect(await page.locator('#hud-role').textContent()).toBe('spectator');
    expect(await dialog.count()).toBe(0);
    await page.close();
  });

  it('a refused token: "enter another token" makes an operator, who stays one across a reload', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${town.url}/?token=typo`);
    const dialog = page.locator('#token-dialog');
    await expect.poll(() => dialog.isVisible(), { timeout: 30_000 }).toBe(true);
    // A second wrong token gets the same message again.
    await dialog.locator('input[name="token"]').fill('still-wrong');
    await dialog.getByRole('button', { name: 'Enter another token' }).click();
    await expect.poll(() => dialog.isVisible(), { timeout: 30_000 }).toBe(true);
    await dialog.locator('input[name="token"]').fill(TOKEN);
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await expect.poll(() => page.locator('#hud-role').textContent()).toBe('operator');
    await page.reload();
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await expect.poll(() => page.locator('#hud-role').textContent()).toBe('operator');
    await page.close();
  });

  it('a spectator becomes an operator with the 🔑 button', async () => {
    const page = await open(town.url);
    expect(await page.locator('#hud-role').textContent()).toBe('spectator');
    await page.locator('#hud-token').click();
    const dialog = page.locator('#token-dialog');
    await dialog.locator('input[name="token"]').fill(TOKEN);
    await dialog.getByRole('button', { name: 'Use this token' }).click();
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await expect.poll(() => page.locator('#hud-role').textContent()).toBe('operator');
    await page.close();
  });

  it('an operator injects an event at a place picked from the place tree, and the feed shows it', async () => {
    const page = await open(`${town.url}/?token=${TOKEN}`);
    await page.locator('#hud-controls button[data-op="tools"]').click();
    const tools = page.locator('#tools');
    await tools.locator('input[name="event"]').fill('A street musician starts playing by the window.');
    await tools.locator('select[name="place"]').selectOption('Hobbs Cafe: cafe');
    await tools.getByRole('button', { name: 'Inject event' }).click();
    await expect.poll(() => feedText(page), { timeout: 15_000 }).toContain('Event at Hobbs Cafe: cafe: A street musician starts playing by the window.');
    const logged = town.town.db.events.read(0, Number.MAX_SAFE_INTEGER, 10_000).filter((e) => e.kind === 'world.event');
    const description = 'A street musician starts playing by the window.';
    expect(logged.map((e) => e.data)).toContainEqual(expect.objectContaining({ arena: 'Hobbs Cafe: cafe', description }));
    // Esc closes the tools; where the event field kept the focus after injecting, the first Esc leaves
    // the field (and no text field has the focus after it), the second closes.
    await page.keyboard.press('Escape');
    if (await tools.isVisible()) {
      expect(await page.evaluate(() => document.activeElement?.tagName ?? '')).not.toMatch(/^(INPUT|TEXTAREA|SELECT)$/);
      await page.keyboard.press('Escape');
    }
    await expect.poll(() => tools.isVisible()).toBe(false);
    await page.close();
  });

  it('an operator adds an agent from a persona file not in town, and removes them; the feed names them both times', async () => {
    const claire = fs.readFileSync(path.join(personasDir, 'claire.yaml'), 'utf8');
    fs.writeFileSync(path.join(personasDir, 'nadia.yaml'), claire.replaceAll('Claire Moreau', 'Nadia Petrova').replaceAll('Claire', 'Nadia'));
    fs.writeFileSync(path.join(personasDir, 'broken.yaml'), 'name: Half Written\n');
    const page = await open(`${town.url}/?token=${TOKEN}`);
    page.on('dialog', (d) => void d.accept());
    await page.keyboard.press('t');
    const tools = page.locator('#tools');
    const options = tools.locator('select[name="persona"] option');
    await expect.poll(() => options.allTextContents()).toEqual(['Half Written (broken.yaml)', 'Nadia Petrova (nadia.yaml)']);
    // The broken file is listed, cannot be chosen, and says why.
    expect(await tools.locator('option[value="broken"]').isDisabled()).toBe(true);
    expect(await tools.locator('.persona-note').textContent()).toMatch(/broken\.yaml cannot be added: .*broken\.yaml/);
    expect(await tools.locator('select[name="persona"]').inputValue()).toBe('nadia');
    await tools.getByRole('button', { name: 'Add to town' }).click();
    await expect.poll(() => feedText(page), { timeout: 15_000 }).toContain('Operator added Nadia Petrova to the town');
    await expect.poll(() => page.evaluate(() => window.__smalltown!.agents().some((a) => a.id === 'nadia'))).toBe(true);
    expect(town.town.sim.agent('nadia')).toBeDefined();
    // Once in town, the file is no longer offered.
    await expect.poll(() => options.allTextContents()).toEqual(['Half Written (broken.yaml)']);

    await page.keyboard.press('Escape');
    await page.evaluate(() => window.__smalltown!.follow('nadia'));
    await page.locator('#panel button.remove-agent').click();
    await expect.poll(() => feedText(page), { timeout: 15_000 }).toContain('Operator removed Nadia Petrova from the town');
    await expect.poll(() => town.town.sim.agent('nadia')).toBeUndefined();
    await page.close();
  });
});
