// Shared helpers for the benchmarks: result tables. The build, its server and Chromium: scripts/built-app.mjs.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
