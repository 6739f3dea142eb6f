// The worker's thumbnail route against the real S3 gateway (Ceph RGW, a bucket with CORS rules as the app
// needs): presigned URLs, a tile's no-CORS request, and the signature that changes at every signing.
import { afterEach, expect, it } from 'vitest';
import { s3BrowserEnv } from '../../tests/browser/s3-browser-env';
import { pageFiles, sampleBytes } from '../../tests/browser/s3-browser-files';
import { ByteCappedCache } from './byte-capped-cache';
import { isThumbnailRequest, thumbnailResponse } from './thumbnail-cache';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((name) => caches.delete(name)));
});

it('a thumbnail fetched once through a presigned URL is kept by object and found again under a broken signature', async () => {
  const env = s3BrowserEnv();
  const files = pageFiles(env);
  const key = `albums/${crypto.randomUUID()}/${crypto.randomUUID()}/thumb.webp`;
  const bytes = sampleBytes(20_000, 12);
  await files.upload({ key, blob: new Blob([bytes], { type: 'image/webp' }), contentType: 'image/webp' });
  const signed = (await files.urls([key])).get(key);
  if (!signed) throw new Error('no URL');

  const cacheName = `test-thumbs-${crypto.randomUUID()}`;
  made.push(cacheName);
  const cache = new ByteCappedCache({ cacheName, maxBytes: 1_000_000 });
  const kept: Promise<unknown>[] = [];

  // As an <img> asks: no CORS. The worker asks with CORS, so the answer is readable and kept.
  const tileRequest = new Request(signed, { mode: 'no-cors' });
  expect(isThumbnailRequest(tileRequest, new URL(signed), location.origin)).toBe(true);
  const first = await thumbnailResponse(cache, tileRequest, (p) => kept.push(p));
  expect(first.type).toBe('cors');
  expect(new Uint8Array(await first.arrayBuffer())).toEqual(bytes);
  await Promise.all(kept);
  expect(await cache.totalBytes()).toBe(20_000);

  // Another signing of the same object; here one the bucket refuses, so only the cache can answer it.
  const resigned = new URL(signed);
  resigned.searchParams.set('X-Amz-Signature', '0'.repeat(64));
  expect(await fetch(resigned, { mode: 'cors' }).then((r) => r.ok, () => false)).toBe(false);
  const again = await thumbnailResponse(cache, new Request(resigned, { mode: 'no-cors' }), (p) => kept.push(p));
  expect(new Uint8Array(await again.arrayBuffer())).toEqual(bytes);

  // Originals are not this route's: only thumbnails, previews and posters.
  const original = signed.replace('/thumb.webp', '/original');
  expect(isThumbnailRequest(new Request(original), new URL(original), location.origin)).toBe(false);
});
