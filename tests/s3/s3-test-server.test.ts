// The S3 test server and the fault proxy do what the upload tests rely on: real signatures, real quotas,
// real CORS, and faults that really happen on the wire; the server script starts a cluster of its own on free
// ports (or given ones, refused when taken) and never reuses one already running.
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { KEEP } from '../../scripts/s3-test-server.mjs';
import { cutAfterBytes, failFraction, startFaultProxy, times, type FaultProxy } from './fault-proxy';
import { s3TestEnv, testS3Client } from './s3-test-env';
import { raw } from './raw-http';

const env = s3TestEnv();
const runId = `server-test-${Date.now()}`;
const MiB = 1024 * 1024;

function preflight(base: string, bucket: string) {
  return raw(`${base}/${bucket}/${runId}/photo.jpg`, 'OPTIONS', {
    Origin: 'http://localhost:5173',
    'Access-Control-Request-Method': 'PUT',
    'Access-Control-Request-Headers': 'authorization,content-type,x-amz-date,x-amz-content-sha256',
  });
}

async function errorOf(promise: Promise<unknown>): Promise<{ name?: string; status?: number; code?: string }> {
  try {
    await promise;
  } catch (err) {
    const e = err as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
    return { name: e.name, status: e.$metadata?.httpStatusCode, code: e.code };
  }
  throw new Error('expected the request to fail');
}

describe('S3 test server', () => {
  let s3: S3Client;
  beforeAll(() => {
    s3 = testS3Client();
  });
  afterAll(() => s3.destroy());

  it('stores a 1 MiB object signed with SigV4 and returns it byte for byte', async () => {
    const body = randomBytes(MiB);
    const Key = `${runId}/round-trip.bin`;
    await s3.send(new PutObjectCommand({ Bucket: env.bucket, Key, Body: body, ContentType: 'application/octet-stream' }));

    const head = await s3.send(new HeadObjectCommand({ Bucket: env.bucket, Key }));
    expect(head.ContentLength).toBe(MiB);
    const got = await s3.send(new GetObjectCommand({ Bucket: env.bucket, Key }));
    const bytes = Buffer.from(await got.Body!.transformToByteArray());
    expect(bytes.equals(body)).toBe(true);
    await s3.send(new DeleteObjectCommand({ Bucket: env.bucket, Key }));
  });

  it('refuses a request signed with the wrong secret (403 SignatureDoesNotMatch)', async () => {
    const wrong = testS3Client({ secretAccessKey: `${env.secretAccessKey}-wrong`, maxAttempts: 1 });
    try {
      const err = await errorOf(wrong.send(new PutObjectCommand({ Bucket: env.bucket, Key: `${runId}/forged.txt`, Body: 'x' })));
      expect(err).toMatchObject({ name: 'SignatureDoesNotMatch', status: 403 });
    } finally {
      wrong.destroy();
    }
    const missing = await errorOf(s3.send(new HeadObjectCommand({ Bucket: env.bucket, Key: `${runId}/forged.txt` })));
    expect(missing.status).toBe(404);
  });

  it('refuses the 1 MiB quota user a 2 MiB upload and an upload over what is stored, and frees space on delete', async () => {
    // Sent as the browser sends it: a presigned PUT with the whole body and no `Expect: 100-continue`. (The SDK's
    // 100-continue PUT can see the refusal as a broken pipe instead: the gateway answers and closes mid-body.)
    const quota = testS3Client({ quotaUser: true, maxAttempts: 1 });
    const put = async (Key: string, bytes: number) => {
      const url = await getSignedUrl(quota, new PutObjectCommand({ Bucket: env.quotaBucket, Key }), { expiresIn: 300 });
      const res = await fetch(url, { method: 'PUT', body: randomBytes(bytes) });
      const text = await res.text();
      return { status: res.status, code: /<Code>([^<]+)<\/Code>/.exec(text)?.[1] };
    };
    try {
      expect(await put(`${runId}/big.bin`, 2 * MiB)).toEqual({ status: 403, code: 'QuotaExceeded' });

      const first = `${runId}/first.bin`;
      expect((await put(first, 600 * 1024)).status).toBe(200);
      expect(await put(`${runId}/second.bin`, 600 * 1024)).toEqual({ status: 403, code: 'QuotaExceeded' });
      // Deleting frees the space at once.
      await quota.send(new DeleteObjectCommand({ Bucket: env.quotaBucket, Key: first }));
      expect((await put(`${runId}/third.bin`, 600 * 1024)).status).toBe(200);
      await quota.send(new DeleteObjectCommand({ Bucket: env.quotaBucket, Key: `${runId}/third.bin` }));
    } finally {
      quota.destroy();
    }
  });

  it('answers a browser preflight with ETag exposed on the CORS bucket, and without CORS on the others', async () => {
    const withCors = await preflight(env.endpoint, env.bucket);
    expect(withCors.status).toBe(200);
    expect(withCors.headers['access-control-allow-origin']).toBeTruthy();
    expect(String(withCors.headers['access-control-allow-methods'])).toContain('PUT');
    expect(String(withCors.headers['access-control-expose-headers']).toLowerCase()).toContain('etag');

    const noCors = await preflight(env.endpoint, env.bucketNoCors);
    expect(noCors.headers['access-control-allow-origin']).toBeUndefined();
    expect(noCors.status).toBeGreaterThanOrEqual(400);

    const noEtag = await preflight(env.endpoint, env.bucketNoEtag);
    expect(noEtag.headers['access-control-allow-origin']).toBeTruthy();
    expect(String(noEtag.headers['access-control-expose-headers'] ?? '').toLowerCase()).not.toContain('etag');
  });
});

