// Search on the local backend: 100,000 photos in 20 albums, with the filenames, cameras, keywords, titles and
// ratings photos have, in headless Chromium's IndexedDB. Each typical search asks for its first page (100
// items) through backend.search.searchItems; the median of several runs is measured. Peer, in the same run:
// the same search as a backend without a word index would make it, a cursor over every row testing its words.
// Target: every search ≤ 100 ms. Run: npm run bench -- search-local (SEARCH_ITEMS, SEARCH_ALBUMS, SEARCH_RUNS
// to size it; writes bench/results/search-local.md).
import { cpus, loadavg } from 'node:os';
import * as esbuild from 'esbuild';
import { launchChromium, root } from '../scripts/built-app.mjs';
import { median, serveStatic, writeResult } from './bench-utils.mjs';

const ITEMS = Number(process.env.SEARCH_ITEMS ?? 100_000);
const ALBUMS = Number(process.env.SEARCH_ALBUMS ?? 20);
const RUNS = Number(process.env.SEARCH_RUNS ?? 7);
const PEER_RUNS = Number(process.env.SEARCH_PEER_RUNS ?? 3);
const TARGET_MS = 100;

const bundle = await esbuild.build({
  entryPoints: [`${root}bench/search-local-entry.ts`],
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  write: false,
  logLevel: 'warning',
});
const html = '<!doctype html><meta charset="utf-8"><title>search bench</title><script type="module" src="/bench.js"></script>';
const server = await serveStatic(`${root}bench`, { '/index.html': Buffer.from(html), '/bench.js': Buffer.from(bundle.outputFiles[0].text) });
const url = `http://127.0.0.1:${server.address().port}/index.html`;
const browser = await launchChromium();
try {
  const page = await browser.newContext().then((c) => c.newPage());
  await page.goto(url);
  await page.waitForFunction(() => 'bench' in window);
  const seedStart = Date.now();
  const albumIds = await page.evaluate(([a, n]) => window.bench.seed(a, n), [ALBUMS, Math.ceil(ITEMS / ALBUMS)]);
  const seedSecs = (Date.now() - seedStart) / 1000;
  // A fresh page: nothing of the seeding left in memory, the database opened as the app opens it.
  await page.reload();
  await page.waitForFunction(() => 'bench' in window);

  const searches = [
    ['a keyword about 1 % of photos have', { text: 'lighthouse' }],
    ['a filename prefix', { text: 'DSCF12' }],
    ['two words', { text: 'harbour sunset' }],
    ['a word most photos have', { text: 'jpg' }],
    ['text and a rating', { text: 'beach', minRating: 4 }],
    ['within one album', { text: 'family', albumId: albumIds[3] }],
    ['no text: rated 4 or more, every album', { minRating: 4 }],
  ];
  // The first search loads the search code; not part of any measure.
  await page.evaluate(() => window.bench.search({ text: 'warm' }));
  const rows = [];
  let missed = 0;
  const loadBefore = loadavg()[0];
  for (const [what, query] of searches) {
    const times = [];
    let found = 0;
    for (let i = 0; i < RUNS; i++) {
      const r = await page.evaluate((q) => window.bench.search(q), query);
      times.push(r.ms);
      found = r.rows;
    }
    const peer = [];
    let matches = 0;
    for (let i = 0; i < PEER_RUNS; i++) {
      const r = await page.evaluate((q) => window.bench.scan(q), query);
      peer.push(r.ms);
      matches = r.matches;
      if (r.rows !== found) throw new Error(`${what}: the scan found ${r.rows} rows for the page, the search ${found}`);
    }
    const ms = median(times);
    const peerMs = median(peer);
    if (ms > TARGET_MS) missed++;
    const q = { ...query, ...(query.albumId ? { albumId: '(album 4)' } : {}) };
    rows.push([
      what,
      `\`${JSON.stringify(q)}\``,
      matches.toLocaleString('en-US'),
      `${ms.toFixed(1)} ms`,
      `${peerMs.toFixed(0)} ms`,
      `${(peerMs / ms).toFixed(0)}×`,
      ms <= TARGET_MS ? `≤ ${TARGET_MS} ms ✓` : `≤ ${TARGET_MS} ms ✗`,
    ]);
  }
  writeResult(
    'search-local',
    `Search, ${ITEMS.toLocaleString('en-US')} photos in ${ALBUMS} albums (local backend, headless Chromium)`,
    ['search', 'query', 'matches', 'first page of 100 (median)', 'peer: scan of every row (median)', 'peer ÷ search', 'target'],
    rows,
    [
      missed === 0 ? 'Targets met.' : `Targets NOT met: ${missed} of ${searches.length} searches over ${TARGET_MS} ms.`,
      `Median of ${RUNS} runs of backend.search.searchItems (the search code already loaded); the peer, median of ${PEER_RUNS}, is what the local backend would do without the word index: one cursor over every item row, testing each row's words (wordsMatch over itemWords) and the same filters, then sorting the matches.`,
      'Photos: filenames of four cameras (IMG_1234.JPG/.HEIC, PXL_…jpg, DSCF1234.JPG/.RAF, DSC01234.JPG/.ARW) with their make, model and lens; 0–4 keywords each from 24 (30 % to 0.2 % of photos each); a title on 30 %; a rating on 40 %.',
      `Seeding the photos (not part of the measure): ${seedSecs.toFixed(1)} s.`,
      `Load average while measuring: ${loadBefore.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end, on ${cpus().length} cores (other work on the machine slows both columns alike).`,
    ],
  );
  if (missed) process.exitCode = 1;
} finally {
  await browser.close();
  server.close();
}
