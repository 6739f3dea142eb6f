// An album of synthetic photos made in the local backend of the app open in `page` (grid-seed-entry.ts), for the
// grid and timeline benchmarks. Returns its id and how long the seeding took.
import * as esbuild from 'esbuild';
import { root } from '../scripts/built-app.mjs';

export async function seedGridAlbum(page, appUrl, count) {
  const built = await esbuild.build({ entryPoints: [`${root}bench/grid-seed-entry.ts`], bundle: true, format: 'iife', platform: 'browser', target: 'es2022', write: false, logLevel: 'warning' });
  await page.goto(appUrl);
  await page.getByRole('heading', { level: 1, name: 'Albums', exact: true }).waitFor();
  // Evaluated, not added as an inline <script>: the page's Content-Security-Policy refuses those.
  await page.evaluate(built.outputFiles[0].text);
  const start = Date.now();
  const albumId = await page.evaluate((n) => window.__seedAlbum(n), count);
  return { albumId, seedSecs: (Date.now() - start) / 1000 };
}
