import { createSHA256 } from 'hash-wasm';
import { digestBlob } from '../lib/blob-digest';

/**
 * The SHA-256 of a blob as lowercase hex, read slice by slice. `onProgress` gets the bytes hashed so far
 * after each slice.
 */
export async function sha256Hex(
  blob: Blob,
  opts: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<string> {
  const digest = await digestBlob(blob, await createSHA256(), opts);
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
