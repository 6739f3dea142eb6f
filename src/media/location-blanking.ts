/**
 * Blanking location in place inside a metadata block already in memory: a TIFF (EXIF) structure's GPS IFD and
 * an XMP packet's `exif:GPS…` properties. Shared by every container that carries them (JPEG, PNG, WebP, HEIF);
 * see [Note: Removing location without touching the picture] in strip-location.ts.
 */

/** The structure cannot be followed safely: the file is left as it is. */
export class Unreadable extends Error {}

const GPS_INFO_TAG = 0x8825;
/** Bytes per value of each TIFF field type (1 BYTE … 12 DOUBLE); unknown types count as 1. */
const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];

/** Blanks the GPS IFD of the TIFF structure in bytes[tiff, end). True when there was one with entries. */
export function blankExifGps(bytes: Uint8Array, tiff: number, end: number): boolean {
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
  // A version alone names no place: nothing to remove.
  if (count === 1 && u16(gps + 2) === 0) return false;
  inside(gpsOffset + 2, count * 12);
  // Every entry goes, GPSVersionID too: an empty GPS IFD is valid and readers then find no GPS tag at all.
  for (let i = 0; i < count; i++) {
    const entry = gps + 2 + i * 12;
    const size = (TYPE_SIZE[u16(entry + 2)] ?? 1) * u32(entry + 4);
    // Values over four bytes live elsewhere in the block: zero them where they are.
    if (size > 4) bytes.fill(0, inside(u32(entry + 8), size), tiff + u32(entry + 8) + size);
  }
  // Count zero; the next-IFD link now reads from the zeros where the entries were.
  bytes.fill(0, gps, gps + 2 + count * 12);
  return true;
}

/** Overwrites every `exif:GPS…` property of the XMP packet in bytes[from, end) with spaces. */
export function blankXmpGps(bytes: Uint8Array, from: number, end: number): boolean {
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
