// The persona editor in a real browser, typed at human speed: an operator opens it from the town's
// tools, writes a persona, sees a field's problem and fixes it, picks places on the plan, previews the
// day plan and the look, saves, and the new agent appears in the town and walks; the file it wrote
// loads at the next start. A spectator sees the editor read-only, and the server refuses its writes.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startTestTown, tempDir } from '../helpers';
import { loadPersonaFolder } from '../../server/src/world/persona';
import { loadTownMap } from '../../server/src/world/map';
import { personaFilesOf } from '../../server/src/analysis/scenario';
import { OpenAIStub } from '../fakes/openaiStub';
import { installTownResponders } from '../fakes/townResponders';

const TOKEN = 'e2e-editor-operator';
const TYPING = { delay: 35 };

describe('the persona editor in the browser', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  const personasDir = tempDir('smalltown-personas-');
  const cspViolations: string[] = [];

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

  function watch(page: Page): Page {
    page.on('console', (m) => {
      if (/Content.Security.Policy|Refused to/i.test(m.text())) cspViolations.push(m.text());
    });
    return page;
  }

  const field = (page: Page, name: string): Locator => page.locator(`[name="${name}"]`);
  const errorsOf = (page: Page, pathName: string) => page.locator(`.field[data-path="${pathName}"] > .field-errors`);

  /** Everything said under a field: its own box, and a list's one row's (a single place is both a list and its row). */
  const underField = async (page: Page, pathName: string): Promise<string> => (await errorsOf(page, pathName).allTextContents()).join(' ');

  async function type(page: Page, name: string, text: string): Promise<void> {
    const input = field(page, name);
    await input.click();
    await input.pressSequentially(text, TYPING);
  }

  /** Makes a place field the plan's target and clicks a place on the plan, as a person would. */
  async function pickOnPlan(page: Page, name: string, address: string): Promise<void> {
    await page.locator(`.field[data-path="${name}"] button.pick`).first().click();
    await page.locator('canvas.place-map').scrollIntoViewIfNeeded();
    const at = await page.evaluate((a) => window.__personaEditor!.placePosition(a), address);
    expect(at, address).not.toBeNull();
    await page.mouse.click(at!.x, at!.y);
  }

  /** Waits for the server's check of what is typed now. */
  async function settled(page: Page): Promise<void> {
    const before = await page.evaluate(() => window.__personaEditor!.checks);
    await page.waitForFunction((n) => window.__personaEditor!.checks > n, before, { timeout: 10_000 }).catch(() => undefined);
  }

  it('an operator writes a persona, fixes a field, picks places on the plan, previews, saves, and the agent walks in town', async () => {
    const townPage = watch(await browser.context.newPage());
    await townPage.goto(`${town.url}/?token=${TOKEN}`);
    await townPage.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    await townPage.locator('#hud-controls button[data-op="tools"]').click();
    const [page] = await Promise.all([browser.context.waitForEvent('page'), townPage.locator('#tools a.persona-editor-link').click()]);
    watch(page);
    await page.waitForFunction(() => window.__personaEditor?.ready === true, null, { timeout: 30_000 });
    expect(await page.locator('#role').textContent()).toBe('operator');
    // The token came in the fragment and is out of the address bar.
    expect(page.url()).not.toContain(TOKEN);

    await type(page, 'name', 'Nadia Petrova');
    expect(await field(page, 'id').inputValue()).toBe('nadia');
    // A typo in the age: the loader's words under the field, as you type.
    await type(page, 'age', '3O');
    await expect.poll(() => errorsOf(page, 'age').textContent(), { timeout: 10_000 }).toMatch(/expected a number, got '3O'/);
    await page.screenshot({ path: 'test-results/persona-editor-error.png' });
    await field(page, 'age').press('Backspace');
    await field(page, 'age').pressSequentially('4', TYPING);
    await expect.poll(() => errorsOf(page, 'age').textContent(), { timeout: 10_000 }).toBe('');

    await type(page, 'innate[0]', 'curious');
    await page.locator('.field[data-path="innate"] > button.add').click();
    await field(page, 'innate[1]').pressSequentially('patient', TYPING);
    await type(page, 'learned', 'Nadia Petrova is a translator who has just moved to town and works at the college library.');
    await type(page, 'currently', 'Nadia is getting to know her neighbours.');
    await type(page, 'lifestyle', 'Nadia goes to bed around eleven and wakes at seven.');

    // Home and workplace picked on the plan: a click on a room of the house gives the house.
    await pickOnPlan(page, 'home', 'Moreau House: kitchen');
    await expect.poll(() => field(page, 'home').inputValue()).toBe('Moreau House');
    await pickOnPlan(page, 'workplace', 'Oak Hill College: library');
    await expect.poll(() => field(page, 'workplace').inputValue()).toBe('Oak Hill College: library');

    // The first block, at home; a second at work, both picked on the plan.
    await type(page, 'routine[0].activity', 'waking up and having breakfast');
    await pickOnPlan(page, 'routine[0].place', 'Moreau House: kitchen');
    await expect.poll(() => field(page, 'routine[0].place').inputValue()).toBe('home: kitchen');
    await page.locator('.field[data-path="routine"] > button.add').click();
    await field(page, 'routine[1].at').pressSequentially('09:00', TYPING);
    await type(page, 'routine[1].activity', 'cataloguing books at the library');
    await pickOnPlan(page, 'routine[1].place', 'Oak Hill College: library');
    await expect.poll(() => field(page, 'routine[1].place').inputValue()).toBe('work');
    await type(page, 'routine[1].emoji', '📚');

    await type(page, 'seedMemories[0]', 'Nadia Petrova has just moved into Moreau House.');
    await page.locator('.field[data-path="relationships"] > button.add').click();
    await page.locator('.relationship select').selectOption('claire');
    await page.locator('[name="relationships.claire"]').pressSequentially('Claire lets her a room and shows her the library.', TYPING);
    await field(page, 'sprite.shirt').fill('');
    await field(page, 'sprite.shirt').pressSequentially('#8e44ad', TYPING);

    // No problems left; the offline plan and the look are shown.
    await expect.poll(() => page.locator('.form-summary').textContent(), { timeout: 10_000 }).toMatch(/No problems|Loads/);
    await expect.poll(() => page.locator('#plan-host .plan-actions li').count(), { timeout: 10_000 }).toBeGreaterThan(3);
    expect(await page.locator('#plan-host').textContent()).toContain('cataloguing books at the library');
    const lookPixels = await page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('canvas.look-preview')!;
      const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      let shirt = 0;
      for (let i = 0; i < d.length; i += 4)
        if (d[i + 3] > 0 && Math.abs(d[i] - 0x8e) < 3 && Math.abs(d[i + 1] - 0x44) < 3 && Math.abs(d[i + 2] - 0xad) < 3) shirt++;
      return shirt;
    });
    expect(lookPixels).toBeGreaterThan(20);
    await page.screenshot({ path: 'test-results/persona-editor.png', fullPage: true });

    // Save, adding her to the town at a spawn point.
    await page.locator('#add-to-town').check();
    await page.locator('#spawn').selectOption('spawn 6');
    await page.locator('#save').click();
    await expect
      .poll(() => page.locator('#save-status').textContent(), { timeout: 15_000 })
      .toMatch(/Saved nadia\.yaml\. Nadia Petrova joins the town at spawn 6/);
    expect(fs.existsSync(path.join(personasDir, 'nadia.yaml'))).toBe(true);

    // She appears in the town page and walks.
    await expect.poll(() => townPage.evaluate(() => window.__smalltown!.agents().some((a) => a.id === 'nadia')), { timeout: 20_000 }).toBe(true);
    const start = await townPage.evaluate(() => window.__smalltown!.agents().find((a) => a.id === 'nadia')!);
    await expect
      .poll(
        async () => {
          const now = await townPage.evaluate(() => window.__smalltown!.agents().find((a) => a.id === 'nadia')!);
          return Math.hypot(now.x - start.x, now.y - start.y);
        },
        { timeout: 30_000 },
      )
      .toBeGreaterThan(2);
    await townPage.evaluate(() => window.__smalltown!.follow('nadia'));
    await townPage.screenshot({ path: 'test-results/persona-editor-town.png' });
    expect(cspViolations).toEqual([]);
    await townPage.close();

    // A new persona saved half written is refused, and the page says why; its file name is taken, and it says so.
    await page.locator('#new-persona').click();
    expect(await page.locator('#save-status').textContent()).toBe('');
    await type(page, 'name', 'Nadia Other');
    await expect
      .poll(() => page.locator('.id-note').textContent(), { timeout: 10_000 })
      .toMatch(/nadia\.yaml already exists: saving will ask before replacing it/);
    await page.locator('#save').click();
    await expect.poll(() => page.locator('.form-summary').textContent()).toMatch(/problem/);
    await expect.poll(() => page.locator('#save-status').textContent()).toMatch(/Not saved: fix the \d+ problems/);
    await page.close();
  }, 120_000);

  it('marks a field with only a warning amber, and one with an error red', async () => {
    const page = watch(await browser.context.newPage());
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${town.url}/personas#token=${TOKEN}`);
    await page.waitForFunction(() => window.__personaEditor?.ready === true, null, { timeout: 30_000 });
    const border = (pathName: string) => field(page, pathName).evaluate((e) => getComputedStyle(e).borderTopColor);
    const classes = (pathName: string) => page.locator(`.field[data-path="${pathName}"]`).first().getAttribute('class');
    // Another resident's home: the persona loads, with a warning.
    await type(page, 'home', 'Lindqvist House');
    await expect.poll(() => errorsOf(page, 'home').textContent(), { timeout: 10_000 }).toMatch(/⚠ .*Freya Lindqvist/);
    expect(await classes('home')).toMatch(/\bwarned\b/);
    expect(await classes('home')).not.toMatch(/\binvalid\b/);
    expect(await border('home')).toBe('rgb(224, 168, 74)');
    // A place that does not exist: an error.
    await type(page, 'routine[0].activity', 'sorting the attic');
    await type(page, 'routine[0].place', 'Nowhere Street: attic');
    await expect.poll(() => underField(page, 'routine[0].place'), { timeout: 10_000 }).toMatch(/Nowhere Street/);
    await expect.poll(() => border('routine[0].place'), { timeout: 10_000 }).toBe('rgb(224, 93, 74)');
    await page.close();
  }, 60_000);

  it('shows each problem a new user met under its field as it is typed, and asks to delete next to the file', async () => {
    const page = watch(await browser.context.newPage());
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${town.url}/personas#token=${TOKEN}`);
    await page.waitForFunction(() => window.__personaEditor?.ready === true, null, { timeout: 30_000 });
    expect(await page.locator('#role').textContent()).toBe('operator');
    // The placeholder's example id is no resident of any persona set.
    expect(await field(page, 'id').getAttribute('placeholder')).toBe('e.g. juniper');
    // A Valentine resident's id, made from the name: said under the file name.
    await type(page, 'name', 'Nadia Vale');
    expect(await field(page, 'id').inputValue()).toBe('nadia');
    await expect.poll(() => errorsOf(page, 'id').textContent(), { timeout: 10_000 }).toMatch(/'nadia' is also scenarios\/valentines\/residents\/nadia\.yaml/);
    await field(page, 'id').fill('');
    await type(page, 'id', 'juniper');
    await expect.poll(() => errorsOf(page, 'id').textContent(), { timeout: 10_000 }).toBe('');
    // Another resident's home and bed: a warning naming her.
    await type(page, 'home', 'Lindqvist House');
    await expect.poll(() => errorsOf(page, 'home').textContent(), { timeout: 10_000 }).toMatch(/is Freya Lindqvist's \(freya\)/);
    // Routine places that do not exist, under the place typed in, not counted as "not filled in yet".
    await type(page, 'routine[0].activity', 'sorting the attic');
    await type(page, 'routine[0].place', 'Nowhere Street: attic');
    await expect.poll(() => underField(page, 'routine[0].place'), { timeout: 10_000 }).toMatch(/Nowhere Street/);
    await page.locator('.field[data-path="routine"] > button.add').click();
    await type(page, 'workplace', 'Hobbs Cafe: cafe');
    await field(page, 'routine[1].at').pressSequentially('09:00', TYPING);
    await type(page, 'routine[1].activity', 'baking bread');
    await type(page, 'routine[1].emoji', '🍞');
    await type(page, 'routine[1].place', 'work: oven');
    await expect.poll(() => underField(page, 'routine[1].place'), { timeout: 10_000 }).toMatch(/oven/);
    await settled(page);
    const summary = (await page.locator('.form-summary').textContent()) ?? '';
    const hidden = /\((\d+) in fields not filled in yet\)/.exec(summary);
    const typedOnes = await page.locator('.field.invalid').count();
    expect(typedOnes, summary).toBeGreaterThanOrEqual(2);
    expect(hidden === null || Number(hidden[1]) < Number(/(\d+) problem/.exec(summary)![1]), summary).toBe(true);
    await page.screenshot({ path: 'test-results/persona-editor-problems.png', fullPage: true });

    // Delete a file: the question opens in the file's row, where the click was, in view.
    fs.writeFileSync(
      path.join(personasDir, 'wren.yaml'),
      fs.readFileSync(path.join(personasDir, 'claire.yaml'), 'utf8').replaceAll('Claire Moreau', 'Wren Hale'),
    );
    await page.reload();
    await page.waitForFunction(() => window.__personaEditor?.ready === true, null, { timeout: 30_000 });
    const row = page.locator('#files li[data-id="wren"]');
    await row.locator('button', { hasText: 'delete file' }).click();
    const confirm = page.locator('#confirm');
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect(await row.locator('#confirm').count()).toBe(1);
    const box = (await confirm.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(901);
    // Beside the row that was clicked, not at the far end of the page.
    const rowBox = (await row.boundingBox())!;
    expect(box.y - rowBox.y).toBeLessThan(rowBox.height);
    await confirm.locator('button', { hasText: 'Delete wren.yaml' }).click();
    await expect.poll(() => fs.existsSync(path.join(personasDir, 'wren.yaml'))).toBe(false);
    await page.close();
  }, 120_000);

  it("the shipped scenario's persona sets still load with a persona saved under the placeholder's id", () => {
    const folder = tempDir('smalltown-personas-');
    fs.cpSync('personas', folder, { recursive: true });
    fs.writeFileSync(path.join(folder, 'juniper.yaml'), fs.readFileSync('personas/claire.yaml', 'utf8').replaceAll('Claire Moreau', 'Juniper Ash'));
    expect(personaFilesOf({ personas: [folder, 'scenarios/valentines/residents'] }, 'scenarios/valentines.yaml').has('juniper')).toBe(true);
    // The control: the old example id, and the scenario refuses the pair of folders.
    fs.writeFileSync(path.join(folder, 'nadia.yaml'), 'name: x\n');
    expect(() => personaFilesOf({ personas: [folder, 'scenarios/valentines/residents'] }, 'scenarios/valentines.yaml')).toThrow(/persona 'nadia' is in both/);
  });

  it('the file it wrote loads again at the next start', async () => {
    const map = loadTownMap(town.config.mapFile);
    const loaded = loadPersonaFolder(personasDir, map).personas.find((p) => p.id === 'nadia')!;
    expect(loaded).toMatchObject({
      name: 'Nadia Petrova',
      age: 34,
      home: 'Moreau House',
      workplace: 'Oak Hill College: library',
      innate: ['curious', 'patient'],
    });
    expect(loaded.relationships).toEqual({ claire: 'Claire lets her a room and shows her the library.' });
    expect(loaded.sprite.shirt).toBe('#8e44ad');
    await town.close();
    town = await startTestTown({ operatorToken: TOKEN, rate: 120, startTime: '2026-02-13T09:30', personasDir });
    expect(town.town.sim.agent('nadia')?.spec.name).toBe('Nadia Petrova');
    // A stop and a new world's start (every resident seeded): slower than one step when the suite runs in parallel.
  }, 90_000);

  it('a spectator sees the editor read-only, and the server refuses its writes', async () => {
    const page = watch(await browser.context.newPage());
    await page.goto(`${town.url}/personas?edit=isabella`);
    await page.waitForFunction(() => window.__personaEditor?.ready === true, null, { timeout: 30_000 });
    expect(await page.locator('#role').textContent()).toBe('spectator');
    expect(await field(page, 'name').isEditable()).toBe(false);
    expect(await field(page, 'routine[0].place').isEditable()).toBe(false);
    expect(await page.locator('#save-section').isVisible()).toBe(false);
    expect(await field(page, 'name').inputValue()).toBe('Isabella Rivera');
    expect(await page.locator('#notice').textContent()).toMatch(/read-only/);
    // A file not in town, which an operator could add or delete.
    fs.writeFileSync(
      path.join(personasDir, 'olga.yaml'),
      fs.readFileSync(path.join(personasDir, 'claire.yaml'), 'utf8').replaceAll('Claire Moreau', 'Olga Berg'),
    );
    const folder = () => fs.readdirSync(personasDir).map((f) => [f, fs.readFileSync(path.join(personasDir, f), 'utf8')]);
    const before = folder();
    const agents = town.town.sim.agents().length;
    const answers = await page.evaluate(async () => {
      const json = { 'content-type': 'application/json' };
      const put = await fetch('/api/persona-files/isabella', {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ fields: { name: 'Hijacked' }, overwrite: true }),
      });
      const add = await fetch('/api/agents', { method: 'POST', headers: json, body: JSON.stringify({ personaId: 'olga' }) });
      const del = await fetch('/api/persona-files/olga', { method: 'DELETE' });
      const remove = await fetch('/api/agents/isabella', { method: 'DELETE' });
      return [put.status, add.status, del.status, remove.status];
    });
    expect(answers).toEqual([401, 401, 401, 401]);
    await new Promise((r) => setTimeout(r, 300));
    expect(folder()).toEqual(before);
    expect(town.town.sim.agents().length).toBe(agents);
    await page.screenshot({ path: 'test-results/persona-editor-spectator.png' });
    expect(cspViolations).toEqual([]);
    await page.close();
  }, 60_000);
});

