/** Picture formats by who can decode them; a small module of its own, so the viewer and the worker pull in nothing else. */

/** Image formats every browser Shoebox supports decodes, and can show as they are. */
export const BROWSER_IMAGES: ReadonlySet<string> = new Set([
  'image/jpeg',
  'image/png',
  'image/apng',
  'image/webp',
  'image/gif',
  'image/avif',
  'image/bmp',
]);

/** HEIF: shown by Safari alone; the media worker decodes it when the browser cannot (src/media/heif-decode.ts). */
export const HEIF_TYPES: ReadonlySet<string> = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);

/**
 * Formats that are often animated and that the browser plays as they are: the viewer shows the original, the
 * grid the preview's still (the first frame). An animated WebP is not told apart from a still one yet.
 */
export const ANIMATED_TYPES: ReadonlySet<string> = new Set(['image/gif', 'image/apng']);
