/**
 * [Note: Metadata blocks in WebP, PNG, HEIF and JPEG XL]
 * The EXIF block and the XMP packet of the formats other than JPEG and TIFF ([Note: Where a photo keeps its EXIF
 * and XMP] in metadata-blocks.ts), read by offset, never the whole file:
 *   - WebP: the RIFF `EXIF` and `XMP ` chunks (an `EXIF` chunk some writers start with `Exif\0\0`, skipped);
 *   - PNG: the `eXIf` chunk, and the packet in an `iTXt`, `zTXt` or `tEXt` chunk named XML:com.adobe.xmp, among
 *     the chunks before the image data, as the PNG specification places them. Several editors store the packet
 *     compressed (an `iTXt` with its compression flag set, or a `zTXt`): it is inflated with pako a piece at a
 *     time and given up past MAX_XMP_BYTES, so a 1 KB chunk that would inflate to a gigabyte stops after 2 MiB,
 *     at once, and the photo simply has no XMP;
 *   - HEIF and AVIF: the `Exif` item and the XMP `mime` item (location-heif.ts), whatever the file's brands: an
 *     iOS 18 photo's longer `ftyp` box, which exifr refused as not HEIF, is read like any other;
 *   - JPEG XL: the container's `Exif` and `xml ` boxes (one compressed in a `brob` box is left unread).
 * An `Exif` item or box starts with the offset of its TIFF header, skipped.
 */
import { Unreadable } from './location-blanking';
import { topLevel } from './location-boxes';
import { heifMetadataItems } from './location-heif';
import { ascii, blobReader, readExactly, type ReadAt } from './location-read';
import { inflateCapped as inflateWithin } from '../lib/inflate-capped';

/** The largest packet read, inflated or not (parseXmp refuses larger ones too). */
export const MAX_XMP_BYTES = 2 * 1024 * 1024;
/** Chunks of a PNG or WebP looked at before giving up: pictures have a handful. */
const MAX_CHUNKS = 10_000;
const PNG_XMP = 'XML:com.adobe.xmp';

/** The EXIF block (a TIFF structure) of a WebP, PNG, HEIF/AVIF or JPEG XL file, and its XMP packet as text. */
export async function readContainerBlocks(blob: Blob): Promise<{ exif: Uint8Array | null; xmp: string | null }> {
  const read = blobReader(blob);
  try {
    const head = await read(0, 12);
    const found =
      ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP'
        ? await webpBlocks(read, blob.size)
        : ascii(head, 1, 3) === 'PNG'
          ? await pngBlocks(read, blob.size)
          : ascii(head, 4, 4) === 'ftyp'
            ? await heifBlocks(read, blob.size)
            : ascii(head, 4, 4) === 'JXL '
              ? await jxlBlocks(read, blob.size)
              : { exif: null, xmp: null };
    return { exif: tiffStart(found.exif), xmp: found.xmp ? new TextDecoder().decode(found.xmp) : null };
  } catch (e) {
    if (e instanceof Unreadable) return { exif: null, xmp: null };
    throw e;
  }
}

/** The XMP packet of a WebP, HEIF/AVIF, PNG or JPEG XL file, as text; null when it has none or it cannot be read. */
export async function readXmpPacket(blob: Blob): Promise<string | null> {
  return (await readContainerBlocks(blob)).xmp;
}

interface Found {
  exif: Uint8Array | null;
  xmp: Uint8Array | null;
}

/** An EXIF block from its TIFF header on: some writers put `Exif\0\0` (or other bytes) before it. */
function tiffStart(block: Uint8Array | null): Uint8Array | null {
  if (!block) return null;
  for (let at = 0; at + 4 <= block.length && at <= 16; at++) {
    const magic = ascii(block, at, 4);
    if (magic === 'II*\0' || magic === 'MM\0*') return block.subarray(at);
  }
  return null;
}

async function webpBlocks(read: ReadAt, size: number): Promise<Found> {
  const out: Found = { exif: null, xmp: null };
  let at = 12;
  for (let n = 0; n < MAX_CHUNKS && at + 8 <= size && !(out.exif && out.xmp); n++) {
    const h = await readExactly(read, at, 8);
    const length = new DataView(h.buffer, h.byteOffset).getUint32(4, true);
    const type = ascii(h, 0, 4);
    if (type === 'XMP ' && !out.xmp && length <= MAX_XMP_BYTES) out.xmp = await readExactly(read, at + 8, length);
    if (type === 'EXIF' && !out.exif) out.exif = await readExactly(read, at + 8, length);
    at += 8 + length + (length & 1);
  }
  return out;
}