describe('fault proxy', () => {
  let proxy: FaultProxy;
  let direct: S3Client;
  const key = `${runId}/small.txt`;

  beforeAll(async () => {
    proxy = await startFaultProxy({ target: env.endpoint });
    direct = testS3Client();
    await direct.send(new PutObjectCommand({ Bucket: env.bucket, Key: key, Body: 'hello' }));
  });
  afterAll(async () => {
    await direct.send(new DeleteObjectCommand({ Bucket: env.bucket, Key: key }));
    direct.destroy();
    await proxy.close();
  });

  it('passes signed requests through unchanged and logs them', async () => {
    proxy.setRules([]);
    proxy.log.length = 0;
    const viaProxy = testS3Client({ endpoint: proxy.url, maxAttempts: 1 });
    try {
      const body = randomBytes(256 * 1024);
      const Key = `${runId}/via-proxy.bin`;
      await viaProxy.send(new PutObjectCommand({ Bucket: env.bucket, Key, Body: body }));
      const got = await direct.send(new GetObjectCommand({ Bucket: env.bucket, Key }));
      expect(Buffer.from(await got.Body!.transformToByteArray()).equals(body)).toBe(true);
      await direct.send(new DeleteObjectCommand({ Bucket: env.bucket, Key }));
    } finally {
      viaProxy.destroy();
    }
    expect(proxy.log).toEqual([
      { method: 'PUT', path: `/${env.bucket}/${runId}/via-proxy.bin`, query: expect.any(Object), status: 200, bytesIn: 256 * 1024, outcome: 'ok' },
    ]);
  });

  it('failFraction fails about that fraction of matching requests, the same ones for the same seed', async () => {
    const rounds = 100;
    const outcomes = async (): Promise<boolean[]> => {
      proxy.setRules(failFraction(0.3, 7, (req) => req.method === 'GET'));
      proxy.log.length = 0;
      const viaProxy = testS3Client({ endpoint: proxy.url, maxAttempts: 1 });
      const failedAt: boolean[] = [];
      try {
        for (let i = 0; i < rounds; i++) {
          try {
            await viaProxy.send(new GetObjectCommand({ Bucket: env.bucket, Key: key })).then((r) => r.Body!.transformToString());
            failedAt.push(false);
          } catch (err) {
            expect((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode).toBe(503);
            failedAt.push(true);
          }
        }
      } finally {
        viaProxy.destroy();
      }
      return failedAt;
    };

    const first = await outcomes();
    const failures = first.filter(Boolean).length;
    expect(failures).toBeGreaterThanOrEqual(rounds * 0.2);
    expect(failures).toBeLessThanOrEqual(rounds * 0.4);
    expect(proxy.log.filter((e) => e.outcome === 'failed' && e.status === 503)).toHaveLength(failures);
    expect(proxy.log.filter((e) => e.outcome === 'ok' && e.status === 200)).toHaveLength(rounds - failures);
    expect(await outcomes()).toEqual(first);
  });

  it('cutAfterBytes cuts the upload mid-body: the client sees the connection fail and nothing is stored', async () => {
    proxy.setRules(times(1, cutAfterBytes(100_000, (req) => req.method === 'PUT')));
    proxy.log.length = 0;
    const viaProxy = testS3Client({ endpoint: proxy.url, maxAttempts: 1 });
    const Key = `${runId}/cut.bin`;
    try {
      const err = await errorOf(viaProxy.send(new PutObjectCommand({ Bucket: env.bucket, Key, Body: randomBytes(MiB) })));
      expect(err.status).toBeUndefined();
      expect(proxy.log).toMatchObject([{ method: 'PUT', outcome: 'cut', status: null, bytesIn: 100_000 }]);
      const missing = await errorOf(direct.send(new HeadObjectCommand({ Bucket: env.bucket, Key })));
      expect(missing.status).toBe(404);

      // Only the first was cut: the retry goes through.
      await viaProxy.send(new PutObjectCommand({ Bucket: env.bucket, Key, Body: randomBytes(MiB) }));
      expect((await direct.send(new HeadObjectCommand({ Bucket: env.bucket, Key }))).ContentLength).toBe(MiB);
      await direct.send(new DeleteObjectCommand({ Bucket: env.bucket, Key }));
    } finally {
      viaProxy.destroy();
    }
  });

  it('streams bodies both ways: the server sees the first bytes before the client has sent the rest', async () => {
    // A plain server behind the proxy records when bytes arrive; the body is only finished after it has seen some.
    let firstBytes!: () => void;
    const seenFirst = new Promise<void>((resolve) => (firstBytes = resolve));
    const target = createServer((req, res) => {
      let received = 0;
      req.on('data', (chunk: Buffer) => {
        received += chunk.length;
        firstBytes();
      });
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('first;');
        setTimeout(() => res.end(`received=${received}`), 200);
      });
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const streaming = await startFaultProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}` });
    try {
      const answer = new Promise<{ firstChunk: string; all: string }>((resolve, reject) => {
        const req = request(`${streaming.url}/upload`, { method: 'PUT', headers: { 'content-length': String(2 * 64 * 1024) } }, (res) => {
          let all = '';
          let firstChunk = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            if (!firstChunk) firstChunk = chunk;
            all += chunk;
          });
          res.on('end', () => resolve({ firstChunk, all }));
        });
        req.on('error', reject);
        req.write(Buffer.alloc(64 * 1024, 1));
        const stuck = setTimeout(() => {
          req.destroy();
          reject(new Error('the server saw no bytes while the body was unfinished: the proxy buffers uploads'));
        }, 10_000);
        void seenFirst.then(() => {
          clearTimeout(stuck);
          req.end(Buffer.alloc(64 * 1024, 2));
        });
      });
      const { firstChunk, all } = await answer;
      expect(firstChunk).toBe('first;');
      expect(all).toBe(`first;received=${2 * 64 * 1024}`);
      expect(streaming.log).toMatchObject([{ method: 'PUT', path: '/upload', status: 200, bytesIn: 2 * 64 * 1024, outcome: 'ok' }]);
    } finally {
      await streaming.close();
      await new Promise((resolve) => target.close(resolve));
    }
  });

  it('drops a connection without an answer', async () => {
    proxy.setRules(() => ({ type: 'drop' }));
    proxy.log.length = 0;
    const viaProxy = testS3Client({ endpoint: proxy.url, maxAttempts: 1 });
    try {
      const err = await errorOf(viaProxy.send(new HeadObjectCommand({ Bucket: env.bucket, Key: key })));
      expect(err.status).toBeUndefined();
    } finally {
      viaProxy.destroy();
    }
    expect(proxy.log).toMatchObject([{ method: 'HEAD', outcome: 'dropped', status: null }]);
  });

  it('with cors: true answers preflights itself and adds CORS headers, as a provider gateway does', async () => {
    const corsProxy = await startFaultProxy({ target: env.endpoint, cors: true });
    try {
      const pre = await preflight(corsProxy.url, env.bucketNoCors);
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBe('*');
      expect(String(pre.headers['access-control-allow-headers'])).toContain('x-amz-security-token');
      expect(String(pre.headers['access-control-expose-headers'])).toContain('ETag');

      const viaProxy = testS3Client({ endpoint: corsProxy.url, maxAttempts: 1 });
      try {
        const Key = `${runId}/cors.txt`;
        await viaProxy.send(new PutObjectCommand({ Bucket: env.bucketNoCors, Key, Body: 'x' }));
        await direct.send(new DeleteObjectCommand({ Bucket: env.bucketNoCors, Key }));
      } finally {
        viaProxy.destroy();
      }
      corsProxy.setRules(failFraction(1, 1));
      const failed = await raw(`${corsProxy.url}/${env.bucketNoCors}/x`, 'GET', { Origin: 'http://localhost:5173' });
      expect(failed.status).toBe(503);
      expect(failed.headers['access-control-allow-origin']).toBe('*');
      expect(failed.body).toContain('<Code>SlowDown</Code>');
    } finally {
      await corsProxy.close();
    }
  });
});

// The steps of one instance's life, in the order they happen to it (started, refused a second start, filled up,
// stopped): a shuffled run keeps this order, as it keeps every test apart from the others.
describe('scripts/s3-test-server.mjs', { shuffle: false }, () => {
  // An instance of its own (folder, ports, a small store): the gateway the other tests use is never touched.
  const script = new URL('../../scripts/s3-test-server.mjs', import.meta.url).pathname;
  const dir = join(tmpdir(), `shoebox-s3-script-test-${process.pid}`);
  const conf = join(dir, 'ceph.conf');
  let settings: NodeJS.ProcessEnv;
  let endpoint = '';

  function run(args: string[] = [], extra: NodeJS.ProcessEnv = {}): Promise<{ status: number | null; vars: Record<string, string>; stderr: string }> {
    return new Promise((resolve) => {
      execFile(process.execPath, [script, ...args], { env: { ...settings, ...extra }, timeout: 240_000 }, (err, stdout, stderr) => {
        const vars = Object.fromEntries([...stdout.matchAll(/^(S3_TEST_\w+)=(.*)$/gm)].map((m) => [m[1], m[2]]));
        resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, vars, stderr });
      });
    });
  }

  const ceph = (...args: string[]) => execFileSync('ceph', ['-c', conf, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
  const osdState = () => (JSON.parse(ceph('osd', 'dump', '-f', 'json')) as { osds: { state: string[] }[] }).osds[0]?.state ?? [];

  beforeAll(() => {
    // No ports given: the script picks free ones.
    const { S3_TEST_PORT: _port, S3_TEST_MON_PORT: _monPort, ...rest } = process.env;
    settings = { ...rest, S3_TEST_DIR: dir, S3_TEST_STORE_BYTES: String(256 * MiB) };
  });
  afterAll(async () => {
    await run(['stop']);
  });

  it('starts a gateway on a free port, and keeps a filler object in a bucket of its own', async () => {
    const started = await run();
    expect(started.status, started.stderr).toBe(0);
    endpoint = started.vars.S3_TEST_ENDPOINT ?? '';
    expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(endpoint).not.toBe(env.endpoint);

    const own = testS3Client({ endpoint, maxAttempts: 1 });
    try {
      const filler = await own.send(new HeadObjectCommand({ Bucket: KEEP.bucket, Key: KEEP.fillerKey }));
      expect(filler.ContentLength).toBe(KEEP.fillerBytes);
    } finally {
      own.destroy();
    }
    expect(Object.values(started.vars)).not.toContain(KEEP.bucket);
  });

  it('never reuses a running gateway: a start from its folder, or on its port, fails and says why', async () => {
    const check = await run(['check']);
    expect(check.status, check.stderr).toBe(0);

    const again = await run();
    expect(again.status).toBe(1);
    expect(again.vars).toEqual({});
    expect(again.stderr).toContain(`a Ceph cluster started from ${dir} is running`);

    const port = new URL(endpoint).port;
    const elsewhere = join(tmpdir(), `shoebox-s3-script-test-${process.pid}-taken`);
    const taken = await run([], { S3_TEST_DIR: elsewhere, S3_TEST_PORT: port });
    expect(taken.status).toBe(1);
    expect(taken.stderr).toContain(`127.0.0.1:${port} (S3_TEST_PORT) is already in use`);
    expect(existsSync(join(elsewhere, 'run'))).toBe(false);
    await run(['stop'], { S3_TEST_DIR: elsewhere });

    // The running one is untouched.
    expect((await run(['check'])).status).toBe(0);
  });

  it('finds unhealthy a cluster that refuses writes although GET / answers 200 (a full OSD)', async () => {
    // The OSD reports itself full once its used share passes the full ratio, as when the store's counter is off.
    ceph('osd', 'set-nearfull-ratio', '0.000002');
    ceph('osd', 'set-backfillfull-ratio', '0.000005');
    ceph('osd', 'set-full-ratio', '0.00001');
    const deadline = Date.now() + 60_000;
    // A busy monitor now and then refuses a command: one failed look is not an answer.
    const looksFull = () => {
      try {
        return osdState().includes('full');
      } catch {
        return false;
      }
    };
    while (!looksFull()) {
      if (Date.now() > deadline) throw new Error('the OSD was not marked full within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    expect((await fetch(`${endpoint}/`)).status).toBe(200);

    const check = await run(['check']);
    expect(check.status).toBe(1);
    expect(check.stderr).toMatch(/refuses writes \(osd\.0 full/);
  });

  it('stop ends it and deletes its folder', async () => {
    const stopped = await run(['stop']);
    expect(stopped.status, stopped.stderr).toBe(0);
    expect(existsSync(dir)).toBe(false);
    await expect(fetch(`${endpoint}/`)).rejects.toThrow();
  });
});
