// Shared helpers for the benchmarks: a production build served on loopback, Debian's Chromium, result tables.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, preview } from 'vite';
import { chromium } from 'playwright';
import { chromiumArgs, chromiumPath } from '../scripts/chromium.mjs';

export const root = new URL('..', import.meta.url).pathname;

export async function buildApp() {
  await build({ root, logLevel: 'warn' });
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

export const kib = (bytes) => (bytes / 1024).toFixed(1);
