import { afterEach, describe, expect, it } from 'vitest';
import { s3BrowserEnv } from '../../tests/browser/s3-browser-env';
import { ByteCappedCache, objectCacheKey } from './byte-capped-cache';

const KiB = 1024;
const made: string[] = [];

function freshCache(maxBytes: number) {
  let clock = 0;
  const cacheName = `test-thumbs-${crypto.randomUUID()}`;
  made.push(cacheName);
  return { cache: new ByteCappedCache({ cacheName, maxBytes, now: () => ++clock }), cacheName };
}

/** A readable ('basic') 200 answer of exactly `bytes` bytes, as the network would give it. */
async function answerOf(bytes: number, fill = 1): Promise<Response> {
  const blob = new Blob([new Uint8Array(bytes).fill(fill)], { type: 'image/webp' });
  const dataUrl = await new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsDataURL(blob);
  });
  const res = await fetch(dataUrl);
  expect(res.type).toBe('basic');
  return res;
}

const S3 = 'https://bucket.s3.example.com';
const signed = (path: string, sig: string) => `${S3}${path}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Date=20261124T000000Z&X-Amz-Expires=3600&X-Amz-Signature=${sig}`;

afterEach(async () => {
  await Promise.all(made.splice(0).map((name) => caches.delete(name)));
});

describe('ByteCappedCache', () => {
  it('finds a thumbnail again under a new signature (the key is the object, not the signed URL)', async () => {
    const { cache } = freshCache(1024 * KiB);
    expect(objectCacheKey(signed('/albums/a/i/thumb.webp', 'aaa'))).toBe(`${S3}/albums/a/i/thumb.webp`);
    expect(objectCacheKey('https://p.supabase.co/storage/v1/object/sign/shoebox/albums/a/i/thumb.webp?token=eyJ1')).toBe(
      'https://p.supabase.co/storage/v1/object/sign/shoebox/albums/a/i/thumb.webp',
    );
    expect(await cache.put(signed('/albums/a/i/thumb.webp', 'aaa'), await answerOf(3 * KiB, 7))).toBe(true);
    const again = await cache.match(signed('/albums/a/i/thumb.webp', 'bbb'));
    expect(again).toBeDefined();
    const bytes = new Uint8Array(await again!.arrayBuffer());
    expect(bytes.length).toBe(3 * KiB);
    expect(bytes[0]).toBe(7);
    expect(await cache.match(signed('/albums/a/other/thumb.webp', 'aaa'))).toBeUndefined();
  });

  it('counts bytes, not entries: a few large answers push out as many as needed to stay under the cap', async () => {
    const { cache, cacheName } = freshCache(100 * KiB);
    for (let i = 0; i < 10; i++) await cache.put(signed(`/albums/a/${i}/thumb.webp`, `s${i}`), await answerOf(10 * KiB));
    expect(await cache.totalBytes()).toBe(100 * KiB);
    expect((await cache.keys()).length).toBe(10);
    // One preview of 45 KiB: the five oldest thumbnails (50 KiB) go, not one entry.
    await cache.put(signed('/albums/a/big/preview.webp', 'p'), await answerOf(45 * KiB));
    expect(await cache.totalBytes()).toBeLessThanOrEqual(100 * KiB);
    expect(await cache.totalBytes()).toBe(95 * KiB);
    const kept = await cache.keys();
    expect(kept).toHaveLength(6);
    for (let i = 0; i < 5; i++) expect(kept).not.toContain(`${S3}/albums/a/${i}/thumb.webp`);
    // The Cache API holds what the index says, no more.
    const stored = await (await caches.open(cacheName)).keys();
    expect(stored.map((r) => r.url).sort()).toEqual([...kept].sort());
  });

  it('evicts the least recently used, not the oldest stored', async () => {
    const { cache } = freshCache(30 * KiB);
    for (const n of ['a', 'b', 'c']) await cache.put(signed(`/albums/x/${n}/thumb.webp`, n), await answerOf(10 * KiB));
    // "a" was stored first but is looked at again: "b" is now the least recently used.
    expect(await cache.match(signed('/albums/x/a/thumb.webp', 'new'))).toBeDefined();
    await cache.put(signed('/albums/x/d/thumb.webp', 'd'), await answerOf(10 * KiB));
    expect(await cache.match(signed('/albums/x/b/thumb.webp', 'b'))).toBeUndefined();
    expect(await cache.match(signed('/albums/x/a/thumb.webp', 'a'))).toBeDefined();
    expect(await cache.match(signed('/albums/x/c/thumb.webp', 'c'))).toBeDefined();
    expect(await cache.totalBytes()).toBe(30 * KiB);
  });

  it('replacing an entry counts its bytes once', async () => {
    const { cache } = freshCache(100 * KiB);
    await cache.put(signed('/albums/x/a/thumb.webp', '1'), await answerOf(10 * KiB));
    await cache.put(signed('/albums/x/a/thumb.webp', '2'), await answerOf(12 * KiB));
    expect(await cache.totalBytes()).toBe(12 * KiB);
  });

  it('clear() leaves nothing: not what was kept, not a put under way, not an answer asked for before it and arriving after', async () => {
    const { cache, cacheName } = freshCache(100 * KiB);
    await cache.put(signed('/albums/x/a/thumb.webp', 'a'), await answerOf(10 * KiB));
    // A tile asked for before the sign-out; its answer comes after it.
    const asked = cache.mark();
    const late = await answerOf(10 * KiB);
    // And one being written when the sign-out comes.
    const underWay = cache.put(signed('/albums/x/b/preview.webp', 'b'), await answerOf(20 * KiB));
    await cache.clear();
    await underWay;
    expect(await cache.put(signed('/albums/x/c/thumb.webp', 'c'), late, asked)).toBe(false);

    expect(await cache.keys()).toEqual([]);
    expect(await cache.totalBytes()).toBe(0);
    expect(await (await caches.open(cacheName)).keys()).toHaveLength(0);
    expect(await cache.match(signed('/albums/x/a/thumb.webp', 'a2'))).toBeUndefined();
    // What is seen afterwards is kept as before.
    expect(await cache.put(signed('/albums/x/d/thumb.webp', 'd'), await answerOf(5 * KiB))).toBe(true);
    expect(await cache.totalBytes()).toBe(5 * KiB);
  });

  it('refuses opaque answers, whose size the page cannot see', async () => {
    const { cache, cacheName } = freshCache(100 * KiB);
    // A cross-origin answer fetched without CORS: opaque, its size hidden from the page.
    const opaque = await fetch(`${s3BrowserEnv().endpoint}/`, { mode: 'no-cors' });
    expect(opaque.type).toBe('opaque');
    expect(await cache.put(signed('/albums/x/o/thumb.webp', 'o'), opaque)).toBe(false);
    expect(await cache.totalBytes()).toBe(0);
    expect(await (await caches.open(cacheName)).keys()).toHaveLength(0);
  });
});
