// Device labels: a 100,000-character user agent against a normal one. Target: under 50 ms for the long one,
// every time ([Note: Bounded user agents] in src/lib/device-label.ts). Writes bench/results/ua.md.
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { root } from '../scripts/built-app.mjs';
import { writeResult } from './bench-utils.mjs';

const TARGET_MS = 50;
const RUNS = 300;

// The module as the app ships it, bundled with ua-parser-js.
const out = await build({
  entryPoints: [`${root}src/lib/device-label.ts`],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  logLevel: 'error',
});
const { deviceLabel } = await import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);

const normal = 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const padded = `${normal} ${'x'.repeat(100_000 - normal.length - 1)}`;
// Text built to make backtracking patterns work hard: nested brackets and repeated tokens.
const hostile = `Mozilla/5.0 (${'('.repeat(40_000)}${'Linux; Android ; '.repeat(4_000)}`.slice(0, 100_000);

function time(ua) {
  const first = performance.now();
  deviceLabel(ua, { hints: { mobile: true, model: 'Pixel 8' } });
  const cold = performance.now() - first;
  const all = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    deviceLabel(ua, { hints: { mobile: true, model: 'Pixel 8' } });
    all.push(performance.now() - t);
  }
  all.sort((a, b) => a - b);
  return { cold, median: all[Math.floor(RUNS / 2)], max: all[RUNS - 1] };
}

const cases = [
  ['normal user agent', normal],
  ['100,000 characters (padded)', padded],
  ['100,000 characters (brackets and repeats)', hostile],
];
const results = cases.map(([name, ua]) => ({ name, length: ua.length, ...time(ua) }));
const long = results.filter((r) => r.length >= 100_000);
const worst = Math.max(...long.flatMap((r) => [r.cold, r.max]));
const met = worst < TARGET_MS;
const ms = (v) => v.toFixed(3);

writeResult(
  'ua',
  'Device labels: long user agents',
  ['user agent', 'characters', 'first parse (ms)', `median of ${RUNS} (ms)`, `slowest of ${RUNS} (ms)`],
  results.map((r) => [r.name, r.length.toLocaleString('en'), ms(r.cold), ms(r.median), ms(r.max)]),
  [
    `Target: every parse of a 100,000-character user agent under ${TARGET_MS} ms. Slowest seen: ${ms(worst)} ms: ${met ? 'met' : 'missed'}.`,
    `The median long parse is ${(long[0].median / results[0].median).toFixed(2)}x the normal one: the text is cut to 500 characters before it is read.`,
  ],
);
console.log(results.map((r) => `${r.name}: first ${ms(r.cold)} ms, median ${ms(r.median)} ms, slowest ${ms(r.max)} ms`).join('\n'));
console.log(met ? `met: slowest long parse ${ms(worst)} ms < ${TARGET_MS} ms` : `missed: slowest long parse ${ms(worst)} ms ≥ ${TARGET_MS} ms`);
process.exit(met ? 0 : 1);
