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
 * Feeds a blob to a hash-wasm hasher (after `init`) slice by slice, since WebCrypto can only hash a whole
 * buffer; the caller then takes the digest in the form it needs. `onProgress` gets the bytes hashed so far
 * after each slice.
 */
export async function hashBlob(blob: Blob, hasher: IHasher, opts: DigestOptions = {}): Promise<void> {
  const { signal, onProgress, sliceBytes = SLICE_BYTES } = opts;
  throwIfAborted(signal);
  hasher.init();
  for (let offset = 0; offset < blob.size; offset += sliceBytes) {
    const end = Math.min(offset + sliceBytes, blob.size);
    const slice = new Uint8Array(await blob.slice(offset, end).arrayBuffer());
    throwIfAborted(signal);
    hasher.update(slice);
    onProgress?.(end);
  }
}
