#!/usr/bin/env node
// `npm test`: every suite, with the services they need installed first.
//   1. typecheck and lint
//   2. unit tests (Node), database tests (PGlite, or DATABASE_URL) and browser tests (Vitest browser mode in
//      Debian's Chromium)
//   3. end-to-end tests (Playwright driving Debian's Chromium against the production build)
// Missing system packages (Chromium) are installed with apt-get when running as root.
// Ends with one line: "Tests: N passed, N failed".
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const only = process.argv.slice(2);
const want = (name) => only.length === 0 || only.includes(name);

function run(label, cmd, args, env = {}) {
  console.log(`\n▶ ${label}: ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`◀ ${label}: ${r.status === 0 ? 'ok' : `failed (exit ${r.status ?? r.signal})`} in ${secs}s`);
  return r.status === 0;
}

let passed = 0;
let failed = 0;
const failures = [];

function countVitest(file) {
  if (!existsSync(file)) return false;
  const j = JSON.parse(readFileSync(file, 'utf8'));
  passed += j.numPassedTests ?? 0;
  failed += j.numFailedTests ?? 0;
  return true;
}

function countPlaywright(file) {
  if (!existsSync(file)) return false;
  const j = JSON.parse(readFileSync(file, 'utf8'));
  passed += j.stats?.expected ?? 0;
  failed += (j.stats?.unexpected ?? 0) + (j.stats?.flaky ?? 0);
  return true;
}

function step(name, ok) {
  if (!ok) failures.push(name);
}

if (want('static')) {
  step('typecheck', run('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']));
  step('lint', run('lint', 'npx', ['eslint', '--max-warnings', '0', '.']));
}

if (want('unit')) {
  const file = join(out, 'unit.json');
  step('unit', run('unit tests', 'npx', ['vitest', 'run', '--project', 'unit', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]));
  if (!countVitest(file)) failures.push('unit (no report)');
}

if (want('live')) {
  if (process.env.SUPABASE_TEST_URL) {
    const file = join(out, 'live.json');
    step('live', run('Supabase live suite', 'npx', ['vitest', 'run', '--project', 'live', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]));
    if (!countVitest(file)) failures.push('live (no report)');
  } else {
    console.log('\nSupabase live suite not run: SUPABASE_TEST_URL is not set (see README, "Testing against a real project").');
  }
}

if (want('db') && existsSync(join(root, 'tests', 'db'))) {
  const file = join(out, 'db.json');
  step('db', run('database tests (PGlite)', 'npx', ['vitest', 'run', '--project', 'db', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`], { DATABASE_URL: '' }));
  if (!countVitest(file)) failures.push('db (no report)');
  // The same suite on a PostgreSQL server: the one at DATABASE_URL, or in CI a throwaway Debian cluster.
  let url = process.env.DATABASE_URL;
  const ownServer = !url && process.env.CI === 'true';
  if (ownServer) {
    const started = spawnSync(process.execPath, [join(root, 'scripts', 'postgres-test-server.mjs')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    url = /DATABASE_URL=(\S+)/.exec(started.stdout ?? '')?.[1];
    if (!url) failures.push('db (PostgreSQL server did not start)');
  }
  if (url) {
    const serverFile = join(out, 'db-server.json');
    step('db-server', run('database tests (PostgreSQL server)', 'npx', ['vitest', 'run', '--project', 'db', '--reporter=default', '--reporter=json', `--outputFile.json=${serverFile}`], { DATABASE_URL: url }));
    if (!countVitest(serverFile)) failures.push('db-server (no report)');
  }
  if (ownServer) spawnSync(process.execPath, [join(root, 'scripts', 'postgres-test-server.mjs'), 'stop'], { cwd: root, stdio: 'inherit' });
}

if (want('browser') || want('e2e')) {
  ensureChromium();
}

if (want('browser')) {
  const file = join(out, 'browser.json');
  step('browser', run('browser tests', 'npx', ['vitest', 'run', '--project', 'browser', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`]));
  if (!countVitest(file)) failures.push('browser (no report)');
}

if (want('e2e')) {
  const file = join(out, 'e2e.json');
  step('e2e', run('end-to-end tests', 'npx', ['playwright', 'test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: file, CI: 'true' }));
  if (!countPlaywright(file)) failures.push('e2e (no report)');
}

console.log('');
if (failures.length) console.log(`Failed steps: ${failures.join(', ')}`);
console.log(`Tests: ${passed} passed, ${failed} failed`);
process.exit(failures.length === 0 && failed === 0 ? 0 : 1);
