// The S3 files adapter in real Chromium against a real gateway (Ceph RGW): the page's origin is the test
// server's, so every request to the bucket is cross-origin and passes through the bucket's CORS rules exactly
// as in production.
import { afterEach, describe, expect, it } from 'vitest';
import { cdp } from 'vitest/browser';
import type { UploadCheckpoint } from '../../src/backend/ports';
import { AppError } from '../../src/lib/app-error';
import { s3BrowserEnv } from './s3-browser-env';
import { freshKey, pageFiles, sampleBytes, sha256Hex, unfinishedUploads, type S3PageTarget } from './s3-browser-files';
import { harnessRecord, type HarnessSession } from './s3-upload-harness-record';

const MiB = 1024 * 1024;
const PART = 8 * MiB;

function target(bucket: (e: ReturnType<typeof s3BrowserEnv>) => string): S3PageTarget {
  const e = s3BrowserEnv();
  return { endpoint: e.endpoint, region: e.region, bucket: bucket(e), accessKeyId: e.accessKeyId, secretAccessKey: e.secretAccessKey };
}

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected the upload to fail');
}

/** Polls until `probe` returns a value. */
async function waitFor<T>(what: string, probe: () => T | undefined, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = probe();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Points the frame at `url` and resolves once that document has loaded (the previous one is gone by then). */
function navigate(frame: HTMLIFrameElement, url: string): Promise<void> {
  return new Promise((resolve) => {
    frame.addEventListener('load', () => resolve(), { once: true });
    frame.src = url;
  });
}

/** Limits this page's upload bandwidth to `bytesPerSecond` (-1: no limit). */
async function throttleUpload(bytesPerSecond: number): Promise<void> {
  const session = cdp();
  await session.send('Network.enable');
  await session.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: bytesPerSecond });
}

