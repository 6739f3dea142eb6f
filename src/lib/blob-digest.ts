import type { IHasher } from 'hash-wasm';
import { throwIfAborted } from './app-error';

/** Big enough to keep a WASM hasher busy, small enough that a 20 GiB file never sits in memory. */
const SLICE_BYTES = 4 * 1024 * 1024;

export interface DigestOptions {
  signal?: AbortSignal | undefined;
  onProgress?: (bytes: number) => void;
  /** Bytes read at a time (default 4 MiB). */
  sliceBytes?: number;
}

/**
 * Feeds a blob to hash-wasm hashers (after `init`) slice by slice, since WebCrypto can only hash a whole
 * buffer; the caller then takes each digest in the form it needs. Several hashers share one read of the
 * blob. `onProgress` gets the bytes hashed so far after each slice.
 */
export async function hashBlob(blob: Blob, hashers: IHasher | IHasher[], opts: DigestOptions = {}): Promise<void> {
  const { signal, onProgress, sliceBytes = SLICE_BYTES } = opts;
  const all = Array.isArray(hashers) ? hashers : [hashers];
  throwIfAborted(signal);
  for (const h of all) h.init();
  for (let offset = 0; offset < blob.size; offset += sliceBytes) {
    const end = Math.min(offset + sliceBytes, blob.size);
    const slice = new Uint8Array(await blob.slice(offset, end).arrayBuffer());
    throwIfAborted(signal);
    for (const h of all) h.update(slice);
    onProgress?.(end);
  }
}
