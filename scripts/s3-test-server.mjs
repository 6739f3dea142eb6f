#!/usr/bin/env node
// A real S3 server on loopback for the tests and benchmarks: Ceph's RADOS Gateway (radosgw) over one monitor
// and one in-memory (memstore) OSD, all in a throwaway folder.
//   node scripts/s3-test-server.mjs          start a fresh one (installs Debian's radosgw, ceph-mon and ceph-osd when
//                                           missing, as root); a cluster still running from the folder is an error,
//                                           never reused: stop it, or choose another folder
//   node scripts/s3-test-server.mjs check    exit 0 when the gateway started from the folder takes writes, else 1 and why
//   node scripts/s3-test-server.mjs stop     stop the daemons and delete the folder
// Prints only `S3_TEST_*=value` lines on stdout (logs go to stderr), so callers can parse them:
// the endpoint, region, buckets (with CORS, without CORS, CORS without exposed ETag, and a 1 MiB quota user's
// bucket) and both users' keys. A failed start stops the daemons it started.
// Authentication is on, the keys are fixed and public: for tests, never for data.
// Settings: S3_TEST_DIR (default /tmp/shoebox-s3-test), S3_TEST_PORT (gateway) and S3_TEST_MON_PORT (monitor): free
// ports unless given, and a given port already in use is an error; S3_TEST_STORE_BYTES (memstore capacity, 6 GiB;
// RAM is used as data is written). The ports chosen are kept in the folder, for `check` and `stop`.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { portInUse } from './net-ports.mjs';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  DeleteBucketCorsCommand,
  HeadObjectCommand,
  PutBucketCorsCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';

const REGION = 'us-east-1';
const BUCKET = 'shoebox-test';
const BUCKET_NO_CORS = 'shoebox-nocors';
const BUCKET_NO_ETAG = 'shoebox-noetag';
const QUOTA_BUCKET = 'shoebox-quota';
const QUOTA_BYTES = 1024 * 1024;
/**
 * A bucket no test lists or empties. It holds the filler object (see keepStoreOccupied) and the object the health
 * check overwrites to see that the cluster takes writes.
 */
export const KEEP = { bucket: 'shoebox-keep', fillerKey: 'filler', fillerBytes: 1024 * 1024, probeKey: 'write-probe' };
// Fixed, deliberately non-secret-looking test keys: the server only listens on loopback.
const USER = { uid: 'shoebox-test', accessKeyId: 'shoebox-test-access', secretAccessKey: 'shoebox-test-secret-loopback-only' };
const QUOTA_USER = { uid: 'shoebox-quota', accessKeyId: 'shoebox-quota-access', secretAccessKey: 'shoebox-quota-secret-loopback-only' };
const CEPH_BINARIES = ['ceph', 'ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'monmaptool'];
const DAEMONS = ['client.rgw', 'osd.0', 'mon.a'];

/** A port given in the environment, or null. */
function givenPort(name) {
  const value = process.env[name];
  if (!value) return null;
  const port = Number(value);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`${name}=${value} is not a port`);
  return port;
}

/**
 * The folder and its cluster's ports: those a start chose, kept in the folder (`ports.json`), or those given in
 * the environment (null when neither: `start` then picks free ones).
 */
function settings() {
  const dir = process.env.S3_TEST_DIR || '/tmp/shoebox-s3-test';
  let kept = {};
  try {
    kept = JSON.parse(readFileSync(join(dir, 'ports.json'), 'utf8'));
  } catch {
    // Not started from this folder (or by an older version of this script).
  }
  const storeBytes = Number(process.env.S3_TEST_STORE_BYTES || 6 * 1024 ** 3);
  return withPorts({ dir, storeBytes, conf: join(dir, 'ceph.conf') }, kept.port ?? givenPort('S3_TEST_PORT'), kept.monPort ?? givenPort('S3_TEST_MON_PORT'));
}

function withPorts(s, port, monPort) {
  return { ...s, port, monPort, endpoint: port ? `http://127.0.0.1:${port}` : null };
}

