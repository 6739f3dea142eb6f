/**
 * The `Content-MD5` of a request body: the base64 MD5 of its bytes (RFC 1864). S3 providers that check it
 * (AWS, R2, B2, MinIO, Ceph) refuse a PUT whose bytes arrived different (`BadDigest`), so a body damaged on
 * the way is sent again (`upload/integrity`) instead of being stored. The upload queue takes an original's MD5
 * in the same read as its SHA-256, and the media worker a preview's and thumbnail's as it makes them, and
 * passes them on (`UploadRequest.contentMd5`); for anything else the S3 adapter reads the body here slice by
 * slice just before it is sent, and the browser reads it again from disk to send it. Single PUTs only: see
 * [Note: No MD5 per part] in src/backend/s3/object-uploader.ts.
 */
import { createMD5, type IHasher } from 'hash-wasm';
import { toBase64 } from './base64';
import { hashBlob } from './blob-digest';

// Several files are hashed at once while others are sent: small reads keep that memory small.
const SLICE_BYTES = 1024 * 1024;

// Hashers are reused: each one owns a WebAssembly memory, which only a garbage collection would give back,
// so one per part made a 1 GiB upload's tab grow by tens of MiB.
const idle: IHasher[] = [];

export async function contentMd5(body: Blob, signal?: AbortSignal): Promise<string> {
  const hasher = idle.pop() ?? (await createMD5());
  try {
    await hashBlob(body, hasher, { signal, sliceBytes: SLICE_BYTES });
    return toBase64(hasher.digest('binary'));
  } finally {
    idle.push(hasher);
  }
}
