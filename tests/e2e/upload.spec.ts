import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixture, fixtureBytes, thumbPixel, thumbSize, tile } from './helpers';

const isRed = ([r, g, b]: [number, number, number]) => r > 170 && g < 90 && b < 90;

test('photos, a PDF and a video upload; thumbnails are upright; everything is still there after a reload', async ({ page }) => {
  await createAlbum(page, 'Mixed');
  await addFiles(page, [
    fixture('orientation-1.jpg'),
    fixture('orientation-3.jpg'),
    fixture('orientation-6.jpg'),
    fixture('orientation-8.jpg'),
    fixture('tiny.pdf'),
    fixture('clip-320x240.webm'),
  ]);
  await expectItemCount(page, 6);

  // Every orientation shows its red corner top-left: EXIF orientation applied exactly once.
  for (const n of [1, 3, 6, 8]) {
    const t = tile(page, `orientation-${n}.jpg`);
    await expect(t).toBeVisible();
    expect(isRed(await thumbPixel(t, 0.05, 0.05)), `orientation ${n}`).toBe(true);
  }
  // Orientation 6 is stored as a portrait 1600 × 2400 and seen as a landscape: so must its thumbnail be.
  const six = await thumbSize(tile(page, 'orientation-6.jpg'));
  expect(six).toEqual({ w: 480, h: 320 });

  await expect(tile(page, 'tiny.pdf')).toHaveAttribute('data-kind', 'file');
  const video = tile(page, 'clip-320x240.webm');
  await expect(video).toHaveAttribute('data-kind', 'video');
  await expect(video.locator('img.tile__thumb')).toBeVisible();

  await page.reload();
  await expectItemCount(page, 6);
  await expect(tile(page, 'orientation-6.jpg').locator('img.tile__thumb')).toBeVisible();

  // The uploads list shows each photo's and the video's thumbnail, upright; the PDF its icon.
  await page.goto('/uploads');
  const rowThumb = (name: string) => page.locator('.upload-row', { hasText: name }).getByTestId('upload-thumb');
  await expect(rowThumb('orientation-6.jpg')).toBeVisible();
  expect(await rowThumb('orientation-6.jpg').evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([480, 320]);
  await expect(rowThumb('clip-320x240.webm')).toBeVisible();
  await expect(page.locator('.upload-row', { hasText: 'tiny.pdf' }).locator('.upload-row__thumb svg')).toBeVisible();
  await expect(rowThumb('tiny.pdf')).toHaveCount(0);
  await page.goBack();

  // The video plays in the viewer: its metadata loads from the stored original.
  await tile(page, 'clip-320x240.webm').click();
  const player = page.getByRole('dialog').locator('video');
  await expect(player).toBeVisible();
  await expect.poll(() => player.evaluate((v: HTMLVideoElement) => v.readyState)).toBeGreaterThanOrEqual(1);
  expect(await player.evaluate((v: HTMLVideoElement) => [v.videoWidth, v.videoHeight])).toEqual([320, 240]);
});

test('a reload in the middle of an upload completes it without duplicates', async ({ page }, info) => {
  // 25 files through the media pipeline, twice started: on a busy 2-core machine this outlasts the default.
  test.setTimeout(240_000);
  await createAlbum(page, 'Interrupted');
  const jpeg = fixtureBytes('orientation-1.jpg');
  const files = Array.from({ length: 24 }, (_, i) => ({ name: `photo-${String(i).padStart(2, '0')}.jpg`, mimeType: 'image/jpeg', buffer: jpeg }));
  // A large file keeps the queue busy long enough to interrupt it.
  const big = info.outputPath('big.bin');
  writeFileSync(big, Buffer.alloc(96 * 1024 * 1024, 7));
  await addFiles(page, files);
  await addFiles(page, [big]);
  // Reloaded once all 25 are in the queue: a file is queued once its copy is stored, and storing 96 MiB takes a
  // moment (a reload before that is the same as never adding it).
  await expect(page.getByRole('complementary', { name: 'Upload progress' }).getByText(/^\d+ of 25 uploaded$/)).toBeVisible();
  await page.reload();
  // The queue picks up where it was after the reload…
  await expect(page.getByRole('complementary', { name: 'Upload progress' })).toBeVisible();
  await expectItemCount(page, 25, 120_000);
  await page.goto('/uploads');
  await expect(page.locator('.upload-row[data-state="done"]')).toHaveCount(25);
  // The queue and the album agree: one item per file, never two.
  await page.goBack();
  await expectItemCount(page, 25);
});

test('bad input is kept in the queue with a clear error', async ({ page }) => {
  await createAlbum(page, 'Odd files');
  await addFiles(page, [
    { name: 'empty.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(0) },
    { name: 'corrupt.jpg', mimeType: 'image/jpeg', buffer: fixtureBytes('corrupt.jpg') },
    { name: 'drawing.svg', mimeType: 'image/svg+xml', buffer: fixtureBytes('drawing.svg') },
  ]);
  await expectItemCount(page, 2);
  await expect(tile(page, 'corrupt.jpg')).toHaveAttribute('data-kind', 'file');
  await expect(tile(page, 'drawing.svg')).toHaveAttribute('data-kind', 'file');
  await page.goto('/uploads');
  const row = page.locator('.upload-row', { hasText: 'empty.jpg' });
  await expect(row).toHaveAttribute('data-state', 'failed');
  await expect(row.getByRole('alert')).toHaveAttribute('data-error-code', 'upload/empty');
});

test('a second tab sees an upload from the first within a second of the first tab', async ({ page, context }) => {
  const albumId = await createAlbum(page, 'Live');
  const other = await context.newPage();
  await other.goto(`/albums/${albumId}`);
  await expect(other.getByRole('heading', { name: 'This album is empty' })).toBeVisible();
  // Each page notes the moment the tile enters it, on the machine's clock: the gap is the app's, not the time
  // the test runner takes to look (which a loaded machine stretches).
  const noteArrival = (p: Page) =>
    p.evaluate((name) => {
      const w = window as unknown as { arrivedAt?: number };
      const seen = () => document.querySelector(`[role="gridcell"][aria-label="${CSS.escape(name)}"]`);
      new MutationObserver((_, observer) => {
        if (!seen()) return;
        w.arrivedAt = performance.timeOrigin + performance.now();
        observer.disconnect();
      }).observe(document.body, { childList: true, subtree: true, attributes: true });
    }, 'orientation-1.jpg');
  await noteArrival(page);
  await noteArrival(other);
  await addFiles(page, [fixture('orientation-1.jpg')]);
  await expect(tile(page, 'orientation-1.jpg')).toBeVisible({ timeout: 30_000 });
  await expect(tile(other, 'orientation-1.jpg')).toBeVisible({ timeout: 10_000 });
  const arrivedAt = (p: Page) => p.evaluate(() => (window as unknown as { arrivedAt?: number }).arrivedAt ?? NaN);
  const gap = (await arrivedAt(other)) - (await arrivedAt(page));
  expect(gap).toBeLessThan(1000);
});
