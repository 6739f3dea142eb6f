// The production build served on loopback and Debian's Chromium: what the benchmarks and the screenshots drive.
import { build, preview } from 'vite';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { chromiumArgs, chromiumPath } from './chromium.mjs';

export const root = new URL('..', import.meta.url).pathname;

/** Builds the app into dist/; `config` is merged into Vite's (a benchmark's profile run builds it unminified). */
export async function buildApp(config = {}) {
  await build({ root, logLevel: 'warn', ...config });
}

/** Serves dist/ as a static host would. Returns { url, close }. */
export async function serveDist(port = 4180) {
  const server = await preview({ root, preview: { port, strictPort: false, host: '127.0.0.1' }, logLevel: 'warn' });
  const url = server.resolvedUrls?.local[0]?.replace(/\/$/, '') ?? `http://127.0.0.1:${port}`;
  return { url, close: () => new Promise((r) => server.httpServer.close(r)) };
}

export async function launchChromium() {
  return chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs, headless: true });
}

/**
 * Chromium with a profile on disk, removed on close: its storage quota is the disk's, where a browser without a
 * profile keeps the site's data in memory under a small quota (an album of a million items does not fit).
 */
export async function launchChromiumProfile(options = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'shoebox-profile-'));
  const context = await chromium.launchPersistentContext(dir, { executablePath: chromiumPath(), args: chromiumArgs, headless: true, ...options });
  return { context, dir, close: async () => { await context.close(); await rm(dir, { recursive: true, force: true }); } };
}
