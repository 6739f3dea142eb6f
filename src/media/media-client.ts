import { limits } from '../config';
import { abortError, throwIfAborted } from '../lib/app-error';
import { fileResult } from './file-result';
import type { ImageLimits } from './image-pipeline';
import type { ProcessOptions, ProcessedMedia, SniffedType } from './media-types';
import type { MediaWorkerRequest, MediaWorkerResponse } from './media-worker-protocol';
import type { FileDigests } from './file-digests';
import type { XmpFields } from './xmp-metadata';
import { processVideo } from './video-poster';
import { log } from '../lib/log';

export interface HashOptions {
  signal?: AbortSignal;
  onProgress?: (bytes: number) => void;
  /** Take the MD5 too, in the same read (a single PUT's `Content-MD5`). */
  md5?: boolean;
}

export interface MediaClient {
  processMedia(file: Blob, sniffed: SniffedType, opts?: ProcessOptions): Promise<ProcessedMedia>;
  /** The file's SHA-256 and, when `md5` is set, its MD5, in one read. */
  digestFile(blob: Blob, opts?: HashOptions): Promise<FileDigests>;
  /** The file gzip-compressed, or null when that does not pay ([Note: Text files are stored gzip-compressed]). */
  compressText(blob: Blob, opts?: { signal?: AbortSignal }): Promise<Blob | null>;
  /** Where images and hashes run: decided when the first request starts the first worker. */
  mode(): Promise<'worker' | 'main-thread'>;
  dispose(): void;
}

/** How long a worker may take to load its modules before the main thread takes over. */
const WORKER_START_MS = 20_000;
/** How long a request waits for another worker to start before it queues at a busy one instead. */
const GROW_WAIT_MS = 2_000;

const defaultWorker = () => new Worker(new URL('./media-worker.ts', import.meta.url), { type: 'module' });

/**
 * As many workers as the device has cores, no more than the files the queue processes at once, and one for every
 * 2 GiB of memory the browser says the device has (`navigator.deviceMemory`, Chromium only): each worker may hold
 * a full-size picture up to the decode limit (100 MP, 400 MB of pixels) and the heap of any WebAssembly decoder
 * it loaded, which never shrinks, so a phone with many cores and little memory runs fewer.
 */
export function poolSizeFor(cores: number, filesInFlight: number, deviceMemoryGiB = 0): number {
  return Math.max(1, Math.floor(Math.min(cores || 1, filesInFlight, deviceMemoryGiB > 0 ? deviceMemoryGiB / 2 : Infinity)));
}

function defaultPoolSize(): number {
  const nav = typeof navigator === 'undefined' ? undefined : (navigator as Navigator & { deviceMemory?: number });
  return poolSizeFor(nav?.hardwareConcurrency ?? 1, limits().filesInFlight, nav?.deviceMemory);
}

// [Note: Media worker with a main-thread fallback]
// Module workers serve every request, multiplexed by id; a worker says `ready` once its modules have loaded.
// The first request starts one. If it cannot be constructed, reports an error before `ready`, or stays silent
// for WORKER_START_MS (a strict CSP, a browser without module workers, a failed chunk), the same pipeline code is
// imported on the main thread and used from then on, with one console warning. A worker that dies later hands
// every pending request to the main thread too. Aborting a request settles it at once with an AbortError and
// tells its worker to stop. Videos always run on the main thread: a worker has no video element.
//
// [Note: A worker per core]
// One worker encodes on one core: a 24 MP photo's preview and thumbnail are ~0.5 s of one thread, so a batch of
// photos went no faster with three in flight than with one (measured: 541 and 544 ms a photo on 2 cores). So a
// request that finds every worker busy starts another, up to defaultPoolSize, and each request goes to the
// worker with the fewest in hand. Two workers on 2 cores made copies of 24 photos 1.54× as fast, for ~40 MiB
// more. A worker beyond the first that cannot start is not an outage: the pool stops growing, and the ones
// running go on. Each worker holds one full-size picture at a time ([Note: One full-size picture at a time]).

type WorkerAnswer = ProcessedMedia | XmpFields | FileDigests | Blob | null;

/** A running worker and how many requests it has in hand. */
interface Slot {
  worker: Worker;
  load: number;
}

type Pending = {
  request: Exclude<MediaWorkerRequest, { type: 'abort' }>;
  slot: Slot;
  resolve: (value: WorkerAnswer) => void;
  reject: (reason: unknown) => void;
  onProgress?: (bytes: number) => void;
  signal?: AbortSignal;
};

