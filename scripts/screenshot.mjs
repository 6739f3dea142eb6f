#!/usr/bin/env node
// Makes public/screenshot.png (the README's picture and the install prompt's screenshot): the production
// build in Debian's Chromium, an album seeded with 2,000 synthetic photos and a few real fixtures.
//   node scripts/screenshot.mjs
import * as esbuild from 'esbuild';
import { join } from 'node:path';
import { buildApp, launchChromium, root, serveDist } from '../bench/bench-utils.mjs';

await buildApp();
const server = await serveDist(4184);
const browser = await launchChromium();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 });
  await page.goto(server.url);
  await page.getByRole('heading', { level: 1, name: 'Albums', exact: true }).waitFor();
  const seed = await esbuild.build({ entryPoints: [join(root, 'bench/grid-seed-entry.ts')], bundle: true, format: 'iife', write: false });
  // Evaluated, not added as an inline <script>: the page's Content-Security-Policy refuses those.
  await page.evaluate(seed.outputFiles[0].text);
  const albumId = await page.evaluate(() => window.__seedAlbum(2000));
  await page.goto(`${server.url}/albums/${albumId}`);
  await page.waitForFunction(() => document.querySelectorAll('img.tile__thumb').length > 20);
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(root, 'public/screenshot.png') });
  console.log('wrote public/screenshot.png');
} finally {
  await browser.close();
  await server.close();
}
