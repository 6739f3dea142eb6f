import { expect, test } from './csp-test';
import { createAlbum } from './helpers';

test('a newcomer creates, renames, describes and deletes an album, and it all survives a reload', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();

  // The text rules answer as the user types, and nothing typed is lost.
  await page.getByRole('button', { name: 'Create your first album' }).click();
  const dialog = page.getByRole('dialog', { name: 'New album' });
  const title = dialog.getByLabel('Title');
  await title.fill('   ');
  await expect(dialog.getByRole('alert')).toContainText(/title/i);
  await expect(dialog.getByRole('button', { name: 'Create album' })).toBeDisabled();
  await title.fill('x'.repeat(121));
  await expect(dialog.getByRole('alert')).toContainText(/120/);
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await createAlbum(page, 'Summer 2024', 'Beach days');
  await expect(page.getByText('Beach days')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'This album is empty' })).toBeVisible();

  await page.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit album' });
  await edit.getByLabel('Title').fill('Summer 2024 — Brittany');
  await edit.getByLabel(/Description/).fill('Beach days\nand crêpes');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Summer 2024 — Brittany' })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Summer 2024 — Brittany' })).toBeVisible();
  await expect(page.getByText('and crêpes')).toBeVisible();

  await page.getByRole('link', { name: 'Albums' }).click();
  await expect(page.getByRole('list', { name: 'Your albums' }).getByRole('link', { name: /Summer 2024 — Brittany/ })).toBeVisible();
  await expect(page.getByText(/created/)).toBeVisible();

  await page.getByRole('list', { name: 'Your albums' }).getByRole('link', { name: /Summer 2024 — Brittany/ }).click();
  await page.getByRole('button', { name: 'Delete album' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this album?' });
  await expect(confirm).toContainText('cannot be undone');
  await confirm.getByRole('button', { name: 'Delete album' }).click();
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
});

test('user text is shown as text, never as HTML', async ({ page }) => {
  await createAlbum(page, '<img src=x onerror="window.pwned=1">', '<b>bold</b>');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('<img src=x onerror="window.pwned=1">');
  await expect(page.getByText('<b>bold</b>')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
});

test('an unknown address shows a way back', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.goto('/albums/00000000-0000-4000-8000-000000000000');
  await expect(page.getByRole('alert')).toHaveAttribute('data-error-code', 'album/not-found');
});
