// What the Playwright benchmarks on the emulated Supabase project share: the PostgreSQL server and the Ceph S3
// gateway (those at DATABASE_URL / S3_TEST_*, or started here and stopped again by stopServices), the run of
// bench/playwright.bench.config.ts for one *.bench.ts file, and the statistics their result tables use.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../scripts/built-app.mjs';

const scripts = join(root, 'scripts');
const out = join(root, 'test-results');

let ownPostgres = false;
let ownS3 = false;

function startPostgres() {
  if (process.env.DATABASE_URL) return;
  const r = spawnSync(process.execPath, [join(scripts, 'postgres-test-server.mjs')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const url = /DATABASE_URL=(\S+)/.exec(r.stdout ?? '')?.[1];
  if (r.status !== 0 || !url) throw new Error('the PostgreSQL test server did not start');
  ownPostgres = true;
  process.env.DATABASE_URL = url;
}

function startS3() {
  if (process.env.S3_TEST_ENDPOINT) return;
  const r = spawnSync(process.execPath, [join(scripts, 's3-test-server.mjs')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const vars = Object.fromEntries([...(r.stdout ?? '').matchAll(/^(S3_TEST_\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
  if (r.status !== 0 || !vars.S3_TEST_ENDPOINT) throw new Error('the S3 test gateway did not start');
  ownS3 = true;
  Object.assign(process.env, vars);
}

/** Starts what is missing of PostgreSQL and S3; stopServices stops only what was started here. */
export function startServices() {
  startPostgres();
  startS3();
}

export function stopServices() {
  if (ownS3) spawnSync(process.execPath, [join(scripts, 's3-test-server.mjs'), 'stop'], { cwd: root, stdio: 'inherit' });
  if (ownPostgres) spawnSync(process.execPath, [join(scripts, 'postgres-test-server.mjs'), 'stop'], { cwd: root, stdio: 'inherit' });
  ownS3 = ownPostgres = false;
}

/** Stops the services on Ctrl-C too, so an interrupted run leaves nothing behind. */
export function stopServicesOnSignal() {
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      stopServices();
      process.exit(130);
    });
  }
}

/**
 * Runs bench/<name>.bench.ts in Playwright (a fresh production build) with `resultVar` naming the JSON file it
 * writes, extra environment added, and returns that file's content.
 */
export function runPlaywrightBench(name, resultVar, env = {}) {
  mkdirSync(out, { recursive: true });
  const resultFile = join(out, `${name}-bench.json`);
  rmSync(resultFile, { force: true });
  const run = spawnSync('npx', ['playwright', 'test', '-c', join(root, 'bench', 'playwright.bench.config.ts'), `${name}.bench.ts`], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env, [resultVar]: resultFile },
  });
  if (run.status !== 0) throw new Error(`the Playwright run failed (exit ${run.status ?? run.signal})`);
  return JSON.parse(readFileSync(resultFile, 'utf8'));
}

export { median } from './bench-utils.mjs';
export const worst = (xs) => Math.max(...xs);
export const ms = (x) => `${x.toFixed(0)} ms`;
export const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
