/**
 * The types objects are stored and served with, as closed lists of exact, parameter-free types (see
 * [Note: Stored types are a closed list] in src/backend/s3/content-types.ts, which holds the same lists for
 * the browser; content-types.test.ts checks they match).
 *
 * A type is on a list exactly or not at all: nothing is split at `;` or compared by prefix, because
 * `image/png; x=1, text/html` is HTML to a browser (it takes the last type of a list).
 */
import type { ObjectFile } from '../_shared/object-key.ts';
import type { SignRequest } from './sign-request.ts';

export const OCTET_STREAM = 'application/octet-stream';

/** Originals that keep their type and are served inline: types a browser shows as an image, a video or a player. */
export const INLINE_ORIGINAL_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/apng',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'image/heic',
  'image/heif',
  'image/tiff',
  'video/mp4',
  'video/webm',
  'video/quicktime',
  'video/ogg',
  'audio/mpeg',
  'audio/mp4',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'audio/flac',
  'audio/aac',
];

/** Previews, thumbnails and posters: WebP, or JPEG where the browser cannot encode WebP (PRODUCT.md §9). */
export const DERIVED_TYPES: readonly string[] = ['image/webp', 'image/jpeg'];

export function isInlineOriginalType(type: string | null | undefined): boolean {
  return typeof type === 'string' && INLINE_ORIGINAL_TYPES.includes(type);
}

/**
 * The types an upload to this object may ask for: an original as a listed type or as opaque bytes (every
 * other file), a sidecar only as opaque bytes, a derived object only as WebP or JPEG.
 */
export function mayStore(file: ObjectFile, type: string): boolean {
  if (file === 'original') return type === OCTET_STREAM || isInlineOriginalType(type);
  if (file === 'original.xmp') return type === OCTET_STREAM;
  return DERIVED_TYPES.includes(type);
}

/**
 * A sidecar is never near this: XMP of an item's details is a few KiB, and the fields kept from a camera's or
 * an editor's sidecar rarely reach 100 KiB. It is one PUT, signed at its length
 * ([Note: Sidecars beside originals] in src/backend/sidecar-writer.ts).
 */
export const MAX_SIDECAR_BYTES = 2 * 1024 * 1024;

/**
 * The Content-Length a member's upload is signed with, null for one that is not bound, or why it is refused.
 * Only a sidecar is bound: one PUT that says its length, at most MAX_SIDECAR_BYTES; it is never uploaded in parts.
 */
export function signedLength(file: ObjectFile, req: SignRequest): number | null | 'validation/invalid' | 'upload/too-large' | 'storage/denied' {
  if (file !== 'original.xmp') return null;
  switch (req.op) {
    case 'put':
      if (req.contentLength === undefined) return 'validation/invalid';
      return req.contentLength <= MAX_SIDECAR_BYTES ? req.contentLength : 'upload/too-large';
    case 'create':
    case 'part':
      return 'storage/denied';
    default:
      return null;
  }
}

/**
 * The type a derived object is served with. Its key says WebP; one encoded as JPEG is served as image/webp
 * too (the object's own type cannot be known without asking the bucket), which browsers decode by its bytes.
 */
export const DERIVED_SERVED_TYPE = 'image/webp';

/** `attachment`, with the name as an RFC 5987 `filename*` when there is one. */
export function attachment(filename?: string | null): string {
  return filename ? `attachment; filename*=UTF-8''${encodeRfc5987(filename)}` : 'attachment';
}

/** Percent-encodes everything but RFC 5987 attr-chars. */
export function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Whether a Content-Disposition value already says attachment. */
export function isAttachment(disposition: string | undefined): boolean {
  return disposition !== undefined && /^\s*attachment\s*(;|$)/i.test(disposition);
}
