// A 5 GiB album (50 files of 100 MiB, made in the page into OPFS through the local backend) downloaded as one
// ZIP by the app's own code in headless Chromium and written to a file on disk as a saved download is; the
// file is then read back and every entry's bytes and the archive's structure checked. Same run, same files:
// the baseline copies the bytes out of OPFS into one file on disk, without a ZIP, then checks each file's CRC.
// Targets: archive byte-checked; the tab's memory under 200 MB throughout; ZIP throughput ≥ 0.8× the copy.
// Memory, sampled every 250 ms while the ZIP is made: the renderer process's resident memory from
// /proc/<pid>/status (RssAnon = its private anonymous pages: heaps, buffers, stream queues; and VmRSS, which
// adds Chromium's code and fonts mapped from files and shared with every other process, about 120 MB before
// the page does anything), pid found in /proc by the profile on its command line, and the JS heap (CDP Performance.getMetrics
// JSHeapUsedSize). The target is checked on RssAnon during the ZIP passes: the memory the tab itself holds.
// Run: node bench/zip-bench.mjs (ZIP_BENCH_FILES / ZIP_BENCH_MIB to size it; writes bench/results/zip.md).
import { createServer } from 'node:http';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { chromium } from 'playwright';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { buildBenchPage, writeResult } from './bench-utils.mjs';

const FILES = Number(process.env.ZIP_BENCH_FILES ?? 50);
const MIB = Number(process.env.ZIP_BENCH_MIB ?? 100);
const LIMIT_MB = 200;

const outDir = await mkdtemp(join(tmpdir(), 'shoebox-zip-bench-'));
await buildBenchPage('zip-page', outDir);
const types = { '.html': 'text/html', '.js': 'text/javascript', '.wasm': 'application/wasm' };
const server = createServer(async (req, res) => {
  const asked = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  const path = asked === '/' ? '/index.html' : asked;
  const body = await readFile(join(outDir, normalize(path))).catch(() => null);
  if (!body) return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': types[extname(path)] ?? 'application/octet-stream' }).end(body);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/`;

// A profile on disk: an in-memory (incognito) context's storage quota is far below 5 GiB.
const profile = mkdtempSync(join(tmpdir(), 'shoebox-zip-profile-'));
const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: chromiumArgs, headless: true });
/** This browser's renderer processes: their command lines name its profile. */
const renderers = () =>
  readdirSync('/proc').filter((pid) => {
    if (!/^\d+$/.test(pid)) return false;
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      return cmd.includes('--type=renderer') && cmd.includes(profile);
    } catch {
      return false;
    }
  });
