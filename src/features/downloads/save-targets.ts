import { AppError, isAbortError } from '../../lib/app-error';
import { DOWNLOAD_PATH, type WorkerDownloadMessage } from '../../lib/worker-download';
import { writeReturning, type ChunkPool } from './chunk-pool';

/** The File System Access API's pickers (Chromium), which the DOM types do not name yet. */
interface WritableFile { write(data: BufferSource | Blob): Promise<void>; close(): Promise<void>; abort(): Promise<void> }
export interface PickedFile { createWritable(): Promise<WritableStream<Uint8Array> & WritableFile> }
export interface PickedFolder {
  getFileHandle(name: string, opts?: { create?: boolean }): Promise<PickedFile & { getFile(): Promise<File>; move?(newName: string): Promise<void> }>;
  removeEntry(name: string): Promise<void>;
}
interface Pickers {
  showSaveFilePicker?: (opts: { suggestedName: string; types?: { description: string; accept: Record<string, string[]> }[] }) => Promise<PickedFile>;
  showDirectoryPicker?: (opts: { mode: 'readwrite'; id?: string }) => Promise<PickedFolder>;
}
const pickers = () => window as unknown as Pickers;

export const canPickFile = () => typeof pickers().showSaveFilePicker === 'function';
export const canPickFolder = () => typeof pickers().showDirectoryPicker === 'function';

/** Asks where to save (call it straight from the click: the picker needs the user's gesture). Null when dismissed. */
export async function pickSaveFile(suggestedName: string): Promise<PickedFile | null> {
  try {
    return await pickers().showSaveFilePicker!({ suggestedName, types: [{ description: 'ZIP archive', accept: { 'application/zip': ['.zip'] } }] });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') return null;
    throw new AppError('storage/denied', 'the file could not be created', { cause: e });
  }
}

export async function pickFolder(): Promise<PickedFolder | null> {
  try {
    return await pickers().showDirectoryPicker!({ mode: 'readwrite', id: 'shoebox-album' });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') return null;
    throw new AppError('storage/denied', 'the folder could not be opened', { cause: e });
  }
}

/** Writes the stream into the picked file; an interrupted write leaves no half file behind (the browser discards it). */
export async function writeToFile(file: PickedFile, source: { stream: ReadableStream<Uint8Array>; pool: ChunkPool }, signal: AbortSignal): Promise<void> {
  try {
    await writeReturning(source.stream, await file.createWritable(), source.pool, signal);
  } catch (e) {
    if (signal.aborted || isAbortError(e) || e instanceof AppError) throw e;
    // The disk is full, the file was taken away, or the browser withdrew the permission.
    throw new AppError('storage/denied', 'the file could not be written', { cause: e, retryable: false });
  }
}

/** The browser's own download of the stream, served by the service worker ([Note: Downloads served by the service worker]). */
export async function downloadThroughWorker(stream: ReadableStream<Uint8Array>, size: number, filename: string): Promise<void> {
  const controller = await serviceWorkerController();
  if (!controller) throw new AppError('offline', 'no service worker controls this page');
  const id = crypto.randomUUID();
  const channel = new MessageChannel();
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new AppError('backend/unreachable', 'the service worker did not answer')), 10_000);
    channel.port1.onmessage = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  const message: WorkerDownloadMessage = { type: 'shoebox:download', id, filename, size, mime: 'application/zip', stream };
  controller.postMessage(message, [channel.port2, stream as unknown as Transferable]);
  await ready;
  // An ordinary navigation to a same-origin address: the worker's answer is an attachment, so the page stays.
  // Not `<a download>`: Chromium fetches those past the service worker.
  const a = document.createElement('a');
  a.href = `${DOWNLOAD_PATH}${encodeURIComponent(id)}/${encodeURIComponent(filename)}`;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
}

async function serviceWorkerController(): Promise<ServiceWorker | null> {
  if (!('serviceWorker' in navigator)) return null;
  if (navigator.serviceWorker.controller) return navigator.serviceWorker.controller;
  // Right after the first visit the worker may still be taking control (it claims open pages when it starts).
  const claimed = new Promise<void>((resolve) => navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }));
  await Promise.race([claimed, new Promise((r) => setTimeout(r, 10_000))]);
  return navigator.serviceWorker.controller;
}
