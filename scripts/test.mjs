#!/usr/bin/env node
// `npm test`: every suite, with the services they need installed and started first.
//   1. typecheck and lint
//   2. unit tests (Node); the JavaScript budgets, from the production build (built once here, and served by
//      the end-to-end tests later); database tests on PGlite, then on a PostgreSQL server (the one at
//      DATABASE_URL, or a throwaway Debian cluster in CI or as root)
//   3. S3 tests (Node) against a real S3 gateway (Ceph RADOS Gateway on loopback, started here) and the real
//      Supabase Storage server (prepared in the background from the start of the run, started here on the
//      PostgreSQL server), then the edge functions' tests (Deno) against that gateway and the PostgreSQL server
//   4. browser tests (Vitest browser mode in Debian's Chromium) and end-to-end tests (Playwright driving Debian's
//      Chromium against the production build), with the gateway's S3_TEST_* and the storage server's
//      SUPABASE_STORAGE_TEST_* in their environment, and for the end-to-end tests the PostgreSQL server's DATABASE_URL
// `node scripts/test.mjs <step>…` runs only those steps (static, unit, budget, live, db, s3, functions, browser, e2e),
// and with test files named after them (`e2e tests/e2e/viewer.spec.ts`) only those files of the step; it starts
// only the services they need, in folders and on ports of this run's own; every service started here is
// stopped at the end, also on failure and on Ctrl-C. Services given in the environment (DATABASE_URL, S3_TEST_*,
// SUPABASE_STORAGE_TEST_*) are used as given and left running.
// Missing system packages (Chromium, PostgreSQL, Ceph, ExifTool) are installed with apt-get when running as root.
// TEST_SHUFFLE=random (or 1) runs the tests of every suite in an order drawn from a new seed, printed at the start;
// TEST_SHUFFLE=<seed> (a number above 1) runs that order again. Vitest shuffles files and the tests in them;
// Playwright shuffles every test on its own (--fully-parallel makes each test a group; still one worker).
// Ends with one line: "Tests: N passed, N failed".
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';
import { ensureExiftool } from './ensure-exiftool.mjs';

const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// Test files named after the steps run alone in the step they belong to: `browser src/x.browser.test.ts`,
// `e2e tests/e2e/viewer.spec.ts`.
const named = process.argv.slice(2).filter((a) => /\.(spec|test)\.tsx?$/.test(a));
const only = process.argv.slice(2).filter((a) => !named.includes(a));
const browserFiles = named.filter((a) => a.includes('.browser.test.'));
const e2eFiles = named.filter((a) => a.endsWith('.spec.ts'));

/** The seed of a shuffled run, from TEST_SHUFFLE, or null for the written order. */
function shuffleSeed(value) {
  if (!value || value === '0' || value === 'false') return null;
  if (value === '1' || value === 'true' || value === 'random') return String(1 + Math.floor(Math.random() * 2 ** 31));
  if (!/^[1-9]\d*$/.test(value)) {
    console.error(`TEST_SHUFFLE must be "random" (or 1) or a seed (a whole number above 1), not "${value}".`);
    process.exit(2);
  }
  return value;
}
const seed = shuffleSeed(process.env.TEST_SHUFFLE);
if (seed) console.log(`Shuffled order, seed ${seed}: TEST_SHUFFLE=${seed} runs it again.`);
const vitestOrder = seed ? ['--sequence.shuffle', `--sequence.seed=${seed}`] : [];
const playwrightOrder = seed ? ['--shuffle', seed, '--fully-parallel'] : [];
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

// Services this run starts live in folders of its own (and on free ports), so they never meet a developer's or
// another run's.
const runDirs = {
  postgres: join(tmpdir(), `shoebox-postgres-test-${process.pid}`),
  s3: join(tmpdir(), `shoebox-s3-test-${process.pid}`),
  storage: join(tmpdir(), `shoebox-supabase-storage-test-${process.pid}`),
};

