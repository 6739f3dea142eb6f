import { createSHA256 } from 'hash-wasm';
import { throwIfAborted } from '../lib/app-error';

/** Big enough to keep the WASM hasher busy, small enough that a 20 GiB file never sits in memory. */
const SLICE_BYTES = 4 * 1024 * 1024;

/**
 * The SHA-256 of a blob as lowercase hex, read slice by slice (WebCrypto can only hash a whole buffer).
 * `onProgress` gets the bytes hashed so far after each slice.
 */
export async function sha256Hex(
  blob: Blob,
  opts: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<string> {
  const { signal, onProgress } = opts;
  throwIfAborted(signal);
  const hasher = await createSHA256();
  hasher.init();
  for (let offset = 0; offset < blob.size; offset += SLICE_BYTES) {
    const end = Math.min(offset + SLICE_BYTES, blob.size);
    const slice = new Uint8Array(await blob.slice(offset, end).arrayBuffer());
    throwIfAborted(signal);
    hasher.update(slice);
    onProgress?.(end);
  }
  return hasher.digest('hex');
}
