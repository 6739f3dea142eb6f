// Shared helpers for the benchmarks: result tables, medians, and a server for a bench page. The app's build, its
// server and Chromium: scripts/built-app.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
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

export const kib = (bytes) => (bytes / 1024).toFixed(1);

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.jpg': 'image/jpeg', '.wasm': 'application/wasm' };

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