export function createMediaClient(options: { createWorker?: () => Worker; workers?: number } = {}): MediaClient {
  const createWorker = options.createWorker ?? defaultWorker;
  const poolSize = Math.max(1, options.workers ?? defaultPoolSize());
  /** Whether requests run in workers; settled by the first worker's start. */
  let started: Promise<boolean> | null = null;
  let failedOver = false;
  const slots: Slot[] = [];
  let growing: Promise<Slot | null> | null = null;
  let canGrow = true;
  /** Bumped by dispose(): a worker that comes up after it is not used. */
  let generation = 0;
  let nextId = 1;
  const pending = new Map<number, Pending>();

  const failOver = (reason: unknown) => {
    if (!failedOver) {
      failedOver = true;
      log.warn('Shoebox: the media worker could not run; images are processed on the main thread.', reason);
    }
    for (const s of slots.splice(0)) s.worker.terminate();
    started = Promise.resolve(false);
    // Requests the workers held are run again here.
    for (const [id, p] of pending) {
      pending.delete(id);
      raceAbort(runOnMainThread(p.request, p.signal, p.onProgress), p.signal).then(p.resolve, p.reject);
    }
  };

  const answer = (msg: Exclude<MediaWorkerResponse, { type: 'ready' }>) => {
    const p = pending.get(msg.id);
    if (!p) return;
    if (msg.type === 'progress') {
      p.onProgress?.(msg.bytes);
      return;
    }
    pending.delete(msg.id);
    p.slot.load--;
    if (msg.type === 'processed') p.resolve(msg.media);
    else if (msg.type === 'sidecar-read') p.resolve(msg.fields);
    else if (msg.type === 'hashed') p.resolve(msg.digests);
    else if (msg.type === 'gzipped') p.resolve(msg.blob);
    else p.reject(Object.assign(new Error(msg.message), { name: msg.name }));
  };

  /** Starts a worker: its slot once it is ready, or why it could not start. */
  const spawn = () =>
    new Promise<{ slot: Slot } | { error: unknown }>((resolve) => {
      const born = generation;
      let w: Worker;
      try {
        w = createWorker();
      } catch (error) {
        resolve({ error });
        return;
      }
      const slot: Slot = { worker: w, load: 0 };
      let settled = false;
      let ready = false;
      const timer = setTimeout(() => notReady(new Error('the media worker did not start in time')), WORKER_START_MS);
      const notReady = (error: unknown) => {
        clearTimeout(timer);
        if (settled) return;
        settled = true;
        w.terminate();
        resolve({ error });
      };
      w.addEventListener('error', (ev) => {
        ev.preventDefault();
        if (ready) failOver(ev.message || 'media worker error');
        else notReady(ev.message || 'media worker failed to load');
      });
      w.addEventListener('messageerror', () => (ready ? failOver('media worker message could not be read') : notReady('media worker message could not be read')));
      w.addEventListener('message', (ev: MessageEvent<MediaWorkerResponse>) => {
        const msg = ev.data;
        if (msg.type !== 'ready') return answer(msg);
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Started after the pool gave up on workers, or after dispose(): not used.
        if (failedOver || born !== generation) {
          w.terminate();
          resolve({ error: 'the media workers have stopped' });
          return;
        }
        ready = true;
        slots.push(slot);
        resolve({ slot });
      });
    });

  const start = (): Promise<boolean> => {
    if (started) return started;
    const born = generation;
    return (started = spawn().then((r) => {
      if ('slot' in r) return true;
      if (born === generation) failOver(r.error);
      return false;
    }));
  };

  const leastLoaded = (): Slot | null => slots.reduce<Slot | null>((best, s) => (best && best.load <= s.load ? best : s), null);

  /**
   * The worker for the next request, counted as in hand at once so that requests arriving together spread
   * ([Note: A worker per core]); null on the main thread.
   */
  const pick = async (): Promise<Slot | null> => {
    if (!(await start())) return null;
    const best = leastLoaded();
    if (best && best.load > 0 && canGrow && slots.length < poolSize) {
      const born = generation;
      growing ??= spawn().then((r) => {
        if (born !== generation) return null;
        growing = null;
        if ('slot' in r) return r.slot;
        canGrow = false;
        if (!failedOver) log.warn('Shoebox: another media worker could not start; going on with fewer.', r.error);
        return null;
      });
      await Promise.race([growing, new Promise((resolve) => setTimeout(resolve, GROW_WAIT_MS))]);
    }
    const slot = leastLoaded();
    if (slot) slot.load++;
    return slot;
  };

  const send = async (
    request: Exclude<MediaWorkerRequest, { type: 'abort' }>,
    signal: AbortSignal | undefined,
    onProgress?: (bytes: number) => void,
  ): Promise<WorkerAnswer> => {
    throwIfAborted(signal);
    const slot = await pick();
    if (slot && signal?.aborted) slot.load--;
    throwIfAborted(signal);
    if (!slot) return raceAbort(runOnMainThread(request, signal, onProgress), signal);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!pending.delete(request.id)) return;
        slot.load--;
        slot.worker.postMessage({ type: 'abort', id: request.id } satisfies MediaWorkerRequest);
        reject(abortError());
      };
      const settle = <T>(fn: (v: T) => void) => (v: T) => {
        signal?.removeEventListener('abort', onAbort);
        fn(v);
      };
      pending.set(request.id, { request, slot, resolve: settle(resolve), reject: settle(reject), onProgress, signal });
      signal?.addEventListener('abort', onAbort, { once: true });
      slot.worker.postMessage(request);
    });
  };

  const processFile = async (file: Blob, sniffed: SniffedType, opts: ProcessOptions = {}): Promise<ProcessedMedia> => {
    const { signal } = opts;
    throwIfAborted(signal);
    const imageLimits = currentImageLimits();
    if (sniffed.kind === 'video') return raceAbort(processVideo(file, sniffed, { signal, limits: imageLimits }), signal);
    if (sniffed.kind !== 'image' || !sniffed.decodable) return fileResult(sniffed.mime);
    try {
      return (await send({ type: 'process', id: nextId++, blob: file, sniffed, limits: imageLimits }, signal)) as ProcessedMedia;
    } catch (e) {
      if (signal?.aborted) throw e;
      // The pipeline keeps bad content as a file itself; this is a fault of the pipeline, kept the same way.
      log.error('Shoebox: image processing failed', e);
      return fileResult(sniffed.mime, 'image/undecodable');
    }
  };

  return {
    async processMedia(file, sniffed, opts = {}) {
      const media = await processFile(file, sniffed, opts);
      if (!opts.sidecar) return media;
      // [Note: Sidecars merge into their photo]
      let fields: XmpFields;
      try {
        fields = (await send({ type: 'sidecar', id: nextId++, text: opts.sidecar }, opts.signal)) as XmpFields;
      } catch (e) {
        if (opts.signal?.aborted) throw e;
        log.warn('Shoebox: an XMP sidecar could not be read; the file goes up without it', e);
        return media;
      }
      return (await import('./sidecar-fields')).withSidecar(media, fields);
    },
    async digestFile(blob, opts = {}) {
      return (await send({ type: 'hash', id: nextId++, blob, md5: opts.md5 ?? false }, opts.signal, opts.onProgress)) as FileDigests;
    },
    async compressText(blob, opts = {}) {
      return (await send({ type: 'gzip', id: nextId++, blob }, opts.signal)) as Blob | null;
    },
    async mode() {
      return (await start()) ? 'worker' : 'main-thread';
    },
    dispose() {
      generation++;
      for (const s of slots.splice(0)) s.worker.terminate();
      started = null;
      growing = null;
      canGrow = true;
      for (const p of pending.values()) p.reject(abortError('The media client was closed.'));
      pending.clear();
    },
  };
}

