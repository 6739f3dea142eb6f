import * as esbuild from 'esbuild';
import type { Page } from '@playwright/test';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixture } from './helpers';

const COUNT = 100_000;

/** Fills a local album with COUNT synthetic photos spread over 2008–2025, in the page (as the grid benchmark does). */
async function seedAlbum(page: Page, count: number): Promise<string> {
  const built = await esbuild.build({ entryPoints: ['bench/grid-seed-entry.ts'], bundle: true, format: 'iife', platform: 'browser', target: 'es2022', write: false, logLevel: 'warning' });
  await page.goto('/');
  await page.getByRole('heading', { level: 1, name: 'Albums', exact: true }).waitFor();
  // Evaluated, not added as a <script>: the page's Content-Security-Policy refuses inline scripts.
  await page.evaluate(built.outputFiles[0]!.text);
  return page.evaluate((n) => (window as unknown as { __seedAlbum: (n: number) => Promise<string> }).__seedAlbum(n), count);
}

/** Thumbnails drawn inside the grid's viewport. */
function thumbnailsInView(page: Page): Promise<number> {
  return page.evaluate(() => {
    const view = document.querySelector('[data-testid="grid-scroller"]')!.getBoundingClientRect();
    return [...document.querySelectorAll<HTMLImageElement>('img.tile__thumb')].filter((img) => {
      const r = img.getBoundingClientRect();
      return img.complete && img.naturalWidth > 0 && r.bottom > view.top && r.top < view.bottom;
    }).length;
  });
}

test('the date scrubber jumps to a chosen month of a 100,000-item album, and that month shows with its thumbnails', async ({ page }) => {
  test.setTimeout(180_000);
  const albumId = await seedAlbum(page, COUNT);
  await page.goto(`/albums/${albumId}`);
  const scrubber = page.getByRole('slider', { name: 'Jump to a date' });
  await expect(scrubber).toBeVisible();
  const first = await scrubber.getAttribute('aria-valuetext');
  expect(first).toMatch(/2025/);

  // A year written on the track, clicked: the grid shows that year.
  const year = scrubber.locator('.scrubber__year', { hasText: '2012' });
  const box = (await year.boundingBox())!;
  const track = (await scrubber.boundingBox())!;
  await page.mouse.click(track.x + track.width / 2, box.y + box.height / 2 + 2);
  await expect(scrubber).toHaveAttribute('aria-valuetext', /2012/);
  await expect.poll(() => thumbnailsInView(page), { timeout: 15_000 }).toBeGreaterThan(3);

  // With the keyboard: a year down, then a month down; the month's heading is at the top and its photos below it.
  await scrubber.focus();
  await page.keyboard.press('PageDown');
  await expect(scrubber).toHaveAttribute('aria-valuetext', /2011/);
  const yearStart = (await scrubber.getAttribute('aria-valuetext'))!;
  await page.keyboard.press('ArrowDown');
  // The slider says the new month once the grid has moved there.
  await expect(scrubber).not.toHaveAttribute('aria-valuetext', yearStart);
  const month = (await scrubber.getAttribute('aria-valuetext'))!;
  const heading = page.getByRole('columnheader', { name: new RegExp(`^${month} ·`) });
  await expect(heading).toBeInViewport();
  await expect.poll(() => thumbnailsInView(page), { timeout: 15_000 }).toBeGreaterThan(3);
  // Months loading around it do not move it away.
  await page.waitForTimeout(1000);
  await expect(heading).toBeInViewport();
  await expect(scrubber).toHaveAttribute('aria-valuetext', month);

  // Dragged: the month under the pointer is written beside it, and the grid follows.
  await page.mouse.move(track.x + track.width / 2, track.y + track.height * 0.2);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width / 2, track.y + track.height * 0.9, { steps: 8 });
  const pointed = (await page.getByTestId('scrubber-date').textContent())!;
  await page.mouse.up();
  await expect(scrubber).toHaveAttribute('aria-valuetext', pointed);
  await expect.poll(() => thumbnailsInView(page), { timeout: 15_000 }).toBeGreaterThan(3);
});

test('let go on a month of a few rows, the scrubber brings the heading of that month to the top', async ({ page }) => {
  test.setTimeout(120_000);
  // About 19 photos a month over 18 years: each month a few rows, far less than two screens.
  const albumId = await seedAlbum(page, 4_000);
  await page.goto(`/albums/${albumId}`);
  const scrubber = page.getByRole('slider', { name: 'Jump to a date' });
  await expect(scrubber).toBeVisible();
  const track = (await scrubber.boundingBox())!;
  await page.mouse.move(track.x + track.width / 2, track.y + track.height * 0.2);
  await page.mouse.down();
  await page.mouse.move(track.x + track.width / 2, track.y + track.height * 0.63, { steps: 6 });
  const pointed = (await page.getByTestId('scrubber-date').textContent())!;
  await page.mouse.up();
  const heading = page.getByRole('columnheader', { name: new RegExp(`^${pointed} ·`) });
  // At the top of the grid: the heading's text inside the first row's 40 px.
  const top = (await page.getByTestId('grid-scroller').boundingBox())!.y;
  const below = async () => ((await heading.boundingBox())?.y ?? -1e6) - top;
  await expect.poll(below, { timeout: 10_000 }).toBeGreaterThanOrEqual(0);
  expect(await below()).toBeLessThan(40);
  await expect(scrubber).toHaveAttribute('aria-valuetext', pointed);
});

test('months of a photo or two share a row, each with its own label, instead of a row each', async ({ page }) => {
  await createAlbum(page, 'Scattered');
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('camera/camera.png'), fixture('camera/camera.tiff')]);
  await expectItemCount(page, 3);
  const grid = page.getByRole('grid');
  // July 2023, January 2022 and June 2020: one row, three labels, the three photos under them.
  await expect(grid.getByRole('row')).toHaveCount(1);
  const row = grid.getByRole('row');
  await expect(row.getByRole('columnheader')).toHaveText([/^July 2023 · 1$/, /^January 2022 · 1$/, /^June 2020 · 1$/]);
  await expect(row.getByRole('gridcell')).toHaveCount(3);
  // Each label sits above its own photo.
  for (let i = 0; i < 3; i++) {
    const label = (await row.getByRole('columnheader').nth(i).boundingBox())!;
    const photo = (await row.getByRole('gridcell').nth(i).boundingBox())!;
    expect(Math.abs(label.x - photo.x)).toBeLessThan(2);
    expect(label.y + label.height).toBeLessThanOrEqual(photo.y + 1);
  }
});
