import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixture } from './helpers';

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

test('on this device the owner renames, describes and chooses the cover in the settings, then deletes the album', async ({ page }) => {
  const albumId = await createAlbum(page, 'Summer');
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('orientation-6.jpg')]);
  await expectItemCount(page, 2);
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(new RegExp(`/albums/${albumId}/settings$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Album settings' })).toBeVisible();
  await expect(page.getByTestId('sharing-needs-supabase')).toHaveCount(2);
  expect(await seriousViolations(page)).toEqual([]);

  const album = page.getByRole('region', { name: 'Album' });
  await expect(album.getByRole('radio', { name: 'Automatic' })).toBeChecked();
  await album.getByLabel('Title').fill('Summer by the sea');
  await album.getByLabel(/Description/).fill('Two weeks in Porto.');
  await album.getByRole('radio', { name: 'orientation-6.jpg' }).check({ force: true });
  await album.getByRole('button', { name: 'Save' }).click();
  await expect(album.getByRole('status')).toHaveText('Saved');

  // It holds after a reload, and the album says it.
  await page.reload();
  await expect(page.getByRole('region', { name: 'Album' }).getByRole('radio', { name: 'orientation-6.jpg' })).toBeChecked();
  await expect(page.getByRole('region', { name: 'Album' }).getByLabel('Title')).toHaveValue('Summer by the sea');
  await page.getByRole('link', { name: 'Summer by the sea' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Summer by the sea' })).toBeVisible();
  await expect(page.getByText('Two weeks in Porto.')).toBeVisible();

  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Delete album' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this album?' });
  await expect(dialog.getByRole('button', { name: 'Delete album' })).toBeDisabled();
  expect(await seriousViolations(page)).toEqual([]);
  await dialog.getByLabel('Album title').fill('Summer by the sea');
  await dialog.getByRole('button', { name: 'Delete album' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText('“Summer by the sea” was deleted.', { exact: true })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
});

test('the settings screen on a phone and the invite page have no serious accessibility violations', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const albumId = await createAlbum(page, 'Phone');
  await page.goto(`/albums/${albumId}/settings`);
  await expect(page.getByRole('heading', { level: 2, name: 'Danger zone' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);

  await page.goto('/invite/some-token');
  await expect(page.getByRole('heading', { name: 'Invitations need a Supabase project' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});

test('with a Supabase project, a signed-out visitor of an invitation is asked to sign in and sent back after', async ({ page }) => {
  const project = 'https://demo-project.supabase.co';
  const b64url = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const anonKey = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ role: 'anon', iss: 'supabase' })}.c2ln`;
  await page.route('**/config.json', (route) => route.fulfill({ json: { supabaseUrl: project, supabaseAnonKey: anonKey } }));
  await page.route(`${project}/**`, (route) => route.fulfill({ status: 404, headers: { 'access-control-allow-origin': '*' }, json: { message: 'not stubbed' } }));
  await page.goto('/invite/AbCdEfGhIjKlMnOpQrStUv');
  await expect(page.getByRole('heading', { name: 'You are invited to an album' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('link', { name: 'Sign in to join' }).click();
  await expect(page).toHaveURL(/\/sign-in\?next=%2Finvite%2FAbCdEfGhIjKlMnOpQrStUv$/);
  await expect(page.getByRole('heading', { name: 'Sign in to Shoebox' })).toBeVisible();
});