const started = Date.now();
let failed = true;
try {
  // The files are made in one page and measured in another, so the memory they passed through is not counted.
  const maker = await context.newPage();
  await maker.goto(url);
  await maker.waitForFunction(() => 'bench' in window);
  await maker.evaluate(() => window.bench.clear());
  const tSetup = Date.now();
  const made = await maker.evaluate(([n, b]) => window.bench.setup(n, b), [FILES, MIB * 1024 * 1024]);
  const setupS = (Date.now() - tSetup) / 1000;
  await maker.close();

  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction(() => 'bench' in window);
  await page.evaluate(([a, c]) => window.bench.load(a, c), [made.albumId, made.crcs]);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');

  /** A pass, then its output read back and checked (not timed, sampled as 'verify'). */
  const copyPass = async () => {
    const run = await page.evaluate(() => window.bench.copy());
    const before = phase;
    phase = 'verify';
    const { ok } = await page.evaluate(() => window.bench.verifyCopy());
    phase = before;
    return { ...run, ok };
  };
  const zipPass = async () => {
    const run = await page.evaluate(() => window.bench.zip());
    const before = phase;
    phase = 'verify';
    const check = await page.evaluate(() => window.bench.verifyZip());
    phase = before;
    return { ...run, ...check, bytes: run.bytes };
  };

  const kb = (status, field) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  const peak = { rss: 0, anon: 0, heap: 0 };
  /** The peak private memory of each pass, to tell what the ZIP adds to reading the files. */
  const phases = {};
  let phase = 'idle';
  const sample = async () => {
    for (const pid of renderers()) {
      try {
        const status = readFileSync(`/proc/${pid}/status`, 'utf8');
        if (phase === 'verify') continue;
        peak.rss = Math.max(peak.rss, kb(status, 'VmRSS'));
        peak.anon = Math.max(peak.anon, kb(status, 'RssAnon'));
        phases[phase] = Math.max(phases[phase] ?? 0, kb(status, 'RssAnon'));
      } catch {
        // Not one of this page's processes any more.
      }
    }
    if (phase === 'verify') return;
    const { metrics } = await cdp.send('Performance.getMetrics');
    peak.heap = Math.max(peak.heap, metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0);
  };
  // Sampled through every pass, and for two seconds before them (the page at rest).
  const timer = setInterval(() => void sample().catch(() => undefined), 250);
  await new Promise((r) => setTimeout(r, 2000));
  // Three of each, alternating, keeping the fastest of each: the first read of the files comes from disk,
  // later ones from the page cache, and this machine is shared.
  phase = 'copy';
  const copies = [await copyPass()];
  phase = 'zip';
  const zips = [await zipPass()];
  for (let i = 0; i < 2; i++) {
    phase = 'copy';
    copies.push(await copyPass());
    phase = 'zip';
    zips.push(await zipPass());
  }
  clearInterval(timer);
  const fastest = (runs) => runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  const copy = { ...fastest(copies), ok: copies.every((c) => c.ok) };
  const zip = { ...fastest(zips), problems: zips.flatMap((z) => z.problems), entries: Math.min(...zips.map((z) => z.entries)) };
  await page.evaluate(() => window.bench.clear());

  const mb = (b) => (b / 1e6).toFixed(1);
  const gib = (FILES * MIB) / 1024;
  const rate = (bytes, ms) => bytes / 1e6 / (ms / 1000);
  const ratio = rate(zip.bytes, zip.ms) / rate(copy.bytes, copy.ms);
  const checked = copy.ok && zip.problems.length === 0 && zip.bytes === zip.predicted && zip.entries === FILES + 1 && zip.centralCount === FILES + 1;
  const memoryOk = (phases.zip ?? Infinity) < LIMIT_MB * 1e6;
  failed = !(checked && memoryOk && ratio >= 0.8);
  writeResult('zip', `ZIP download of a ${gib.toFixed(1)} GiB album (${FILES} × ${MIB} MiB, local backend, headless Chromium)`, ['what', 'value', 'target'], [
    ['archive bytes (predicted before the first byte)', `${zip.bytes} (${zip.predicted})`, 'equal'],
    ['entries checked (CRC against the source, descriptor, central directory count)', `${zip.entries} of ${FILES + 1}, central directory ${zip.centralCount}, ${zip.problems.length} problems`, 'all, 0 problems'],
    ['copy out of OPFS into one file on disk, no ZIP (read back, CRC-checked)', `${rate(copy.bytes, copy.ms).toFixed(0)} MB/s (${(copy.ms / 1000).toFixed(1)} s)`, ''],
    ['ZIP made and written to a file on disk (read back, checked)', `${rate(zip.bytes, zip.ms).toFixed(0)} MB/s (${(zip.ms / 1000).toFixed(1)} s)`, ''],
    ['ZIP throughput / copy throughput', ratio.toFixed(2), '≥ 0.80'],
    ['renderer peak RssAnon while zipping (private memory)', `${mb(phases.zip)} MB`, `< ${LIMIT_MB} MB`],
    ['renderer peak RssAnon while copying / at rest before', `${mb(phases.copy)} MB / ${mb(phases.idle)} MB`, ''],
    ['renderer peak VmRSS (with shared code pages)', `${mb(peak.rss)} MB`, ''],
    ['peak JS heap used (CDP JSHeapUsedSize)', `${mb(peak.heap)} MB`, ''],
  ], [
    `Making the files took ${setupS.toFixed(0)} s; the whole run ${((Date.now() - started) / 1000).toFixed(0)} s on ${readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? '?'} cores.`,
    'Both passes write their output as a download saved with the File System Access API does (a file handle\'s createWritable: here a file in the origin\'s private file system), three times each, alternating; the fastest of each counts. The outputs are read back and checked after each pass, outside the timed part and the memory samples.',
    'Memory is the renderer process that runs the tab (found in /proc by its command line), read from /proc every 250 ms. RssAnon is what the tab holds; VmRSS adds the browser\'s code and fonts mapped from files and shared with its other processes.',
    zip.problems.length ? `Problems: ${zip.problems.slice(0, 5).join('; ')}` : 'Every entry\'s bytes matched the file it came from.',
    failed ? 'Target missed.' : 'Targets met.',
  ]);
} finally {
  await context.close();
  rmSync(profile, { recursive: true, force: true });
  server.close();
  await rm(outDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