// The real Supabase Storage server for the s3, browser and e2e steps: the one described by SUPABASE_STORAGE_TEST_*
// when set, otherwise scripts/supabase-storage-test-server.mjs's. Preparing it (unpacking, installing and building
// it: about a minute from nothing, mostly network and disk, see [Note: Preparing the storage server]) starts now, in
// the background, so it overlaps the first steps; the server starts after the PostgreSQL server and stops before it.
const storageScript = join(root, 'scripts', 'supabase-storage-test-server.mjs');
const storageLog = join(out, 'supabase-storage-prepare.log');
let storagePrepare = null;
let storagePreparing = null;
if (['s3', 'browser', 'e2e'].some(want) && !process.env.SUPABASE_STORAGE_TEST_URL) {
  const log = openSync(storageLog, 'w');
  const startedAt = Date.now();
  // A process group of its own, so that an interrupted run ends it and npm's children with it.
  storagePreparing = spawn(process.execPath, [storageScript, 'prepare'], { cwd: root, stdio: ['ignore', log, log], detached: true });
  closeSync(log);
  storagePrepare = new Promise((resolve) => {
    storagePreparing.on('error', (err) => resolve({ ok: false, how: err.message, startedAt }));
    storagePreparing.on('exit', (code, signal) => {
      storagePreparing = null;
      resolve({ ok: code === 0, how: `exit ${code ?? signal}`, startedAt });
    });
  });
  console.log(`\nSupabase Storage server: preparing in the background (log: ${storageLog})`);
}

if (want('static')) {
  step('typecheck', run('typecheck', 'npx', ['tsc', '--noEmit', '-p', 'tsconfig.json']));
  step('lint', run('lint', 'npx', ['eslint', '--max-warnings', '0', '.']));
  // The edge functions are Deno code, outside tsc's and ESLint's reach: Deno's own linter and type checker.
  const denoEnv = { DENO_DIR: process.env.DENO_DIR || join(root, 'node_modules', '.cache', 'deno'), DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' };
  const denoConfig = join(root, 'supabase', 'functions', 'deno.json');
  step('deno lint', run('edge functions lint', 'npx', ['deno', 'lint', '--config', denoConfig, 'supabase/functions'], denoEnv));
  step('deno check', run('edge functions typecheck', 'npx', ['deno', 'check', '--quiet', '--config', denoConfig, 'supabase/functions'], denoEnv));
}

if (want('unit')) {
  // The privacy tests give photographs a place with ExifTool and read it back.
  ensureExiftool();
  const file = join(out, 'unit.json');
  step('unit', run('unit tests', 'npx', ['vitest', 'run', '--project', 'unit', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...vitestOrder]));
  if (!countVitest(file)) failures.push('unit (no report)');
}

// One production build for the budgets and the end-to-end tests: bundle-budget.mjs builds dist/ (reading the
// build's import graph as it does), and the end-to-end tests' server then serves that dist/ instead of
// building again. `built` says whether dist/ is this run's (it is removed first, so only a build that
// finished leaves one).
let built = false;
const dist = join(root, 'dist');

if (want('budget')) {
  const file = join(out, 'budget.json');
  rmSync(dist, { recursive: true, force: true });
  step('budget', run('JavaScript budgets', process.execPath, [join(root, 'scripts', 'bundle-budget.mjs'), '--report', file]));
  built = existsSync(join(dist, 'index.html'));
  if (!countVitest(file)) failures.push('budget (no report)');
}

if (want('live')) {
  if (process.env.SUPABASE_TEST_URL) {
    const file = join(out, 'live.json');
    step('live', run('Supabase live suite', 'npx', ['vitest', 'run', '--project', 'live', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...vitestOrder]));
    if (!countVitest(file)) failures.push('live (no report)');
  } else {
    console.log('\nSupabase live suite not run: SUPABASE_TEST_URL is not set (see README, "Testing against a real project").');
  }
}

// A PostgreSQL server for the db suite's second pass, the functions and the end-to-end tests of several people:
// the one at DATABASE_URL, or (in CI or as root) a throwaway cluster started on first use and stopped once the
// last step that needs it has run.
let databaseUrl = process.env.DATABASE_URL || null;
let ownPostgres = false;
function postgresUrl() {
  if (databaseUrl || ownPostgres) return databaseUrl;
  if (process.env.CI !== 'true' && process.getuid?.() !== 0) return null;
  ownPostgres = true;
  const started = spawnSync(process.execPath, [join(root, 'scripts', 'postgres-test-server.mjs')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, PGDATA_TEST: runDirs.postgres },
  });
  databaseUrl = /DATABASE_URL=(\S+)/.exec(started.stdout ?? '')?.[1] ?? null;
  if (!databaseUrl) failures.push('PostgreSQL server did not start');
  return databaseUrl;
}
function stopPostgres() {
  stopStorage();
  if (!ownPostgres) return;
  ownPostgres = false;
  databaseUrl = null;
  spawnSync(process.execPath, [join(root, 'scripts', 'postgres-test-server.mjs'), 'stop'], { cwd: root, stdio: 'inherit', env: { ...process.env, PGDATA_TEST: runDirs.postgres } });
}

