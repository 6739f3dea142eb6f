import { createSHA256 } from 'hash-wasm';
import { hashBlob } from '../lib/blob-digest';

/**
 * The SHA-256 of a blob as lowercase hex, read slice by slice. `onProgress` gets the bytes hashed so far
 * after each slice.
 */
export async function sha256Hex(
  blob: Blob,
  opts: { signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<string> {
  const hasher = await createSHA256();
  await hashBlob(blob, hasher, opts);
  return hasher.digest('hex');
}
