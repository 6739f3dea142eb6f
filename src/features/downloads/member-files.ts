import type { Item } from '../../domain/entities';
import type { AlbumBackend } from '../../backend/ports';
import { AppError } from '../../lib/app-error';
import { inflatedStream } from '../../lib/inflate-capped';
import type { OpenEntry } from './zip-stream';

/**
 * The original's own bytes from what is stored: inflated as they are read when the item is stored compressed
 * ([Note: Text files are stored gzip-compressed], [Note: Every inflation is streamed and capped]), so the
 * entry gets exactly `item.bytes` bytes, or fails with `upload/integrity`; anything else as it is.
 */
export function originalBytes(item: Pick<Item, 'bytes' | 'filename' | 'storedEncoding'>, stored: ReadableStream<Uint8Array> | Blob): ReadableStream<Uint8Array> | Blob {
  if (item.storedEncoding !== 'gzip') return stored;
  return inflatedStream(stored instanceof Blob ? stored.stream() : stored, { bytes: item.bytes, name: item.filename });
}

/** The bytes of one original, as the user uploaded it (see openMemberOriginals). */
export async function openOriginal(backend: Pick<AlbumBackend, 'capabilities' | 'files'>, item: Item, signal: AbortSignal): Promise<ReadableStream<Uint8Array> | Blob> {
  const { files } = backend;
  if (backend.capabilities.storage.onDevice) return originalBytes(item, await files.read(item.originalKey, { signal }));
  const url = (await files.urls([item.originalKey], { signal, downloadAs: item.filename })).get(item.originalKey);
  if (!url) throw new AppError('item/not-found', `no original for ${item.filename}`);
  return originalBytes(item, await fetchBody(url, signal));
}

/**
 * The bytes of a member's originals, opened one at a time as the archive reaches them. Where files live in
 * this browser (OPFS), `read` answers with the file itself, which is streamed from disk; elsewhere each
 * original gets its own short-lived URL just before it is fetched (an album can take hours to download, longer
 * than a URL made at the start would live) and its body is streamed, never buffered.
 */
export function openMemberOriginals(backend: Pick<AlbumBackend, 'capabilities' | 'files'>, items: readonly Item[]): OpenEntry {
  const byId = new Map(items.map((i) => [i.id, i]));
  return async (entry, signal) => {
    const item = byId.get(entry.item.id);
    if (!item) throw new AppError('item/not-found', `no original for ${entry.item.id}`);
    return openOriginal(backend, item, signal);
  };
}

/** A GET's body as a stream, with HTTP and network failures as the product's errors. */
export async function fetchBody(url: string, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  let res: Response;
  try {
    res = await fetch(url, { signal, credentials: 'omit' });
  } catch (e) {
    if (signal.aborted) throw e;
    throw new AppError(navigator.onLine === false ? 'offline' : 'backend/unreachable', 'the file could not be fetched', { cause: e });
  }
  if (res.status === 404) throw new AppError('item/not-found', `storage answered ${res.status}`);
  if (res.status === 401 || res.status === 403) throw new AppError('storage/denied', `storage answered ${res.status}`);
  if (!res.ok || !res.body) throw new AppError('backend/unreachable', `storage answered ${res.status}`);
  return res.body;
}
