/**
 * [Note: Text files are stored gzip-compressed]
 * Text (CSV, JSON, GPX, logs, markdown…) shrinks five to ten times under deflate, and such files are often large
 * (a day of GPS tracks, a server's logs). An upload whose content is text (sniffed as plain text or XML: the
 * type is decided from content, never from the name) and whose name says it is one of TEXT_EXTENSIONS is
 * compressed in the browser, in the media worker, with pako: read from the file a piece at a time, so a 200 MB
 * log never sits in memory whole, only its compressed copy does. It is stored that way only when that saves at
 * least MIN_SAVING of its size; small or incompressible text stays as it is.
 *
 * The item keeps the original's `bytes` and `sha256` (what the user uploaded, and what every download gives
 * back); the database records at reserve time that the stored object is gzip and its stored size, in columns
 * a member cannot update, so no metadata edit can make a download inflate what is not gzip or stop inflating
 * what is. The object is stored with its own content type and never with `Content-Encoding: gzip` (a browser
 * would inflate it on its own, and a ZIP entry's length, announced before its first byte, would be wrong).
 * Every reader inflates it as a stream, capped at the recorded size ([Note: Every inflation is streamed and
 * capped]). The compressed copy is kept with the upload task (IndexedDB), as the preview is, so a resumed upload
 * sends the very bytes it started with. gzip with mtime 0 and a fixed level is reproducible anyway.
 */

/** The names that say "text" (compared in lower case). */
export const TEXT_EXTENSIONS = ['txt', 'csv', 'tsv', 'json', 'gpx', 'kml', 'xml', 'md', 'log'] as const;
/** The content types the sniffer gives text of those kinds (sniff-type.ts). */
const TEXT_TYPES = new Set(['text/plain', 'application/xml']);
/** Stored compressed only when at least this share of the bytes is saved. */
export const MIN_SAVING = 0.1;
/** Larger files are stored as they are: their compressed copy would be held in memory while uploading. */
export const MAX_COMPRESS_BYTES = 1024 * 1024 * 1024;
/** Input read and deflated per step; the main thread (fallback) gets a turn between steps. */
const PIECE = 1024 * 1024;
/** After this much input, a file that has not shrunk by MIN_SAVING is given up on (it will not). */
const EARLY_LOOK = 4 * 1024 * 1024;
const LEVEL = 6;

/** What an upload is stored as when it is stored compressed. */
export interface StoredCompressed {
  encoding: 'gzip';
  /** The stored object's size. */
  bytes: number;
}

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
}

/** Whether an upload is worth trying to compress: text by content, and by name one of TEXT_EXTENSIONS. */
export function isCompressibleText(filename: string, sniffedMime: string, bytes: number): boolean {
  return (
    TEXT_TYPES.has(sniffedMime) &&
    (TEXT_EXTENSIONS as readonly string[]).includes(extensionOf(filename)) &&
    bytes > 0 &&
    bytes <= MAX_COMPRESS_BYTES
  );
}

/** Whether `stored` bytes for `original` bytes save enough to be worth it. */
export function savesEnough(original: number, stored: number): boolean {
  return stored <= original * (1 - MIN_SAVING);
}

/**
 * The file gzip-compressed, read a piece at a time; null when that would not save MIN_SAVING (decided early for
 * a large file that does not shrink). Throws an AbortError when `signal` fires.
 */
export async function gzipText(blob: Blob, opts: { signal?: AbortSignal } = {}): Promise<Blob | null> {
  const { Deflate } = await import('pako');
  const deflator = new Deflate({ level: LEVEL, gzip: true, chunkSize: 256 * 1024 });
  const out: Uint8Array<ArrayBuffer>[] = [];
  let stored = 0;
  deflator.onData = (chunk) => {
    out.push(chunk);
    stored += chunk.length;
  };
  let read = 0;
  for (let at = 0; at < blob.size; at += PIECE) {
    opts.signal?.throwIfAborted();
    const piece = new Uint8Array(await blob.slice(at, at + PIECE).arrayBuffer());
    read += piece.length;
    const last = at + PIECE >= blob.size;
    deflator.push(piece, last);
    if (deflator.err) throw new Error(`deflate failed: ${deflator.msg}`);
    if (!last && read >= EARLY_LOOK && !savesEnough(read, stored + 64 * 1024)) return null;
  }
  if (blob.size === 0) return null;
  return savesEnough(blob.size, stored) ? new Blob(out, { type: 'application/gzip' }) : null;
}
