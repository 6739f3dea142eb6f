// The media worker: decoding, resizing, encoding and hashing off the main thread, so scrolling and typing stay
// smooth while a batch of photos is prepared. Requests are multiplexed by id; an `abort` message cancels one.
import { isAbortError } from '../lib/app-error';
import { processImage } from './image-pipeline';
import { parseXmp } from './xmp-metadata';
import type { MediaWorkerRequest, MediaWorkerResponse } from './media-worker-protocol';
import { fileDigests, withDerivedMd5 } from './file-digests';
import { gzipText } from './text-compression';

const scope = globalThis as unknown as {
  postMessage(message: MediaWorkerResponse): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent<MediaWorkerRequest>) => void): void;
};

const running = new Map<number, AbortController>();

scope.addEventListener('message', (ev) => {
  const req = ev.data;
  if (req.type === 'abort') {
    running.get(req.id)?.abort();
    running.delete(req.id);
    return;
  }
  const controller = new AbortController();
  running.set(req.id, controller);
  void handle(req, controller.signal).finally(() => running.delete(req.id));
});

async function handle(req: Exclude<MediaWorkerRequest, { type: 'abort' }>, signal: AbortSignal): Promise<void> {
  try {
    if (req.type === 'process') {
      const media = await withDerivedMd5(await processImage(req.blob, req.sniffed, { signal, limits: req.limits }), signal);
      scope.postMessage({ type: 'processed', id: req.id, media });
    } else if (req.type === 'sidecar') {
      scope.postMessage({ type: 'sidecar-read', id: req.id, fields: parseXmp(req.text) });
    } else if (req.type === 'gzip') {
      scope.postMessage({ type: 'gzipped', id: req.id, blob: await gzipText(req.blob, { signal }) });
    } else {
      const digests = await fileDigests(req.blob, {
        md5: req.md5,
        signal,
        onProgress: (bytes) => scope.postMessage({ type: 'progress', id: req.id, bytes }),
      });
      scope.postMessage({ type: 'hashed', id: req.id, digests });
    }
  } catch (e) {
    if (isAbortError(e)) return; // the client has already settled this request
    const err = e instanceof Error ? e : new Error(String(e));
    scope.postMessage({ type: 'failed', id: req.id, name: err.name, message: err.message });
  }
}

scope.postMessage({ type: 'ready' });
