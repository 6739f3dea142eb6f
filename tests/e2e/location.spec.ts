/**
 * Originals without location, end to end on the local backend: photographs given a place by ExifTool
 * (scripts/make-location-fixtures.mjs) are added through the app; the original the app hands back (the
 * viewer's "Download original", read from the local files store) carries no GPS tag for ExifTool, and the
 * details say "Location removed". After the owner chooses to keep originals as they are, the next photo keeps
 * its place. A photo whose place cannot be removed never goes up as it is: the person uploads its preview
 * instead, or skips it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { makeCompressedPlacePng, makeLocationFixtures } from '../../scripts/make-location-fixtures.mjs';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, tile } from './helpers';

const gpsTags = (path: string) =>
  Object.keys((JSON.parse(execFileSync('exiftool', ['-j', '-a', '-G1', path], { encoding: 'utf8' })) as Record<string, unknown>[])[0]!).filter((k) => /gps/i.test(k));

async function downloadOriginal(page: Page, filename: string, saveAs: string): Promise<string> {
  await tile(page, filename).click();
  const viewer = page.getByRole('dialog', { name: filename });
  const download = page.waitForEvent('download');
  await viewer.getByRole('button', { name: 'Download original' }).click();
  await (await download).saveAs(saveAs);
  return saveAs;
}

test('photos with a place arrive without it; after choosing to keep originals as they are, the next keeps it', async ({ page }, info) => {
  test.setTimeout(180_000);
  const [heic, png, webp, jpeg] = makeLocationFixtures(info.outputPath('with-place'));
  await createAlbum(page, 'Paris');
  await addFiles(page, [jpeg!, png!, webp!, heic!]);
  await expectItemCount(page, 4);
  // Every one a photo with a thumbnail, the HEIC too (decoded by libheif in the media worker).
  for (const name of ['rocket.jpg', 'chelsea.png', 'coffee.webp', 'astronaut.heic']) {
    await expect(tile(page, name)).toHaveAttribute('data-kind', 'image');
    await expect(tile(page, name).locator('img.tile__thumb')).toBeVisible();
  }

  for (const [path, name] of [[jpeg!, 'rocket.jpg'], [png!, 'chelsea.png'], [webp!, 'coffee.webp'], [heic!, 'astronaut.heic']] as const) {
    expect(gpsTags(path).length, name).toBeGreaterThan(3);
    const got = await downloadOriginal(page, name, info.outputPath(`downloaded-${name}`));
    // The viewer shows a picture (for the HEIC, its preview: Chromium cannot show the original).
    await expect(page.getByRole('dialog', { name }).getByRole('img', { name })).toBeVisible();
    expect(gpsTags(got), name).toEqual([]);
    expect(readFileSync(got).length, name).toBe(readFileSync(path).length);
    await page.getByRole('button', { name: 'Details' }).click();
    await expect(page.getByRole('complementary', { name: 'Details' }).getByText('Location removed')).toBeVisible();
    await page.getByRole('button', { name: 'Details' }).click();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }

  // The owner keeps originals as they are from now on.
  await page.getByRole('link', { name: /settings/i }).first().click();
  const section = page.getByTestId('location-choice');
  await expect(section.getByRole('radio', { name: /Remove location from originals/ })).toBeChecked();
  await section.getByRole('radio', { name: 'Keep originals as they are' }).check();
  await section.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByText('Saved')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('location-choice').getByRole('radio', { name: 'Keep originals as they are' })).toBeChecked();

  await page.getByRole('link', { name: 'Paris' }).click();
  await addFiles(page, [{ name: 'kept.jpg', mimeType: 'image/jpeg', buffer: readFileSync(jpeg!) }]);
  await expectItemCount(page, 5);
  const kept = await downloadOriginal(page, 'kept.jpg', info.outputPath('downloaded-kept.jpg'));
  expect(readFileSync(kept).equals(readFileSync(jpeg!))).toBe(true);
  await page.getByRole('button', { name: 'Details' }).click();
  await expect(page.getByRole('complementary', { name: 'Details' }).getByText('Location removed')).toHaveCount(0);
});

test('a photo whose place cannot be removed waits for a choice: its preview goes up instead, or it is skipped', async ({ page }, info) => {
  test.setTimeout(120_000);
  const stubborn = makeCompressedPlacePng(info.outputPath('with-place'));
  expect(gpsTags(stubborn).length).toBeGreaterThan(1);
  await createAlbum(page, 'Chelsea');
  await addFiles(page, [
    { name: 'chelsea.png', mimeType: 'image/png', buffer: readFileSync(stubborn) },
    { name: 'copy.png', mimeType: 'image/png', buffer: readFileSync(stubborn) },
  ]);
  const bar = page.getByRole('complementary', { name: 'Upload progress' });
  await expect(bar.getByText('2 uploads need attention')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('heading', { name: 'This album is empty' })).toBeVisible();
  await bar.getByRole('link', { name: 'Details' }).click();

  // Both stopped, the same choice offered for all of them and for each.
  const all = page.getByRole('region', { name: 'Files that still hold their place' });
  await expect(all).toContainText('2 files may still hold the place where they were taken');
  await expect(all.getByRole('button', { name: 'Upload previews only (2)' })).toBeVisible();
  const row = page.locator('.upload-row', { hasText: 'chelsea.png' });
  await expect(row.getByRole('alert')).toContainText('could not be removed');
  await page.getByRole('button', { name: 'Skip copy.png' }).click();
  await expect(page.locator('.upload-row', { hasText: 'copy.png' })).toHaveCount(0);
  await expect(all).toHaveCount(0);
  await row.getByRole('button', { name: 'Upload preview only of chelsea.png' }).click();
  await expect(row).toHaveAttribute('data-state', 'done', { timeout: 60_000 });

  await page.goBack();
  await expectItemCount(page, 1);
  const got = await downloadOriginal(page, 'chelsea.webp', info.outputPath('downloaded-chelsea.webp'));
  expect(gpsTags(got)).toEqual([]);
  await page.getByRole('button', { name: 'Details' }).click();
  await expect(page.getByRole('complementary', { name: 'Details' }).getByText(/Only a preview was uploaded/)).toBeVisible();
});
