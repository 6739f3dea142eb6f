/**
 * [Note: Reading a download's bytes into reused buffers]
 * A download moves gigabytes through the tab. Read the usual way (a file's or a response's stream, one new
 * ArrayBuffer per chunk), every chunk is garbage as soon as it is written, but its memory comes back only when
 * the garbage collector next runs, and for buffers that is late: measured in headless Chromium, copying 400 MB
 * out of OPFS that way left the tab 200 MB larger, and 50 files of 100 MiB zipped took it to 330 MB. So the
 * bytes are read with a BYOB reader into buffers of a small pool, and the writer gives each buffer back once
 * its write has completed (`writeReturning`): the same few buffers carry the whole download.
 * A buffer goes back to the pool only through `give`, so code that keeps a chunk (or a sink that holds on to
 * it) never sees its bytes change: an unreturned buffer is simply replaced by a new one. A source that cannot
 * be read BYOB is passed through as it is.
 */

/** 1 MiB: large enough that a read is worth its round trip to the disk or network, small enough to keep a few. */
const CHUNK_BYTES = 1024 * 1024;
/** Buffers kept for reuse; more may be in flight at once (they are then made, and left to the collector). */
const KEEP = 8;

export class ChunkPool {
  private readonly free: ArrayBuffer[] = [];
  /** Buffers handed out by a read and not yet given back. */
  private readonly lent = new WeakSet<ArrayBuffer>();
  /** Buffers made so far: as few as the chunks in flight at once, when every written chunk comes back. */
  allocated = 0;

  constructor(private readonly chunkBytes = CHUNK_BYTES) {}

  /** A view to read into: a returned buffer when there is one, otherwise a new one. */
  take(): Uint8Array<ArrayBuffer> {
    const reused = this.free.pop();
    if (reused) return new Uint8Array(reused);
    this.allocated++;
    return new Uint8Array(new ArrayBuffer(this.chunkBytes));
  }

  /** Marks the buffer behind a chunk a read has just filled (a BYOB read hands back a new ArrayBuffer object). */
  lend(chunk: Uint8Array): void {
    this.lent.add(chunk.buffer as ArrayBuffer);
  }

  /** Gives a written chunk's buffer back. Chunks that are not the pool's (headers, a passed-through stream) are ignored. */
  give(chunk: Uint8Array): void {
    const buffer = chunk.buffer as ArrayBuffer;
    if (!this.lent.has(buffer)) return;
    this.lent.delete(buffer);
    // A buffer transferred elsewhere meanwhile is detached (length 0): nothing to reuse.
    if (buffer.byteLength === this.chunkBytes && this.free.length < KEEP) this.free.push(buffer);
  }
}

/** `source`'s bytes, read into the pool's buffers; `source` itself when it cannot be read BYOB. */
export function readPooled(source: ReadableStream<Uint8Array>, pool: ChunkPool): ReadableStream<Uint8Array> {
  let reader: ReadableStreamBYOBReader;
  try {
    reader = source.getReader({ mode: 'byob' });
  } catch {
    return source;
  }
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const { value, done } = await reader.read(pool.take());
        if (value) pool.lend(value);
        if (done || !value) {
          if (value) pool.give(value);
          controller.close();
          return;
        }
        controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    },
    // One read ahead of the reader, so the disk or the network works while the last chunk is checksummed.
    { highWaterMark: 1 },
  );
}

/**
 * Writes `stream` into `writable` as `pipeTo` would (the next read overlaps the current write, the writer's
 * backpressure is obeyed, an abort or a failure on either side stops both), giving each chunk back to the pool
 * once its write has completed. Stopped, it rejects only once the writable has been aborted, so the caller can
 * remove the file it was writing.
 */
export async function writeReturning(stream: ReadableStream<Uint8Array>, writable: WritableStream<Uint8Array>, pool: ChunkPool, signal: AbortSignal): Promise<void> {
  const reader = stream.getReader();
  const writer = writable.getWriter();
  let failure: { reason: unknown } | null = null;
  // Settles once the writable has let go of its file: until then its temporary file is still there and the
  // file cannot be removed.
  let aborted: Promise<unknown> = Promise.resolve();
  const stop = (reason: unknown) => {
    if (failure) return;
    failure = { reason };
    void reader.cancel(reason).catch(() => undefined);
    aborted = writer.abort(reason).catch(() => undefined);
  };
  const onAbort = () => stop(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    signal.throwIfAborted();
    for (;;) {
      await writer.ready;
      const { value, done } = await reader.read();
      if (done) break;
      writer.write(value).then(
        () => pool.give(value),
        (e: unknown) => stop(e),
      );
    }
    await writer.close();
  } catch (e) {
    stop(e);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (failure) {
    await aborted;
    throw (failure as { reason: unknown }).reason;
  }
}
