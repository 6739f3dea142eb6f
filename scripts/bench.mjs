#!/usr/bin/env node
// `npm run bench`: every bench/*-bench.mjs in turn (or the ones named: `npm run bench -- bundle grid`). Flags
// (`npm run bench -- offline --quick`) go to each benchmark run; warm-start and offline take `--quick`.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { ensureChromium } from './ensure-chromium.mjs';

const dir = new URL('../bench/', import.meta.url).pathname;
const args = process.argv.slice(2);
const flags = args.filter((a) => a.startsWith('--'));
const wanted = args.filter((a) => !a.startsWith('--'));
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('-bench.mjs'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)));
ensureChromium();
let failed = 0;
for (const f of benches) {
  console.log(`\n▶ ${f}`);
  const r = spawnSync(process.execPath, [dir + f, ...flags], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
console.log(`\n${benches.length - failed} of ${benches.length} benchmarks met their targets.`);
process.exit(failed ? 1 : 0);