/** The SHA-256 and size of what the bucket holds, downloaded through a presigned GET from this page. */
async function storedDigest(t: S3PageTarget, key: string): Promise<{ sha256: string; size: number }> {
  const url = (await pageFiles(t).urls([key])).get(key);
  if (!url) throw new Error('no download link');
  const res = await fetch(url);
  expect(res.status).toBe(200);
  const bytes = await res.arrayBuffer();
  return { sha256: await sha256Hex(bytes), size: bytes.byteLength };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe('uploads from the browser to a real S3 gateway', () => {
  it('resumes a 64 MiB upload after the page is reloaded mid-upload, sends only the missing parts and stores it byte for byte', async () => {
    const t = target((e) => e.bucket);
    const size = 64 * MiB;
    const seed = 64;
    const key = freshKey();
    const id = `s3-harness-${crypto.randomUUID()}`;
    harnessRecord.writeJob(id, { target: t, key, size, seed });
    const frame = document.createElement('iframe');
    cleanups.push(() => {
      frame.remove();
      harnessRecord.clear(id);
    });
    cleanups.push(() => pageFiles(t).remove([key]));
    const harnessUrl = `/tests/browser/s3-upload-harness.html?job=${encodeURIComponent(id)}`;
    frame.src = harnessUrl;
    document.body.append(frame);

    const before = await waitFor(
      'two confirmed parts',
      () => {
        const cp = harnessRecord.checkpoint(id);
        return (cp?.parts?.length ?? 0) >= 2 ? cp : undefined;
      },
      60_000,
    );
    // The page goes away mid-upload and comes back, as a reload does: its document, its XHRs in flight and
    // all of its JS state are torn down. It leaves through about:blank, which needs no server, so it is gone at
    // once (a plain reload() keeps the old page running until the new one arrives, which under load can be
    // after the upload has finished).
    await navigate(frame, 'about:blank');
    expect(harnessRecord.sessions(id).map((s) => s.state)).toEqual(['uploading']);
    frame.src = harnessUrl;

    const sessions = await waitFor(
      'the reloaded page to finish',
      () => {
        const s = harnessRecord.sessions(id);
        return s.length === 2 && s[1]!.state !== 'uploading' ? s : undefined;
      },
      90_000,
    );
    const [first, second] = sessions as [HarnessSession, HarnessSession];
    // The first load never finished: leaving the page cut it off.
    expect(first).toMatchObject({ state: 'uploading', resumedParts: 0 });
    // The reloaded page carried on with the same multipart upload, from its persisted checkpoint.
    expect(second).toMatchObject({ state: 'done', resumedUploadId: before.uploadId });
    expect(second.resumedParts).toBeGreaterThanOrEqual(2);
    const totalParts = size / PART;
    // Only the parts missing from the checkpoint were sent again.
    expect(second.partPuts).toBe(totalParts - second.resumedParts);
    expect(second.partPuts).toBeLessThan(totalParts);
    expect(harnessRecord.checkpoint(id)?.parts?.map((p) => p.partNumber)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);

    const stored = await storedDigest(t, key);
    expect(stored).toEqual({ sha256: await sha256Hex(sampleBytes(size, seed)), size });
  }, 180_000);

  it('reports real bytes as progress while a 64 MiB file uploads, not just finished parts', async () => {
    const t = target((e) => e.bucket);
    const size = 64 * MiB;
    const key = freshKey();
    cleanups.push(() => pageFiles(t).remove([key]));
    // At a real network's pace rather than loopback's, where each part leaves in one go before the first
    // progress event: 32 MiB/s up, Chromium's own throttling (DevTools protocol).
    await throttleUpload(32 * MiB);
    cleanups.push(() => throttleUpload(-1));
    const progress: number[] = [];
    let last: UploadCheckpoint | undefined;
    await pageFiles(t).upload(
      { key, blob: new Blob([sampleBytes(size, 7)]), contentType: 'video/mp4', filename: 'clip.mp4' },
      { onProgress: (n) => progress.push(n), onCheckpoint: (cp) => (last = cp) },
    );
    const parts = last?.parts?.length ?? 0;
    expect(parts).toBe(size / PART);
    const distinct = new Set(progress);
    expect(distinct.size).toBeGreaterThan(parts);
    // Values inside a part, not only at part boundaries: the bar moves while a part is on its way.
    expect([...distinct].filter((n) => n > 0 && n < size && n % PART !== 0).length).toBeGreaterThan(parts);
    // The bar never goes back, and ends full.
    expect(progress.every((n, i) => i === 0 || n >= progress[i - 1]!)).toBe(true);
    expect(progress.at(-1)).toBe(size);
  }, 120_000);

  it('names the missing CORS rule, with this page origin and ETag exposed, when the bucket has none', async () => {
    const t = target((e) => e.bucketNoCors);
    const err = await errorOf(
      pageFiles(t).upload({ key: freshKey(), blob: new Blob([sampleBytes(1 * MiB, 3)]), contentType: 'image/jpeg', filename: 'photo.jpg' }),
    );
    expect(err.code).toBe('storage/cors');
    expect(err.details?.reason).toBe('blocked');
    const rule = JSON.parse(String(err.details?.corsRule)) as { AllowedOrigins: string[]; ExposeHeaders: string[]; AllowedMethods: string[] }[];
    expect(rule[0]?.AllowedOrigins).toEqual([location.origin]);
    expect(rule[0]?.ExposeHeaders).toContain('ETag');
    expect(rule[0]?.AllowedMethods).toEqual(expect.arrayContaining(['PUT', 'POST', 'GET']));
  });

  it('stops a multipart upload when the bucket hides ETag, and cancelling it leaves nothing behind', async () => {
    const t = target((e) => e.bucketNoEtag);
    const key = freshKey();
    let last: UploadCheckpoint | undefined;
    const err = await errorOf(
      pageFiles(t).upload(
        { key, blob: new Blob([sampleBytes(20 * MiB, 5)]), contentType: 'video/mp4', filename: 'clip.mp4' },
        { onCheckpoint: (cp) => (last = cp) },
      ),
    );
    expect(err.code).toBe('storage/cors');
    expect(err.details?.reason).toBe('etag-hidden');
    expect(JSON.parse(String(err.details?.corsRule))[0].ExposeHeaders).toContain('ETag');
    // The multipart upload was started and is still held by the bucket until it is cancelled.
    expect(last?.uploadId).toBeTruthy();
    expect(await unfinishedUploads(t, key)).toEqual([last!.uploadId]);

    await pageFiles(t).abortUpload(key, last);
    expect(await unfinishedUploads(t, key)).toEqual([]);
  });
});
