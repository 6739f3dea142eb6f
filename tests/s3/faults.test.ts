// Bad networks and crashes, against the real gateway through a loopback proxy that fails, cuts and logs
// requests: uploads must still end byte-exact, and a crash must cost at most the parts that were in flight.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListPartsCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadCheckpoint } from '../../src/backend/ports';
import { cutAfterBytes, failFraction, isUploadPart, seededRandom, startFaultProxy, times, type FaultProxy } from './fault-proxy';
import { freshKey, sampleBytes, sha256, storedDigest, testFiles } from './s3-engine-harness';
import { s3TestEnv, testS3Client } from './s3-test-env';
import { buildUploadChild, startChild } from './upload-child-runner';

const MiB = 1024 * 1024;

let proxy: FaultProxy;
beforeAll(async () => {
  proxy = await startFaultProxy({ target: s3TestEnv().endpoint });
});
afterAll(async () => {
  await proxy.close();
});

describe('uploads through failures', () => {
  it('finishes 50 files of mixed sizes byte-exact while 10% of part requests fail', async () => {
    const random = seededRandom(50);
    proxy.setRules(failFraction(0.1, 1234, isUploadPart, 503));
    const files = testFiles({ endpoint: proxy.url });
    const sizes = Array.from({ length: 50 }, (_, i) => (i % 10 === 9 ? 17 * MiB + Math.floor(random() * 8 * MiB) : 20_000 + Math.floor(random() * 2 * MiB)));
    const jobs = sizes.map((size, i) => ({ key: freshKey(), size, seed: 1000 + i }));
    const queue = [...jobs];
    const worker = async () => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        await files.upload({ key: job.key, blob: new Blob([sampleBytes(job.size, job.seed)]), contentType: 'image/jpeg' });
      }
    };
    const start = proxy.log.length;
    // Three files at once, as the upload queue runs them.
    await Promise.all([worker(), worker(), worker()]);
    const failedParts = proxy.log.slice(start).filter((r) => r.method === 'PUT' && 'partNumber' in r.query && r.outcome === 'failed').length;
    expect(failedParts).toBeGreaterThan(0);
    for (const job of jobs) {
      expect(await storedDigest(job.key)).toEqual({ sha256: sha256(sampleBytes(job.size, job.seed)), size: job.size });
    }
    proxy.setRules([]);
  });

  it('sends a damaged file again: the gateway refuses it by its Content-MD5, the stored file is exact', async () => {
    // The first time each file's PUT passes, one of its bytes flips.
    const seen = new Set<string>();
    proxy.setRules((req) => {
      if (req.method !== 'PUT' || 'partNumber' in req.query || seen.has(req.path)) return undefined;
      seen.add(req.path);
      return { type: 'corrupt', atByte: 4321 };
    });
    const jobs = [300_000, 16 * MiB - 1].map((size, i) => ({ key: freshKey(), size, seed: 71 + i }));
    const files = testFiles({ endpoint: proxy.url });
    const start = proxy.log.length;
    for (const job of jobs) {
      await files.upload({ key: job.key, blob: new Blob([sampleBytes(job.size, job.seed)]), contentType: 'image/jpeg' });
      expect(await storedDigest(job.key)).toEqual({ sha256: sha256(sampleBytes(job.size, job.seed)), size: job.size });
    }
    // Each damaged body was refused (400 BadDigest) and sent again.
    expect(proxy.log.slice(start).filter((r) => r.method === 'PUT' && r.status === 400)).toHaveLength(2);

    // Without Content-MD5 the same damage is stored as if it were the file: what the check is for.
    seen.clear();
    const unchecked = { key: freshKey(), size: 300_000, seed: 73 };
    await testFiles({ endpoint: proxy.url, contentMd5: false }).upload({
      key: unchecked.key,
      blob: new Blob([sampleBytes(unchecked.size, unchecked.seed)]),
      contentType: 'image/jpeg',
    });
    expect((await storedDigest(unchecked.key)).sha256).not.toBe(sha256(sampleBytes(unchecked.size, unchecked.seed)));
    proxy.setRules([]);
  });

  it("an MD5 the queue took with the file's SHA-256 is the Content-MD5 sent, and damage is still refused by it", async () => {
    const job = { key: freshKey(), size: 300_000, seed: 74 };
    const bytes = sampleBytes(job.size, job.seed);
    const md5 = createHash('md5').update(bytes).digest('base64');
    const sent: (string | undefined)[] = [];
    proxy.setRules((req) => {
      if (req.method !== 'PUT' || !req.path.endsWith(`/${job.key}`)) return undefined;
      sent.push(req.headers['content-md5'] as string | undefined);
      return sent.length === 1 ? { type: 'corrupt', atByte: 999 } : undefined;
    });
    // The file is not read to be hashed again (the body itself is sent by the HTTP client, whole).
    let sliced = 0;
    class Counted extends Blob {
      override slice(...args: Parameters<Blob['slice']>): Blob {
        sliced++;
        return super.slice(...args);
      }
    }
    await testFiles({ endpoint: proxy.url }).upload({ key: job.key, blob: new Counted([bytes]), contentType: 'image/jpeg', contentMd5: md5 });
    expect(sent).toEqual([md5, md5]);
    expect(sliced).toBe(0);
    expect(await storedDigest(job.key)).toEqual({ sha256: sha256(bytes), size: job.size });
    proxy.setRules([]);
  });

  it('tells the upload queue while the file waits out a 503, and when it goes again', async () => {
    const job = { key: freshKey(), size: 300_000, seed: 75 };
    let refused = 0;
    proxy.setRules((req) => {
      if (req.method !== 'PUT' || !req.path.endsWith(`/${job.key}`) || refused >= 2) return undefined;
      refused++;
      return { type: 'respond', status: 503, headers: { 'retry-after': '1' } };
    });
    const told: (number | null)[] = [];
    const before = Date.now();
    await testFiles({ endpoint: proxy.url }).upload(
      { key: job.key, blob: new Blob([sampleBytes(job.size, job.seed)]), contentType: 'image/jpeg' },
      { onRetry: (at) => told.push(at) },
    );
    expect(refused).toBe(2);
    // Each 503 is a wait of at least its Retry-After, then the PUT goes again.
    expect(told.map((at) => (at === null ? null : 'waiting'))).toEqual(['waiting', null, 'waiting', null]);
    expect(told[0]!).toBeGreaterThanOrEqual(before + 1000);
    expect(await storedDigest(job.key)).toEqual({ sha256: sha256(sampleBytes(job.size, job.seed)), size: job.size });
    proxy.setRules([]);
  });

  it('resumes after 30 random crashes and cut connections, re-sending at most the parts in flight', async () => {
    const env = s3TestEnv();
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-crash-'));
    try {
      const child = await buildUploadChild();
      const size = 96 * MiB + 4321;
      const bytes = sampleBytes(size, 77);
      const file = join(dir, 'video.mp4');
      writeFileSync(file, bytes);
      const partsTotal = Math.ceil(size / (8 * MiB));
      const random = seededRandom(30);
      const client = testS3Client();

      let key = freshKey();
      let checkpointFile = join(dir, `${crypto.randomUUID()}.json`);
      const finished: string[] = [];
      let crashes = 0;
      let worstResend = 0;
      while (crashes < 30) {
        // Now and then the proxy also cuts a part request mid-body: the run must survive it on its own.
        proxy.setRules(random() < 0.5 ? times(1, cutAfterBytes(Math.floor(random() * 4 * MiB), isUploadPart)) : []);
        const run = startChild(child, { ...process.env, CHILD_FILE: file, CHILD_KEY: key, CHILD_CHECKPOINT_FILE: checkpointFile, CHILD_ENDPOINT: proxy.url });
        await run.started;
        const outcome = await Promise.race([run.done.then(() => 'done' as const), sleep(50 + random() * 600).then(() => 'kill' as const)]);
        if (outcome === 'done') {
          finished.push(key);
          expect(await storedDigest(key)).toEqual({ sha256: sha256(bytes), size });
          key = freshKey();
          checkpointFile = join(dir, `${crypto.randomUUID()}.json`);
          continue;
        }
        run.process.kill('SIGKILL');
        await run.exited;
        crashes++;
        if (!existsSync(checkpointFile)) continue;
        const cp = JSON.parse(readFileSync(checkpointFile, 'utf8')) as UploadCheckpoint;
        const listed = await client
          .send(new ListPartsCommand({ Bucket: env.bucket, Key: key, UploadId: cp.uploadId }))
          .catch((e: unknown) => {
            if (e instanceof Error && (e.name === 'NoSuchUpload' || e.name === 'NoSuchKey')) return undefined;
            throw e;
          });
        if (!listed) {
          // Killed after completing the upload, before reporting it: the object must already be whole.
          finished.push(key);
          expect(await storedDigest(key)).toEqual({ sha256: sha256(bytes), size });
          key = freshKey();
          checkpointFile = join(dir, `${crypto.randomUUID()}.json`);
          continue;
        }
        const held = new Map((listed.Parts ?? []).map((p) => [p.PartNumber!, p]));
        // No corruption: every part the checkpoint trusts is in the bucket with that ETag and size.
        for (const p of cp.parts ?? []) {
          expect(held.get(p.partNumber)?.ETag).toBe(p.etag);
          expect(held.get(p.partNumber)?.Size).toBe(p.size);
        }
        // What the bucket holds beyond the checkpoint will be sent again: only parts that were in flight.
        const resend = [...held.keys()].filter((n) => !(cp.parts ?? []).some((p) => p.partNumber === n)).length;
        worstResend = Math.max(worstResend, resend);
        expect(resend).toBeLessThanOrEqual(4);
      }
      proxy.setRules([]);
      const last = startChild(child, { ...process.env, CHILD_FILE: file, CHILD_KEY: key, CHILD_CHECKPOINT_FILE: checkpointFile, CHILD_ENDPOINT: proxy.url });
      await last.done;
      finished.push(key);
      expect(await storedDigest(key)).toEqual({ sha256: sha256(bytes), size });
      console.info(`30 crashes: ${finished.length} uploads of ${partsTotal} parts finished byte-exact; at most ${worstResend} parts to re-send after a crash`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 900_000);
});

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
