/**
 * The `Content-MD5` of a request body: the base64 MD5 of its bytes (RFC 1864). S3 providers that check it
 * (AWS, R2, B2, MinIO, Ceph, GCS) refuse a PUT or part whose bytes arrived different (`BadDigest`), so a
 * body damaged on the way is sent again (`upload/integrity`) instead of being stored. The body is read
 * slice by slice just before it is sent; the browser reads it again from disk to send it.
 */
import { createMD5 } from 'hash-wasm';
import { digestBlob } from '../../lib/blob-digest';

export async function contentMd5(body: Blob, signal?: AbortSignal): Promise<string> {
  const digest = await digestBlob(body, await createMD5(), { signal });
  let binary = '';
  for (const b of digest) binary += String.fromCharCode(b);
  return btoa(binary);
}
