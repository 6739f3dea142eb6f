// The S3 files adapter against a real S3 server (Ceph RGW): what a user's upload, download and cancel do.
import { CreateMultipartUploadCommand, HeadObjectCommand, ListMultipartUploadsCommand, PutObjectCommand, UploadPartCommand } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { AppError } from '../../src/lib/app-error';
import { inflatedStream } from '../../src/lib/inflate-capped';
import type { UploadCheckpoint } from '../../src/backend/ports';
import { S3Files } from '../../src/backend/s3/s3-files';
import { freshKey, sampleBytes, sha256, storedDigest, testFiles, testSigner, unfinishedUploads } from './s3-engine-harness';
import { isUploadPart, startFaultProxy } from './fault-proxy';
import { s3TestEnv, testS3Client } from './s3-test-env';

const MiB = 1024 * 1024;

async function errorOf(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected the call to fail');
}

describe('S3 files adapter on a real gateway', () => {
  it.each([
    ['a small photo', 1 * MiB + 17],
    ['one byte under the single-PUT limit', 16 * MiB - 1],
    ['exactly the single-PUT limit (multipart)', 16 * MiB],
    ['a 200 MiB video', 200 * MiB],
  ])('stores %s byte for byte', async (_, size) => {
    const files = testFiles();
    const key = freshKey();
    const bytes = sampleBytes(size, size);
    const progress: number[] = [];
    const checkpoints: UploadCheckpoint[] = [];
    const result = await files.upload(
      { key, blob: new Blob([bytes]), contentType: 'video/mp4', filename: 'clip.mp4' },
      { onProgress: (n) => progress.push(n), onCheckpoint: (c) => checkpoints.push(c) },
    );
    expect(result.bytes).toBe(size);
    expect(progress.at(-1)).toBe(size);
    expect(await storedDigest(key)).toEqual({ sha256: sha256(bytes), size });
    // Multipart from 16 MiB: every confirmed part is checkpointed with its size and ETag.
    if (size >= 16 * MiB) {
      const last = checkpoints.at(-1)!;
      expect(last.uploadId).toBeTruthy();
      expect(last.parts!.reduce((s, p) => s + p.size, 0)).toBe(size);
      expect(last.parts!.every((p) => p.etag.length > 0)).toBe(true);
    } else {
      expect(checkpoints).toEqual([]);
    }
  });

  it('keeps the original name for downloads and never serves SVG inline', async () => {
    const files = testFiles();
    const photo = freshKey();
    await files.upload({ key: photo, blob: new Blob([sampleBytes(1000, 1)]), contentType: 'image/jpeg', filename: 'Été à Lisboa.jpg' });
    const head = await testS3Client().send(new HeadObjectCommand({ Bucket: s3TestEnv().bucket, Key: photo }));
    expect(head.ContentType).toBe('image/jpeg');
    expect(head.ContentDisposition).toContain("filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20Lisboa.jpg");

    const svg = freshKey();
    await files.upload({ key: svg, blob: new Blob(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>']), contentType: 'image/svg+xml', filename: 'logo.svg' });
    const svgHead = await testS3Client().send(new HeadObjectCommand({ Bucket: s3TestEnv().bucket, Key: svg }));
    expect(svgHead.ContentType).toBe('application/octet-stream');
    expect(svgHead.ContentDisposition?.startsWith('attachment;')).toBe(true);

    const urls = await files.urls([photo], { downloadAs: 'Été à Lisboa.jpg' });
    const res = await fetch(urls.get(photo)!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Ete a Lisboa.jpg"; filename*=UTF-8''%C3%89t%C3%A9%20%C3%A0%20Lisboa.jpg`);
  });

  it('stores HTML, SVG and PDF originals as bytes to download, refuses a preview of another type, and serves every object with a safe type', async () => {
    const files = testFiles();
    const bucket = s3TestEnv().bucket;
    const page = '<html><script>alert(document.domain)</script></html>';
    const originals = [['text/html', 'page.html'], ['image/svg+xml', 'logo.svg'], ['application/pdf', 'report.pdf']] as const;
    const keys: string[] = [];
    for (const [type, name] of originals) {
      const key = freshKey();
      keys.push(key);
      await files.upload({ key, blob: new Blob([page]), contentType: type, filename: name });
      const head = await testS3Client().send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      expect([head.ContentType, head.ContentDisposition?.split(';')[0]], type).toEqual(['application/octet-stream', 'attachment']);
    }

    // A thumbnail may only be WebP or JPEG: a smuggled type is refused before a byte is sent.
    const thumb = freshKey('thumb.webp');
    const err = await errorOf(files.upload({ key: thumb, blob: new Blob([page]), contentType: 'image/png; x=1, text/html' }));
    expect([err.code, err.retryable]).toEqual(['upload/unsupported', false]);
    await expect(testS3Client().send(new HeadObjectCommand({ Bucket: bucket, Key: thumb }))).rejects.toMatchObject({ name: 'NotFound' });

    // One stored with that type by other means (as before this check) is still served as an image.
    await testS3Client().send(new PutObjectCommand({ Bucket: bucket, Key: thumb, Body: page, ContentType: 'image/png; x=1, text/html' }));
    const urls = await files.urls([keys[0]!, thumb]);
    const seen = [];
    for (const key of [keys[0]!, thumb]) {
      const res = await fetch(urls.get(key)!);
      expect(await res.text()).toBe(page);
      seen.push([res.headers.get('content-type'), res.headers.get('content-disposition')]);
    }
    expect(seen).toEqual([
      ['application/octet-stream', 'attachment'],
      ['image/webp', 'inline'],
    ]);
  });

  it('stores a text file gzip-compressed without Content-Encoding, and its download inflates to the very bytes', async () => {
    const files = testFiles();
    const key = freshKey();
    const log = Buffer.from(Array.from({ length: 200_000 }, (_, i) => `2026-11-27T10:00:${String(i % 60).padStart(2, '0')}Z INFO upload part ${i % 977} confirmed\n`).join(''));
    const packed = gzipSync(log);
    await files.upload({ key, blob: new Blob([packed]), contentType: 'text/plain', filename: 'server.log' });
    const head = await testS3Client().send(new HeadObjectCommand({ Bucket: s3TestEnv().bucket, Key: key }));
    // With Content-Encoding: gzip a browser (and fetch) would inflate it on its own, and the ZIP's lengths would lie.
    expect(head.ContentEncoding).toBeUndefined();
    expect(head.ContentLength).toBe(packed.length);
    const url = (await files.urls([key], { downloadAs: 'server.log' })).get(key)!;
    const res = await fetch(url);
    expect(res.headers.get('content-encoding')).toBeNull();
    const back = Buffer.from(await new Response(inflatedStream(res.body!, { bytes: log.length, name: 'server.log' })).arrayBuffer());
    expect(back.equals(log)).toBe(true);
    // Recorded smaller than it inflates to, the same object fails cleanly instead of growing without end.
    const again = await fetch(url);
    await expect(new Response(inflatedStream(again.body!, { bytes: 1024 })).arrayBuffer()).rejects.toMatchObject({ code: 'upload/integrity' });
  });

  it('reads an object back and removes objects, including ones already gone', async () => {
    const files = testFiles();
    const key = freshKey('thumb.webp');
    const bytes = sampleBytes(4096, 9);
    await files.upload({ key, blob: new Blob([bytes]), contentType: 'image/webp' });
    const blob = await files.read(key);
    expect(sha256(new Uint8Array(await blob.arrayBuffer()))).toBe(sha256(bytes));
    await files.remove([key, freshKey('never-there')]);
    expect((await errorOf(files.read(key))).code).toBe('item/not-found');
  });

  it('answers wrong credentials with storage/denied, without retrying', async () => {
    const files = testFiles({ secretAccessKey: 'not-the-secret' });
    const err = await errorOf(files.upload({ key: freshKey(), blob: new Blob([sampleBytes(1000, 2)]), contentType: 'image/jpeg' }));
    expect(err.code).toBe('storage/denied');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain('SignatureDoesNotMatch');
  });

  it('says clearly when a signed link has expired', async () => {
    const signer = testSigner();
    // A signer whose clock is two hours behind makes links that expired an hour ago.
    signer.adjustClock(Date.now() - 2 * 3600_000);
    const files = new S3Files({ signer, retry: { policy: { retries: 2, baseMs: 10, maxMs: 50 } } });
    const err = await errorOf(files.upload({ key: freshKey(), blob: new Blob([sampleBytes(1000, 3)]), contentType: 'image/jpeg' }));
    expect(err.code).toBe('storage/denied');
    expect(err.message).toMatch(/expired/);
  });

  it('reports a full quota as upload/quota-exceeded', async () => {
    const env = s3TestEnv();
    const files = testFiles({ bucket: env.quotaBucket, accessKeyId: env.quotaAccessKeyId, secretAccessKey: env.quotaSecretAccessKey });
    const err = await errorOf(files.upload({ key: freshKey(), blob: new Blob([sampleBytes(2 * MiB, 4)]), contentType: 'image/jpeg' }));
    expect(err.code).toBe('upload/quota-exceeded');
  });

  it('cancel leaves no multipart upload behind', async () => {
    const files = testFiles();
    const key = freshKey();
    const stop = new AbortController();
    let checkpoint: UploadCheckpoint | undefined;
    const upload = files.upload(
      { key, blob: new Blob([sampleBytes(64 * MiB, 5)]), contentType: 'video/mp4' },
      {
        signal: stop.signal,
        onCheckpoint: (c) => {
          checkpoint = c;
          if ((c.parts?.length ?? 0) >= 1) stop.abort();
        },
      },
    );
    await expect(upload).rejects.toMatchObject({ name: 'AbortError' });
    expect(await unfinishedUploads(key)).toHaveLength(1);
    await files.abortUpload(key, checkpoint);
    expect(await unfinishedUploads(key)).toEqual([]);
    // Cancelling twice is harmless.
    await files.abortUpload(key, checkpoint);
  });

  it('aborts the uploads a stopped run started but never recorded: when the file is sent again, and on cancel', async () => {
    const client = testS3Client();
    const { bucket } = s3TestEnv();
    const files = testFiles();
    // A run created a multipart upload and sent a part, then stopped before its checkpoint was stored.
    const orphan = async (key: string) => {
      const { UploadId } = await client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }));
      await client.send(new UploadPartCommand({ Bucket: bucket, Key: key, UploadId, PartNumber: 1, Body: sampleBytes(5 * MiB, 8) }));
      return UploadId!;
    };
    const unfinishedOf = async (key: string) =>
      ((await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: key }))).Uploads ?? []).filter((u) => u.Key === key).length;
    const key = freshKey();
    const neighbour = `${key}-other`;
    await orphan(key);
    await orphan(key);
    await orphan(neighbour);
    expect(await unfinishedOf(key)).toBe(2);

    // Sent again from the start: the new upload completes and the lost ones are gone. A key that merely
    // starts with this one is not ours.
    const bytes = sampleBytes(17 * MiB, 9);
    await files.upload({ key, blob: new Blob([bytes]), contentType: 'video/mp4' }, { onCheckpoint: () => {} });
    expect(await storedDigest(key)).toEqual({ sha256: sha256(bytes), size: bytes.length });
    expect(await unfinishedOf(key)).toBe(0);
    expect(await unfinishedOf(neighbour)).toBe(1);

    // A cancel with no checkpoint at all still finds them.
    await files.abortUpload(neighbour, undefined);
    expect(await unfinishedOf(neighbour)).toBe(0);
  });

  it('resumes from its checkpoint and sends only the parts the bucket lacks', async () => {
    const env = s3TestEnv();
    const proxy = await startFaultProxy({ target: env.endpoint });
    try {
      const files = testFiles({ endpoint: proxy.url });
      const key = freshKey();
      const bytes = sampleBytes(48 * MiB + 123, 6);
      const stop = new AbortController();
      let checkpoint: UploadCheckpoint | undefined;
      await expect(
        files.upload(
          { key, blob: new Blob([bytes]), contentType: 'video/mp4' },
          {
            signal: stop.signal,
            onCheckpoint: (c) => {
              checkpoint = c;
              if ((c.parts?.length ?? 0) >= 3) stop.abort();
            },
          },
        ),
      ).rejects.toMatchObject({ name: 'AbortError' });
      const confirmed = new Set(checkpoint!.parts!.map((p) => p.partNumber));
      expect(confirmed.size).toBeGreaterThanOrEqual(3);
      const before = proxy.log.length;

      await files.upload({ key, blob: new Blob([bytes]), contentType: 'video/mp4', checkpoint: checkpoint! });
      const resent = proxy.log.slice(before).filter((r) => isUploadPart({ ...r, headers: {}, index: 0 }) && confirmed.has(Number(r.query.partNumber)));
      expect(resent).toEqual([]);
      expect(proxy.log.slice(before).some((r) => 'uploadId' in r.query && r.method === 'GET')).toBe(true);
      expect(await storedDigest(key)).toEqual({ sha256: sha256(bytes), size: bytes.length });
    } finally {
      await proxy.close();
    }
  });

  it('starts again when the bucket no longer knows the upload, and finishes one that had completed', async () => {
    const files = testFiles();
    const key = freshKey();
    const bytes = sampleBytes(20 * MiB, 8);
    let checkpoint: UploadCheckpoint | undefined;
    await files.upload({ key, blob: new Blob([bytes]), contentType: 'video/mp4' }, { onCheckpoint: (c) => (checkpoint = c) });
    // The answer to Complete was lost: the task resumes with an upload id the bucket has finished.
    await files.upload({ key, blob: new Blob([bytes]), contentType: 'video/mp4', checkpoint: checkpoint! });
    expect(await storedDigest(key)).toEqual({ sha256: sha256(bytes), size: bytes.length });

    const other = freshKey();
    const gone: UploadCheckpoint = { uploadId: '2~nonexistent-upload-id', partSize: 8 * MiB, parts: [{ partNumber: 1, size: 8 * MiB, etag: '"0123"' }] };
    await files.upload({ key: other, blob: new Blob([bytes]), contentType: 'video/mp4', checkpoint: gone });
    expect(await storedDigest(other)).toEqual({ sha256: sha256(bytes), size: bytes.length });
  });
});
