/**
 * The album screen's header on a phone (390×844) and a computer (1280×800), on the local backend with real
 * photographs in the album. Screenshots go to /tmp/shots-album-header/<HEADER_SHOTS or "now">/.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixture } from './helpers';

const SHOTS = join('/tmp/shots-album-header', process.env.HEADER_SHOTS ?? 'now');
const PHOTO_DIR = '/usr/share/backgrounds/mate/nature';
const TITLE = 'Harbour walks, autumn 2024';

function photos(): string[] {
  const chosen = ['Aqua.jpg', 'Garden.jpg', 'YellowFlower.jpg', 'Dune.jpg', 'FreshFlower.jpg', 'Blinds.jpg'];
  if (existsSync(PHOTO_DIR) && chosen.every((f) => readdirSync(PHOTO_DIR).includes(f))) return chosen.map((f) => join(PHOTO_DIR, f));
  return [fixture('orientation-1.jpg'), fixture('orientation-3.jpg'), fixture('xmp.jpg')];
}

async function albumWithPhotos(page: Page): Promise<void> {
  await createAlbum(page, TITLE, 'Mornings by the water');
  const files = photos();
  await addFiles(page, files);
  await expectItemCount(page, files.length);
  await expect(page.locator('img.tile__thumb')).toHaveCount(files.length, { timeout: 60_000 });
}

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

async function box(l: Locator) {
  const b = await l.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the title has the header to itself; Add stays in sight and the other actions are in one keyboard-usable menu', async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    await albumWithPhotos(page);
    await page.screenshot({ path: join(SHOTS, 'phone-390x844.png') });

    const title = page.getByRole('heading', { level: 1, name: TITLE });
    const add = page.getByRole('button', { name: 'Add', exact: true }).first();
    const more = page.getByRole('button', { name: 'More album actions' });
    await expect(add).toBeVisible();
    await expect(more).toBeVisible();
    // The rest is not spread over extra lines of buttons.
    for (const name of ['Edit', 'Delete album', 'Download']) await expect(page.getByRole('button', { name, exact: true })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Settings' })).toHaveCount(0);
    // One row of actions, below the title and clear of it.
    const [t, a, m] = [await box(title), await box(add), await box(more)];
    expect(Math.abs(a.y - m.y)).toBeLessThan(4);
    expect(a.y).toBeGreaterThanOrEqual(t.y + t.height - 1);
    expect(m.x + m.width).toBeLessThanOrEqual(390);

    // By keyboard: the menu opens on its first choice and every album action is there.
    await more.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'More album actions' });
    await expect(menu).toBeVisible();
    for (const name of ['Download album as ZIP', 'Settings', 'Edit', 'Delete album']) await expect(menu.getByRole('menuitem', { name, exact: true })).toBeVisible();
    await expect(menu.getByRole('menuitem').first()).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'phone-390x844-menu.png') });
    // Typing a letter moves to the choice that starts with it.
    await page.keyboard.press('e');
    await expect(menu.getByRole('menuitem', { name: 'Edit', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    const edit = page.getByRole('dialog', { name: 'Edit album' });
    await edit.getByLabel('Title').fill('Harbour walks');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Harbour walks' })).toBeVisible();

    await more.click();
    await page.getByRole('menuitem', { name: 'Delete album' }).click();
    await expect(page.getByRole('dialog', { name: 'Delete this album?' })).toBeVisible();
    await page.getByRole('dialog', { name: 'Delete this album?' }).getByRole('button', { name: 'Cancel' }).click();

    await more.click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Album settings' })).toBeVisible();
  });
});

test.describe('on a computer', () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test('every action stays a button beside the title', async ({ page }) => {
    mkdirSync(SHOTS, { recursive: true });
    await albumWithPhotos(page);
    await page.screenshot({ path: join(SHOTS, 'desktop-1280x800.png') });
    for (const name of ['Add', 'Download', 'Edit', 'Delete album']) await expect(page.getByRole('button', { name, exact: true }).first()).toBeVisible();
    await expect(page.getByRole('link', { name: 'Settings' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'More album actions' })).toHaveCount(0);
    expect(await seriousViolations(page)).toEqual([]);
  });
});
