/**
 * Originals without location, end to end on the local backend: photographs given a place by ExifTool
 * (scripts/make-location-fixtures.mjs) are added through the app; the original the app hands back (the
 * viewer's "Download original", read from the local files store) carries no GPS tag for ExifTool, and the
 * details say "Location removed". After the owner chooses to keep originals as they are, the next photo keeps
 * its place.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { makeLocationFixtures } from '../../scripts/make-location-fixtures.mjs';
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

  for (const [path, name] of [[jpeg!, 'rocket.jpg'], [png!, 'chelsea.png'], [webp!, 'coffee.webp'], [heic!, 'astronaut.heic']] as const) {
    expect(gpsTags(path).length, name).toBeGreaterThan(3);
    const got = await downloadOriginal(page, name, info.outputPath(`downloaded-${name}`));
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
