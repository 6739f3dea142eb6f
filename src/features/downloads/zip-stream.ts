import { abortError, AppError } from '../../lib/app-error';
import { ChunkPool, readPooled } from './chunk-pool';
import type { ZipEntry, ZipPlan } from './zip-plan';

/** The bytes of one entry, opened when the archive reaches it. A Blob may be a file on disk (OPFS), never read whole. */
export type OpenEntry = (entry: ZipEntry, signal: AbortSignal) => Promise<ReadableStream<Uint8Array> | Blob>;

export interface ZipProgress {
  /** Archive bytes produced so far, and the archive's exact size. */
  bytes: number;
  totalBytes: number;
  /** Files written completely, and how many there are. */
  files: number;
  totalFiles: number;
}

export interface ZipStream {
  stream: ReadableStream<Uint8Array>;
  /** The archive's exact length, known before its first byte (Content-Length, the save dialog's progress). */
  size: number;
  /** Settles when the last byte has been read, or with the error that stopped the archive. */
  done: Promise<void>;
  /** The buffers the files are read into: a writer gives each chunk back once written (chunk-pool.ts). */
  pool: ChunkPool;
}

/**
 * [Note: Streaming an album as one ZIP]
 * The archive is made by client-zip (loaded with import(): most visits never download one) as a stream that
 * is pulled by whatever writes it: a file on disk (File System Access) or the service worker's download
 * response. client-zip asks for the next entry only once the previous one is written, and `open` is called
 * then, so at most one file is being fetched and only the stream's small queues are in memory, however large
 * the album. Entries are stored as they are (photos and videos do not compress), with sizes given up front,
 * so `predictLength` gives the exact length before the first byte and ZIP64 records are written where an
 * entry or the archive passes 4 GiB. Each entry's bytes are counted on their way in: a file that delivers
 * more or fewer bytes than its row says would make that length a lie, so the archive fails instead. The files' bytes are read into a few reused buffers ([Note: Reading a download's
 bytes into reused buffers]).
 */
export async function zipStream(plan: ZipPlan, open: OpenEntry, opts: { signal?: AbortSignal; onProgress?: (p: ZipProgress) => void } = {}): Promise<ZipStream> {
  const { makeZip, predictLength } = await import('client-zip');
  const signal = opts.signal ?? new AbortController().signal;
  const size = Number(
    predictLength([
      { name: plan.manifest.name, size: plan.manifest.bytes.byteLength },
      ...plan.sidecars.map((s) => ({ name: s.name, size: s.bytes.byteLength })),
      ...plan.entries.map((e) => ({ name: e.name, size: e.size })),
    ]),
  );
  const progress: ZipProgress = { bytes: 0, totalBytes: size, files: 0, totalFiles: plan.entries.length };
  const report = () => opts.onProgress?.({ ...progress });
  const pool = new ChunkPool();

  async function* inputs() {
    // The manifest goes first: an archive cut short still says what it was meant to hold.
    yield { name: plan.manifest.name, lastModified: plan.manifest.lastModified, input: plan.manifest.bytes };
    // The sidecars next, small and made here: the photographer's work is there even if the archive is cut short.
    for (const s of plan.sidecars) yield { name: s.name, lastModified: s.lastModified, input: s.bytes };
    for (const entry of plan.entries) {
      signal.throwIfAborted();
      const source = await open(entry, signal);
      const body = readPooled(source instanceof Blob ? source.stream() : source, pool);
      yield { name: entry.name, lastModified: entry.lastModified, size: entry.size, input: body.pipeThrough(exactLength(entry, () => { progress.files++; report(); })) };
    }
  }

  const reader = makeZip(inputs(), { buffersAreUTF8: true }).getReader();
  let settle: { resolve: () => void; reject: (e: unknown) => void } | undefined;
  const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
  done.catch(() => undefined);
  let out: ReadableStreamDefaultController<Uint8Array> | undefined;
  const fail = (e: unknown) => {
    settle?.reject(e);
    void reader.cancel(e).catch(() => undefined);
    try {
      out?.error(e);
    } catch {
      // Already closed or errored.
    }
  };
  signal.addEventListener('abort', () => fail(signal.reason), { once: true });
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      out = controller;
      report();
    },
    async pull(controller) {
      try {
        const next = await reader.read();
        if (next.done) {
          controller.close();
          settle?.resolve();
          return;
        }
        progress.bytes += next.value.byteLength;
        controller.enqueue(next.value);
        report();
      } catch (e) {
        fail(e);
      }
    },
    // The reader went away (a download cancelled in the browser, a closed tab): nothing more is fetched.
    cancel(reason) {
      settle?.reject(reason ?? abortError('The download was cancelled'));
      return reader.cancel(reason);
    },
  });
  return { stream, size, done, pool };
}

/** Passes an entry's bytes through, failing the archive if they are not exactly as many as announced. */
function exactLength(entry: ZipEntry, done: () => void): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  const mismatch = () => new AppError('item/not-found', `"${entry.name}": expected ${entry.size} bytes, got ${seen}`, { retryable: false });
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > entry.size) throw mismatch();
      controller.enqueue(chunk);
    },
    flush() {
      if (seen !== entry.size) throw mismatch();
      done();
    },
  });
}
