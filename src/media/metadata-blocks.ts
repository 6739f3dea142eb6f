/**
 * [Note: Where a photo keeps its EXIF and XMP]
 * Every format stores the same two blocks: EXIF, a TIFF structure (header, IFD0, the Exif IFD), and the XMP
 * packet, text. Only their containers differ, so each is found here by offset and read on its own (a TIFF is
 * its own block), and the EXIF block is handed to the tag reader as the TIFF it is (exif-tags.ts):
 *   - JPEG: the first APP1 segment `Exif\0\0` and the first APP1 `http://ns.adobe.com/xap/1.0/\0`, among the
 *     segments before the image data. A camera's are in its first tens of KB, read at once. When that packet
 *     says `xmpNote:HasExtendedXMP`, the APP1 `http://ns.adobe.com/xmp/extension/\0` segments carrying its GUID
 *     are put back together by their offsets (at most MAX_EXTENDED_XMP_BYTES, and only when every byte is there).
 *   - TIFF and the raws built on it (DNG, CR2, NEF, ARW, ORF, RW2): the file is the TIFF structure and the block.
 *     Its first MiB when IFD0 and the Exif IFD lie in it (cameras and raws put them first); otherwise the whole
 *     file, up to MAX_TIFF_BYTES (a TIFF written image data first has them at its end). Its XMP is its tag 700.
 *   - WebP, PNG, HEIF/AVIF and JPEG XL: their chunks and boxes (xmp-packet.ts, loaded for those only).
 */
// Nothing from the place remover's modules (location-*.ts) but types: they load with the upload path, and the
// little shared here would split them into one more chunk there.
import { blobReader, type ReadAt } from './location-read';

export interface MetadataBlocks {
  /** The EXIF block: a TIFF structure, starting with its byte order mark. */
  exif: Uint8Array | null;
  /** The XMP packet, as text. */
  xmp: string | null;
  /**
   * A JPEG's Extended XMP, put back together: a second packet holding what did not fit in the first segment's
   * 64 KB (ExifTool moves the largest properties there, a long keyword list say). Absent in other formats.
   */
  xmpExtended?: string | null;
}

export const NO_BLOCKS: MetadataBlocks = Object.freeze({ exif: null, xmp: null }) as MetadataBlocks;

/** A TIFF's first read: a camera's or a raw's IFDs, and the values they point to, are in it. */
const TIFF_HEAD_BYTES = 1024 * 1024;
/** How far before the end of that read an IFD must start for its values to be in it too. */
const TIFF_VALUES_MARGIN = 64 * 1024;
/** A TIFF whose IFDs are further in is read whole for its EXIF, up to this size; a larger one goes without. */
export const MAX_TIFF_BYTES = 64 * 1024 * 1024;
/**
 * What a JPEG's first read takes: its metadata segments, for most cameras' and phones' JPEGs; segments further in
 * are read 64 KiB at a time. Not more at once: with a first read of 128 KiB, reading 1,000 camera JPEGs' metadata
 * in Chromium took 1.5× as long (bench/exif-bench.mjs).
 */
