/**
 * How objects are stored and served: their `Content-Type` from the closed lists of content-types.ts, and
 * `Content-Disposition` values that carry a file's original name (RFC 6266 with RFC 5987's `filename*`).
 */
import { AppError } from '../../lib/app-error';
import { isDerivedKey, isDerivedType, isInlineOriginalType, OCTET_STREAM } from './content-types';

/** RFC 5987 percent-encoding (attr-char kept, everything else as UTF-8 bytes). */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A plain-ASCII stand-in for clients that ignore `filename*`. */
function asciiFallback(name: string): string {
  const s = name.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_').trim();
  return s || 'download';
}

export function contentDisposition(kind: 'attachment' | 'inline', filename: string | undefined): string {
  if (!filename) return kind;
  return `${kind}; filename="${asciiFallback(filename)}"; filename*=UTF-8''${encodeRfc5987(filename)}`;
}

export interface StoredAs {
  contentType: string;
  contentDisposition: string;
}

/** How an original is stored: a listed image, video or audio type as itself, anything else as opaque bytes to download. */
export function storedOriginal(contentType: string, filename: string | undefined): StoredAs {
  if (isInlineOriginalType(contentType)) return { contentType, contentDisposition: contentDisposition('inline', filename) };
  return { contentType: OCTET_STREAM, contentDisposition: contentDisposition('attachment', filename) };
}

/** How an object is stored, by its key: previews, thumbnails and posters only as WebP or JPEG. */
export function storedObject(key: string, contentType: string, filename: string | undefined): StoredAs {
  if (!isDerivedKey(key)) return storedOriginal(contentType, filename);
  if (!isDerivedType(contentType)) {
    throw new AppError('upload/unsupported', `A preview can only be stored as WebP or JPEG, not as ${JSON.stringify(contentType)}.`, { retryable: false });
  }
  return { contentType, contentDisposition: 'inline' };
}

/**
 * What a GET signed in the browser asks the bucket to answer with (`response-content-type` and
 * `response-content-disposition`), whatever type the object was stored with. The signer knows only the
 * key: previews, thumbnails and posters are images; an original may be anything, so it comes as bytes to
 * download (the app reads originals this way only to show plain text; display URLs are signed elsewhere).
 */
export function servedAs(key: string, downloadAs: string | undefined): { responseType: string; responseDisposition: string } {
  if (isDerivedKey(key)) return { responseType: 'image/webp', responseDisposition: downloadAs ? contentDisposition('attachment', downloadAs) : 'inline' };
  return { responseType: OCTET_STREAM, responseDisposition: contentDisposition('attachment', downloadAs) };
}
