// HEIC through the media pipeline against its peers, same run, same machine: a 12-megapixel photo-like picture
// (made here with sharp) as a HEIC laid out as an iPhone writes one (a grid of 512 × 512 HEVC tiles, each
// encoded by libheif's heif-enc, Debian: libheif-examples; scripts/heif-grid.mjs), and the same picture as a
// JPEG.
//   (a) ours, HEIC: the real pipeline (src/media, module worker) in headless Chromium, which cannot decode HEIC
//       itself: libheif in WebAssembly on two threads ([Note: A phone's HEIC decoded on two threads]), then the
//       preview, thumbnail and thumbhash as for any photo; for reference, the same picture as one HEVC image
//       (heif-enc's own layout), which libheif decodes whole on one thread;
//   (b) ours, JPEG: the same picture through the browser's own decoder, today's path;
//   (c) heic-convert (what Ente's web app uses) in the same page: the HEIC to a full-size JPEG.
// Targets: (a) ≤ 1.5 × (b), and (a) faster than (c).
// Run: node bench/heic-bench.mjs   (writes bench/results/heic.md)
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { chromiumPath } from '../scripts/chromium.mjs';
import { ensureDebianTool } from '../scripts/ensure-debian-tool.mjs';
import { encodeGridHeic } from '../scripts/heif-grid.mjs';
import { buildBenchPage, openBenchPage, kib, median, photoLikePixels, writeResult } from './bench-utils.mjs';

const root = new URL('..', import.meta.url).pathname;
const WIDTH = 4032;
const HEIGHT = 3024;
const RUNS = Number(process.env.HEIC_BENCH_RUNS ?? 7);


/** The photo-like picture of every media benchmark, as a JPEG of quality 90. */
async function picture() {
  const data = photoLikePixels(WIDTH, HEIGHT);
  return sharp(data, { raw: { width: WIDTH, height: HEIGHT, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}


const started = Date.now();
const work = await mkdtemp(join(tmpdir(), 'shoebox-heic-bench-'));
let browser;
let server;
try {
  ensureDebianTool('heif-enc', ['--help'], 'libheif-examples');
  const jpeg = await picture();
  await writeFile(join(work, 'photo.jpg'), jpeg);
  const enc = spawnSync('heif-enc', ['-q', '80', '-o', join(work, 'photo.heic'), join(work, 'photo.jpg')], { encoding: 'utf8' });
  if (enc.status !== 0) throw new Error(`heif-enc failed: ${enc.stderr}`);
  const single = await readFile(join(work, 'photo.heic'));
  const heic = await encodeGridHeic(jpeg, { tile: 512, quality: 80 });

  const pageDir = join(work, 'page');
  await buildBenchPage('heic-page', pageDir);
  let page;
  let origin;
  ({ server, browser, page, origin } = await openBenchPage(pageDir, { '/photo.jpg': jpeg, '/photo.heic': heic, '/single.heic': single }));
  await page.evaluate(([h, s, j]) => window.benchSetup(h, s, j), [`${origin}/photo.heic`, `${origin}/single.heic`, `${origin}/photo.jpg`]);

  // Interleaved rounds, so a burst of load falls on every contender alike; round 0 (module and wasm loading,
  // worker start) is a warm-up and not counted.
  const contenders = ['ours-heic', 'ours-heic-single', 'ours-jpeg', 'heic-convert'];
  const times = Object.fromEntries(contenders.map((c) => [c, []]));
  const outputs = {};
  for (let round = 0; round <= RUNS; round++) {
    for (const c of contenders) {
      const r = await page.evaluate((name) => window.benchRun(name), c);
      if (round > 0) times[c].push(r.ms);
      outputs[c] = r.out;
    }
  }
  const m = Object.fromEntries(contenders.map((c) => [c, median(times[c])]));
  const heicConvertVersion = JSON.parse(await readFile(join(root, 'node_modules', 'heic-convert', 'package.json'), 'utf8')).version;
  const row = (name, how, c) => [name, how, `${m[c].toFixed(0)} ms`, times[c].map((x) => x.toFixed(0)).join(', '), outputs[c], (m[c] / m['ours-heic']).toFixed(2)];
  const vsJpeg = m['ours-heic'] / m['ours-jpeg'];
  const vsPeer = m['ours-heic'] / m['heic-convert'];
  writeResult(
    'heic',
    'HEIC: 12 MP → 2,048 px preview + 480 px thumbnail',
    ['contender', 'how', 'median', 'runs (ms, after 1 warm-up round)', 'output', 'time ÷ ours (HEIC)'],
    [
      row('ours, HEIC (a grid of 512 × 512 tiles, as iPhones write)', 'module worker: libheif (WebAssembly) on two threads, the tile rows split with a helper worker, then the pipeline as for any photo', 'ours-heic'),
      row('reference: ours, the same picture as a one-image HEIC', "module worker: libheif's whole decode on one thread (such a file has no tiles to share)", 'ours-heic-single'),
      row('ours, same picture as JPEG', "module worker: the browser's own decoder (today's path)", 'ours-jpeg'),
      row(`heic-convert ${heicConvertVersion}`, 'main thread: the grid HEIC to a full-size JPEG, quality 0.92 (its documented use)', 'heic-convert'),
    ],
    [
      `Input: ${WIDTH}×${HEIGHT}, made with sharp (light falloff, waves, grain); JPEG quality 90 (${kib(jpeg.length)} KiB), HEIC as a grid of 8 × 6 tiles, each by heif-enc -q 80 (${kib(heic.length)} KiB); as one image by heif-enc -q 80 (${kib(single.length)} KiB).`,
      `Timed inside the page (performance.now) in headless Chromium (${chromiumPath()}); the files are in memory as Blobs. Medians of ${RUNS} interleaved rounds.`,
      `ours HEIC ÷ ours JPEG: ${vsJpeg.toFixed(2)} (target ≤ 1.5) — ${vsJpeg <= 1.5 ? 'met' : 'NOT met'}.`,
      `ours HEIC ÷ heic-convert: ${vsPeer.toFixed(2)} (target < 1.0) — ${vsPeer < 1 ? 'met' : 'NOT met'}.`,
      `Machine: ${cpus().length} cores. Whole benchmark: ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    ],
  );
  if (vsJpeg > 1.5 || vsPeer >= 1) process.exitCode = 1;
} finally {
  await browser?.close();
  server?.close();
  await rm(work, { recursive: true, force: true });
}
