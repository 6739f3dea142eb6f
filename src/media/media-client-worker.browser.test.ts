import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { isAbortError } from '../lib/app-error';
import { md5Base64 } from '../testing/md5-base64';
import { fixture, pixels } from '../testing/media-fixtures';
import { createMediaClient, hashFile, processMedia } from './media-client';
import type { ProcessedMedia } from './media-types';
import { sniffType } from './sniff-type';

// The media client's mechanics: the workers, the main-thread fallback, hashing and aborts. What it makes of
// each kind of file: media-client.browser.test.ts.

afterEach(() => {
  vi.restoreAllMocks();
});

const realWorker = () => new Worker(new URL('./media-worker.ts', import.meta.url), { type: 'module' });

describe('the media worker and its fallback', () => {
  const clients: ReturnType<typeof createMediaClient>[] = [];
  afterAll(() => clients.forEach((c) => c.dispose()));

  // Each side's preview and thumbnail come with their own MD5 (the bytes of two encoders may differ).
  const comparable = async (media: ProcessedMedia) => ({
    ...media,
    derivedMd5: media.derivedMd5 && {
      preview: media.derivedMd5.preview === (media.preview && (await md5Base64(media.preview))),
      thumb: media.derivedMd5.thumb === (media.thumb && (await md5Base64(media.thumb))),
    },
    preview: media.preview && { type: media.preview.type, ...(await pixels(media.preview)), at: undefined },
    thumb: media.thumb && { type: media.thumb.type, ...(await pixels(media.thumb)), at: undefined },
  });

  it('runs in a worker, and the main-thread fallback gives the same result, warning once', async () => {
    const inWorker = createMediaClient();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    // A worker script that does not exist: the worker fails to load, so the main thread takes over.
    const fallback = createMediaClient({ createWorker: () => new Worker('/does-not-exist-worker.js', { type: 'module' }) });
    clients.push(inWorker, fallback);
    expect(await inWorker.mode()).toBe('worker');
    expect(await fallback.mode()).toBe('main-thread');

    for (const name of ['orientation-6.jpg', 'xmp.jpg', 'corrupt.jpg']) {
      const blob = await fixture(name);
      const sniffed = await sniffType(blob);
      const [a, b] = await Promise.all([inWorker.processMedia(blob, sniffed), fallback.processMedia(blob, sniffed)]);
      expect(await comparable(b)).toEqual(await comparable(a));
    }
    const blob = await fixture('orientation-1.jpg');
    expect(await fallback.digestFile(blob, { md5: true })).toEqual(await inWorker.digestFile(blob, { md5: true }));
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('hashes in the worker with progress, matching WebCrypto', async () => {
    const blob = new Blob([new Uint8Array(9 * 1024 * 1024).map((_, i) => (i * 31) & 0xff)]);
    const progress: number[] = [];
    const hex = await hashFile(blob, { onProgress: (b) => progress.push(b) });
    const expected = [...new Uint8Array(await crypto.subtle.digest('SHA-256', await blob.arrayBuffer()))]
      .map((b) => b.toString(16).padStart(2, '0'))
      .join('');
    expect(hex).toBe(expected);
    expect(progress.at(-1)).toBe(blob.size);
  });

  it('aborts a request at once with an AbortError, and keeps serving the next ones', async () => {
    const blob = await fixture('orientation-1.jpg');
    const sniffed = await sniffType(blob);
    const controller = new AbortController();
    const pending = processMedia(blob, sniffed, { signal: controller.signal });
    controller.abort();
    expect(isAbortError(await pending.catch((e: unknown) => e))).toBe(true);

    const aborted = AbortSignal.abort();
    expect(isAbortError(await processMedia(blob, sniffed, { signal: aborted }).catch((e: unknown) => e))).toBe(true);
    expect(isAbortError(await hashFile(blob, { signal: aborted }).catch((e: unknown) => e))).toBe(true);

    const hashing = new AbortController();
    const big = new Blob([new Uint8Array(64 * 1024 * 1024)]);
    const hash = hashFile(big, { signal: hashing.signal, onProgress: () => hashing.abort() });
    expect(isAbortError(await hash.catch((e: unknown) => e))).toBe(true);

    expect((await processMedia(blob, sniffed)).kind).toBe('image');
  });

  it('aborts on the main thread too', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const client = createMediaClient({ createWorker: () => { throw new Error('no workers here'); } });
    clients.push(client);
    const blob = await fixture('orientation-6.jpg');
    const controller = new AbortController();
    const pending = client.processMedia(blob, await sniffType(blob), { signal: controller.signal });
    controller.abort();
    expect(isAbortError(await pending.catch((e: unknown) => e))).toBe(true);
    const video = await fixture('clip-320x240.webm');
    const videoAbort = new AbortController();
    const poster = client.processMedia(video, await sniffType(video), { signal: videoAbort.signal });
    videoAbort.abort();
    expect(isAbortError(await poster.catch((e: unknown) => e))).toBe(true);
  });
});

describe('a worker per core', () => {
  const clients: ReturnType<typeof createMediaClient>[] = [];
  afterAll(() => clients.forEach((c) => c.dispose()));

  /** A client of `workers` workers, counting the workers it starts. */
  const counted = (workers: number, make: (n: number) => Worker = realWorker) => {
    const started = { count: 0 };
    const client = createMediaClient({ workers, createWorker: () => make(++started.count) });
    clients.push(client);
    return { client, started };
  };

  it('starts a second worker when photos arrive together, and keeps to one for one photo at a time', async () => {
    const blob = await fixture('orientation-6.jpg');
    const sniffed = await sniffType(blob);
    const together = counted(2);
    const made = await Promise.all([1, 2, 3].map(() => together.client.processMedia(blob, sniffed)));
    expect(made.map((m) => [m.kind, m.width, m.height])).toEqual(Array(3).fill(['image', made[0]!.width, made[0]!.height]));
    expect(together.started.count).toBe(2);

    const oneByOne = counted(2);
    for (let i = 0; i < 3; i++) expect((await oneByOne.client.processMedia(blob, sniffed)).kind).toBe('image');
    expect(oneByOne.started.count).toBe(1);

    // Never more workers than asked for.
    const single = counted(1);
    await Promise.all([1, 2, 3].map(() => single.client.processMedia(blob, sniffed)));
    expect(single.started.count).toBe(1);
  });

  it('goes on in the first worker when another cannot start, warning once', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const blob = await fixture('orientation-1.jpg');
    const sniffed = await sniffType(blob);
    const { client, started } = counted(3, (n) => (n === 1 ? realWorker() : new Worker('/does-not-exist-worker.js', { type: 'module' })));
    const made = await Promise.all([1, 2, 3, 4].map(() => client.processMedia(blob, sniffed)));
    expect(made.every((m) => m.kind === 'image' && m.preview !== null)).toBe(true);
    expect(await client.mode()).toBe('worker');
    // One failed attempt to grow, and no more tries after it.
    expect(started.count).toBe(2);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('does not hold photos back for a worker slow to start: they go to the one running', async () => {
    const blob = await fixture('orientation-1.jpg');
    const sniffed = await sniffType(blob);
    // A second worker that loads and never says it is ready.
    const silent = () => new Worker(URL.createObjectURL(new Blob(['// nothing here'], { type: 'text/javascript' })), { type: 'module' });
    const { client, started } = counted(2, (n) => (n === 1 ? realWorker() : silent()));
    const t0 = performance.now();
    const made = await Promise.all([1, 2, 3].map(() => client.processMedia(blob, sniffed)));
    expect(made.every((m) => m.kind === 'image')).toBe(true);
    expect(started.count).toBe(2);
    // Well before the 20 s a worker is given to start.
    expect(performance.now() - t0).toBeLessThan(15_000);
  });

  it('aborts a request in whichever worker holds it, and the pool keeps serving', async () => {
    const blob = await fixture('orientation-3.jpg');
    const sniffed = await sniffType(blob);
    const { client, started } = counted(2);
    const controllers = [new AbortController(), new AbortController()];
    const both = controllers.map((c) => client.processMedia(blob, sniffed, { signal: c.signal }));
    controllers.forEach((c) => c.abort());
    for (const r of both) expect(isAbortError(await r.catch((e: unknown) => e))).toBe(true);
    const after = await Promise.all([client.processMedia(blob, sniffed), client.digestFile(blob)]);
    expect(after[0].kind).toBe('image');
    expect(after[1].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(started.count).toBe(2);
  });
});
