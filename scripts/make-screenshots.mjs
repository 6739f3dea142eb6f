#!/usr/bin/env node
// Makes the install prompt's screenshots (public/screenshots/wide.png, narrow.png; wide is also the README's
// picture): the production build on the local backend in Debian's Chromium, an album made through the app's own
// screens from real photographs (Debian's mate-backgrounds package), its grid once every thumbnail has drawn.
//   node scripts/make-screenshots.mjs
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildApp, launchChromium, root, serveDist } from './built-app.mjs';
import { ensureChromium } from './ensure-chromium.mjs';
import { mateJpegs, photoDir } from './mate-backgrounds.mjs';

const shots = [
  { file: 'wide.png', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  // A phone's screen in CSS pixels, drawn at twice the density as phones do.
  { file: 'narrow.png', viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
];

/** Makes an album through the albums screen, adds the photographs through its file input, waits for the grid. */
async function seedAlbum(page, url, photos) {
  await page.goto(url);
  await page.getByRole('button', { name: /new album|create your first album/i }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New album' });
  await dialog.getByLabel('Title').fill('Garden and coast');
  await dialog.getByRole('button', { name: 'Create album' }).click();
  await page.getByRole('heading', { level: 1, name: 'Garden and coast' }).waitFor();
  await page.getByTestId('add-files-input').first().setInputFiles(photos);
  await page.getByText(new RegExp(`^${photos.length} items ·`)).waitFor({ timeout: 180_000 });
  await page.waitForFunction(
    (count) => {
      const thumbs = [...document.querySelectorAll('img.tile__thumb')];
      const uploading = document.querySelector('[aria-label="Upload progress"]');
      return thumbs.length === count && thumbs.every((img) => img.complete && img.naturalWidth > 0) && !uploading;
    },
    photos.length,
    { timeout: 180_000 },
  );
  // Toasts ("13 files added") and the thumbhash cross-fade settle before the picture is taken.
  await page.locator('.toast').waitFor({ state: 'detached', timeout: 15_000 }).catch(() => {});
  // The pointer rests where the last click was, which would leave a tile in its hover state.
  await page.mouse.move(page.viewportSize().width / 2, 1);
  await page.waitForTimeout(800);
}

ensureChromium();
const photos = mateJpegs();
if (photos.length < 8) throw new Error(`Only ${photos.length} photographs found in ${photoDir}`);

await buildApp();
const server = await serveDist(4185);
const browser = await launchChromium();
const outDir = join(root, 'public/screenshots');
mkdirSync(outDir, { recursive: true });
try {
  for (const shot of shots) {
    // A fresh profile each: the local backend keeps its albums in the browser's own storage.
    const context = await browser.newContext({ ...shot, colorScheme: 'light' });
    const page = await context.newPage();
    await seedAlbum(page, server.url, photos);
    await page.screenshot({ path: join(outDir, shot.file) });
    const { width, height } = shot.viewport;
    console.log(`wrote public/screenshots/${shot.file} (${width * shot.deviceScaleFactor}×${height * shot.deviceScaleFactor})`);
    await context.close();
  }
} finally {
  await browser.close();
  await server.close();
}
