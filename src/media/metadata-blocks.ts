/**
 * [Note: Where a photo keeps its EXIF and XMP]
 * Every format stores the same two blocks: EXIF, a TIFF structure (header, IFD0, the Exif IFD), and the XMP
 * packet, text. Only their containers differ, so each is found here by offset, read on its own and never the
 * whole file, and the EXIF block is handed to the tag reader as the TIFF it is (exif-tags.ts):
 *   - JPEG: the first APP1 segment `Exif\0\0` and the first APP1 `http://ns.adobe.com/xap/1.0/\0`, among the
 *     segments before the image data. A camera's are in its first tens of KB, read at once.
 *   - TIFF and the raws built on it (DNG, CR2, NEF, ARW, ORF, RW2): the file is the TIFF structure, and its IFDs
 *     may lie anywhere in it, so the whole file is the block, up to MAX_TIFF_BYTES; its XMP is its tag 700.
 *   - WebP, PNG, HEIF/AVIF and JPEG XL: their chunks and boxes (xmp-packet.ts, loaded for those only).
 */
// Nothing from the place remover's modules (location-*.ts) but types: they load with the upload path, and the
// little shared here would split them into one more chunk there.
import type { ReadAt } from './location-read';

export interface MetadataBlocks {
  /** The EXIF block: a TIFF structure, starting with its byte order mark. */
  exif: Uint8Array | null;
  /** The XMP packet, as text. */
  xmp: string | null;
}

export const NO_BLOCKS: MetadataBlocks = Object.freeze({ exif: null, xmp: null }) as MetadataBlocks;

/** A TIFF is read whole for its EXIF: one larger than this (a huge scan) goes up without it. */
export const MAX_TIFF_BYTES = 256 * 1024 * 1024;
/** What a JPEG's first read takes: its metadata segments, for a camera's and a phone's JPEG alike. */
const JPEG_HEAD_BYTES = 128 * 1024;
/** Segments of a JPEG looked at before the image data: cameras write a dozen. */
const MAX_SEGMENTS = 1000;
const XMP_NAMESPACE = 'http://ns.adobe.com/xap/1.0/\0';

/** TIFF, and the raws built on it with a magic of their own: Olympus ORF ("IIRO", "MMOR", "IIRS"), Panasonic RW2. */
export const isTiffHead = (h: Uint8Array) => ['II*\0', 'MM\0*', 'IIRO', 'MMOR', 'IIRS', 'IIU\0'].includes(ascii(h, 0, 4));

/** The EXIF block and XMP packet of a photo; none when it has none, or its structure cannot be followed. */
export async function readMetadataBlocks(blob: Blob): Promise<MetadataBlocks> {
  const head = new Uint8Array(await blob.slice(0, Math.min(blob.size, JPEG_HEAD_BYTES)).arrayBuffer());
  if (head[0] === 0xff && head[1] === 0xd8) return jpegBlocks(headFirst(blob, head), blob.size);
  if (isTiffHead(head)) return tiffBlocks(blob);
  const type = ascii(head, 0, 12);
  const other = (type.startsWith('RIFF') && type.slice(8) === 'WEBP') || type.slice(1, 4) === 'PNG' || ['ftyp', 'JXL '].includes(type.slice(4, 8));
  // Loaded only for such files; offline before it was ever fetched, the photo goes up without its metadata.
  if (other) return import('./xmp-packet').then((m) => m.readContainerBlocks(blob)).catch(() => NO_BLOCKS);
  return NO_BLOCKS;
}

function ascii(bytes: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + length));
}

/** Reads within `head` (the file's first bytes) from memory, and anything further from the file. */
function headFirst(blob: Blob, head: Uint8Array): ReadAt {
  return async (offset, length) =>
    offset + length <= head.length
      ? head.subarray(offset, offset + length)
      : new Uint8Array(await blob.slice(offset, offset + length).arrayBuffer());
}

/** Exactly `length` bytes at `offset`, or null: a structure that points past the end is not followed. */
async function readAt(read: ReadAt, offset: number, length: number): Promise<Uint8Array | null> {
  const bytes = await read(offset, length);
  return bytes.length === length ? bytes : null;
}

async function jpegBlocks(read: ReadAt, size: number): Promise<MetadataBlocks> {
  const out: MetadataBlocks = { exif: null, xmp: null };
  let at = 2;
  for (let n = 0; n < MAX_SEGMENTS && at + 4 <= size && !(out.exif && out.xmp); n++) {
    const h = await readAt(read, at, 4);
    if (!h || h[0] !== 0xff) break;
    const marker = h[1]!;
    // A fill byte before a marker, and the markers that have no length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    // The image data (SOS) or its end: no metadata after.
    if (marker === 0xda || marker === 0xd9) break;
    const length = (h[2]! << 8) | h[3]!;
    if (length < 2) break;
    if (marker === 0xe1 && length > 8) {
      const body = await readAt(read, at + 4, length - 2);
      if (!body) break;
      if (!out.exif && ascii(body, 0, 6) === 'Exif\0\0') out.exif = body.subarray(6);
      else if (!out.xmp && ascii(body, 0, XMP_NAMESPACE.length) === XMP_NAMESPACE) {
        out.xmp = new TextDecoder().decode(body.subarray(XMP_NAMESPACE.length));
      }
    }
    at += 2 + length;
  }
  return out;
}

async function tiffBlocks(blob: Blob): Promise<MetadataBlocks> {
  if (blob.size > MAX_TIFF_BYTES) return NO_BLOCKS;
  const bytes = new Uint8Array(await blob.arrayBuffer());
  // ORF and RW2 are TIFF structures under a magic of their own: the reader is shown the standard one.
  if (ascii(bytes, 2, 2) !== '*\0' && ascii(bytes, 2, 2) !== '\0*') {
    const little = bytes[0] === 0x49;
    bytes[0] = bytes[1] = little ? 0x49 : 0x4d;
    bytes[2] = little ? 0x2a : 0;
    bytes[3] = little ? 0 : 0x2a;
  }
  // Its XMP is tag 700 of IFD0, read with the rest (exif-tags.ts).
  return { exif: bytes, xmp: null };
}
