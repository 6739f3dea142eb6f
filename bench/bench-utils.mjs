// Shared helpers for the benchmarks: result tables, medians, and a server for a bench page. The app's build, its
// server and Chromium: scripts/built-app.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { chromium } from 'playwright-core';
import { build } from 'vite';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';
import { root } from '../scripts/built-app.mjs';

export function writeResult(name, title, header, rows, notes = []) {
  const dir = join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const line = (cells) => `| ${cells.join(' | ')} |`;
  const md = [
    `# ${title}`,
    '',
    `Measured ${new Date().toISOString()} on ${process.platform}/${process.arch}, Node ${process.version}.`,
    '',
    line(header),
    line(header.map(() => '---')),
    ...rows.map(line),
    '',
    ...notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
  writeFileSync(join(dir, `${name}.md`), md);
  console.log(`\n${md}`);
}

/**
 * Builds the bench page `bench/<name>/` (its index.html, script and workers) into `outDir`, for `serveStatic`.
 * `options` adds to Vite's inline config (plugins) and to its `build` section (`build: { minify }`).
 */
export async function buildBenchPage(name, outDir, options = {}) {
  const { build: buildOptions, ...rest } = options;
  await build({
    configFile: false,
    root: join(root, 'bench', name),
    base: './',
    logLevel: 'warn',
    worker: { format: 'es' },
    ...rest,
    build: { outDir, emptyOutDir: true, target: 'es2022', reportCompressedSize: false, ...buildOptions },
  });
}

export const kib = (bytes) => (bytes / 1024).toFixed(1);

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.jpg': 'image/jpeg', '.wasm': 'application/wasm' };

/**
 * Serves the built bench page in `dir` (and `extra` beside it, see serveStatic), opens it in headless Chromium and
 * waits until it says it is ready. Returns { server, browser, page, origin }; the caller closes the first two.
 */
export async function openBenchPage(dir, extra = {}) {
  const server = await serveStatic(dir, extra);
  const origin = `http://127.0.0.1:${server.address().port}`;
  let browser;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs, headless: true });
    const page = await browser.newPage();
    page.on('pageerror', (e) => console.error('page error:', e.message));
    await page.goto(`${origin}/index.html`);
    await page.waitForFunction(() => document.body.dataset.ready === 'true');
    return { server, browser, page, origin };
  } catch (e) {
    await browser?.close();
    server.close();
    throw e;
  }
}

/** Serves a built bench page from `dir` on 127.0.0.1 (a free port), and `extra` (path → bytes) beside it. */
export function serveStatic(dir, extra = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const body = extra[path] ?? (await readFile(join(dir, normalize(path === '/' ? '/index.html' : path))).catch(() => null));
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

/**
 * A photo-like picture, raw RGB: smooth light falloff, a sky over waves, and per-pixel grain, so that coding it
 * costs what a photograph does (a flat picture would flatter every encoder and decoder). The same every run.
 */
export function photoLikePixels(width, height, seed = 12345) {
  const data = Buffer.alloc(width * height * 3);
  let state = seed;
  const rand = () => ((state = (state * 1103515245 + 12345) >>> 0) >>> 16) / 65536;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      const dx = x / width - 0.5;
      const dy = y / height - 0.5;
      const light = 1 - 0.9 * (dx * dx + dy * dy);
      const wave = Math.sin(x / 97 + Math.sin(y / 131) * 3) * 18;
      const grain = (rand() - 0.5) * 28;
      const base = y < height * 0.45 ? [110 + y / 60, 150 + y / 80, 215] : [90 + wave, 120 + wave / 2, 60 + x / 200];
      for (let c = 0; c < 3; c++) data[i + c] = Math.max(0, Math.min(255, base[c] * light + grain));
    }
  }
  return data;
}

/** The functions of a CPU profile that took the most time themselves, with their share of the samples. */
export function topSelfTime(profile, count) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const samples = new Map();
  for (const id of profile.samples) samples.set(id, (samples.get(id) ?? 0) + 1);
  const total = profile.samples.length;
  const byFn = new Map();
  for (const [id, n] of samples) {
    const f = byNode.get(id).callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    byFn.set(name, (byFn.get(name) ?? 0) + n);
  }
  return [...byFn]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, n]) => `  ${((100 * n) / total).toFixed(1).padStart(5)}%  ${name}`)
    .join('\n');
}

