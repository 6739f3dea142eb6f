import type { Item } from '../../domain/entities';
import type { AlbumBackend } from '../../backend/ports';
import { AppError } from '../../lib/app-error';
import type { OpenEntry } from './zip-stream';

/**
 * The bytes of a member's originals, opened one at a time as the archive reaches them. Where files live in
 * this browser (OPFS), `read` answers with the file itself, which is streamed from disk; elsewhere each
 * original gets its own short-lived URL just before it is fetched (an album can take hours to download, longer
 * than a URL made at the start would live) and its body is streamed, never buffered.
 */
export function openMemberOriginals(backend: Pick<AlbumBackend, 'capabilities' | 'files'>, items: readonly Item[]): OpenEntry {
  const byId = new Map(items.map((i) => [i.id, i]));
  const { files } = backend;
  return async (entry, signal) => {
    const item = byId.get(entry.item.id);
    if (!item) throw new AppError('item/not-found', `no original for ${entry.item.id}`);
    if (backend.capabilities.storage.onDevice) return files.read(item.originalKey, { signal });
    const url = (await files.urls([item.originalKey], { signal, downloadAs: item.filename })).get(item.originalKey);
    if (!url) throw new AppError('item/not-found', `no original for ${entry.name}`);
    return fetchBody(url, signal);
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
