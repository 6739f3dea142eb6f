import { describe, expect, it } from 'vitest';
import { ChunkPool, readPooled, writeReturning } from './chunk-pool';

/** 24 MiB of numbered bytes: a misplaced or overwritten chunk shows in the digest. */
function bigBlob(): Blob {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  for (let i = 0; i < 24; i++) {
    const part = new Uint8Array(1024 * 1024);
    crypto.getRandomValues(part.subarray(0, 65536));
    part.fill(i, 65536);
    parts.push(part);
  }
  return new Blob(parts);
}

const digest = async (data: BufferSource | Blob) => {
  const bytes = data instanceof Blob ? await data.arrayBuffer() : data;
  return Array.from(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
};

/** A sink that hashes as it goes (keeping nothing) and notes every buffer it was handed. */
function hashingSink() {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  const copy: Uint8Array[] = [];
  const writable = new WritableStream<Uint8Array>({
    async write(chunk) {
      chunks.push(chunk);
      bytes += chunk.byteLength;
      copy.push(chunk.slice());
      // A write that takes time, as a disk's does: the next read overlaps it.
      await new Promise((r) => setTimeout(r, 0));
    },
  });
  return { writable, chunks, bytes: () => bytes, written: () => new Blob(copy as BlobPart[]) };
}

describe('downloads read into reused buffers', () => {
  it('copies a file byte for byte through a handful of buffers when the writer gives them back', async () => {
    const blob = bigBlob();
    const pool = new ChunkPool();
    const sink = hashingSink();
    await writeReturning(readPooled(blob.stream(), pool), sink.writable, pool, new AbortController().signal);
    expect(sink.bytes()).toBe(blob.size);
    expect(await digest(sink.written())).toBe(await digest(blob));
    // 24 MiB in chunks of at most 1 MiB: at least 24 chunks, carried by a few buffers. (Each read hands the
    // memory back in a new ArrayBuffer object, so the sink cannot tell; the pool counts what it made.)
    expect(sink.chunks.length).toBeGreaterThanOrEqual(24);
    expect(pool.allocated).toBeLessThanOrEqual(4);
  });

  it('never reuses a buffer that was not given back: a reader that keeps its chunks keeps their bytes', async () => {
    const blob = bigBlob();
    const pool = new ChunkPool();
    const kept: Uint8Array[] = [];
    await readPooled(blob.stream(), pool).pipeTo(new WritableStream({ write: (chunk) => void kept.push(chunk) }));
    expect(pool.allocated).toBe(kept.length + 1);
    expect(await digest(new Blob(kept as BlobPart[]))).toBe(await digest(blob));
  });

  it('passes a stream that cannot be read into given buffers through as it is', async () => {
    const plain = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('hello '));
        c.enqueue(new TextEncoder().encode('world'));
        c.close();
      },
    });
    expect(readPooled(plain, new ChunkPool())).toBe(plain);
  });

  it('stops reading and discards the file when the download is cancelled', async () => {
    const pool = new ChunkPool();
    const controller = new AbortController();
    let aborted: unknown = null;
    let writes = 0;
    const writable = new WritableStream<Uint8Array>({
      write() {
        if (++writes === 3) controller.abort(new DOMException('cancelled', 'AbortError'));
      },
      abort(reason) {
        aborted = reason;
      },
    });
    let cancelled = false;
    const reader = readPooled(bigBlob().stream(), pool).getReader();
    const watched = new ReadableStream<Uint8Array>({
      async pull(c) {
        const r = await reader.read();
        if (r.done) c.close();
        else c.enqueue(r.value);
      },
      cancel: (reason) => {
        cancelled = true;
        return reader.cancel(reason);
      },
    });
    await expect(writeReturning(watched, writable, pool, controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(aborted).toMatchObject({ name: 'AbortError' });
    expect(cancelled).toBe(true);
    expect(writes).toBeLessThan(24);
  });

  it('fails with the writer\'s error and stops reading when a write fails (a full disk)', async () => {
    const pool = new ChunkPool();
    let reads = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(c) {
        reads++;
        c.enqueue(new Uint8Array(1024));
      },
    });
    const full = new DOMException('no space left', 'QuotaExceededError');
    let writes = 0;
    const writable = new WritableStream<Uint8Array>({
      write() {
        if (++writes === 5) throw full;
      },
    });
    await expect(writeReturning(source, writable, pool, new AbortController().signal)).rejects.toBe(full);
    expect(reads).toBeLessThan(20);
  });
});