describe('the persona editor on an LLM town', () => {
  let stub: OpenAIStub;
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;

  beforeAll(async () => {
    stub = installTownResponders(await new OpenAIStub().start());
    town = await startTestTown({
      operatorToken: TOKEN,
      startTime: '2026-02-13T09:30',
      llm: { baseURL: stub.url, apiKey: 'test', model: 'stub-model', prices: { 'stub-model': { inputPerMTok: 1, outputPerMTok: 2 } } },
    });
    browser = await launchBrowser();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await town?.close();
    await stub?.close();
  });

  it('previews an edited persona\u2019s day with the LLM, and shows what it cost', async () => {
    const page = await browser.context.newPage();
    await page.goto(`${town.url}/personas?edit=isabella#token=${TOKEN}`);
    await page.waitForFunction(() => window.__personaEditor?.ready === true, null, { timeout: 30_000 });
    await expect.poll(() => page.locator('#plan-host .plan-actions li').count(), { timeout: 10_000 }).toBeGreaterThan(3);
    const button = page.locator('#llm-preview');
    expect(await button.textContent()).toMatch(/Preview with the LLM \(llm: stub-model/);
    const before = stub.stats.requests;
    await button.click();
    const cost = page.locator('#llm-plan-host .plan-cost');
    await expect.poll(() => cost.textContent(), { timeout: 20_000 }).toMatch(/^4 calls, [\d,]+ \+ [\d,]+ tokens, \$0\.\d{4}/);
    // Levels the town's own planning asked already come from its response cache, free; the call log
    // (not the stub, which the live town keeps busy meanwhile) has each of the preview's calls.
    const cached = Number(/\((\d+) from the cache, free\)/.exec((await cost.textContent()) ?? '')?.[1] ?? 0);
    const logged = town.town.db.db.prepare("SELECT sum(cached) AS cached, count(*) AS calls FROM llm_calls WHERE agent_id = 'preview:isabella'").get() as {
      cached: number;
      calls: number;
    };
    // The plan, its hour blocks, and the day's actions in two parts.
    expect(logged).toEqual({ cached, calls: 4 });
    expect(stub.stats.requests - before).toBeGreaterThanOrEqual(4 - cached);
    expect(await page.locator('#llm-plan-host .broad-strokes').textContent()).toContain('work for most of the day');
    await page.screenshot({ path: 'test-results/persona-editor-llm.png' });
    await page.close();
  });
});
