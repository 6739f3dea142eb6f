import { createMD5, createSHA256 } from 'hash-wasm';
import { hashBlob } from '../lib/blob-digest';
import { toBase64 } from '../lib/base64';
import { contentMd5 } from '../lib/content-md5';
import type { ProcessedMedia } from './media-types';

/** A file's digests: its SHA-256 (lowercase hex), and its MD5 (base64, as `Content-MD5` has it) when asked for. */
export interface FileDigests {
  sha256: string;
  md5: string | null;
}

/**
 * The SHA-256 of a blob as lowercase hex, and its MD5 when `md5` is set, in one read slice by slice.
 * `onProgress` gets the bytes hashed so far after each slice.
 */
export async function fileDigests(
  blob: Blob,
  opts: { md5?: boolean; signal?: AbortSignal; onProgress?: (bytes: number) => void } = {},
): Promise<FileDigests> {
  const sha = await createSHA256();
  const md5 = opts.md5 ? await createMD5() : null;
  await hashBlob(blob, md5 ? [sha, md5] : sha, opts);
  return { sha256: sha.digest('hex'), md5: md5 ? toBase64(md5.digest('binary')) : null };
}

/** The media with the MD5 of its preview and thumbnail ([ProcessedMedia.derivedMd5]), taken where they were made. */
export async function withDerivedMd5(media: ProcessedMedia, signal?: AbortSignal): Promise<ProcessedMedia> {
  const md5 = (blob: Blob | null) => (blob ? contentMd5(blob, signal) : null);
  const [preview, thumb] = await Promise.all([md5(media.preview), md5(media.thumb)]);
  return { ...media, derivedMd5: { preview, thumb } };
}