/** Chromium's trace events of every process for `ms`, over a CDP session, in the given categories. */
async function recordTrace(cdp, ms, categories) {
  const events = [];
  const collect = (e) => events.push(...e.value);
  cdp.on('Tracing.dataCollected', collect);
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  await new Promise((r) => setTimeout(r, ms));
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', collect);
  return events;
}

/**
 * Adds the complete events of one thread, `spans`, to `self` by `keyOf(event)`: each event's time less that of the
 * events inside it. Returns the thread's busy time (its outermost events), in microseconds.
 */
function addSelfTimes(spans, self, keyOf) {
  spans.sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const stack = [];
  let busy = 0;
  for (const e of spans) {
    while (stack.length > 0 && stack[stack.length - 1].end <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    const key = keyOf(e);
    if (parent) self.set(parent.key, (self.get(parent.key) ?? 0) - e.dur);
    else busy += e.dur;
    self.set(key, (self.get(key) ?? 0) + e.dur);
    stack.push({ key, end: e.ts + e.dur });
  }
  return busy;
}

const topOf = (self, count) =>
  [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, us]) => `  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);

const isSpan = (e) => e.ph === 'X' && typeof e.dur === 'number';

/**
 * Chromium's own trace of the page's main thread for `ms` (over a CDP session of the page): the trace events
 * that took the most time themselves (their time less that of the events inside them), with their share of it.
 * Where the main thread's time goes when a JavaScript profile says "(program)": style, layout, paint, IPC.
 */
export async function traceMainThread(cdp, ms, count = 25) {
  const events = await recordTrace(cdp, ms, 'devtools.timeline,disabled-by-default-devtools.timeline,v8,blink,cc,gpu,toplevel,loading,ipc');
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return 'no renderer main thread in the trace';
  const self = new Map();
  const busy = addSelfTimes(events.filter((e) => e.pid === main.pid && e.tid === main.tid && isSpan(e)), self, (e) => e.name);
  return [`  main thread busy ${(busy / 1000).toFixed(0)} ms of ${ms} ms traced`, ...topOf(self, count)].join('\n');
}

/**
 * Chromium's trace of the browser process's threads for `ms` (over any CDP session: tracing covers every process):
 * how long each thread was busy, and the trace events that took the most time themselves, a thread-pool task named
 * by where it was posted (an IndexedDB commit, a file write, a quota update). Busy time is wall time: it includes
 * waits in blocking calls, which the trace shows as ScopedBlockingCall.
 */
export async function traceBrowserProcess(cdp, ms, count = 30) {
  const events = await recordTrace(cdp, ms, 'toplevel,ipc,mojom,base,IndexedDB,Blob,storage,file,disabled-by-default-file,ServiceWorker,net,loading,browser,sql,leveldb');
  const browserPid = events.find((e) => e.ph === 'M' && e.name === 'process_name' && e.args?.name === 'Browser')?.pid;
  if (browserPid === undefined) return 'no browser process in the trace';
  const threadNames = new Map(events.filter((e) => e.pid === browserPid && e.ph === 'M' && e.name === 'thread_name').map((e) => [e.tid, e.args.name]));
  const byThread = new Map();
  for (const e of events) if (e.pid === browserPid && isSpan(e)) (byThread.get(e.tid) ?? byThread.set(e.tid, []).get(e.tid)).push(e);
  const self = new Map();
  const busyBy = new Map();
  for (const [tid, spans] of byThread) {
    const thread = (threadNames.get(tid) ?? String(tid)).replace(/\d+$/, '');
    const busy = addSelfTimes(spans, self, (e) => {
      const posted = e.name === 'ThreadPool_RunTask' && e.args?.src_func ? ` @${String(e.args.src_file ?? '').split('/').slice(-2).join('/')}:${e.args.src_func}` : '';
      return `${thread}: ${e.name}${posted}`;
    });
    busyBy.set(thread, (busyBy.get(thread) ?? 0) + busy);
  }
  return [...[...busyBy].sort((a, b) => b[1] - a[1]).map(([t, us]) => `  busy ${t}: ${(us / 1000).toFixed(0)} ms of ${ms} ms`), ...topOf(self, count)].join('\n');
}
