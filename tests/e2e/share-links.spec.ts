import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { addFiles, createAlbum, fixture, tile } from './helpers';
import { expect, test } from './supabase-world';

// Share links made from the album's settings through the real share-links function (Deno) on the emulated
// Supabase project: the link is shown once with a QR code, listed with what was chosen, and the database holds
// a hashed password and the chosen expiry.

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('the owner makes a link with a password and an expiry: shown once with Copy and a QR code, then listed', async ({ browser, world, signIn }) => {
  const ana = await world.newPerson('Ana');
  const context = await browser.newContext({ permissions: ['clipboard-read', 'clipboard-write'] });
  const page = await signIn(context, ana);
  const albumId = await createAlbum(page, 'Lisbon');
  await addFiles(page, [fixture('orientation-1.jpg')]);
  await expect(tile(page, 'orientation-1.jpg').locator('img.tile__thumb')).toBeVisible({ timeout: 60_000 });
  await page.getByRole('link', { name: 'Settings' }).click();
  const section = page.getByRole('region', { name: 'Share links' });
  await expect(section.getByText('No share links yet.')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  const form = section.getByRole('form', { name: 'New share link' });
  await form.getByLabel('Label (optional)').fill('For Ben');
  await form.getByLabel('Password (optional)').fill('pastel de nata');
  await form.getByLabel('Expires after').selectOption({ label: '7 days' });
  await form.getByLabel('View limit (optional)').fill('5');
  await form.getByRole('button', { name: 'Create share link' }).click();

  const shown = section.getByTestId('share-link');
  const url = shown.getByLabel('Share link', { exact: true });
  await expect(url).toHaveValue(/\/s\/[A-Za-z0-9_-]{22,}$/);
  const link = await url.inputValue();
  expect(new URL(link).origin).toBe(new URL(page.url()).origin);
  await expect(shown.getByRole('img', { name: 'QR code of the share link' })).toBeVisible();
  await shown.getByRole('button', { name: 'Copy' }).click();
  await expect(shown.getByRole('status')).toHaveText('Copied. Send it to whoever should see the album.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  // Cleared for the next recipient.
  await expect(form.getByLabel('Password (optional)')).toHaveValue('');

  const row = section.getByRole('listitem').filter({ hasText: 'For Ben' });
  await expect(row).toContainText('Active · expires in 7 days');
  await expect(row).toContainText('Password · Downloads on · Guest uploads off · 0 of 5 views');
  await expect(row).toContainText('Never opened');
  expect(await seriousViolations(page)).toEqual([]);

  // The database holds what was chosen, and no password anyone could read back.
  const api = await world.api(ana);
  const { data, error } = await api.from('share_links').select('label,has_password,expires_at,max_views,allow_download').eq('album_id', albumId);
  expect(error).toBeNull();
  expect(data).toHaveLength(1);
  expect(data![0]).toMatchObject({ label: 'For Ben', has_password: true, max_views: 5, allow_download: true });
  const days = (Date.parse(String(data![0]!.expires_at)) - Date.now()) / 86_400_000;
  expect(days).toBeGreaterThan(6.9);
  expect(days).toBeLessThanOrEqual(7);

  // Revoked after a confirmation, it stays listed as revoked.
  await row.getByRole('button', { name: 'Revoke “For Ben”' }).click();
  await page.getByRole('dialog', { name: 'Revoke “For Ben”?' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('Revoked');
  await expect(row.getByRole('button')).toHaveCount(0);
});

test('when the function cannot be reached the form says so and keeps what was typed; sending again makes the link', async ({ browser, world, signIn }) => {
  const ana = await world.newPerson('Ana');
  const context = await browser.newContext();
  const page = await signIn(context, ana);
  const albumId = await createAlbum(page, 'Porto');
  await page.goto(`/albums/${albumId}/settings`);
  const form = page.getByRole('form', { name: 'New share link' });
  await form.getByLabel('Label (optional)').fill('For the cousins');
  await form.getByLabel('Password (optional)').fill('francesinha');
  await form.getByRole('switch', { name: 'Guest uploads' }).click();
  await form.getByLabel('Files per guest (optional)').fill('30');

  // The connection drops on the way to the function.
  const cut = (route: { abort: () => Promise<void> }) => route.abort();
  await context.route('**/functions/v1/share-links', cut);
  await form.getByRole('button', { name: 'Create share link' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'The server cannot be reached. Check your connection and try again.' })).toBeVisible();
  await expect(form.getByLabel('Label (optional)')).toHaveValue('For the cousins');
  await expect(form.getByLabel('Password (optional)')).toHaveValue('francesinha');
  await expect(form.getByLabel('Files per guest (optional)')).toHaveValue('30');
  await expect(page.getByTestId('share-link')).toHaveCount(0);

  await context.unroute('**/functions/v1/share-links', cut);
  await form.getByRole('button', { name: 'Create share link' }).click();
  await expect(page.getByTestId('share-link').getByLabel('Share link', { exact: true })).toHaveValue(/\/s\/[A-Za-z0-9_-]{22,}$/);
  const row = page.getByRole('listitem').filter({ hasText: 'For the cousins' });
  await expect(row).toContainText('Guest uploads on (30 files per guest)');
  await expect(row).toContainText('Active · expires in 30 days');
});
