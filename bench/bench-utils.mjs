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