function currentImageLimits(): ImageLimits {
  const l = limits();
  return {
    thumbLongEdge: l.thumbLongEdge,
    previewLongEdge: l.previewLongEdge,
    thumbQuality: l.thumbQuality,
    previewQuality: l.previewQuality,
    maxDecodePixels: l.maxDecodePixels,
    maxDecodeSide: l.maxDecodeSide,
  };
}

async function runOnMainThread(
  request: Exclude<MediaWorkerRequest, { type: 'abort' }>,
  signal: AbortSignal | undefined,
  onProgress?: (bytes: number) => void,
): Promise<WorkerAnswer> {
  if (request.type === 'sidecar') return (await import('./xmp-metadata')).parseXmp(request.text);
  if (request.type === 'process') {
    const [{ processImage }, { withDerivedMd5 }] = await Promise.all([import('./image-pipeline'), import('./file-digests')]);
    return withDerivedMd5(await processImage(request.blob, request.sniffed, { signal, limits: request.limits }), signal);
  }
  if (request.type === 'gzip') {
    const { gzipText } = await import('./text-compression');
    return gzipText(request.blob, { signal });
  }
  const { fileDigests } = await import('./file-digests');
  return fileDigests(request.blob, { md5: request.md5, signal, onProgress });
}

/** Settles with an AbortError as soon as `signal` fires, without waiting for `work` to notice. */
function raceAbort<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

let shared: MediaClient | null = null;
const client = () => (shared ??= createMediaClient());

/**
 * What the pipeline makes of one file: preview, thumbnail, placeholder, size, date and metadata for an image
 * (in the media worker); poster, duration and size for a video; nothing derived for any other file. Never
 * throws for bad content (it comes back as a file with a notice); throws only an AbortError on abort.
 */
export async function processMedia(file: Blob, sniffed: SniffedType, opts?: ProcessOptions): Promise<ProcessedMedia> {
  return client().processMedia(file, sniffed, opts);
}

/** The file's SHA-256 (lowercase hex), computed in the media worker, streaming. */
export async function hashFile(blob: Blob, opts?: Omit<HashOptions, 'md5'>): Promise<string> {
  return (await client().digestFile(blob, opts)).sha256;
}

/** The file's SHA-256 and, when `md5` is set, its MD5 (base64), in one read in the media worker. */
export async function digestFile(blob: Blob, opts?: HashOptions): Promise<FileDigests> {
  return client().digestFile(blob, opts);
}

/** A text file gzip-compressed in the media worker, or null when it is not worth it. */
export async function compressText(blob: Blob, opts?: { signal?: AbortSignal }): Promise<Blob | null> {
  return client().compressText(blob, opts);
}
