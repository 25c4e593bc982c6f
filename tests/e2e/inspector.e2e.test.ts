// The inspector and the clock bar as a researcher meets them (issue 23): the plan list keeps the step in
// force in view (live and in replay), Esc in a field leaves the field first, and the clock bar stays one
// row at 1024 px for a spectator and at 1440 px for an operator while paused or replaying. Any console
// error or warning on a page fails the test.
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { launchBrowser, watchConsole, type LaunchedBrowser } from './browser';
import { startTestTown, subsetPersonas } from '../helpers';
import { findKeptIndex, keptAction } from '../../server/src/protocol/plan';
import { ownClockGameMs } from '../../server/src/protocol/lateness';
import { planMomentAt } from '../../server/src/world/clockText';

const TOKEN = 'e2e-inspector';

/** Whether the highlighted plan step lies inside the plan list's visible box, and its index. */
const currentStep = (page: Page) =>
  page.evaluate(() => {
    const list = document.querySelector<HTMLElement>('#panel ol.plan');
    const item = list?.querySelector<HTMLElement>('li.current');
    if (!list || !item) return null;
    const l = list.getBoundingClientRect();
    const i = item.getBoundingClientRect();
    return { index: [...list.children].indexOf(item), inView: i.top >= l.top - 1 && i.bottom <= l.bottom + 1, scrolled: list.scrollTop };
  });

