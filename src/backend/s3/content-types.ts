/**
 * The Content-Types an object may be stored with, as closed lists of exact, parameter-free types.
 *
 * [Note: Stored types are a closed list]
 * A browser that opens an object from the bucket renders it by its Content-Type, on the bucket's origin.
 * A type with parameters can smuggle another one: for `image/png; x=1, text/html` the browser takes the
 * last type of the list and renders HTML. So nothing is parsed or prefixed here: a type is on a list
 * exactly, or it is not.
 * - Originals that browsers only ever show as an image, a video or a player keep their type; every other
 *   original (SVG, HTML, XML, PDF, text, anything unknown) is stored as application/octet-stream and
 *   downloaded as an attachment (PRODUCT.md §5: SVG and HTML are files).
 * - Previews, thumbnails and posters are WebP, or JPEG where the browser cannot encode WebP (§9).
 * The storage-sign function (supabase/functions/storage-sign/content-safety.ts) holds the same lists and a
 * test there checks they match; the `shoebox` bucket's allowed_mime_types on Supabase Storage is their union
 * (tests/db/storage-bucket.test.ts). This file imports nothing, so that the Deno test can read it.
 */
export const OCTET_STREAM = 'application/octet-stream';

/** Originals that keep their type and may be shown inline. */
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

/** Previews, thumbnails and posters. */
export const DERIVED_TYPES: readonly string[] = ['image/webp', 'image/jpeg'];

/** Every type an object may be stored with (the bucket's allow-list where the provider has one). */
export const STORABLE_TYPES: readonly string[] = [...new Set([...INLINE_ORIGINAL_TYPES, ...DERIVED_TYPES, OCTET_STREAM])];

/** Whether the key is a preview, thumbnail or poster (`albums/{album}/{item}/{file}` with file ≠ original). */
export function isDerivedKey(key: string): boolean {
  return /\/(preview|thumb|poster)\.webp$/.test(key);
}

/** Exactly one of the listed types: no parameters, no other case, no spaces. */
export function isInlineOriginalType(type: string | null | undefined): boolean {
  return typeof type === 'string' && INLINE_ORIGINAL_TYPES.includes(type);
}

export function isDerivedType(type: string | null | undefined): boolean {
  return typeof type === 'string' && DERIVED_TYPES.includes(type);
}
