/** The JPEGs inside raw files: their frame, read from the segment headers before it ([Note: Previews inside raw photos]). */
import { ascii } from './location-read';
import type { Candidate, Source } from './raw-source';

/** JPEG marker segments are read through windows of this size (an EXIF block is at most 64 KiB). */
const JPEG_WINDOW = 64 * 1024;
const MAX_SEGMENTS = 256;
/** The smallest JPEG worth decoding: SOI, quantisation and Huffman tables, a frame, a scan, EOI. */
const MIN_JPEG_BYTES = 128;

export interface Frame {
  width: number;
  height: number;
  /** Where the EXIF block's TIFF header is in the file, when the JPEG has one before its frame. */
  exif: number | null;
}

/**
 * The frame of a JPEG that browsers decode (8-bit baseline or progressive Huffman), read from the segment
 * headers before it; null for anything else, or a JPEG that does not lie inside the file.
 */
export async function jpegFrame(file: Source, jpeg: Candidate): Promise<Frame | null> {
  if (jpeg.length < MIN_JPEG_BYTES || jpeg.offset + jpeg.length > file.size) return null;
  const end = jpeg.offset + jpeg.length;
  let windowStart = jpeg.offset;
  let window: Uint8Array = new Uint8Array(0);
  const bytes = async (pos: number, n: number): Promise<Uint8Array | null> => {
    if (pos + n > end) return null;
    if (pos < windowStart || pos + n > windowStart + window.length) {
      windowStart = pos;
      window = (await file.bytes(pos, Math.min(Math.max(n, JPEG_WINDOW), end - pos))) ?? new Uint8Array(0);
    }
    const at = pos - windowStart;
    return at + n <= window.length ? window.subarray(at, at + n) : null;
  };
  const soi = await bytes(jpeg.offset, 2);
  if (!soi || soi[0] !== 0xff || soi[1] !== 0xd8) return null;
  let exif: number | null = null;
  let pos = jpeg.offset + 2;
  for (let segments = 0; segments < MAX_SEGMENTS; segments++) {
    const marker = await bytes(pos, 4);
    if (!marker || marker[0] !== 0xff) return null;
    const code = marker[1]!;
    if (code === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
      pos += 2; // markers without a length
      continue;
    }
    const length = (marker[2]! << 8) | marker[3]!;
    if (length < 2 || code === 0xd9 || code === 0xda) return null; // no frame before the scan
    if (code === 0xe1 && exif === null && length >= 16) {
      const id = await bytes(pos + 4, 6);
      if (id && ascii(id, 0, 6) === 'Exif\0\0') exif = pos + 10;
    }
    if (code >= 0xc0 && code <= 0xcf && code !== 0xc4 && code !== 0xc8 && code !== 0xcc) {
      const frame = await bytes(pos + 4, 6);
      // SOF0 baseline, SOF1 extended and SOF2 progressive, 8-bit: lossless (SOF3), hierarchical and
      // arithmetic-coded frames are raw data or nothing a browser decodes.
      if (!frame || code > 0xc2 || frame[0] !== 8) return null;
      const height = (frame[1]! << 8) | frame[2]!;
      const width = (frame[3]! << 8) | frame[4]!;
      return { width, height, exif };
    }
    pos += 2 + length;
  }
  return null;
}

