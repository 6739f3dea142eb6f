/**
 * A server that fails for a moment does not stop an upload: on a Supabase project, the first request that
 * finishes a photo is answered 503 with a Retry-After. The Uploads screen says the file waits to be tried again,
 * and it arrives without anyone pressing Try again ([Note: A file's upload tried again]).
 */
import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { addFiles, createAlbum, fixture } from './helpers';
import { expect, test } from './supabase-world';

/** A real photograph where Debian's mate-backgrounds is installed; a test fixture otherwise. */
const PHOTO = existsSync('/usr/share/backgrounds/mate/nature/Garden.jpg') ? '/usr/share/backgrounds/mate/nature/Garden.jpg' : fixture('orientation-1.jpg');

test('a photo whose finishing is answered 503 waits, says so, and arrives by itself', async ({ browser, world, signIn }) => {
  const ana = await world.newPerson('Ana');
  const context = await browser.newContext();
  const page = await signIn(context, ana);
  const albumId = await createAlbum(page, 'Quay');
  const api = await world.api(ana);

  let refused = 0;
  await page.route('**/rest/v1/rpc/finalize_item', (route) => {
    if (route.request().method() !== 'POST' || refused > 0) return route.fallback();
    refused += 1;
    // As a gateway in front of a restarting server answers; the header is exposed so the page may read it.
    return route.fulfill({
      status: 503,
      headers: { 'access-control-allow-origin': '*', 'access-control-expose-headers': 'Retry-After', 'retry-after': '8' },
      json: { message: 'Service Unavailable' },
    });
  });
  await addFiles(page, [PHOTO]);
  // The album's progress bar says it too, rather than "finishing" with every byte sent.
  const bar = page.getByRole('complementary', { name: 'Upload progress' });
  await expect(bar).toContainText(/No answer from the server · trying again in \d s/, { timeout: 60_000 });
  await expect(bar).toContainText('0 of 1 uploaded');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('album-retrying-phone.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await bar.getByRole('link', { name: 'Details' }).click();
  const row = page.getByRole('list', { name: 'Upload queue' }).getByRole('listitem');
  await expect(row).toContainText(/No answer from the server · trying again in \d s/, { timeout: 60_000 });
  await expect(row.getByRole('alert')).toHaveCount(0);
  // Every byte is sent, but the queue is not "finishing": it waits, and says for how long.
  const totals = page.locator('.stats');
  await expect(totals).toContainText(/No answer from the server · trying again in \d s/);
  await expect(totals).not.toContainText('finishing');
  await page.screenshot({ path: test.info().outputPath('uploads-retrying-desktop.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: test.info().outputPath('uploads-retrying-phone.png') });

  await expect(row).toHaveAttribute('data-state', 'done', { timeout: 60_000 });
  expect(refused).toBe(1);
  const { data, error } = await api.from('items').select('filename, status').eq('album_id', albumId);
  expect(error).toBeNull();
  expect(data).toEqual([{ filename: basename(PHOTO), status: 'ready' }]);
});
