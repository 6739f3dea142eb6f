// The preview's bytes against sharp's at the same visual quality, same run, same machine. Each of Debian's
// mate-backgrounds photographs goes through the real pipeline (src/media, in its module worker, headless
// Chromium) to its 2,048 px WebP preview; sharp (libwebp) encodes the same photograph at the same size at every
// quality from 60 to 95. Each preview is scored by SSIM against the photograph resized to the preview's size by
// a third party (ImageMagick, Lanczos), so neither side's resizer is the reference; SSIM is ssim.js's on luma,
// at full resolution (no downsampling: a preview is looked at full size). From sharp's bytes-for-SSIM curve
// comes what sharp needs for our SSIM: the target is our bytes ≤ that, over all the photographs.
// Run: node bench/preview-quality-bench.mjs   (writes bench/results/preview-quality.md; installs Debian's
// mate-backgrounds when missing)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import sharp from 'sharp';
import { ssim } from 'ssim.js';
import { chromiumPath } from '../scripts/chromium.mjs';
import { mateJpegs, photoDir } from '../scripts/mate-backgrounds.mjs';
import { buildBenchPage, openBenchPage, kib, writeResult } from './bench-utils.mjs';

const PREVIEW_EDGE = 2048;
const OUR_QUALITY = 85;
// Around ours (85): Chromium's WebP at 0.85 lands between sharp's 80 and 85 on every photograph tried.
const SHARP_QUALITIES = [60, 65, 70, 75, 80, 85, 90, 95];

const photos = mateJpegs();

/** RGBA pixels of an encoded picture, as ssim.js takes them. */
async function pixels(bytes) {
  const { data, info } = await sharp(bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** The photograph at `width`×`height`, resized by ImageMagick with `filter`, as RGBA pixels. */
function reference(path, width, height, filter) {
  const r = spawnSync('convert', [path, '-filter', filter, '-resize', `${width}x${height}!`, '-depth', '8', 'rgba:-'], {
    maxBuffer: width * height * 4 + 1024,
  });
  if (r.status !== 0) throw new Error(`convert failed: ${r.stderr}`);
  return { data: new Uint8ClampedArray(r.stdout.buffer, r.stdout.byteOffset, r.stdout.length), width, height };
}

const score = (ref, img) => ssim(ref, img, { downsample: false }).mssim;

/** sharp's bytes at `target` SSIM, read off its curve between the two qualities around it (null: beyond it). */
function bytesAt(curve, target) {
  for (let i = 1; i < curve.length; i++) {
    const [a, b] = [curve[i - 1], curve[i]];
    if (a.ssim <= target && target <= b.ssim) return a.bytes + ((target - a.ssim) / (b.ssim - a.ssim || 1)) * (b.bytes - a.bytes);
  }
  return null;
}

const started = Date.now();
const work = await mkdtemp(join(tmpdir(), 'shoebox-preview-quality-'));
let browser;
let server;
try {
  const pageDir = join(work, 'page');
  await buildBenchPage('media-page', pageDir);
  const extra = Object.fromEntries(photos.map((p) => [`/photos/${basename(p)}`, readFileSync(p)]));
  let page;
  ({ server, browser, page } = await openBenchPage(pageDir, extra));

  // Per reference filter: each photograph's bytes, ours and sharp's at our SSIM. Lanczos is the table's;
  // Mitchell (a softer filter) shows how much the verdict hangs on the reference.
  const FILTERS = ['Lanczos', 'Mitchell'];
  const totals = Object.fromEntries(FILTERS.map((f) => [f, { ours: 0, same: 0, beyond: 0 }]));
  const rows = [];
  let sharp85Total = 0;
  for (const path of photos) {
    const name = basename(path);
    const ours = Buffer.from(await page.evaluate((u) => window.benchPreview(u), `/photos/${name}`), 'base64');
    const oursPx = await pixels(ours);
    const sharps = [];
    for (const quality of SHARP_QUALITIES) {
      const webp = await sharp(readFileSync(path))
        .autoOrient()
        .resize(PREVIEW_EDGE, PREVIEW_EDGE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality })
        .toBuffer();
      const px = await pixels(webp);
      if (px.width !== oursPx.width || px.height !== oursPx.height) throw new Error(`${name}: sharp made ${px.width}×${px.height}, ours ${oursPx.width}×${oursPx.height}`);
      sharps.push({ quality, bytes: webp.length, px });
    }
    const at85 = sharps.find((c) => c.quality === OUR_QUALITY);
    sharp85Total += at85.bytes;
    let row;
    for (const filter of FILTERS) {
      const ref = reference(path, oursPx.width, oursPx.height, filter);
      const oursSsim = score(ref, oursPx);
      const curve = sharps.map((c) => ({ quality: c.quality, bytes: c.bytes, ssim: score(ref, c.px) }));
      const same = bytesAt(curve, oursSsim);
      const t = totals[filter];
      if (same === null) t.beyond++;
      else {
        t.ours += ours.length;
        t.same += same;
      }
      row ??= [
        name,
        `${oursPx.width}×${oursPx.height}`,
        `${kib(ours.length)} KiB`,
        oursSsim.toFixed(4),
        `${kib(at85.bytes)} KiB`,
        curve.find((c) => c.quality === OUR_QUALITY).ssim.toFixed(4),
        same === null ? 'off the curve' : `${kib(same)} KiB`,
        same === null ? '—' : (ours.length / same).toFixed(2),
      ];
    }
    rows.push(row);
    console.log(row.join('  '));
  }
  const ratio = (f) => totals[f].ours / totals[f].same;
  const summary = (f) =>
    `against ${f}: ours ${kib(totals[f].ours)} KiB, sharp at the same SSIM ${kib(totals[f].same)} KiB, ratio ${ratio(f).toFixed(2)}` +
    (totals[f].beyond ? ` (${totals[f].beyond} photograph(s) off sharp's curve, left out)` : '');
  const met = totals.Lanczos.beyond === 0 && ratio('Lanczos') <= 1;
  writeResult(
    'preview-quality',
    'Preview bytes at the same visual quality: ours against sharp (libwebp)',
    ['photograph', 'preview', 'ours', 'ours SSIM', 'sharp q85', 'sharp q85 SSIM', 'sharp at our SSIM', 'ours ÷ sharp at our SSIM'],
    rows,
    [
      `Photographs: Debian's mate-backgrounds (${photos.length}, ${photoDir}). Ours: the real pipeline in headless Chromium (${chromiumPath()}), quality ${OUR_QUALITY / 100}. sharp ${sharp.versions?.sharp ?? ''} (libwebp ${sharp.versions?.webp ?? '?'}), resize to fit ${PREVIEW_EDGE} px, qualities ${SHARP_QUALITIES[0]}–${SHARP_QUALITIES.at(-1)} in steps of 5; sharp at q85, all photographs: ${kib(sharp85Total)} KiB.`,
      'SSIM: ssim.js (Weber), luma, full resolution, against the photograph resized to the preview size by ImageMagick (the table: Lanczos). "sharp at our SSIM": sharp\'s bytes interpolated between the two qualities whose SSIM brackets ours.',
      `Over all photographs, ${FILTERS.map(summary).join('; ')}.`,
      `ours ÷ sharp at the same visual quality (Lanczos reference): ${ratio('Lanczos').toFixed(2)} (target ≤ 1.0) — ${met ? 'met' : 'NOT met'}.`,
      `Whole benchmark: ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    ],
  );
  if (!met) process.exitCode = 1;
} finally {
  await browser?.close();
  server?.close();
  await rm(work, { recursive: true, force: true });
}
