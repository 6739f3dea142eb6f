#!/usr/bin/env node
// The edge functions' tests: `deno test` over supabase/functions against a real PostgreSQL server and a
// real S3 gateway.
//   node scripts/functions-test.mjs [reportFile]
// Needs DATABASE_URL (a server where it may create databases: scripts/postgres-test-server.mjs) and
// S3_TEST_ENDPOINT, S3_TEST_REGION, S3_TEST_BUCKET, S3_TEST_ACCESS_KEY_ID, S3_TEST_SECRET_ACCESS_KEY
// (scripts/s3-test-server.mjs). Creates a throwaway database with tests/db/supabase-fixture.sql and every
// migration applied, runs Deno (from npm; it fetches the functions' npm: packages into
// node_modules/.cache/deno), drops the database, and writes { numPassedTests, numFailedTests } to reportFile.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import pg from 'pg';

const root = new URL('..', import.meta.url).pathname;
const reportFile = process.argv[2];
const needed = ['DATABASE_URL', 'S3_TEST_ENDPOINT', 'S3_TEST_REGION', 'S3_TEST_BUCKET', 'S3_TEST_ACCESS_KEY_ID', 'S3_TEST_SECRET_ACCESS_KEY'];

function report(passed, failed) {
  if (!reportFile) return;
  mkdirSync(dirname(reportFile), { recursive: true });
  writeFileSync(reportFile, JSON.stringify({ numPassedTests: passed, numFailedTests: failed }, null, 2));
}

const missing = needed.filter((name) => !process.env[name]);
if (missing.length) {
  console.error(`functions tests need ${missing.join(', ')} (start scripts/postgres-test-server.mjs and scripts/s3-test-server.mjs).`);
  report(0, 0);
  process.exit(1);
}

/** A fresh database with what a Supabase project provides and the migrations, as tests/db/db-harness.ts builds it. */
async function createDatabase(adminUrl) {
  const name = `shoebox_functions_${randomBytes(8).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  client.on('notice', () => undefined);
  try {
    await client.query(readFileSync(join(root, 'tests', 'db', 'supabase-fixture.sql'), 'utf8'));
    const dir = join(root, 'supabase', 'migrations');
    for (const file of readdirSync(dir).filter((f) => /^\d{14}_[a-z0-9_]+\.sql$/.test(f)).sort()) {
      try {
        await client.query(readFileSync(join(dir, file), 'utf8'));
      } catch (e) {
        throw new Error(`migration ${file} failed: ${e.message}`, { cause: e });
      }
    }
  } finally {
    await client.end();
  }
  return { name, url: url.toString() };
}

async function dropDatabase(adminUrl, name) {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.end();
}

/** Passed and failed test cases of Deno's JUnit report. */
function countJunit(file) {
  if (!existsSync(file)) return null;
  const xml = readFileSync(file, 'utf8');
  const cases = xml.match(/<testcase\b[\s\S]*?(?:\/>|<\/testcase>)/g) ?? [];
  const failed = cases.filter((c) => /<(failure|error)\b/.test(c)).length;
  const skipped = cases.filter((c) => /<skipped\b/.test(c)).length;
  return { passed: cases.length - failed - skipped, failed: failed + skipped };
}

const adminUrl = process.env.DATABASE_URL;
const db = await createDatabase(adminUrl);
const work = mkdtempSync(join(tmpdir(), 'shoebox-functions-'));
const junit = join(work, 'junit.xml');
let counts = null;
let status = 1;
try {
  const deno = join(root, 'node_modules', '.bin', 'deno');
  const args = ['test', '--allow-all', '--config', join(root, 'supabase', 'functions', 'deno.json'), `--junit-path=${junit}`, join(root, 'supabase', 'functions')];
  console.log(`deno ${args.join(' ')}`);
  const r = spawnSync(deno, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: db.url, DENO_DIR: process.env.DENO_DIR || join(root, 'node_modules', '.cache', 'deno'), DENO_NO_UPDATE_CHECK: '1' },
  });
  status = r.status ?? 1;
  counts = countJunit(junit);
} finally {
  await dropDatabase(adminUrl, db.name);
  rmSync(work, { recursive: true, force: true });
}

if (!counts) {
  console.error('deno test wrote no report');
  report(0, 1);
  process.exit(1);
}
console.log(`functions: ${counts.passed} passed, ${counts.failed} failed`);
report(counts.passed, counts.failed);
process.exit(status === 0 && counts.failed === 0 ? 0 : 1);
