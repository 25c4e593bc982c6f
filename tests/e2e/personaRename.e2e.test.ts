// Renaming a persona in the editor, in a real browser, typed at human speed: the question opens beside
// the id, says that the id is not the name people see, refuses a taken id under the field, and a free
// one moves the file while the agent in the town page stays where it is under its new id.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type LaunchedBrowser } from './browser';
import { startTestTown, tempDir } from '../helpers';

const TOKEN = 'e2e-rename-operator';
const TYPING = { delay: 35 };

describe('renaming a persona in the editor', () => {
  let town: Awaited<ReturnType<typeof startTestTown>>;
  let browser: LaunchedBrowser;
  const personasDir = tempDir('smalltown-personas-');

  beforeAll(async () => {
    fs.cpSync('personas', personasDir, { recursive: true });
    town = await startTestTown({ operatorToken: TOKEN, rate: 60, startTime: '2026-02-13T09:30', personasDir });
    browser = await launchBrowser();
    fs.mkdirSync('test-results', { recursive: true });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await town?.close();
  });

  it('asks beside the id, refuses a taken id under the field, and renames: the file moves and the agent stays in town', async () => {
    const townPage = await browser.context.newPage();
    await townPage.goto(`${town.url}/?token=${TOKEN}`);
    await townPage.waitForFunction(() => window.__smalltown?.ready === true, null, { timeout: 60_000 });
    const memoriesBefore = town.town.db.memories.count('kenji' as never);

    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${town.url}/personas#token=${TOKEN}`);
    await page.waitForFunction(() => window.__personaEditor?.ready === true, null, { timeout: 30_000 });
    await page.locator('#files li[data-id="kenji"] button', { hasText: 'edit' }).click();
    await expect.poll(() => page.locator('#editor-title').textContent()).toMatch(/Editing .*kenji\.yaml/);
    // The id is labelled as the file name, apart from the name people see.
    expect(await page.locator('.field[data-path="id"] .field-label').textContent()).toBe('Id (file name)');

    // A smaller window: the question still opens where the click was, in view.
    await page.setViewportSize({ width: 1024, height: 700 });
    const renameButton = page.locator('.field[data-path="id"] button', { hasText: 'rename…' });
    await renameButton.click();
    const confirm = page.locator('#confirm');
    await expect.poll(() => confirm.isVisible()).toBe(true);
    expect(await page.locator('.field[data-path="id"] #confirm').count()).toBe(1);
    const box = (await confirm.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(701);
    expect(await confirm.textContent()).toMatch(/To change the name people see, edit Name instead/);

    // A taken id, typed: refused under the field, nothing moved.
    const input = page.locator('#confirm input[aria-label="new id"]');
    await input.fill('');
    await input.pressSequentially('isabella', TYPING);
    await confirm.locator('button', { hasText: 'Rename to isabella' }).click();
    await expect.poll(() => confirm.locator('.field-errors').textContent(), { timeout: 10_000 }).toMatch(/'isabella' is taken: isabella\.yaml/);
    expect(fs.existsSync(path.join(personasDir, 'kenji.yaml'))).toBe(true);

    // A free one.
    await input.fill('');
    await input.pressSequentially('kenji-ito', TYPING);
    await input.press('Enter');
    await expect.poll(() => page.locator('#save-status').textContent(), { timeout: 20_000 }).toMatch(/Renamed kenji\.yaml to kenji-ito\.yaml/);
    expect(await confirm.isVisible()).toBe(false);
    await expect.poll(() => page.locator('#editor-title').textContent()).toMatch(/kenji-ito\.yaml/);
    expect(await page.locator('[name="id"]').inputValue()).toBe('kenji-ito');
    expect(await page.locator('#files li[data-id="kenji"]').count()).toBe(0);
    expect(await page.locator('#files li[data-id="kenji-ito"] .in-town').count()).toBe(1);
    expect(fs.existsSync(path.join(personasDir, 'kenji.yaml'))).toBe(false);
    expect(fs.existsSync(path.join(personasDir, 'kenji-ito.yaml'))).toBe(true);
    await page.screenshot({ path: 'test-results/persona-editor-rename.png', fullPage: true });

    // The town page: the same resident, drawn under the new id, with the memories of before.
    await townPage.waitForFunction(
      () => {
        const ids = window.__smalltown!.agents().map((a) => a.id);
        return ids.includes('kenji-ito') && !ids.includes('kenji');
      },
      null,
      { timeout: 20_000 },
    );
    const drawn = await townPage.evaluate(() => window.__smalltown!.agents().find((a) => a.id === 'kenji-ito')!);
    expect(drawn.name).toBe(town.town.personas.get('kenji-ito')!.name);
    expect(town.town.db.memories.count('kenji-ito' as never)).toBeGreaterThanOrEqual(memoriesBefore);
    expect(town.town.db.memories.count('kenji' as never)).toBe(0);
    await townPage.close();
    await page.close();
  }, 150_000);
});
