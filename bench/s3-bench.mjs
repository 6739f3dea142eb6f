// Uploads to an S3 bucket against named peers, same run, same machine, same local gateway (Ceph RGW, memstore):
//   1. 1 GiB file: ours (S3Files + SessionSigner, built with Vite, in headless Chromium, the file chosen in an
//      <input type=file> as a user would) against one bare XMLHttpRequest PUT of the same file from the same tab
//      (URL presigned beforehand: what the browser itself manages), @aws-sdk/lib-storage `Upload` in Node with the
//      same part size (8 MiB) and 4 parts in flight, and curl (one PUT to a presigned URL). While ours runs, the
//      tab's memory (the renderer process's RSS, and its JS heap) is sampled: its growth must stay under 6 parts
//      + 32 MiB. Two references show where a multipart upload's cost lies: the same bytes as bare part PUTs (the
//      app's part size and parts in flight, no engine), and the single bare PUT with the file sent as a Blob slice.
//   2. 1,000 files of 300 KB, 3 at once (the app's filesInFlight): ours as the upload queue sends them (each
//      original's MD5 given, taken in the media worker's read for its SHA-256) and ours hashing each file itself,
//      against bare XMLHttpRequest PUTs from the same tab (URLs signed beforehand); bare Node fetch PUTs show the
//      gateway's per-object floor, and curl putting one 300 MB file the gateway's ceiling.
//   The gateway's own CPU is measured per 1 GiB run: on a 2-core machine it bounds what any multipart client
//   can reach, whatever the client does. Client CPU is all of Chromium's processes.
// Targets: 1 GiB ours/bare PUT ≥ 1.0 at ≤ 1.3× its CPU, ours/lib-storage ≥ 1.0, tab growth ≤ 80 MiB; small
// files as the queue sends them ≥ 0.9× the bare PUTs at ≤ 1.3× their CPU.
// Runs alternate (the order rotates each round) so that load on the machine falls on all alike; medians are shown.
// Everything uploaded is deleted at once and the gateway's garbage collector is run, since memstore holds it in RAM.
// Run: node bench/s3-bench.mjs   (writes bench/results/s3.md; S3_BENCH_ROUNDS sets the rounds, default 2;
// S3_BENCH_PROFILE=1 lists where the page's time goes in ours' first run of each kind). It uses
// the gateway described by S3_TEST_* (with S3_TEST_DIR its folder), or starts one and stops it at the end.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { chromium } from 'playwright-core';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectsCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { startS3TestServer } from '../scripts/s3-test-server.mjs';
import { buildBenchPage, median, serveStatic, topSelfTime, writeResult } from './bench-utils.mjs';
import { procStat, tabRenderer, vmRss } from './tab-memory.mjs';

const root = new URL('..', import.meta.url).pathname;
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const BIG = 1 * GiB;
const SMALL_COUNT = 1000;
const SMALL_SIZE = 300_000;
// The app's limits (src/config.ts): 8 MiB parts, 4 in flight, 3 files at once.
const PART_SIZE = 8 * MiB;
const PARTS_IN_FLIGHT = 4;
const FILES_IN_FLIGHT = 3;
const MEMORY_LIMIT = 6 * PART_SIZE + 32 * MiB;
const ROUNDS = Number(process.env.S3_BENCH_ROUNDS ?? 2);
const TARGET = { vsLibStorage: 1.0, vsBarePut: 1.0, smallVsBarePuts: 0.9, cpuVsBare: 1.3 };

const mibps = (bytes, ms) => bytes / MiB / (ms / 1000);
const fmt = (x, digits = 1) => x.toFixed(digits);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
// A gateway that stops taking writes (a full store) would otherwise leave the benchmark waiting for ever.
const RUN_LIMIT_MS = 5 * 60_000;