async function heifBlocks(read: ReadAt, size: number): Promise<Found> {
  const items = await heifMetadataItems(read, await topLevel(read, size));
  const exif = items?.find((i) => i.kind === 'exif');
  const xmp = items?.find((i) => i.kind === 'xmp');
  return {
    exif: exif ? skipTiffOffset(await readExactly(read, exif.offset, exif.length)) : null,
    xmp: xmp && xmp.length <= MAX_XMP_BYTES ? await readExactly(read, xmp.offset, xmp.length) : null,
  };
}

async function jxlBlocks(read: ReadAt, size: number): Promise<Found> {
  const top = await topLevel(read, size);
  const exif = top.find((b) => b.type === 'Exif');
  const xmp = top.find((b) => b.type === 'xml ');
  return {
    exif: exif ? skipTiffOffset(await readExactly(read, exif.start, exif.end - exif.start)) : null,
    xmp: xmp && xmp.end - xmp.start <= MAX_XMP_BYTES ? await readExactly(read, xmp.start, xmp.end - xmp.start) : null,
  };
}

/** An Exif item or box: the offset of its TIFF header (4 bytes, big-endian), then the block. */
function skipTiffOffset(item: Uint8Array): Uint8Array | null {
  if (item.length < 4) return null;
  const offset = new DataView(item.buffer, item.byteOffset).getUint32(0);
  return 4 + offset < item.length ? item.subarray(4 + offset) : null;
}

async function pngBlocks(read: ReadAt, size: number): Promise<Found> {
  const out: Found = { exif: null, xmp: null };
  // A packet that cannot be read is the file's XMP all the same: no later one is looked for.
  let packetSeen = false;
  let at = 8;
  for (let n = 0; n < MAX_CHUNKS && at + 12 <= size && !(out.exif && packetSeen); n++) {
    const h = await readExactly(read, at, 8);
    const length = new DataView(h.buffer, h.byteOffset).getUint32(0);
    const type = ascii(h, 4, 4);
    if (type === 'IDAT' || type === 'IEND') break;
    if (type === 'eXIf' && !out.exif) out.exif = await readExactly(read, at + 8, length);
    if ((type === 'iTXt' || type === 'zTXt' || type === 'tEXt') && length > PNG_XMP.length && !packetSeen) {
      const keyword = await readExactly(read, at + 8, PNG_XMP.length + 1);
      if (ascii(keyword, 0, PNG_XMP.length + 1) === `${PNG_XMP}\0`) {
        packetSeen = true;
        // Compressed, the packet is at most a few times smaller than itself; anything larger is no photo's XMP.
        if (length <= MAX_XMP_BYTES) out.xmp = await pngPacket(type, (await readExactly(read, at + 8, length)).subarray(PNG_XMP.length + 1));
      }
    }
    at += 12 + length;
  }
  return out;
}

/** The packet of a PNG text chunk, after its keyword and NUL. */
async function pngPacket(type: string, rest: Uint8Array): Promise<Uint8Array | null> {
  if (type === 'tEXt') return rest;
  // zTXt: compression method (0, zlib), then the compressed text.
  if (type === 'zTXt') return rest[0] === 0 ? inflateCapped(rest.subarray(1)) : null;
  // iTXt: compression flag, method, language tag and translated keyword (each NUL-terminated), then the text.
  const compressed = rest[0] === 1;
  const language = rest.indexOf(0, 2);
  const translated = language < 0 ? -1 : rest.indexOf(0, language + 1);
  if (translated < 0) return null;
  const text = rest.subarray(translated + 1);
  return compressed ? (rest[1] === 0 ? inflateCapped(text) : null) : text;
}

/** zlib data inflated a piece at a time, or null past `cap` (MAX_XMP_BYTES) or when it is not valid zlib. */
export function inflateCapped(data: Uint8Array, cap = MAX_XMP_BYTES): Promise<Uint8Array | null> {
  return inflateWithin(data, cap);
}