// The S3 gateway for the s3, functions, browser and e2e steps: the one described by S3_TEST_* when set,
// otherwise a cluster scripts/s3-test-server.mjs starts for this run (its own folder, free ports), stopped at the
// very end. (A failed start stops its own daemons.)
let ownS3 = false;
function startS3() {
  if (process.env.S3_TEST_ENDPOINT) return true;
  console.log('\n▶ S3 test server: node scripts/s3-test-server.mjs');
  const startedAt = Date.now();
  const started = spawnSync(process.execPath, [join(root, 'scripts', 's3-test-server.mjs')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, S3_TEST_DIR: runDirs.s3 },
  });
  const vars = Object.fromEntries([...(started.stdout ?? '').matchAll(/^(S3_TEST_\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
  const ok = started.status === 0 && Boolean(vars.S3_TEST_ENDPOINT);
  ownS3 = ok;
  console.log(`◀ S3 test server: ${ok ? `ok at ${vars.S3_TEST_ENDPOINT}` : `failed (exit ${started.status ?? started.signal})`} in ${((Date.now() - startedAt) / 1000).toFixed(1)}s`);
  if (!ok) {
    failures.push('S3 test server did not start');
    return false;
  }
  Object.assign(process.env, vars, { S3_TEST_DIR: runDirs.s3 });
  return true;
}
function stopS3() {
  if (!ownS3) return;
  ownS3 = false;
  spawnSync(process.execPath, [join(root, 'scripts', 's3-test-server.mjs'), 'stop'], { cwd: root, stdio: 'inherit', env: { ...process.env, S3_TEST_DIR: runDirs.s3 } });
}

let ownStorage = false;
/** Waits for the background prepare, then starts the storage server on the PostgreSQL server; false when it cannot. */
async function startStorage() {
  if (process.env.SUPABASE_STORAGE_TEST_URL) return true;
  if (!storagePrepare) return false;
  const prepared = await storagePrepare;
  const secs = ((Date.now() - prepared.startedAt) / 1000).toFixed(1);
  if (!prepared.ok) {
    console.log(`\nSupabase Storage server: prepare failed (${prepared.how}) after ${secs}s; the end of ${storageLog}:`);
    console.log(existsSync(storageLog) ? readFileSync(storageLog, 'utf8').trim().split('\n').slice(-25).join('\n') : '(no log)');
    failures.push('Supabase Storage server could not be prepared');
    return false;
  }
  console.log(`\nSupabase Storage server: prepared ${secs}s after the run began`);
  const url = postgresUrl();
  if (!url) {
    console.log('Supabase Storage server not started: it needs a PostgreSQL server (set DATABASE_URL, or run as root or in CI).');
    failures.push('Supabase Storage server did not start (no PostgreSQL server)');
    return false;
  }
  console.log('\n▶ Supabase Storage server: node scripts/supabase-storage-test-server.mjs start');
  const startedAt = Date.now();
  const started = spawnSync(process.execPath, [storageScript, 'start'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, DATABASE_URL: url, SUPABASE_STORAGE_TEST_DIR: runDirs.storage },
  });
  const vars = Object.fromEntries([...(started.stdout ?? '').matchAll(/^(SUPABASE_STORAGE_TEST_\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
  const ok = started.status === 0 && Boolean(vars.SUPABASE_STORAGE_TEST_URL);
  ownStorage = ok;
  console.log(`◀ Supabase Storage server: ${ok ? `ok at ${vars.SUPABASE_STORAGE_TEST_URL}/storage/v1` : `failed (exit ${started.status ?? started.signal})`} in ${((Date.now() - startedAt) / 1000).toFixed(1)}s`);
  if (!ok) {
    failures.push('Supabase Storage server did not start');
    return false;
  }
  Object.assign(process.env, vars);
  return true;
}
function stopStorage() {
  if (storagePreparing) {
    try {
      process.kill(-storagePreparing.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    storagePreparing = null;
  }
  if (!ownStorage) return;
  ownStorage = false;
  spawnSync(process.execPath, [storageScript, 'stop'], { cwd: root, stdio: 'inherit', env: { ...process.env, SUPABASE_STORAGE_TEST_DIR: runDirs.storage } });
}

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    stopPostgres();
    stopS3();
    process.exit(130);
  });
}

try {
  if (want('db') && existsSync(join(root, 'tests', 'db'))) {
    const file = join(out, 'db.json');
    step('db', run('database tests (PGlite)', 'npx', ['vitest', 'run', '--project', 'db', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...vitestOrder], { DATABASE_URL: '' }));
    if (!countVitest(file)) failures.push('db (no report)');
    // The same suite on a PostgreSQL server.
    const url = postgresUrl();
    if (url) {
      const serverFile = join(out, 'db-server.json');
      step('db-server', run('database tests (PostgreSQL server)', 'npx', ['vitest', 'run', '--project', 'db', '--reporter=default', '--reporter=json', `--outputFile.json=${serverFile}`, ...vitestOrder], { DATABASE_URL: url }));
      if (!countVitest(serverFile)) failures.push('db-server (no report)');
    }
  }

  if (['s3', 'functions', 'browser', 'e2e'].some(want)) startS3();
  if (['s3', 'browser', 'e2e'].some(want)) await startStorage();

  if (want('s3') && existsSync(join(root, 'tests', 's3'))) {
    const file = join(out, 's3.json');
    step('s3', run('S3 tests', 'npx', ['vitest', 'run', '--project', 's3', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...vitestOrder]));
    if (!countVitest(file)) failures.push('s3 (no report)');
  }

  if (want('functions') && existsSync(join(root, 'scripts', 'functions-test.mjs'))) {
    const file = join(out, 'functions.json');
    const url = postgresUrl();
    step('functions', run('edge functions tests', process.execPath, [join(root, 'scripts', 'functions-test.mjs'), file], url ? { DATABASE_URL: url } : {}));
    if (!countVitest(file)) failures.push('functions (no report)');
  }
  // Browser tests that serve edge functions, and the end-to-end tests of several people, need the server too
  // (their edge functions reach the database).
  if (!want('e2e') && !want('browser')) stopPostgres();

  if (want('browser') || want('e2e')) {
    ensureChromium();
  }

  if (want('browser')) {
    const file = join(out, 'browser.json');
    const url = postgresUrl();
    step('browser', run('browser tests', 'npx', ['vitest', 'run', '--project', 'browser', '--reporter=default', '--reporter=json', `--outputFile.json=${file}`, ...vitestOrder, ...browserFiles], url ? { DATABASE_URL: url } : {}));
    if (!countVitest(file)) failures.push('browser (no report)');
  }

  if (want('e2e')) {
    if (!built) {
      rmSync(dist, { recursive: true, force: true });
      step('build', run('production build', 'npx', ['vite', 'build', '--logLevel', 'warn']));
      built = existsSync(join(dist, 'index.html'));
    }
    const file = join(out, 'e2e.json');
    const url = postgresUrl();
    const prebuilt = built ? { E2E_PREBUILT: '1' } : {};
    step('e2e', run('end-to-end tests', 'npx', ['playwright', 'test', '--reporter=list,json', ...playwrightOrder, ...e2eFiles], { PLAYWRIGHT_JSON_OUTPUT_NAME: file, CI: 'true', ...prebuilt, ...(url ? { DATABASE_URL: url } : {}) }));
    if (!countPlaywright(file)) failures.push('e2e (no report)');
    stopPostgres();
  }
} finally {
  stopPostgres();
  stopS3();
}

console.log('');
if (failures.length) console.log(`Failed steps: ${failures.join(', ')}`);
console.log(`Tests: ${passed} passed, ${failed} failed`);
process.exit(failures.length === 0 && failed === 0 ? 0 : 1);
