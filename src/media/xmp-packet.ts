/**
 * [Note: XMP packets exifr does not find]
 * exifr reads the XMP packet of a JPEG, a TIFF and a PNG that keeps it as plain text. Three places it misses:
 * a WebP's `XMP ` chunk, a HEIF or AVIF file's XMP item (a `mime` item, location-heif.ts), and a PNG's packet
 * stored compressed (an `iTXt` chunk with its compression flag set, or a `zTXt` chunk), as several editors write
 * it. Those are read here, by offset, never the whole file. A compressed packet is inflated with pako a piece at
 * a time and given up past MAX_XMP_BYTES: a 1 KB chunk that would inflate to a gigabyte stops after 2 MiB, at
 * once, and the photo simply has no XMP.
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

/** The XMP packet of a WebP, HEIF/AVIF or PNG file, as text; null when it has none or it cannot be read. */
export async function readXmpPacket(blob: Blob): Promise<string | null> {
  const read = blobReader(blob);
  try {
    const head = await read(0, 12);
    const bytes =
      ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 4) === 'WEBP'
        ? await webpXmp(read, blob.size)
        : ascii(head, 1, 3) === 'PNG'
          ? await pngXmp(read, blob.size)
          : ascii(head, 4, 4) === 'ftyp'
            ? await heifXmp(read, blob.size)
            : null;
    return bytes ? new TextDecoder().decode(bytes) : null;
  } catch (e) {
    if (e instanceof Unreadable) return null;
    throw e;
  }
}

async function webpXmp(read: ReadAt, size: number): Promise<Uint8Array | null> {
  let at = 12;
  for (let n = 0; n < MAX_CHUNKS && at + 8 <= size; n++) {
    const h = await readExactly(read, at, 8);
    const length = new DataView(h.buffer, h.byteOffset).getUint32(4, true);
    if (ascii(h, 0, 4) === 'XMP ') return length <= MAX_XMP_BYTES ? readExactly(read, at + 8, length) : null;
    at += 8 + length + (length & 1);
  }
  return null;
}

async function heifXmp(read: ReadAt, size: number): Promise<Uint8Array | null> {
  const items = await heifMetadataItems(read, await topLevel(read, size));
  const xmp = items?.find((i) => i.kind === 'xmp');
  return xmp && xmp.length <= MAX_XMP_BYTES ? readExactly(read, xmp.offset, xmp.length) : null;
}

async function pngXmp(read: ReadAt, size: number): Promise<Uint8Array | null> {
  let at = 8;
  for (let n = 0; n < MAX_CHUNKS && at + 12 <= size; n++) {
    const h = await readExactly(read, at, 8);
    const length = new DataView(h.buffer, h.byteOffset).getUint32(0);
    const type = ascii(h, 4, 4);
    if (type === 'IDAT' || type === 'IEND') return null;
    if ((type === 'iTXt' || type === 'zTXt' || type === 'tEXt') && length > PNG_XMP.length) {
      const keyword = await readExactly(read, at + 8, PNG_XMP.length + 1);
      if (ascii(keyword, 0, PNG_XMP.length + 1) === `${PNG_XMP}\0`) {
        // Compressed, the packet is at most a few times smaller than itself; anything larger is no photo's XMP.
        if (length > MAX_XMP_BYTES) return null;
        return pngPacket(type, (await readExactly(read, at + 8, length)).subarray(PNG_XMP.length + 1));
      }
    }
    at += 12 + length;
  }
  return null;
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