const JPEG_HEAD_BYTES = 64 * 1024;
/** Segments of a JPEG looked at before the image data: cameras write a dozen. */
const MAX_SEGMENTS = 1000;
const XMP_NAMESPACE = 'http://ns.adobe.com/xap/1.0/\0';
const EXTENDED_XMP_NAMESPACE = 'http://ns.adobe.com/xmp/extension/\0';
/** An Extended XMP packet longer than this (the XMP reader's own bound) is not read. */
export const MAX_EXTENDED_XMP_BYTES = 2 * 1024 * 1024;
/** The GUID the main packet names for its extension (xmpNote:HasExtendedXMP), as attribute or element. */
const HAS_EXTENDED = /HasExtendedXMP\s*(?:=\s*["']|>)\s*([0-9A-Fa-f]{32})/;

/** TIFF, and the raws built on it with a magic of their own: Olympus ORF ("IIRO", "MMOR", "IIRS"), Panasonic RW2. */
const isTiffHead = (h: Uint8Array) => ['II*\0', 'MM\0*', 'IIRO', 'MMOR', 'IIRS', 'IIU\0'].includes(ascii(h, 0, 4));

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

/** Reads within `head` (the file's first bytes) from memory, and anything further from the file, read ahead. */
function headFirst(blob: Blob, head: Uint8Array): ReadAt {
  const further = blobReader(blob);
  return async (offset, length) => (offset + length <= head.length ? head.subarray(offset, offset + length) : further(offset, length));
}

/** Exactly `length` bytes at `offset`, or null: a structure that points past the end is not followed. */
async function readAt(read: ReadAt, offset: number, length: number): Promise<Uint8Array | null> {
  const bytes = await read(offset, length);
  return bytes.length === length ? bytes : null;
}

async function jpegBlocks(read: ReadAt, size: number): Promise<MetadataBlocks> {
  const out: MetadataBlocks = { exif: null, xmp: null };
  let guid: string | null = null;
  const parts: ExtendedPart[] = [];
  let at = 2;
  // Once both blocks are found, the rest is looked at only for the extension the packet names.
  for (let n = 0; n < MAX_SEGMENTS && at + 4 <= size && !(out.exif && out.xmp && !guid); n++) {
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
        guid = HAS_EXTENDED.exec(out.xmp)?.[1]?.toUpperCase() ?? null;
      } else if (ascii(body, 0, EXTENDED_XMP_NAMESPACE.length) === EXTENDED_XMP_NAMESPACE && body.length >= EXTENDED_XMP_NAMESPACE.length + 40) {
        const head = EXTENDED_XMP_NAMESPACE.length;
        const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
        // Its GUID is checked once the main packet is known (it may come later).
        parts.push({ guid: ascii(body, head, 32).toUpperCase(), fullLength: view.getUint32(head + 32), offset: view.getUint32(head + 36), data: body.subarray(head + 40) });
      }
    }
    at += 2 + length;
  }
  if (guid) out.xmpExtended = extendedPacket(parts.filter((p) => p.guid === guid));
  return out;
}

/** One APP1 segment of Extended XMP: the packet's GUID and full length, and where this part's bytes go in it. */
interface ExtendedPart {
  guid: string;
  fullLength: number;
  offset: number;
  data: Uint8Array;
}

/** The Extended XMP packet from its parts, or null unless they agree on its length and cover every byte of it. */
function extendedPacket(parts: ExtendedPart[]): string | null {
  const fullLength = parts[0]?.fullLength ?? 0;
  if (!fullLength || fullLength > MAX_EXTENDED_XMP_BYTES || parts.some((p) => p.fullLength !== fullLength)) return null;
  const packet = new Uint8Array(fullLength);
  let covered = 0;
  for (const p of [...parts].sort((a, b) => a.offset - b.offset)) {
    if (p.offset !== covered || p.offset + p.data.length > fullLength) return null;
    packet.set(p.data, p.offset);
    covered += p.data.length;
  }
  return covered === fullLength ? new TextDecoder().decode(packet) : null;
}

async function tiffBlocks(blob: Blob): Promise<MetadataBlocks> {
  const head = new Uint8Array(await blob.slice(0, Math.min(blob.size, TIFF_HEAD_BYTES)).arrayBuffer());
  const bytes =
    head.length === blob.size || ifdsWithin(head)
      ? head
      : blob.size <= MAX_TIFF_BYTES
        ? new Uint8Array(await blob.arrayBuffer())
        : null;
  if (!bytes) return NO_BLOCKS;
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

/**
 * Whether IFD0 and the Exif IFD lie well within `head`, a TIFF's first bytes, as cameras and raw formats put
 * them (their values follow them closely); a TIFF written image data first keeps them at its end.
 */
function ifdsWithin(head: Uint8Array): boolean {
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const little = head[0] === 0x49;
  const limit = head.length - TIFF_VALUES_MARGIN;
  const ifd0 = view.getUint32(4, little);
  if (ifd0 + 2 > limit) return false;
  const entries = view.getUint16(ifd0, little);
  if (ifd0 + 2 + 12 * entries > limit) return false;
  for (let i = 0; i < entries; i++) {
    const e = ifd0 + 2 + 12 * i;
    if (view.getUint16(e, little) === 0x8769) return view.getUint32(e + 8, little) < limit;
  }
  return true;
}
