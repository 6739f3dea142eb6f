/**
 * [Note: Removing location without touching the picture]
 * An original kept in an album that removes location must carry no place, yet stay the file the camera wrote:
 * same length, same offsets, the same compressed image data, so nothing is re-encoded and any tool still reads
 * every other tag. In a JPEG the place lives in two spots, and both are blanked in place:
 *   - EXIF (APP1 `Exif\0\0`): IFD0's GPSInfo pointer leads to the GPS IFD. Its entries, and every value they
 *     point to, are overwritten with zeros, leaving only GPSVersionID (which readers expect there and which
 *     says nothing of a place): a valid IFD in which readers find no position, and no coordinates remain
 *     anywhere in the bytes.
 *   - XMP (APP1 `http://ns.adobe.com/xap/1.0/\0`): each `exif:GPS…` property, written as an attribute or as an
 *     element, is overwritten with spaces, which XML takes as the whitespace between attributes or elements.
 * Nothing after the first SOS marker (the image data) is read or written. A file that is not a JPEG, or whose
 * segments cannot be followed, is reported as such and left alone: the caller keeps it as it is and says so.
 */

export type LocationOutcome =
  /** Location was found and blanked. */
  | 'removed'
  /** The file held no location. */
  | 'none'
  /** Not a format whose metadata can be edited in place here, or its structure could not be followed. */
  | 'unsupported';

export interface StrippedLocation {
  /** The file's bytes with location blanked (the input itself is never changed). */
  bytes: Uint8Array;
  outcome: LocationOutcome;
}

const EXIF_HEADER = [0x45, 0x78, 0x69, 0x66, 0, 0]; // "Exif\0\0"
const XMP_HEADER = 'http://ns.adobe.com/xap/1.0/\0';
const GPS_INFO_TAG = 0x8825;
/** Bytes per value of each TIFF field type (1 BYTE … 12 DOUBLE); unknown types count as 1. */
const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];

class Unreadable extends Error {}

export function stripJpegLocation(input: Uint8Array): StrippedLocation {
  if (input.length < 4 || input[0] !== 0xff || input[1] !== 0xd8) return { bytes: input, outcome: 'unsupported' };
  const bytes = input.slice();
  let removed = false;
  try {
    let at = 2;
    while (at + 4 <= bytes.length) {
      if (bytes[at] !== 0xff) throw new Unreadable('segment marker expected');
      const marker = bytes[at + 1]!;
      // Fill bytes before a marker.
      if (marker === 0xff) {
        at++;
        continue;
      }
      // Start of scan or end of image: the metadata is behind us.
      if (marker === 0xda || marker === 0xd9) break;
      // Markers without a length (RSTn, TEM).
      if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        at += 2;
        continue;
      }
      const length = (bytes[at + 2]! << 8) | bytes[at + 3]!;
      const start = at + 4;
      const end = at + 2 + length;
      if (length < 2 || end > bytes.length) throw new Unreadable('segment runs past the end');
      if (marker === 0xe1) {
        if (startsWith(bytes, start, EXIF_HEADER)) removed = blankExifGps(bytes, start + EXIF_HEADER.length, end) || removed;
        else if (startsWithText(bytes, start, XMP_HEADER)) removed = blankXmpGps(bytes, start + XMP_HEADER.length, end) || removed;
      }
      at = end;
    }
  } catch (e) {
    if (e instanceof Unreadable) return { bytes: input, outcome: 'unsupported' };
    throw e;
  }
  return removed ? { bytes, outcome: 'removed' } : { bytes: input, outcome: 'none' };
}

function startsWith(bytes: Uint8Array, at: number, prefix: number[]): boolean {
  return prefix.every((b, i) => bytes[at + i] === b);
}

function startsWithText(bytes: Uint8Array, at: number, prefix: string): boolean {
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix.charCodeAt(i)) return false;
  return true;
}

/** Blanks the GPS IFD of the TIFF structure in bytes[tiff, end). True when there was one with entries. */
function blankExifGps(bytes: Uint8Array, tiff: number, end: number): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) throw new Unreadable('not a TIFF header');
  const le = order === 0x4949;
  const u16 = (at: number) => view.getUint16(at, le);
  const u32 = (at: number) => view.getUint32(at, le);
  const inside = (offset: number, size: number) => {
    if (tiff + offset < tiff || tiff + offset + size > end) throw new Unreadable('offset outside the EXIF segment');
    return tiff + offset;
  };
  const ifd0 = inside(u32(tiff + 4), 2);
  const count0 = u16(ifd0);
  inside(u32(tiff + 4) + 2, count0 * 12);
  let gpsOffset: number | null = null;
  for (let i = 0; i < count0; i++) {
    const entry = ifd0 + 2 + i * 12;
    if (u16(entry) === GPS_INFO_TAG) gpsOffset = u32(entry + 8);
  }
  if (gpsOffset === null) return false;
  const gps = inside(gpsOffset, 2);
  const count = u16(gps);
  if (count === 0) return false;
  if (count === 1 && u16(gps + 2) === 0) return false;
  inside(gpsOffset + 2, count * 12);
  // GPSVersionID (tag 0, four bytes held in the entry) says which GPS tags follow, not where: it stays, since
  // readers expect it in a GPS IFD.
  let version: Uint8Array | null = null;
  for (let i = 0; i < count; i++) {
    const entry = gps + 2 + i * 12;
    const size = (TYPE_SIZE[u16(entry + 2)] ?? 1) * u32(entry + 4);
    if (u16(entry) === 0 && size <= 4) version = bytes.slice(entry, entry + 12);
    // Values over four bytes live elsewhere in the segment: zero them where they are.
    if (size > 4) bytes.fill(0, inside(u32(entry + 8), size), tiff + u32(entry + 8) + size);
  }
  // An IFD left with the version alone, or empty: its next-IFD link now reads from the zeros after the entries.
  bytes.fill(0, gps, gps + 2 + count * 12);
  if (version && count > 1) {
    view.setUint16(gps, 1, le);
    bytes.set(version, gps + 2);
  }
  return !(version && count === 1);
}

/** Overwrites every `exif:GPS…` property of the XMP packet in bytes[from, end) with spaces. */
function blankXmpGps(bytes: Uint8Array, from: number, end: number): boolean {
  // XMP is UTF-8; the property names and the markup around them are ASCII, so a latin1 view keeps offsets.
  let text = '';
  for (let i = from; i < end; i++) text += String.fromCharCode(bytes[i]!);
  const property = /\sexif:GPS[A-Za-z]*\s*=\s*("[^"]*"|'[^']*')|<exif:GPS([A-Za-z]*)\b[^>]*?(?:\/>|>[\s\S]*?<\/exif:GPS\2\s*>)/g;
  let found = false;
  for (const m of text.matchAll(property)) {
    bytes.fill(0x20, from + m.index, from + m.index + m[0].length);
    found = true;
  }
  return found;
}
