// Importing a shoot end to end on the local backend: N camera JPEGs (24 MP, made here with sharp; 1,000 unless
// IMPORT_BENCH_N says otherwise) dropped into an album of the built app in headless Chromium, until every one is in
// the album's grid. Against two baselines measured in the same run, on the same photos, in the same browser:
//   (a) the media pipeline alone (the app's media client, as many files at once as the upload queue runs);
//   (b) bare writes of the same bytes to the origin's private file system (OPFS), where the local backend keeps
//       originals.
// During the import the tab's renderer (page and media worker) is sampled for memory, and the upload bar's time
// left is read when half the files are done, to be held against the time that actually remained.
// Targets: import ≤ 1.25 × the larger baseline; tab under 500 MB throughout; time left at halfway within 20%.
// Run: node bench/import-bench.mjs   (writes bench/results/import.md)
// IMPORT_BENCH_PROFILE=1: the app built unminified and its page's main thread profiled over the import, the
// functions that took the most time listed (the profile written to the temporary folder, for DevTools); no result
// is written, since the profiler costs time. With IMPORT_BENCH_TRACE_BROWSER=1 as well, the 10 s trace is of the
// browser process's threads instead of the page's (its file, IndexedDB and quota work, by where each task was posted).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, launchChromiumProfile, serveDist } from '../scripts/built-app.mjs';
import { buildBenchPage, serveStatic, topSelfTime, traceBrowserProcess, traceMainThread, writeResult } from './bench-utils.mjs';
import { browserProcessOf, cpuByKind, cpuByThread, cpuSpent, renderersOf, secondsLeft } from './chromium-procs.mjs';
import { HEIGHT, PICTURES, WIDTH, writeShoot } from './shoot.mjs';
import { footprint, tabRenderer, vmRss } from './tab-memory.mjs';

