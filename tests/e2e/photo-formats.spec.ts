/**
 * Photos Chromium cannot show itself, end to end on the local backend: dropped into an album, each becomes a
 * photo with a thumbnail made by the decoder the media worker loads for it, turned the right way up, and opens
 * in the viewer on its preview with the original offered for download.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixture, thumbPixel, thumbSize, tile } from './helpers';

/** The orientation fixtures' corners once upright (scripts/make-fixtures.mjs): red top-left, green top-right. */
const isRed = ([r, g, b]: number[]) => r! > 170 && g! < 90 && b! < 90;
const isGreen = ([r, g, b]: number[]) => g! > 140 && r! < 90 && b! < 100;

test('a JPEG XL shows a thumbnail the right way up and opens in the viewer on its preview', async ({ page }) => {
  test.setTimeout(120_000);
  const photos = [{ name: 'sideways.jxl', mimeType: 'image/jxl', buffer: readFileSync(fixture('orientation-6.jxl')) }];
  await createAlbum(page, 'Formats');
  await addFiles(page, photos);
  await expectItemCount(page, photos.length);

  for (const { name } of photos) {
    const t = tile(page, name);
    await expect(t).toHaveAttribute('data-kind', 'image');
    await expect(t.locator('img.tile__thumb')).toBeVisible();
    // Stored 1,600 × 2,400 and turned by its header: seen wider than tall, red top-left, green top-right.
    const { w, h } = await thumbSize(t);
    expect(w, name).toBeGreaterThan(h);
    expect(isRed(await thumbPixel(t, 0.05, 0.05)), name).toBe(true);
    expect(isGreen(await thumbPixel(t, 0.95, 0.05)), name).toBe(true);

    await t.click();
    const viewer = page.getByRole('dialog', { name });
    const shown = viewer.getByRole('img', { name });
    await expect(shown).toBeVisible();
    // The preview (2,048 px wide): the browser cannot show the original itself.
    await expect.poll(() => shown.evaluate((el: HTMLImageElement) => el.naturalWidth)).toBe(2048);
    await expect(viewer.getByRole('button', { name: 'Download original' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
  }
});
