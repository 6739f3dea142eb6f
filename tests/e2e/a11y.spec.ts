import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixture, tile } from './helpers';

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('the albums page, the album grid and the viewer have no serious accessibility violations', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await createAlbum(page, 'Accessible');
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('tiny.pdf')]);
  await expectItemCount(page, 2);
  await expect(tile(page, 'orientation-1.jpg').locator('img.tile__thumb')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/');
  await expect(page.getByRole('list', { name: 'Your albums' }).getByRole('link', { name: /Accessible/ })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.goBack();
  await tile(page, 'orientation-1.jpg').click();
  await expect(page.getByRole('dialog')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('the dialogs, the uploads and account screens, and the phone layout have no serious accessibility violations', async ({ page }) => {
  await createAlbum(page, 'Checked');
  await addFiles(page, [fixture('orientation-1.jpg')]);
  await expectItemCount(page, 1);
  await page.getByRole('button', { name: 'Edit' }).click();
  await expect(page.getByRole('dialog', { name: 'Edit album' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Delete album' }).click();
  await expect(page.getByRole('dialog', { name: 'Delete this album?' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.keyboard.press('Escape');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Uploads' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Uploads' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Where your albums live' })).toContainText('In this browser, on this device only');
  expect(await seriousViolations(page)).toEqual([]);

  // On a phone the navigation shows icons only; its links still say where they go.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Albums' }).click({ timeout: 10_000 });
  await expect(page.getByRole('list', { name: 'Your albums' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
