import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { AppError } from './app-error';
import { inflateCapped, inflatedStream } from './inflate-capped';

/** `bytes` handed out in pieces of the given sizes, as a network or a disk would. */
function streamOf(bytes: Uint8Array, pieceSizes: number[] = [7, 1000, 65_536]): ReadableStream<Uint8Array> {
  let at = 0;
  let n = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      const size = pieceSizes[n++ % pieceSizes.length]!;
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** Byte for byte (toEqual walks a large array one element at a time). */
const same = (a: Uint8Array | null, b: Uint8Array) => a !== null && Buffer.from(a).equals(Buffer.from(b));

async function failure(work: Promise<unknown>): Promise<AppError> {
  const e = await work.then(() => null, (err: unknown) => err);
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
}

const csv = new TextEncoder().encode(
  Array.from({ length: 20_000 }, (_, i) => `${i},2026-11-${String((i % 28) + 1).padStart(2, '0')},Station ${i % 37},${(i * 0.37).toFixed(2)}\n`).join(''),
);

/** 1 GiB of zeros as sixteen gzip members of 64 MiB each: about 1 MB stored. */
const gigabyteBomb = (() => {
  const member = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  return new Uint8Array(Buffer.concat(Array.from({ length: 16 }, () => member)));
})();

describe('inflatedStream', () => {
  it('gives back the original bytes exactly, however the stored bytes arrive', async () => {
    const stored = gzipSync(csv);
    expect(stored.length).toBeLessThan(csv.length / 3);
    for (const pieces of [[1, 2, 3, 4096], [3, 5000], [1 << 20]]) {
      expect(same(await readAll(inflatedStream(streamOf(stored, pieces), { bytes: csv.length })), csv)).toBe(true);
    }
  });

  it('stops a file recorded as 1 KB whose stored bytes inflate to 1 GB within 100 ms, with upload/integrity', async () => {
    expect(gigabyteBomb.length).toBeLessThan(2 * 1024 * 1024);
    expect(gunzipSync(gigabyteBomb.subarray(0, gigabyteBomb.length / 16)).length).toBe(64 * 1024 * 1024);
    const t0 = performance.now();
    const e = await failure(readAll(inflatedStream(streamOf(gigabyteBomb), { bytes: 1024, name: 'tiny.csv' })));
    expect(performance.now() - t0).toBeLessThan(100);
    expect(e.code).toBe('upload/integrity');
    expect(e.retryable).toBe(false);
    expect(e.message).toContain('tiny.csv');
  });

  it('fails cleanly on bytes that are not gzip, on a stream cut short, and on a size other than recorded', async () => {
    const stored = gzipSync(csv);
    const notGzip = new TextEncoder().encode('this was never compressed');
    const cut = stored.subarray(0, stored.length >> 1);
    const cases: [Uint8Array, number][] = [
      [notGzip, 100],
      [cut, csv.length],
      [stored, csv.length + 1],
      [stored, csv.length - 1],
      [new Uint8Array(0), 10],
    ];
    for (const [bytes, recorded] of cases) {
      expect((await failure(readAll(inflatedStream(streamOf(bytes), { bytes: recorded })))).code).toBe('upload/integrity');
    }
  });

  it('reads no further than the reader asks: a preview that takes the head leaves the rest unread', async () => {
    let pulled = 0;
    const stored = gzipSync(Buffer.alloc(32 * 1024 * 1024, 'a'));
    const source = streamOf(stored, [256]).pipeThrough(new TransformStream({ transform: (c, ctl) => ((pulled += c.byteLength), ctl.enqueue(c)) }));
    const reader = inflatedStream(source, { bytes: 32 * 1024 * 1024 }).getReader();
    const first = await reader.read();
    expect(first.value?.byteLength).toBeGreaterThan(0);
    await reader.cancel();
    expect(pulled).toBeLessThan(stored.length);
  });
});

describe('inflateCapped', () => {
  it('inflates within the cap and answers null past it or for broken data', async () => {
    const stored = gzipSync(csv);
    expect(same(await inflateCapped(stored, csv.length), csv)).toBe(true);
    expect(await inflateCapped(stored, csv.length - 1)).toBeNull();
    expect(await inflateCapped(stored.subarray(0, 100), csv.length)).toBeNull();
    const t0 = performance.now();
    expect(await inflateCapped(gigabyteBomb, 1024)).toBeNull();
    expect(performance.now() - t0).toBeLessThan(100);
  });
});
