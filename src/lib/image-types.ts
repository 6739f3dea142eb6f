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

/** Camera RAW: the media worker takes the largest JPEG preview the camera embedded (src/media/raw-preview.ts). */
export const RAW_TYPES: ReadonlySet<string> = new Set([
  'image/x-adobe-dng',
  'image/x-canon-cr2',
  'image/x-canon-cr3',
  'image/x-nikon-nef',
  'image/x-sony-arw',
  'image/x-fujifilm-raf',
  'image/x-olympus-orf',
  'image/x-panasonic-rw2',
]);

/**
 * Pictures no browser Shoebox supports shows, that the media worker decodes itself with a decoder it loads the
 * first time one is met: HEIF (libheif), JPEG XL (libjxl), TIFF (geotiff) and camera RAW (their embedded preview).
 * Safari shows HEIF and JPEG XL natively, so the browser's own decoder is always tried first.
 */
export const WORKER_DECODED_IMAGES: ReadonlySet<string> = new Set([...HEIF_TYPES, 'image/jxl', 'image/tiff', ...RAW_TYPES]);

/**
 * Formats that are often animated and that the browser plays as they are: the viewer shows the original, the
 * grid the preview's still (the first frame). A WebP is animated only when its header says so: the media worker
 * records that as `metadata.animated`.
 */
export const ANIMATED_TYPES: ReadonlySet<string> = new Set(['image/gif', 'image/apng']);
