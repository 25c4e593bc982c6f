// Watching and operating in a real browser: the inspector for anyone; pause, interview and whisper
// for an operator with the token.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startTestTown } from '../helpers';

const TOKEN = 'e2e-operator';

describe('watching and operating the town in the browser', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    town = await startTestTown({ operatorToken: TOKEN, rate: 120, startTime: '2026-02-13T09:30' });
    browser = await launchBrowser();
    fs.mkdirSync('test-results', { recursive: true });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  async function open(url: string): Promise<Page> {
    const page = await browser.context.newPage();
    await page.goto(url);
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    return page;
  }

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
});