function withLimit(promise, what, ms = RUN_LIMIT_MS) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${ms / 1000} s: is the gateway still taking writes?`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** Random bytes (incompressible, no two blocks alike) written in 8 MiB blocks. */
async function writeRandomFile(path, size) {
  const out = createWriteStream(path);
  const block = Buffer.alloc(8 * MiB);
  for (let left = size; left > 0; left -= block.length) {
    const chunk = randomFillSync(block).subarray(0, Math.min(block.length, left));
    if (!out.write(Buffer.from(chunk))) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
}

/** The small files, and curl's one file holding the same bytes back to back. */
function writeSmallFiles(dir, allPath) {
  mkdirSync(dir, { recursive: true });
  const all = Buffer.alloc(SMALL_COUNT * SMALL_SIZE);
  randomFillSync(all);
  const paths = [];
  for (let i = 0; i < SMALL_COUNT; i++) {
    const path = join(dir, `photo-${String(i).padStart(4, '0')}.bin`);
    writeFileSync(path, all.subarray(i * SMALL_SIZE, (i + 1) * SMALL_SIZE));
    paths.push(path);
  }
  writeFileSync(allPath, all);
  return paths;
}



function s3Client(s3) {
  return new S3Client({
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  });
}

/** Deletes every object and unfinished upload under `prefix`, then has the gateway free their data now. */
async function purge(client, s3, prefix) {
  const Bucket = s3.bucket;
  for (let token; ;) {
    const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
    const keys = (page.Contents ?? []).map((o) => ({ Key: o.Key }));
    if (keys.length) {
      const r = await client.send(new DeleteObjectsCommand({ Bucket, Delete: { Objects: keys, Quiet: true } }));
      if (r.Errors?.length) throw new Error(`could not delete ${r.Errors.length} benchmark objects: ${r.Errors[0].Code}`);
    }
    if (!page.IsTruncated) break;
    token = page.NextContinuationToken;
  }
  const uploads = await client.send(new ListMultipartUploadsCommand({ Bucket, Prefix: prefix }));
  for (const u of uploads.Uploads ?? []) await client.send(new AbortMultipartUploadCommand({ Bucket, Key: u.Key, UploadId: u.UploadId }));
  // Deleted data otherwise stays in memstore's RAM until the collector's next pass (tens of seconds).
  const conf = join(process.env.S3_TEST_DIR || '/tmp/shoebox-s3-test', 'ceph.conf');
  spawnSync('radosgw-admin', ['-c', conf, 'gc', 'process', '--include-all'], { stdio: 'ignore', timeout: 60_000 });
}

/** The gateway described by S3_TEST_*, used as given (and left running). */
function givenS3() {
  const e = process.env;
  return { endpoint: e.S3_TEST_ENDPOINT, region: e.S3_TEST_REGION, bucket: e.S3_TEST_BUCKET, accessKeyId: e.S3_TEST_ACCESS_KEY_ID, secretAccessKey: e.S3_TEST_SECRET_ACCESS_KEY };
}

/** Keys under `prefix`, page by page (the gateway may answer a page with fewer than 1,000 keys). */
async function countKeys(client, s3, prefix) {
  let count = 0;
  for (let token; ;) {
    const page = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }));
    count += page.KeyCount ?? 0;
    if (!page.IsTruncated) return count;
    token = page.NextContinuationToken;
  }
}

async function storedSize(client, s3, key) {
  const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: key }));
  return head.ContentLength;
}

/** One PUT of the whole file to a presigned URL; the time is curl's own (time_total), its CPU time from `times`. */
async function curlPut(client, s3, key, path) {
  const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: s3.bucket, Key: key }), { expiresIn: 3600 });
  const script = 'curl "$@"; code=$?; times >&2; exit $code';
  const args = ['-sS', '--fail', '-o', '/dev/null', '-w', '%{time_total} %{size_upload}', '-T', path, url];
  const child = spawn('sh', ['-c', script, 'sh', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const [code] = await once(child, 'exit');
  if (code !== 0) throw new Error(`curl failed (exit ${code}): ${err.replace(/^\d+m[\d.]+s \d+m[\d.]+s$/gm, '').trim()}`);
  const [seconds, bytes] = out.trim().split(' ').map(Number);
  // `times` prints the shell's own user/system time, then its children's (curl's).
  const t = [...err.matchAll(/(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s/g)].at(-1);
  const cpu = t ? Number(t[1]) * 60 + Number(t[2]) + Number(t[3]) * 60 + Number(t[4]) : NaN;
  return { ms: seconds * 1000, bytes, cpu };
}

/** lib-storage's managed upload from a file stream, with our part size and parts in flight. */
async function libStoragePut(client, s3, key, path) {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const upload = new Upload({
    client,
    params: { Bucket: s3.bucket, Key: key, Body: createReadStream(path), ContentType: 'application/octet-stream' },
    partSize: PART_SIZE,
    queueSize: PARTS_IN_FLIGHT,
    leavePartsOnError: false,
  });
  await upload.done();
  const cpu = process.cpuUsage(cpu0);
  return { ms: performance.now() - t0, bytes: BIG, cpu: (cpu.user + cpu.system) / 1e6 };
}

/**
 * The gateway's floor for many small objects: bare PUTs from Node to URLs signed beforehand (signing untimed),
 * 3 at once, each file read from disk as it is sent. Not a target: it shows what any client gets here.
 */
async function nodeFetchMany(client, s3, prefix, paths) {
  const urls = [];
  for (let i = 0; i < paths.length; i++) {
    const command = new PutObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${String(i).padStart(4, '0')}/original` });
    urls.push(await getSignedUrl(client, command, { expiresIn: 3600 }));
  }
  const queue = paths.map((path, i) => ({ path, url: urls[i] }));
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const res = await fetch(next.url, { method: 'PUT', body: await readFile(next.path) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`PUT answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: FILES_IN_FLIGHT }, worker));
  const cpu = process.cpuUsage(cpu0);
  return { ms: performance.now() - t0, bytes: paths.length * SMALL_SIZE, cpu: (cpu.user + cpu.system) / 1e6 };
}

/** CPU seconds the gateway's daemons (radosgw and the OSD) have used so far, from their pid files. */
function gatewayCpu() {
  const run = join(process.env.S3_TEST_DIR || '/tmp/shoebox-s3-test', 'run');
  let seconds = 0;
  for (const name of ['client.rgw', 'osd.0']) {
    let stat = null;
    try {
      stat = procStat(`/proc/${readFileSync(join(run, `${name}.pid`), 'utf8').trim()}/stat`);
    } catch {
      // no pid file
    }
    if (!stat) return NaN;
    seconds += stat.cpu;
  }
  return seconds;
}

/** Samples the tab's renderer RSS (every 50 ms), its JS heap (CDP, every 250 ms) and the whole browser's RSS. */
function memorySampler(rendererPid, browserPids, cdp) {
  const rss = [];
  const total = [];
  const heap = [];
  const rssTimer = setInterval(() => {
    rss.push(vmRss(rendererPid));
    total.push(browserPids().reduce((sum, pid) => sum + vmRss(pid), 0));
  }, 50);
  let stopped = false;
  const heapLoop = (async () => {
    while (!stopped) {
      const { metrics } = await cdp.send('Performance.getMetrics');
      heap.push(metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0);
      await sleep(250);
    }
  })();
  return async () => {
    stopped = true;
    clearInterval(rssTimer);
    await heapLoop;
    return { rss, total, heap };
  };
}

const started = Date.now();
const loadBefore = loadavg();
const work = await mkdtemp(join(tmpdir(), 'shoebox-s3-bench-'));
const runId = `bench-s3/${Date.now().toString(36)}`;
let browser;
let server;
let client;
let s3;
try {
  s3 = process.env.S3_TEST_ENDPOINT ? givenS3() : await startS3TestServer();
  client = s3Client(s3);
  const target = { endpoint: s3.endpoint, region: s3.region, bucket: s3.bucket, accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey };

  const bigPath = join(work, 'video-1gib.bin');
  const allPath = join(work, 'photos-300mb.bin');
  await writeRandomFile(bigPath, BIG);
  const smallPaths = writeSmallFiles(join(work, 'photos'), allPath);
  // What the upload queue hands the engine with each original: its MD5, taken in the media worker's read for the SHA-256.
  const smallMd5s = smallPaths.map((path) => createHash('md5').update(readFileSync(path)).digest('base64'));
  const pageDir = join(work, 'page');
  // Profiled, the names are kept (the profile lists functions by them); the measured runs are minified as the app is.
  await buildBenchPage('s3-page', pageDir, { build: { chunkSizeWarningLimit: 2000, minify: !process.env.S3_BENCH_PROFILE } });
  server = await serveStatic(pageDir);
  const origin = `http://127.0.0.1:${server.address().port}`;

  browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs, headless: true });
  const browserCdp = await browser.newBrowserCDPSession();
  const processes = async () => (await browserCdp.send('SystemInfo.getProcessInfo')).processInfo;
  // CPU seconds of all of Chromium's processes (browser, network service, renderers).
  const chromiumCpu = async () => (await processes()).reduce((sum, p) => sum + p.cpuTime, 0);
  const page = await browser.newPage();
  page.on('pageerror', (e) => console.error('page error:', e.message));
  page.on('console', (m) => process.env.S3_BENCH_DEBUG && console.log('page:', m.text()));
  await page.goto(`${origin}/index.html`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  const all = await processes();
  let pids = all.map((p) => p.id);
  const browserPids = () => pids;
  const { pid: tab, rssBefore: tabRssAtLoad } = await tabRenderer(page, all.filter((p) => p.type === 'renderer').map((p) => p.id));
  const pageCdp = await page.context().newCDPSession(page);
  await pageCdp.send('Performance.enable');

  // S3_BENCH_PROFILE=1: the page's JavaScript profiled during ours' first run of each kind, the functions that
  // took the most time listed (and the profile written to the temporary folder, for DevTools). Not a measured run:
  // the page is not minified then, and the profiler costs time.
  const profiledOnce = new Set();
  const profiled = async (what, run) => {
    if (!process.env.S3_BENCH_PROFILE || profiledOnce.has(what)) return run();
    profiledOnce.add(what);
    await pageCdp.send('Profiler.enable');
    await pageCdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await pageCdp.send('Profiler.start');
    const r = await run();
    const { profile } = await pageCdp.send('Profiler.stop');
    const file = join(tmpdir(), `s3-${what}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    console.log(`Ours, ${what}: where the page's time went (self time; the whole profile in ${file})\n${topSelfTime(profile, 20)}`);
    return r;
  };

  // Chosen as a user chooses files: Chromium reads them from disk, nothing is copied into the page first.
  await page.setInputFiles('#big', bigPath);
  await page.setInputFiles('#many', smallPaths);

  const big = { ours: [], curl: [], lib: [], xhr: [], slice: [], parts: [] };
  const small = { ours: [], queue: [], curl: [], fetch: [], xhr: [] };
  // The gateway's CPU seconds per run: what a client cannot go below on this machine.
  const bigGateway = { ours: [], curl: [], lib: [], xhr: [], slice: [], parts: [] };
  // Client CPU seconds per run: on a loaded machine wall time swings, the work each client does much less.
  const bigCpu = { ours: [], curl: [], lib: [], xhr: [], slice: [], parts: [] };
  const smallCpu = { ours: [], queue: [], curl: [], fetch: [], xhr: [] };
  const memory = [];
  let n = 0;
  const key = (who) => `${runId}/${who}-${++n}/original`;

  const bigRuns = {
    ours: async () => {
      pids = (await processes()).map((p) => p.id);
      await pageCdp.send('HeapProfiler.collectGarbage');
      await sleep(500);
      const idleRss = [];
      const idleTotal = [];
      for (let i = 0; i < 10; i++) {
        idleRss.push(vmRss(tab));
        idleTotal.push(browserPids().reduce((sum, pid) => sum + vmRss(pid), 0));
        await sleep(50);
      }
      const idleHeap = (await pageCdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0;
      const stop = memorySampler(tab, browserPids, pageCdp);
      const k = key('ours');
      const cpu0 = await chromiumCpu();
      const r = await profiled('big', () => page.evaluate(([t, k]) => window.benchBig(t, k), [target, k]));
      const cpu = (await chromiumCpu()) - cpu0;
      const m = await stop();
      memory.push({
        idle: median(idleRss),
        aboveLoad: Math.max(...m.rss) - tabRssAtLoad,
        rss: Math.max(...m.rss) - median(idleRss),
        total: Math.max(...m.total) - median(idleTotal),
        heap: Math.max(...m.heap) - idleHeap,
      });
      return { ...r, key: k, cpu };
    },
    curl: async () => {
      const k = key('curl');
      return { ...(await curlPut(client, s3, k, bigPath)), key: k };
    },
    xhr: async () => {
      const k = key('bare-xhr');
      const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: s3.bucket, Key: k }), { expiresIn: 3600 });
      const cpu0 = await chromiumCpu();
      const r = await page.evaluate((u) => window.benchBarePut(u), url);
      return { ...r, key: k, cpu: (await chromiumCpu()) - cpu0 };
    },
    // The same bytes as a Blob slice, as every part is sent: what sending a slice costs Chromium over sending a File.
    slice: async () => {
      const k = key('bare-xhr-slice');
      const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: s3.bucket, Key: k }), { expiresIn: 3600 });
      const cpu0 = await chromiumCpu();
      const r = await page.evaluate((u) => window.benchBarePut(u, true), url);
      return { ...r, key: k, cpu: (await chromiumCpu()) - cpu0 };
    },
    // A multipart upload with no engine: the app's part size and parts in flight, every URL presigned beforehand.
    parts: async () => {
      const k = key('bare-xhr-parts');
      const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: k }));
      const count = Math.ceil(BIG / PART_SIZE);
      const urls = [];
      for (let i = 1; i <= count; i++) urls.push(await getSignedUrl(client, new UploadPartCommand({ Bucket: s3.bucket, Key: k, UploadId, PartNumber: i }), { expiresIn: 3600 }));
      const cpu0 = await chromiumCpu();
      const r = await page.evaluate(([u, size, n]) => window.benchBareParts(u, size, n), [urls, PART_SIZE, PARTS_IN_FLIGHT]);
      const cpu = (await chromiumCpu()) - cpu0;
      const Parts = r.etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 }));
      await client.send(new CompleteMultipartUploadCommand({ Bucket: s3.bucket, Key: k, UploadId, MultipartUpload: { Parts } }));
      return { ...r, key: k, cpu };
    },
    lib: async () => {
      const k = key('lib-storage');
      return { ...(await libStoragePut(client, s3, k, bigPath)), key: k };
    },
  };
  const smallRuns = {
    queue: async () => {
      const prefix = `${runId}/queue-many-${++n}`;
      const cpu0 = await chromiumCpu();
      const r = await profiled('many-md5-given', () => page.evaluate(([t, p, f, m]) => window.benchMany(t, p, f, m), [target, prefix, FILES_IN_FLIGHT, smallMd5s]));
      const cpu = (await chromiumCpu()) - cpu0;
      const stored = await countKeys(client, s3, `${prefix}/`);
      if (stored !== SMALL_COUNT) throw new Error(`the bucket holds ${stored} of ${SMALL_COUNT} small files`);
      return { ...r, cpu };
    },
    ours: async () => {
      const prefix = `${runId}/ours-many-${++n}`;
      const cpu0 = await chromiumCpu();
      const r = await profiled('many', () => page.evaluate(([t, p, f]) => window.benchMany(t, p, f), [target, prefix, FILES_IN_FLIGHT]));
      const cpu = (await chromiumCpu()) - cpu0;
      const stored = await countKeys(client, s3, `${prefix}/`);
      if (stored !== SMALL_COUNT) throw new Error(`the bucket holds ${stored} of ${SMALL_COUNT} small files`);
      return { ...r, cpu };
    },
    curl: async () => {
      const k = key('curl-300mb');
      const r = await curlPut(client, s3, k, allPath);
      if ((await storedSize(client, s3, k)) !== SMALL_COUNT * SMALL_SIZE) throw new Error('curl stored the wrong size');
      return r;
    },
    xhr: async () => {
      const prefix = `${runId}/xhr-many-${++n}`;
      const urls = [];
      for (let i = 0; i < SMALL_COUNT; i++) {
        const command = new PutObjectCommand({ Bucket: s3.bucket, Key: `${prefix}/${String(i).padStart(4, '0')}/original` });
        urls.push(await getSignedUrl(client, command, { expiresIn: 3600 }));
      }
      const cpu0 = await chromiumCpu();
      const r = await page.evaluate(([u, f]) => window.benchBareMany(u, f), [urls, FILES_IN_FLIGHT]);
      const cpu = (await chromiumCpu()) - cpu0;
      const stored = await countKeys(client, s3, `${prefix}/`);
      if (stored !== SMALL_COUNT) throw new Error(`the bucket holds ${stored} of ${SMALL_COUNT} small files`);
      return { ...r, cpu };
    },
    fetch: async () => {
      const prefix = `${runId}/fetch-many-${++n}`;
      const r = await nodeFetchMany(client, s3, prefix, smallPaths);
      const stored = await countKeys(client, s3, `${prefix}/`);
      if (stored !== SMALL_COUNT) throw new Error(`the bucket holds ${stored} of ${SMALL_COUNT} small files`);
      return r;
    },
  };

  const rotate = (xs, r) => xs.map((_, i) => xs[(i + r) % xs.length]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const who of rotate(['ours', 'curl', 'lib', 'xhr', 'slice', 'parts'], round)) {
      const g0 = gatewayCpu();
      const r = await withLimit(bigRuns[who](), `the 1 GiB upload by ${who}`);
      bigGateway[who].push(gatewayCpu() - g0);
      const size = await storedSize(client, s3, r.key);
      if (size !== BIG) throw new Error(`${who} stored ${size} bytes instead of ${BIG}`);
      big[who].push(mibps(BIG, r.ms));
      bigCpu[who].push(r.cpu);
      console.log(`round ${round + 1}: 1 GiB ${who} ${fmt(r.ms / 1000)} s, ${fmt(mibps(BIG, r.ms))} MiB/s`);
      await withLimit(purge(client, s3, runId), 'deleting the benchmark objects');
    }
    for (const who of rotate(['ours', 'queue', 'curl', 'fetch', 'xhr'], round)) {
      const r = await withLimit(smallRuns[who](), `the small files by ${who}`);
      small[who].push(mibps(SMALL_COUNT * SMALL_SIZE, r.ms));
      smallCpu[who].push(r.cpu);
      console.log(`round ${round + 1}: ${SMALL_COUNT} × 300 KB ${who} ${fmt(r.ms / 1000)} s, ${fmt(mibps(SMALL_COUNT * SMALL_SIZE, r.ms))} MiB/s`);
      await withLimit(purge(client, s3, runId), 'deleting the benchmark objects');
    }
  }

  const m = {
    ours: median(big.ours),
    curl: median(big.curl),
    lib: median(big.lib),
    xhr: median(big.xhr),
    slice: median(big.slice),
    parts: median(big.parts),
    smallOurs: median(small.ours),
    smallQueue: median(small.queue),
    smallCurl: median(small.curl),
    smallFetch: median(small.fetch),
    smallXhr: median(small.xhr),
  };
  const cpu = {
    big: median(bigCpu.ours),
    bigXhr: median(bigCpu.xhr),
    bigSlice: median(bigCpu.slice),
    bigParts: median(bigCpu.parts),
    smallQueue: median(smallCpu.queue),
    smallOurs: median(smallCpu.ours),
    smallXhr: median(smallCpu.xhr),
  };
  // If the gateway alone had every core, a multipart 1 GiB (lib-storage's, whose client is not the browser)
  // could go no faster than this.
  const gw = { lib: median(bigGateway.lib), ours: median(bigGateway.ours), curl: median(bigGateway.curl), parts: median(bigGateway.parts) };
  const multipartCeiling = (cpus().length * 1024) / gw.lib;
  const peak = {
    rss: Math.max(...memory.map((x) => x.rss)),
    total: Math.max(...memory.map((x) => x.total)),
    heap: Math.max(...memory.map((x) => x.heap)),
  };
  const ratio = {
    lib: m.ours / m.lib,
    xhr: m.ours / m.xhr,
    xhrCpu: cpu.big / cpu.bigXhr,
    small: m.smallQueue / m.smallXhr,
    smallCpu: cpu.smallQueue / cpu.smallXhr,
  };
  const met = {
    lib: ratio.lib >= TARGET.vsLibStorage,
    xhr: ratio.xhr >= TARGET.vsBarePut,
    xhrCpu: ratio.xhrCpu <= TARGET.cpuVsBare,
    memory: peak.rss <= MEMORY_LIMIT,
    small: ratio.small >= TARGET.smallVsBarePuts,
    smallCpu: ratio.smallCpu <= TARGET.cpuVsBare,
  };
  const yes = (ok) => (ok ? 'yes' : 'NO');
  const runs = (xs) => xs.map((x) => fmt(x)).join(', ');
  const libVersion = JSON.parse(readFileSync(join(root, 'node_modules', '@aws-sdk', 'lib-storage', 'package.json'), 'utf8')).version;
  const curlVersion = spawnSync('curl', ['--version'], { encoding: 'utf8' }).stdout.split(' ')[1];
  const chromeVersion = browser.version();
  const reference = (what, ours, peer, r) => [`reference, not a target: ${what}`, ours, peer, fmt(r, 2), '—', '—'];
  writeResult(
    's3',
    'Uploads to an S3 bucket: ours against bare XMLHttpRequest PUTs from the same tab, lib-storage and curl',
    ['what', 'ours', 'peer', 'ratio', 'target', 'met?'],
    [
      ['1 GiB file, vs one bare XMLHttpRequest PUT of it from the same tab (URL presigned beforehand)', `${fmt(m.ours)} MiB/s`, `${fmt(m.xhr)} MiB/s`, fmt(ratio.xhr, 2), `≥ ${fmt(TARGET.vsBarePut, 1)}`, yes(met.xhr)],
      ['1 GiB file, client CPU (all of Chromium), vs the bare PUT\'s', `${fmt(cpu.big)} s`, `${fmt(cpu.bigXhr)} s`, fmt(ratio.xhrCpu, 2), `≤ ${fmt(TARGET.cpuVsBare, 1)}`, yes(met.xhrCpu)],
      ['1 GiB file, vs @aws-sdk/lib-storage `Upload` (Node, 8 MiB parts, queueSize 4)', `${fmt(m.ours)} MiB/s`, `${fmt(m.lib)} MiB/s`, fmt(ratio.lib, 2), `≥ ${fmt(TARGET.vsLibStorage, 1)}`, yes(met.lib)],
      ['tab memory growth during the 1 GiB upload (renderer RSS, peak above idle)', `${fmt(peak.rss / MiB)} MiB`, '—', '—', `≤ ${MEMORY_LIMIT / MiB} MiB (6 parts + 32 MiB)`, yes(met.memory)],
      [
        `${SMALL_COUNT} files of 300 KB (${FILES_IN_FLIGHT} at once) as the queue sends them (each MD5 given), vs bare XMLHttpRequest PUTs from the same tab (presigned beforehand, ${FILES_IN_FLIGHT} at once)`,
        `${fmt(m.smallQueue)} MiB/s`,
        `${fmt(m.smallXhr)} MiB/s`,
        fmt(ratio.small, 2),
        `≥ ${fmt(TARGET.smallVsBarePuts, 1)}`,
        yes(met.small),
      ],
      [`${SMALL_COUNT} files of 300 KB, client CPU (all of Chromium), vs the bare PUTs'`, `${fmt(cpu.smallQueue)} s`, `${fmt(cpu.smallXhr)} s`, fmt(ratio.smallCpu, 2), `≤ ${fmt(TARGET.cpuVsBare, 1)}`, yes(met.smallCpu)],
      reference(`the same ${SMALL_COUNT} files with the engine reading and hashing each for its Content-MD5 (no MD5 given), vs the bare PUTs; CPU ${fmt(cpu.smallOurs)} s`, `${fmt(m.smallOurs)} MiB/s`, `${fmt(m.smallXhr)} MiB/s`, m.smallOurs / m.smallXhr),
      reference('1 GiB file, vs curl (one PUT to a presigned URL)', `${fmt(m.ours)} MiB/s`, `${fmt(m.curl)} MiB/s`, m.ours / m.curl),
      reference(
        `1 GiB file, vs bare XMLHttpRequest part PUTs of it (${PART_SIZE / MiB} MiB parts, ${PARTS_IN_FLIGHT} in flight, URLs presigned beforehand): the same upload with no engine; CPU ours ${fmt(cpu.big)} s, bare parts ${fmt(cpu.bigParts)} s`,
        `${fmt(m.ours)} MiB/s`,
        `${fmt(m.parts)} MiB/s`,
        m.ours / m.parts,
      ),
      reference(
        `the bare PUT of the 1 GiB file sent as a Blob slice (as every part is), vs the same PUT sent as the File; CPU ${fmt(cpu.bigSlice)} s against ${fmt(cpu.bigXhr)} s`,
        `${fmt(m.slice)} MiB/s`,
        `${fmt(m.xhr)} MiB/s`,
        m.slice / m.xhr,
      ),
      reference('the bare XMLHttpRequest PUT of the 1 GiB file, vs curl', `${fmt(m.xhr)} MiB/s`, `${fmt(m.curl)} MiB/s`, m.xhr / m.curl),
      reference(
        `the most any multipart upload could reach here, ${cpus().length} cores / the gateway's CPU for lib-storage's 1 GiB (${fmt(gw.lib)} s; curl's single PUT costs it ${fmt(gw.curl)} s, ours ${fmt(gw.ours)} s), vs curl`,
        `${fmt(multipartCeiling)} MiB/s`,
        `${fmt(m.curl)} MiB/s`,
        multipartCeiling / m.curl,
      ),
      reference(`the small files as the queue sends them, vs curl putting one 300 MB file`, `${fmt(m.smallQueue)} MiB/s`, `${fmt(m.smallCurl)} MiB/s`, m.smallQueue / m.smallCurl),
      reference(`the same ${SMALL_COUNT} files by bare Node fetch PUTs (presigned beforehand, ${FILES_IN_FLIGHT} at once), vs curl's one PUT`, `${fmt(m.smallFetch)} MiB/s`, `${fmt(m.smallCurl)} MiB/s`, m.smallFetch / m.smallCurl),
    ],
    [
      `Ours: S3Files + SessionSigner (src/backend/s3) with the app's default limits, built with Vite and run in headless Chromium ${chromeVersion} (${chromiumPath()}); the files are chosen in an <input type=file> (Playwright setInputFiles from /tmp), so Chromium reads them from disk; each part goes out by XMLHttpRequest, timed in the page. Peers in Node on the same machine: curl ${curlVersion} (-T, its own time_total), @aws-sdk/lib-storage ${libVersion} (Body: a file read stream).`,
      `Gateway: Ceph RGW on loopback (${s3.endpoint}, memstore) from scripts/s3-test-server.mjs, which other work on this machine may use at the same time; every object is checked (size, or count) and deleted after its run.`,
      `Runs (MiB/s, ${ROUNDS} rounds, order rotated each round; medians above): 1 GiB ours ${runs(big.ours)}; lib-storage ${runs(big.lib)}; curl ${runs(big.curl)}; bare XHR ${runs(big.xhr)}; bare XHR of a slice ${runs(big.slice)}; bare XHR parts ${runs(big.parts)}. Small files as the queue sends them ${runs(small.queue)}; with the engine hashing ${runs(small.ours)}; curl 300 MB ${runs(small.curl)}; bare Node fetch ${runs(small.fetch)}; bare XHR ${runs(small.xhr)}.`,
      `Client CPU time, median of the rounds (1 GiB): ours ${fmt(median(bigCpu.ours))} s (all of Chromium's processes), lib-storage ${fmt(median(bigCpu.lib))} s (the Node process), curl ${fmt(median(bigCpu.curl))} s, bare XHR ${fmt(median(bigCpu.xhr))} s, of a slice ${fmt(cpu.bigSlice)} s, bare parts ${fmt(cpu.bigParts)} s (Chromium). Small files: as the queue sends them ${fmt(cpu.smallQueue)} s, with the engine hashing ${fmt(cpu.smallOurs)} s, curl (300 MB) ${fmt(median(smallCpu.curl))} s, bare Node fetch ${fmt(median(smallCpu.fetch))} s, bare XHR ${fmt(median(smallCpu.xhr))} s. The gateway's daemons (radosgw + OSD) for 1 GiB: ours ${fmt(gw.ours)} s, bare parts ${fmt(gw.parts)} s, lib-storage ${fmt(gw.lib)} s, curl ${fmt(gw.curl)} s (they also count any other use of the gateway meanwhile).`,
      `Memory during ours' 1 GiB uploads, worst round: tab renderer RSS +${fmt(peak.rss / MiB)} MiB, its JS heap +${fmt(peak.heap / MiB)} MiB; all of Chromium's processes together (browser, network service, renderer) +${fmt(peak.total / MiB)} MiB. Idle baseline taken after a forced GC with both file inputs filled: renderer RSS ${fmt(Math.max(...memory.map((x) => x.idle)) / MiB)} MiB at most; counted instead from the ${fmt(tabRssAtLoad / MiB)} MiB the renderer held when the page had loaded, its peak was +${fmt(Math.max(...memory.map((x) => x.aboveLoad)) / MiB)} MiB.`,
      `Machine: ${cpus().length} cores, load average ${fmt(loadBefore[0], 2)} at the start and ${fmt(loadavg()[0], 2)} at the end. Whole benchmark: ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    ],
  );
  // `npm run bench` counts a benchmark whose targets are not met as failed.
  if (!Object.values(met).every(Boolean)) process.exitCode = 1;
} finally {
  await browser?.close();
  server?.close();
  if (client && s3) await withLimit(purge(client, s3, runId), 'deleting the benchmark objects', 60_000).catch((e) => console.error('cleanup:', e.message));
  client?.destroy();
  await s3?.stop?.();
  await rm(work, { recursive: true, force: true });
}
// A run cut short may leave requests open; nothing else is left to do.
process.exit(process.exitCode ?? 0);