const log = (...args) => console.error('[s3-test-server]', ...args);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function hasBinary(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function ensureInstalled() {
  const missing = CEPH_BINARIES.filter((b) => !hasBinary(b));
  if (missing.length === 0) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    throw new Error(`Ceph is not installed (missing: ${missing.join(', ')}). Install it as root: apt-get install -y --no-install-recommends radosgw ceph-mon ceph-osd`);
  }
  log('installing radosgw, ceph-mon and ceph-osd with apt-get…');
  const started = Date.now();
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'radosgw', 'ceph-mon', 'ceph-osd']]) {
    // apt's output goes to stderr: stdout carries only the S3_TEST_* lines.
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 2, 2], env });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
  }
  const still = CEPH_BINARIES.filter((b) => !hasBinary(b));
  if (still.length) throw new Error(`Ceph installed but still missing: ${still.join(', ')}`);
  log(`installed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

function cephConf(s, fsid) {
  const mon = `v1:127.0.0.1:${s.monPort}`;
  return `[global]
fsid = ${fsid}
mon host = ${mon}
mon initial members = a
auth cluster required = none
auth service required = none
auth client required = none
ms bind ipv6 = false
# Loopback only (the OSD otherwise listens on every interface).
public addr = 127.0.0.1
cluster addr = 127.0.0.1
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
mon max pg per osd = 1000
mon allow pool size one = true
mon allow pool delete = true
# A nearly full disk on a CI machine must not stop the monitor: its store here is tiny.
mon data avail warn = 2
mon data avail crit = 1
osd crush chooseleaf type = 0
# The OSD's own crush updates at start can race its first monitor map and fail ("wrong fsid");
# the script places it in the crush map itself.
osd crush update on start = false
osd class update on start = false
osd objectstore = memstore
memstore device bytes = ${s.storeBytes}
run dir = ${s.dir}/run
pid file = ${s.dir}/run/$name.pid
admin socket = ${s.dir}/run/$name.asok
log file = ${s.dir}/log/$name.log
mon data = ${s.dir}/mon/$name
osd data = ${s.dir}/osd/$name
keyring = ${s.dir}/keyring
# No debug logging, kept in memory or written: at Ceph's defaults it costs milliseconds of CPU per request.
debug ms = 0/0
debug osd = 0/0
debug filestore = 0/0
debug objecter = 0/0
debug rados = 0/0
debug monc = 0/0
debug auth = 0/0
debug objclass = 0/0
debug rgw = 0/0
debug civetweb = 0/0
debug asok = 0/0
debug finisher = 0/0
debug throttle = 0/0
debug perfcounter = 0/0
debug context = 0/0
debug crush = 0/0
debug buffer = 0/0
debug timer = 0/0
debug journal = 0/0
debug bluestore = 0/0
debug memstore = 0/0
debug paxos = 0/0
debug mon = 0/0
debug heartbeatmap = 0/0

[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${s.port}
rgw thread pool size = 64
# Bucket quotas are checked against fresh usage, so a test sees QuotaExceeded right away. (The user-quota
# sync intervals keep their defaults: at 0 their threads loop without sleeping and an idle gateway burns most
# of a core; the quota user's limit is a bucket quota, which does not wait for them.)
rgw bucket quota ttl = 0
# Deleted and aborted data leaves memory soon, so repeated large benchmark uploads do not pile up in RAM.
rgw gc obj min wait = 10
rgw gc processor period = 30
`;
}

function cephOnce(s, args) {
  return execFileSync(args[0], ['-c', s.conf, ...args.slice(1)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
}

/**
 * Runs a ceph / radosgw-admin command, retrying: right after start the monitor sometimes refuses a client that
 * has not yet received its map (EPERM). `done(stderr)` marks a failure that means "already so" (not retried).
 */
async function ceph(s, args, done = () => false) {
  for (let attempt = 1; ; attempt++) {
    try {
      return cephOnce(s, args);
    } catch (err) {
      const stderr = String(err?.stderr ?? '');
      if (done(stderr)) return '';
      if (attempt >= 5) throw new Error(`${args.join(' ')} failed: ${stderr.trim() || err.message}`);
      await sleep(1_000 * attempt);
    }
  }
}

/** Starts a daemon; it forks into the background itself, with its output in the folder's log. */
function startDaemon(s, binary, args) {
  const outFile = join(s.dir, 'log', `${binary}.out`);
  const out = openSync(outFile, 'a');
  try {
    const r = spawnSync(binary, ['-c', s.conf, ...args], { stdio: ['ignore', out, out], timeout: 60_000 });
    if (r.status !== 0) {
      // The folder is deleted on stop, so the daemon's last words go into the error.
      const tail = readFileSync(outFile, 'utf8').trim().split('\n').slice(-8).join('\n');
      throw new Error(`${binary} ${args.join(' ')} failed (exit ${r.status ?? r.signal}):\n${tail}`);
    }
  } finally {
    closeSync(out);
  }
}

function daemonPid(s, name) {
  const file = join(s.dir, 'run', `${name}.pid`);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gatewayAnswers(s) {
  try {
    const res = await fetch(`${s.endpoint}/`, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

async function waitFor(what, check, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await sleep(250);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Null when the OSD map lets writes through, otherwise what stops them: the cluster's full/pausewr flags, OSDs
 * marked full (an OSD reports itself full once its store's free space falls under the full ratio), pools marked
 * full; or a monitor that does not answer.
 */
function writeBlockers(s) {
  let map;
  // A busy monitor now and then refuses one command ("problem getting command descriptions"): ask three times.
  for (let attempt = 1; !map; attempt++) {
    try {
      map = JSON.parse(execFileSync('ceph', ['-c', s.conf, '--connect-timeout', '10', 'osd', 'dump', '-f', 'json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 30_000 }));
    } catch (err) {
      if (attempt === 3) return `the monitor does not answer (ceph osd dump: ${String(err?.stderr ?? '').trim() || err.message})`;
      spawnSync('sleep', ['1']);
    }
  }
  const found = [];
  const flags = String(map.flags ?? '').split(',').filter((flag) => ['full', 'pausewr'].includes(flag));
  if (flags.length) found.push(`cluster flags ${flags.join(',')}`);
  const osds = (map.osds ?? []).filter((osd) => osd.state?.includes('full')).map((osd) => `osd.${osd.osd}`);
  if (osds.length) found.push(`${osds.join(', ')} full`);
  const pools = (map.pools ?? []).filter((pool) => String(pool.flags_names ?? '').split(',').includes('full'));
  if (pools.length) found.push(`${pools.length} of ${map.pools.length} pools full`);
  return found.length ? `the cluster refuses writes (${found.join('; ')})` : null;
}

const timedOut = (err) => err?.name === 'AbortError' || err?.name === 'TimeoutError';

/**
 * Null when the running gateway stores a small object, otherwise why not. A full store leaves the gateway answering
 * GET / with 200 while every write waits for ever, so only a write shows it. The fast path is one PUT of a few
 * bytes; the OSD map is read (a second or more) only when that PUT fails or is slow, to tell a full cluster from a
 * busy machine: a slow PUT on a cluster that is not full gets a second, longer chance.
 */
async function writeFault(s) {
  const s3 = client(s, USER, { maxAttempts: 1 });
  try {
    let lastError = null;
    for (const timeoutMs of [5_000, 30_000]) {
      try {
        await s3.send(new PutObjectCommand({ Bucket: KEEP.bucket, Key: KEEP.probeKey, Body: new Date().toISOString() }), { abortSignal: AbortSignal.timeout(timeoutMs) });
        return null;
      } catch (err) {
        // Set up by an older version of this script, or only half: no bucket or user to write with. The OSD map
        // alone decides then; setUp adds what is missing.
        if (err?.name === 'NoSuchBucket' || err?.name === 'InvalidAccessKeyId') return writeBlockers(s);
        lastError = timedOut(err) ? `a ${timeoutMs / 1000} s timeout` : `${err?.name}: ${err?.message}`;
      }
      const blockers = writeBlockers(s);
      if (blockers) return blockers;
    }
    return `a PUT of a few bytes failed twice (last: ${lastError})`;
  } finally {
    s3.destroy();
  }
}

/**
 * Whether the gateway started from the folder serves the tests: `{ ok: true }`, or `{ ok: false, why }` with `why`
 * null when nothing runs there and the reason when something does but cannot serve them.
 */
async function runningGateway(s) {
  if (!existsSync(s.conf) || !s.endpoint) return { ok: false, why: null };
  const running = DAEMONS.filter((name) => { const pid = daemonPid(s, name); return pid !== null && alive(pid); });
  if (running.length === 0) return { ok: false, why: null };
  if (running.length < DAEMONS.length) return { ok: false, why: `only ${running.join(', ')} of ${DAEMONS.join(', ')} are running` };
  // A busy machine can be slow to answer: give running daemons time before calling them unhealthy.
  try {
    await waitFor('the running gateway', () => gatewayAnswers(s), 30_000);
  } catch {
    return { ok: false, why: 'the gateway does not answer GET / within 30 s' };
  }
  const fault = await writeFault(s);
  return fault ? { ok: false, why: fault } : { ok: true };
}

/**
 * Runs `fn` while holding a lock folder next to the data folder, so concurrent starts and stops take turns.
 * The folder names its holder's pid: a lock whose holder is gone (a Ctrl-C, a killed run) is broken at once.
 */
async function withLock(s, fn) {
  const lock = `${s.dir}.lock`;
  const owner = join(lock, 'pid');
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(owner, String(process.pid));
      break;
    } catch (err) {
      if (err?.code !== 'EEXIST') throw err;
      let stale = false;
      try {
        const pid = Number(readFileSync(owner, 'utf8'));
        stale = !(pid > 0 && alive(pid));
      } catch {
        // No pid yet: its holder is between making the folder and naming itself, or died right there.
        try {
          stale = Date.now() - statSync(lock).mtimeMs > 10_000;
        } catch {
          continue;
        }
      }
      if (stale) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      else await sleep(500);
    }
  }
  const release = () => rmSync(lock, { recursive: true, force: true });
  const onSignal = (signal) => {
    release();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    return await fn();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    release();
  }
}

/** Signals `pid` unless it has already exited (a daemon may end between the look and the signal). */
function signal(pid, sig) {
  try {
    process.kill(pid, sig);
  } catch (e) {
    if (e.code !== 'ESRCH') throw e;
  }
}

async function stopDaemons(s) {
  const pids = DAEMONS.map((name) => daemonPid(s, name)).filter((pid) => pid !== null && alive(pid));
  for (const pid of pids) signal(pid, 'SIGTERM');
  // The store is in memory and its folder is deleted next: nothing is lost by not waiting long for a clean exit
  // (stop took 16–19 s, most of it waiting for radosgw to exit on its own).
  const deadline = Date.now() + 2_000;
  while (pids.some(alive) && Date.now() < deadline) await sleep(100);
  for (const pid of pids.filter(alive)) signal(pid, 'SIGKILL');
  while (pids.some(alive)) await sleep(50);
}

export async function stopS3TestServer() {
  const s = settings();
  await withLock(s, async () => {
    await stopDaemons(s);
    rmSync(s.dir, { recursive: true, force: true });
  });
}

/** A free loopback port outside 6800–7300, where the OSD picks its own. */
async function freePort(taken = []) {
  for (;;) {
    const server = createServer();
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    const { port } = server.address();
    await new Promise((resolve) => server.close(resolve));
    if ((port < 6800 || port > 7300) && !taken.includes(port)) return port;
  }
}

async function startCluster(s) {
  // Anything half-started from an earlier run is cleared first: a fresh cluster takes seconds.
  await stopDaemons(s);
  rmSync(s.dir, { recursive: true, force: true });
  // Another server on our ports would answer in our place (and a foreign monitor would take our commands).
  for (const [port, name] of [[s.port, 'S3_TEST_PORT'], [s.monPort, 'S3_TEST_MON_PORT']]) {
    if (await portInUse(port)) throw new Error(`127.0.0.1:${port} (${name}) is already in use by another server; choose another port, or leave ${name} unset for a free one.`);
  }
  for (const sub of ['run', 'log', 'mon/mon.a', 'osd/osd.0']) mkdirSync(join(s.dir, sub), { recursive: true });
  writeFileSync(join(s.dir, 'ports.json'), JSON.stringify({ port: s.port, monPort: s.monPort }));
  const fsid = randomUUID();
  writeFileSync(s.conf, cephConf(s, fsid));
  writeFileSync(join(s.dir, 'keyring'), '');

  const monmap = join(s.dir, 'monmap');
  execFileSync('monmaptool', ['--create', '--addv', 'a', `[v1:127.0.0.1:${s.monPort}]`, '--fsid', fsid, monmap], { stdio: ['ignore', 2, 2] });
  startDaemon(s, 'ceph-mon', ['--mkfs', '-i', 'a', '--monmap', monmap]);
  startDaemon(s, 'ceph-mon', ['-i', 'a']);
  await waitFor('the monitor', () => {
    try {
      cephOnce(s, ['ceph', '--connect-timeout', '5', 'mon', 'stat']);
      return true;
    } catch {
      return false;
    }
  }, 90_000);

  // The OSD's own uuid is registered first, so the started OSD is recognised as osd.0.
  const osdUuid = randomUUID();
  const id = (await ceph(s, ['ceph', 'osd', 'create', osdUuid])).trim();
  if (id !== '0') throw new Error(`expected OSD id 0, got ${id}`);
  startDaemon(s, 'ceph-osd', ['-i', '0', '--mkfs', '--osd-uuid', osdUuid]);
  startDaemon(s, 'ceph-osd', ['-i', '0']);
  await ceph(s, ['ceph', 'osd', 'crush', 'add', 'osd.0', '1', 'host=localhost', 'root=default']);
  await waitFor('the OSD', async () => /1 up/.test(await ceph(s, ['ceph', 'osd', 'stat'])), 90_000);

  startDaemon(s, 'radosgw', ['-n', 'client.rgw']);
  // The first start creates the gateway's pools, which takes several seconds.
  await waitFor('the gateway', () => gatewayAnswers(s), 180_000);
}

async function ensureUser(s, user, displayName) {
  await ceph(s, ['radosgw-admin', 'user', 'create', `--uid=${user.uid}`, `--display-name=${displayName}`, `--access-key=${user.accessKeyId}`, `--secret=${user.secretAccessKey}`], (stderr) => /exists/.test(stderr));
}

function client(s, user, options = {}) {
  return new S3Client({
    endpoint: s.endpoint,
    region: REGION,
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    credentials: { accessKeyId: user.accessKeyId, secretAccessKey: user.secretAccessKey },
    ...options,
  });
}

async function ensureBucket(s3, bucket) {
  try {
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (err) {
    if (err?.name !== 'BucketAlreadyOwnedByYou' && err?.name !== 'BucketAlreadyExists') throw err;
  }
}

/**
 * Writes the filler object unless it is there. Memstore counts the bytes it holds in one counter, and after a bulk
 * delete that empties the store (a benchmark deleting all it wrote, then `radosgw-admin gc process --include-all`)
 * that counter has been seen to wrap below zero: the OSD then reports itself full, every write waits for ever,
 * and the gateway still answers GET / with 200. The filler is never deleted and sits in a bucket of its own that no
 * test lists or cleans up, so test and benchmark cleanups never bring the store down to zero. (Should the fault
 * happen all the same, the health check sees it and the next start replaces the cluster.)
 */
async function keepStoreOccupied(s3) {
  try {
    await s3.send(new HeadObjectCommand({ Bucket: KEEP.bucket, Key: KEEP.fillerKey }));
    return;
  } catch (err) {
    if (err?.name !== 'NotFound' && err?.$metadata?.httpStatusCode !== 404) throw err;
  }
  await s3.send(new PutObjectCommand({ Bucket: KEEP.bucket, Key: KEEP.fillerKey, Body: Buffer.alloc(KEEP.fillerBytes, 0x5a) }));
}

function corsRule(exposeEtag) {
  return {
    AllowedOrigins: ['*'],
    AllowedMethods: ['GET', 'PUT', 'POST', 'DELETE', 'HEAD'],
    AllowedHeaders: ['*'],
    ...(exposeEtag ? { ExposeHeaders: ['ETag'] } : {}),
    MaxAgeSeconds: 3600,
  };
}

async function setUp(s) {
  await ensureUser(s, USER, 'Shoebox tests');
  await ensureUser(s, QUOTA_USER, 'Shoebox quota tests');
  // A bucket quota (on each of the user's buckets): it is checked against the bucket's own stats, read fresh
  // at every write (quota ttl 0). A user quota would wait for the stats sync threads (see cephConf).
  await ceph(s, ['radosgw-admin', 'quota', 'set', '--quota-scope=bucket', `--uid=${QUOTA_USER.uid}`, `--max-size=${QUOTA_BYTES}`]);
  await ceph(s, ['radosgw-admin', 'quota', 'enable', '--quota-scope=bucket', `--uid=${QUOTA_USER.uid}`]);

  const s3 = client(s, USER);
  const quotaS3 = client(s, QUOTA_USER);
  try {
    for (const bucket of [BUCKET, BUCKET_NO_CORS, BUCKET_NO_ETAG, KEEP.bucket]) await ensureBucket(s3, bucket);
    await keepStoreOccupied(s3);
    await ensureBucket(quotaS3, QUOTA_BUCKET);
    await s3.send(new PutBucketCorsCommand({ Bucket: BUCKET, CORSConfiguration: { CORSRules: [corsRule(true)] } }));
    await s3.send(new PutBucketCorsCommand({ Bucket: BUCKET_NO_ETAG, CORSConfiguration: { CORSRules: [corsRule(false)] } }));
    await s3.send(new DeleteBucketCorsCommand({ Bucket: BUCKET_NO_CORS }));
    await quotaS3.send(new PutBucketCorsCommand({ Bucket: QUOTA_BUCKET, CORSConfiguration: { CORSRules: [corsRule(true)] } }));
  } finally {
    s3.destroy();
    quotaS3.destroy();
  }
}

function describe(s) {
  return {
    endpoint: s.endpoint,
    region: REGION,
    bucket: BUCKET,
    bucketNoCors: BUCKET_NO_CORS,
    bucketNoEtag: BUCKET_NO_ETAG,
    accessKeyId: USER.accessKeyId,
    secretAccessKey: USER.secretAccessKey,
    quotaBucket: QUOTA_BUCKET,
    quotaAccessKeyId: QUOTA_USER.accessKeyId,
    quotaSecretAccessKey: QUOTA_USER.secretAccessKey,
  };
}

/** The S3_TEST_* variables, in the order they are printed. */
export function s3TestEnv(server) {
  return {
    S3_TEST_ENDPOINT: server.endpoint,
    S3_TEST_REGION: server.region,
    S3_TEST_BUCKET: server.bucket,
    S3_TEST_BUCKET_NO_CORS: server.bucketNoCors,
    S3_TEST_BUCKET_NO_ETAG: server.bucketNoEtag,
    S3_TEST_ACCESS_KEY_ID: server.accessKeyId,
    S3_TEST_SECRET_ACCESS_KEY: server.secretAccessKey,
    S3_TEST_QUOTA_BUCKET: server.quotaBucket,
    S3_TEST_QUOTA_ACCESS_KEY_ID: server.quotaAccessKeyId,
    S3_TEST_QUOTA_SECRET_ACCESS_KEY: server.quotaSecretAccessKey,
  };
}

/**
 * Starts a fresh cluster from the folder, on the ports given (S3_TEST_PORT, S3_TEST_MON_PORT) or free ones, with its
 * users and buckets. Resolves to the endpoint, buckets and keys, the same as S3_TEST_* in `env`, and `stop()`.
 * A cluster still running from the folder is an error: it is never reused. When the start fails, the daemons it
 * started are stopped (their logs stay in the folder).
 */
export async function startS3TestServer() {
  const dir = process.env.S3_TEST_DIR || '/tmp/shoebox-s3-test';
  ensureInstalled();
  const server = await withLock({ dir }, async () => {
    const started = Date.now();
    const previous = settings();
    const running = DAEMONS.filter((name) => { const pid = daemonPid(previous, name); return pid !== null && alive(pid); });
    if (running.length) {
      throw new Error(`a Ceph cluster started from ${dir} is running (${running.join(', ')}${previous.endpoint ? `, gateway ${previous.endpoint}` : ''}): stop it with \`node scripts/s3-test-server.mjs stop\` and the same S3_TEST_DIR, or choose another S3_TEST_DIR.`);
    }
    const port = givenPort('S3_TEST_PORT') ?? (await freePort());
    const monPort = givenPort('S3_TEST_MON_PORT') ?? (await freePort([port]));
    const s = withPorts({ ...previous }, port, monPort);
    try {
      log(`starting monitor, memstore OSD and gateway in ${s.dir}…`);
      await startCluster(s);
      log(`gateway answering at ${s.endpoint} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
      await setUp(s);
    } catch (err) {
      await stopDaemons(s);
      throw err;
    }
    log(`ready after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return describe(s);
  });
  return { ...server, env: s3TestEnv(server), stop: stopS3TestServer };
}

/** Null when the gateway started from the folder runs and takes writes, otherwise why not. */
export async function s3TestServerFault() {
  const s = settings();
  const running = await runningGateway(s);
  return running.ok ? null : running.why ?? `no gateway is running in ${s.dir}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    if (process.argv[2] === 'stop') {
      await stopS3TestServer();
      log('stopped');
    } else if (process.argv[2] === 'check') {
      const fault = await s3TestServerFault();
      log(fault ? `unhealthy: ${fault}` : `healthy: ${settings().endpoint} answers and takes writes`);
      process.exitCode = fault ? 1 : 0;
    } else {
      const server = await startS3TestServer();
      for (const [key, value] of Object.entries(server.env)) console.log(`${key}=${value}`);
    }
  } catch (err) {
    log(err instanceof Error ? err.message : err);
    if (err?.stderr) log(String(err.stderr));
    process.exit(1);
  }
}