const N = Number(process.env.IMPORT_BENCH_N ?? 1000);
const PROFILE = !!process.env.IMPORT_BENCH_PROFILE;
const TARGET = { vsBaseline: 1.25, tabBytes: 500e6, etaError: 0.2 };
const MB = 1024 * 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const started = Date.now();
const loadBefore = loadavg();
const work = await mkdtemp(join(tmpdir(), 'shoebox-import-bench-'));
let browser;
let pageServer;
let app;
/** The three measurements and the report; returns early after the pipeline with IMPORT_BENCH_PIPELINE_ONLY. */
async function run() {
  const shoot = await writeShoot(join(work, 'shoot'), N);
  console.log(`${N} photos, ${(shoot.bytes / MB).toFixed(0)} MiB, made in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const pageDir = join(work, 'page');
  await buildBenchPage('import-page', pageDir);
  pageServer = await serveStatic(pageDir);
  await buildApp(PROFILE ? { build: { minify: false } } : {});
  app = await serveDist();
  // A profile on disk: the originals and previews of a shoot are gigabytes, past an in-memory profile's quota.
  browser = await launchChromiumProfile();

  // (a) and (b): the baselines, in a page of their own origin.
  const bench = await browser.context.newPage();
  bench.on('console', (m) => process.env.IMPORT_BENCH_DEBUG && console.log('page:', m.text()));
  bench.on('pageerror', (e) => console.error('page error:', e.message));
  await bench.goto(`http://127.0.0.1:${pageServer.address().port}/index.html`);
  await bench.waitForFunction(() => document.body.dataset.ready === 'true');
  await bench.locator('#files').setInputFiles(shoot.paths);
  const benchTab = await tabRenderer(bench, renderersOf(browser.dir));
  const pipelineMemory = [];
  const sampling = setInterval(() => pipelineMemory.push({ rss: vmRss(benchTab.pid), footprint: footprint(benchTab.pid) }), 250);
  const browserPid = browserProcessOf(browser.dir);
  const cpu0 = cpuByKind(browser.dir);
  const threads0 = cpuByThread(benchTab.pid);
  const browserThreads0 = cpuByThread(browserPid);
  const pipeline = await bench.evaluate(() => window.benchPipeline());
  const cpu1 = cpuByKind(browser.dir);
  const threads1 = cpuByThread(benchTab.pid);
  const browserThreads1 = cpuByThread(browserPid);
  clearInterval(sampling);
  const pipelinePeak = { rss: Math.max(...pipelineMemory.map((m) => m.rss)), footprint: Math.max(...pipelineMemory.map((m) => m.footprint)) };
  console.log(`pipeline alone: ${(pipeline.ms / 1000).toFixed(1)} s (${pipeline.made} of ${N} made copies), renderer footprint peak ${(pipelinePeak.footprint / MB).toFixed(0)} MiB`);
  if (process.env.IMPORT_BENCH_PIPELINE_ONLY) return;
  const writes = await bench.evaluate(() => window.benchWrite());
  const cpu2 = cpuByKind(browser.dir);
  const browserThreads2 = cpuByThread(browserPid);
  console.log(`bare writes: ${(writes.ms / 1000).toFixed(1)} s`);
  await bench.close();

  // The import, in the app.
  const page = await browser.context.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  await page.goto(`${app.url}/`);
  await page.getByRole('button', { name: /new album|create your first album/i }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New album' });
  await dialog.getByLabel('Title').fill('The shoot');
  await dialog.getByRole('button', { name: 'Create album' }).click();
  await page.getByRole('heading', { level: 1, name: 'The shoot' }).waitFor();
  const candidates = renderersOf(browser.dir);
  const { pid: tab, rssBefore, footprintBefore } = await tabRenderer(page, candidates);

  const cdp = PROFILE ? await page.context().newCDPSession(page) : null;
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
  }
  const samples = [];
  const cpu3 = cpuByKind(browser.dir);
  const threads3 = cpuByThread(tab);
  const browserThreads3 = cpuByThread(browserPid);
  const t0 = performance.now();
  await page.getByTestId('add-files-input').first().setInputFiles(shoot.paths);
  // Chromium's own trace of 10 s of the main thread, a third of the way in (profiling only).
  const traced = cdp ? sleep(N * 200).then(async () => (process.env.IMPORT_BENCH_TRACE_BROWSER ? traceBrowserProcess(cdp, 10_000) : traceMainThread(cdp, 10_000))) : null;
  const wanted = `${N.toLocaleString('en-US')} item${N === 1 ? '' : 's'} ·`;
  for (;;) {
    const state = await page.evaluate((want) => {
      const bar = document.querySelector('aside[aria-label="Upload progress"] .upload-bar__text');
      const counted = [...document.querySelectorAll('.page-header__text > p')].some((el) => el.textContent?.startsWith(want));
      return { bar: bar?.textContent ?? '', counted, thumbs: document.querySelectorAll('img.tile__thumb').length };
    }, wanted);
    const done = /Uploading ([\d,]+) of/.exec(state.bar);
    samples.push({ t: performance.now() - t0, rss: vmRss(tab), footprint: footprint(tab), done: done ? Number(done[1].replace(/,/g, '')) : null, bar: state.bar });
    if (state.counted && !state.bar && state.thumbs > 0) break;
    if (performance.now() - t0 > N * 5000) throw new Error(`the import did not finish: ${state.bar}`);
    await sleep(250);
  }
  const importMs = performance.now() - t0;
  const cpu4 = cpuByKind(browser.dir);
  const threads4 = cpuByThread(tab);
  const browserThreads4 = cpuByThread(browserPid);
  if (cdp) {
    const { profile } = await cdp.send('Profiler.stop');
    const file = join(tmpdir(), 'import.cpuprofile');
    await writeFile(file, JSON.stringify(profile));
    console.log(`import ${(importMs / 1000).toFixed(1)} s; the page's main thread ${cpuSpent(threads3, threads4)}; the browser process ${cpuSpent(browserThreads3, browserThreads4)}`);
    console.log(`where the page's main thread went (self time; the whole profile in ${file})\n${topSelfTime(profile, 40)}`);
    console.log(`the ${process.env.IMPORT_BENCH_TRACE_BROWSER ? "browser process's" : "main thread's"} trace events, by their own time:\n${await traced}`);
    return;
  }
  const half = samples.find((s) => s.done !== null && s.done >= N / 2 && secondsLeft(s.bar) !== null);
  const etaSaid = half ? secondsLeft(half.bar) : null;
  const etaActual = half ? (importMs - half.t) / 1000 : null;
  const etaError = etaSaid === null ? null : Math.abs(etaSaid - etaActual) / etaActual;
  const peak = Math.max(...samples.map((s) => s.footprint));
  const peakRss = Math.max(...samples.map((s) => s.rss));
  const baseline = Math.max(pipeline.ms, writes.ms);
  const ratio = importMs / baseline;
  const s = (ms) => `${(ms / 1000).toFixed(1)} s`;
  const met = (ok) => (ok ? 'met' : 'NOT met');
  writeResult(
    'import',
    `Importing ${N.toLocaleString('en-US')} camera photos (24 MP JPEG) into an album, local backend`,
    ['what', 'time', 'per photo', 'of the larger baseline'],
    [
      ['the media pipeline alone (app media client, queue concurrency)', s(pipeline.ms), `${(pipeline.ms / N).toFixed(0)} ms`, (pipeline.ms / baseline).toFixed(2)],
      ['bare writes of the same bytes to OPFS (queue concurrency)', s(writes.ms), `${(writes.ms / N).toFixed(0)} ms`, (writes.ms / baseline).toFixed(2)],
      ['the import: files chosen → every photo in the grid', s(importMs), `${(importMs / N).toFixed(0)} ms`, ratio.toFixed(2)],
    ],
    [
      `Photos: ${N} files, ${(shoot.bytes / MB).toFixed(0)} MiB (${(shoot.bytes / N / MB).toFixed(1)} MiB each), ${WIDTH}×${HEIGHT} quality 90, ${PICTURES} distinct pictures each with its own JPEG comment. Headless Chromium with a profile on disk; the app is the production build (\`vite build\`, served by \`vite preview\`).`,
      `Import vs the larger baseline: ${ratio.toFixed(2)}× (target ≤ ${TARGET.vsBaseline}) — ${met(ratio <= TARGET.vsBaseline)}.`,
      `The tab's renderer (page and media workers), private memory footprint (anonymous resident memory and swap, as Chromium counts a process's footprint): ${(footprintBefore / MB).toFixed(0)} MiB before, peak ${(peak / MB).toFixed(0)} MiB (${(peak / 1e6).toFixed(0)} MB) during the import (target < 500 MB) — ${met(peak < TARGET.tabBytes)}. Its resident set (VmRSS, with the pages it shares with other processes): ${(rssBefore / MB).toFixed(0)} MiB before, peak ${(peakRss / MB).toFixed(0)} MiB.`,
      half
        ? `Time left at halfway (${half.done} of ${N} done, ${s(half.t)} in): the bar said ${etaSaid} s ("${half.bar.split('·').pop().trim()}"), ${etaActual.toFixed(0)} s remained: ${(etaError * 100).toFixed(0)}% off (target ≤ 20%) — ${met(etaError <= TARGET.etaError)}.`
        : 'Time left at halfway: the bar gave none — NOT met.',
      `Chromium's CPU by process kind (${cpus().length} cores): the pipeline alone ${cpuSpent(cpu0, cpu1)}; the bare writes ${cpuSpent(cpu1, cpu2)}; the import ${cpuSpent(cpu3, cpu4)}.`,
      `The tab's renderer by thread: the pipeline alone ${cpuSpent(threads0, threads1)}; the import ${cpuSpent(threads3, threads4)}.`,
      `The browser process by thread: the pipeline alone ${cpuSpent(browserThreads0, browserThreads1)}; the bare writes ${cpuSpent(browserThreads1, browserThreads2)}; the import ${cpuSpent(browserThreads3, browserThreads4)}.`,
      `For comparison, the pipeline alone took the baseline page's renderer to a peak footprint of ${(pipelinePeak.footprint / MB).toFixed(0)} MiB (RSS ${(benchTab.rssBefore / MB).toFixed(0)} → ${(pipelinePeak.rss / MB).toFixed(0)} MiB).`,
      `Done means: the album's header counts all ${N} items, the upload bar is gone, and the grid shows thumbnails.`,
      `Machine: ${cpus().length} cores, load ${loadBefore.map((l) => l.toFixed(1)).join(' ')} at the start. Whole benchmark: ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    ],
  );
  if (!(ratio <= TARGET.vsBaseline && peak < TARGET.tabBytes && etaError !== null && etaError <= TARGET.etaError)) process.exitCode = 1;
}

try {
  await run();
} finally {
  await browser?.close();
  pageServer?.close();
  await app?.close();
  await rm(work, { recursive: true, force: true });
}