describe('the inspector and the clock bar', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  const problems: string[] = [];

  beforeAll(async () => {
    town = await startTestTown({ operatorToken: TOKEN, rate: 60, startTime: '2026-02-13T13:40' });
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  async function open(path: string, width: number, height: number): Promise<Page> {
    const page = await browser.context.newPage();
    const watch = watchConsole(page);
    page.on('close', () => problems.push(...watch.problems));
    await page.setViewportSize({ width, height });
    await page.goto(`${town.url}${path}`);
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    return page;
  }

  /** The clock bar's rows: the distinct vertical middles of what it shows. */
  const hudRows = (page: Page) =>
    page.evaluate(() => {
      const hud = document.getElementById('hud')!;
      const middles = [...hud.children]
        .filter((c) => c instanceof HTMLElement && c.offsetParent !== null && c.getBoundingClientRect().width > 0)
        .map((c) => {
          const r = c.getBoundingClientRect();
          return Math.round(r.top + r.height / 2);
        });
      const rows: number[] = [];
      for (const m of middles.sort((a, b) => a - b)) if (!rows.some((r) => Math.abs(r - m) <= 6)) rows.push(m);
      const last = [...hud.children].at(-1)!.getBoundingClientRect();
      return { rows: rows.length, height: hud.getBoundingClientRect().height, lastRight: last.right, width: window.innerWidth };
    });

  it('keeps the step in force in view in the plan list at 1024 px, and the clock bar in one row for a spectator', async () => {
    const page = await open('/', 1024, 768);
    const bar = await hudRows(page);
    expect(bar.rows).toBe(1);
    expect(bar.lastRight).toBeLessThanOrEqual(bar.width);
    await page.evaluate(() => window.__smalltown!.follow('isabella'));
    await expect.poll(() => currentStep(page), { timeout: 15_000 }).not.toBeNull();
    const step = (await currentStep(page))!;
    // 13:40 is well into Isabella's day: the step is far down the list, and the list scrolled to it.
    expect(step.index).toBeGreaterThan(8);
    expect(step.scrolled).toBeGreaterThan(0);
    expect(step.inView).toBe(true);
    await page.close();
    expect(problems).toEqual([]);
  });

  it('takes the step in force and the place from the server’s inspection (the waking day), not from the page’s calendar', async () => {
    town.town.clock.pause();
    try {
      const page = await open('/', 1024, 768);
      await page.evaluate(() => window.__smalltown!.follow('kenji'));
      await expect.poll(() => currentStep(page), { timeout: 15_000 }).not.toBeNull();
      const agent = town.town.sim.agent('kenji')!;
      const now = ownClockGameMs('kenji', town.town.clock.gameMs);
      const moment = planMomentAt(now, agent.spec.wakeMinute, agent.spec.sleepMinute);
      // The step Kenji is doing (the sim's), which is the clock's but between a step's minute and the tick that takes it up.
      expect((await currentStep(page))!.index).toBe(agent.actionIndex >= 0 ? agent.actionIndex : findKeptIndex(agent.plan!, moment.minute));
      // The header's place, also from the inspection (the room's state carries no agent's place).
      expect(agent.current.address).not.toBe('');
      await expect.poll(() => page.locator('#panel .place').textContent(), { timeout: 10_000 }).toBe(agent.current.address);
      await page.close();
    } finally {
      town.town.clock.resume();
    }
  });

  it('keeps a followed agent’s name clear of the panels at 1024 px, even at the map’s edge, and names apart', async () => {
    const page = await open('/', 1024, 768);
    const agents = await page.evaluate(() => window.__smalltown!.agents());
    const edge = [...agents].sort((a, b) => a.worldX - b.worldX)[0];
    await page.evaluate((id) => window.__smalltown!.follow(id), edge.id);
    await page.waitForTimeout(2500);
    const name = (await page.evaluate(() => window.__smalltown!.nameLabels())).find((l) => l.id === edge.id)!;
    expect(name).toBeDefined();
    for (const id of ['log', 'panel']) {
      const box = (await page.locator(`#${id}`).boundingBox())!;
      const covered = name.left < box.x + box.width && box.x < name.left + name.width && name.top < box.y + box.height && box.y < name.top + name.height;
      expect(covered, `${edge.id}'s name under #${id}`).toBe(false);
    }
    // Zoomed in on a busy place, no agent's name covers another's.
    await page.keyboard.press('Escape');
    for (let i = 0; i < 3; i++) await page.keyboard.press('-');
    await page.waitForTimeout(500);
    const names = await page.evaluate(() => window.__smalltown!.nameLabels());
    for (let i = 0; i < names.length; i++)
      for (let j = i + 1; j < names.length; j++) {
        const [a, b] = [names[i], names[j]];
        const overlap = a.left < b.left + b.width - 0.5 && b.left < a.left + a.width - 0.5 && a.top < b.top + b.height - 0.5 && b.top < a.top + a.height - 0.5;
        expect(overlap, `${a.id} / ${b.id}`).toBe(false);
      }
    // The whole town: place names apart.
    await page.keyboard.press('0');
    await page.waitForTimeout(1500);
    const places = (await page.evaluate(() => window.__smalltown!.placeLabels())).filter((l) => l.visible);
    expect(places.length).toBeGreaterThan(3);
    for (let i = 0; i < places.length; i++)
      for (let j = i + 1; j < places.length; j++) {
        const [a, b] = [places[i], places[j]];
        const overlap = a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
        expect(overlap, `${a.text} / ${b.text}`).toBe(false);
      }
    await page.close();
    expect(problems).toEqual([]);
  });

  it('Esc in the interview field leaves the field and keeps the draft; the next Esc closes the inspector', async () => {
    const page = await open(`/?token=${TOKEN}`, 1440, 900);
    await page.evaluate(() => window.__smalltown!.follow('isabella'));
    const field = page.locator('#panel input[name="question"]');
    await field.click();
    await page.keyboard.type('What did you plan for', { delay: 120 });
    await page.keyboard.press('Escape');
    await page.waitForTimeout(400);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY');
    expect(await page.locator('#panel').isVisible()).toBe(true);
    expect(await field.inputValue()).toBe('What did you plan for');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#panel').isVisible()).toBe(false);
    await page.close();
    expect(problems).toEqual([]);
  });

  it('keeps the clock bar in one row at 1440 px for an operator, paused and replaying', async () => {
    const page = await open(`/?token=${TOKEN}`, 1440, 900);
    await expect.poll(() => page.locator('#hud-role').textContent()).toBe('operator');
    expect((await hudRows(page)).rows).toBe(1);
    await page.locator('#hud-controls button[data-op="pause"]').click();
    await expect.poll(() => page.locator('#hud-speed').textContent()).toBe('paused');
    await page.waitForTimeout(300);
    const paused = await hudRows(page);
    expect(paused.rows).toBe(1);
    expect(paused.lastRight).toBeLessThanOrEqual(paused.width);
    await page.locator('#hud-controls button[data-op="pause"]').click();
    await page.close();

    const replay = await open(`/?token=${TOKEN}&t=2026-02-13T13:41&agent=isabella`, 1440, 900);
    await expect.poll(() => replay.evaluate(() => window.__smalltown!.view().mode)).toBe('replay');
    await expect.poll(() => replay.locator('#hud-clock').textContent()).toContain('Replay');
    await replay.waitForTimeout(300);
    const replaying = await hudRows(replay);
    expect(replaying.rows).toBe(1);
    expect(replaying.lastRight).toBeLessThanOrEqual(replaying.width);
    // The inspector in replay keeps its step in view too.
    await replay.evaluate(() => window.__smalltown!.follow('isabella'));
    await expect.poll(() => currentStep(replay), { timeout: 15_000 }).not.toBeNull();
    expect((await currentStep(replay))!.inView).toBe(true);
    await replay.close();
    expect(problems).toEqual([]);
  });
});

describe('the inspector after midnight', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    // A night owl: Marek closes the pub and counts the till after midnight, in bed at 1:30.
    const personasDir = subsetPersonas(['marek', 'ayo', 'yumi']);
    const file = path.join(personasDir, 'marek.yaml');
    const marek = YAML.parse(fs.readFileSync(file, 'utf8')) as { sleepAt: string; routine: { at: string; activity: string; place: string; emoji: string }[] };
    marek.sleepAt = '01:30';
    marek.routine.push({ at: '00:15', activity: 'counting the till', place: 'work: bar counter', emoji: '💷' });
    fs.writeFileSync(file, YAML.stringify(marek));
    town = await startTestTown({ operatorToken: TOKEN, rate: 60, startTime: '2026-02-13T23:40', personasDir });
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  it('shows the step in force of an agent still up after midnight: the one of the day it woke on', async () => {
    // To 0:25 of the 14th: Marek's waking day is still the 13th, whose plan holds the step after midnight.
    await town.town.commands.step(45, 'test');
    town.town.clock.pause();
    const page = await browser.context.newPage();
    const watch = watchConsole(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(town.url);
    await page.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await page.evaluate(() => window.__smalltown!.follow('marek'));
    const agent = town.town.sim.agent('marek')!;
    const moment = planMomentAt(ownClockGameMs('marek', town.town.clock.gameMs), agent.spec.wakeMinute, agent.spec.sleepMinute);
    expect(moment.minute).toBeGreaterThan(24 * 60);
    expect(agent.asleep).toBe(false);
    const index = findKeptIndex(agent.plan!, moment.minute);
    expect(keptAction(agent.plan!, index).description).toBe('counting the till');
    // The header shows what the step left him doing (the room's state after the operator's step), with the step highlighted.
    await expect.poll(() => page.locator('#panel .action').textContent(), { timeout: 15_000 }).toContain('counting the till');
    await expect.poll(() => currentStep(page), { timeout: 15_000 }).not.toBeNull();
    expect((await currentStep(page))!.index).toBe(index);
    expect(await page.locator('#panel ol.plan li.current').textContent()).toContain('counting the till');
    await page.close();
    expect(watch.problems).toEqual([]);
  });
});
