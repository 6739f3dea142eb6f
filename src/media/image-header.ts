import { imageSize } from 'image-size';
import type { Limits } from '../config';

export interface ImageSize {
  width: number;
  height: number;
}

/** PNG, GIF, WebP, BMP and AVIF state their size in the first few hundred bytes; this is generous. */
const HEADER_BYTES = 256 * 1024;
/** JPEG segments are read through a window of this size, so a long EXIF or ICC block costs one more read. */
const JPEG_WINDOW = 64 * 1024;

/**
 * The pixel size an image's header claims (before any EXIF orientation), read from the first bytes only, so
 * that a decompression bomb is refused without being decoded. Null when the header cannot be read.
 */
export async function readImageSize(blob: Blob, mime: string): Promise<ImageSize | null> {
  if (mime === 'image/jpeg') return jpegSize(blob);
  const head = new Uint8Array(await blob.slice(0, HEADER_BYTES).arrayBuffer());
  try {
    const { width, height } = imageSize(head);
    return width && height ? { width, height } : null;
  } catch {
    return null;
  }
}

/**
 * Whether a WebP is animated: the animation flag (0x02) of its VP8X chunk, which an extended WebP puts first,
 * at byte 12, with its flags at byte 20. A simple (VP8 or VP8L) WebP is a still.
 */
export async function isAnimatedWebp(blob: Blob): Promise<boolean> {
  const head = new Uint8Array(await blob.slice(0, 21).arrayBuffer());
  const ascii = (from: number) => String.fromCharCode(...head.subarray(from, from + 4));
  return head.length === 21 && ascii(0) === 'RIFF' && ascii(8) === 'WEBP' && ascii(12) === 'VP8X' && ((head[20] ?? 0) & 0x02) !== 0;
}

/** Thrown by a decoder the worker loads when the size it reads is past the limits: the file is kept as a file. */
export class TooLargeToDecode extends Error {}

/** Over the configured side or pixel limit (PRODUCT.md §5): kept as a file, never decoded. */
export function isTooLargeToDecode(size: ImageSize, limits: Pick<Limits, 'maxDecodePixels' | 'maxDecodeSide'>): boolean {
  return (
    size.width > limits.maxDecodeSide ||
    size.height > limits.maxDecodeSide ||
    size.width * size.height > limits.maxDecodePixels
  );
}

const SOF_MARKERS = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** Walks the JPEG marker segments up to the first frame header (SOF), reading only the segment headers. */
async function jpegSize(blob: Blob): Promise<ImageSize | null> {
  let windowStart = 0;
  let window = new Uint8Array(0);
  const bytes = async (pos: number, n: number): Promise<Uint8Array | null> => {
    if (pos < windowStart || pos + n > windowStart + window.length) {
      windowStart = pos;
      window = new Uint8Array(await blob.slice(pos, pos + Math.max(n, JPEG_WINDOW)).arrayBuffer());
    }
    const at = pos - windowStart;
    return at + n <= window.length ? window.subarray(at, at + n) : null;
  };

  const soi = await bytes(0, 2);
  if (!soi || soi[0] !== 0xff || soi[1] !== 0xd8) return null;
  let pos = 2;
  for (let segments = 0; segments < 10_000; segments++) {
    const marker = await bytes(pos, 2);
    if (!marker || marker[0] !== 0xff) return null;
    const code = marker[1] ?? 0;
    if (code === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd8)) {
      pos += 2; // markers without a length
      continue;
    }
    if (code === 0xd9 || code === 0xda) return null; // end of image or scan data before any frame header
    const head = await bytes(pos + 2, SOF_MARKERS.has(code) ? 7 : 2);
    if (!head) return null;
    const length = ((head[0] ?? 0) << 8) | (head[1] ?? 0);
    if (length < 2) return null;
    if (SOF_MARKERS.has(code)) {
      const height = ((head[3] ?? 0) << 8) | (head[4] ?? 0);
      const width = ((head[5] ?? 0) << 8) | (head[6] ?? 0);
      return width && height ? { width, height } : null;
    }
    pos += 2 + length;
  }
  return null;
}
