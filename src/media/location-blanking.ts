/**
 * Blanking location in place inside a metadata block already in memory: a TIFF (EXIF) structure's GPS IFD and
 * an XMP packet's `exif:GPS…` properties. Shared by every container that carries them (JPEG, PNG, WebP, HEIF,
 * CR3); see [Note: Removing location without touching the picture] in location-patches.ts.
 */

/** The structure cannot be followed safely: the file is left as it is. */
export class Unreadable extends Error {}

const GPS_INFO_TAG = 0x8825;
/** Bytes per value of each TIFF field type (1 BYTE … 12 DOUBLE); unknown types count as 1. */
export const TYPE_SIZE = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8];

/** Blanks the GPS IFD of the TIFF structure in bytes[tiff, end). True when there was one with entries. */
export function blankExifGps(bytes: Uint8Array, tiff: number, end: number): boolean {
  const t = tiffIn(bytes, tiff, end);
  const ifd0 = t.inside(t.u32(tiff + 4), 2);
  const count0 = t.u16(ifd0);
  t.inside(t.u32(tiff + 4) + 2, count0 * 12);
  let gpsOffset: number | null = null;
  for (let i = 0; i < count0; i++) {
    const entry = ifd0 + 2 + i * 12;
    if (t.u16(entry) === GPS_INFO_TAG) gpsOffset = t.u32(entry + 8);
  }
  return gpsOffset !== null && blankGpsIfd(bytes, t, gpsOffset);
}

/** Blanks the first IFD of the TIFF structure in bytes[tiff, end) as a GPS IFD: a Canon CR3's `CMT4` box. */
export function blankGpsIfd0(bytes: Uint8Array, tiff: number, end: number): boolean {
  const t = tiffIn(bytes, tiff, end);
  return blankGpsIfd(bytes, t, t.u32(tiff + 4));
}

/** A TIFF structure in bytes[tiff, end): its fields read in its byte order, its offsets checked against its end. */
interface TiffIn {
  u16: (at: number) => number;
  u32: (at: number) => number;
  /** Where `offset` (from the TIFF header) falls in `bytes`, once `size` bytes from there are found inside. */
  inside: (offset: number, size: number) => number;
}

function tiffIn(bytes: Uint8Array, tiff: number, end: number): TiffIn {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (tiff + 8 > end) throw new Unreadable('not a TIFF header');
  const order = view.getUint16(tiff);
  if (order !== 0x4949 && order !== 0x4d4d) throw new Unreadable('not a TIFF header');
  const le = order === 0x4949;
  return {
    u16: (at) => view.getUint16(at, le),
    u32: (at) => view.getUint32(at, le),
    inside: (offset, size) => {
      if (tiff + offset < tiff || tiff + offset + size > end) throw new Unreadable('offset outside the EXIF segment');
      return tiff + offset;
    },
  };
}

/** Zeros the GPS IFD at `gpsOffset` and every value it points to. True when it had entries naming a place. */
function blankGpsIfd(bytes: Uint8Array, t: TiffIn, gpsOffset: number): boolean {
  const { u16, u32, inside } = t;
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
    if (size > 4) {
      const at = inside(u32(entry + 8), size);
      bytes.fill(0, at, at + size);
    }
  }
  // Count zero; the next-IFD link now reads from the zeros where the entries were.
  bytes.fill(0, gps, gps + 2 + count * 12);
  return true;
}

/**
 * [Note: Where XMP names a place]
 * A place can stand in an XMP packet under several schemas, each bound to whatever prefix the writer chose
 * (`exif:`, `ns1:`, …): so properties are found by their namespace URI, read from the packet's `xmlns:`
 * declarations, never by a fixed prefix.
 *   - EXIF (`http://ns.adobe.com/exif/1.0/`): every `GPS…` property (coordinates, altitude, area, destination);
 *   - Photoshop: `City`, `State`, `Country`; IPTC Core: `Location` (the sublocation), `CountryCode`;
 *   - IPTC Extension: the `LocationCreated` and `LocationShown` structures, whole (names, codes and their own
 *     GPS fields);
 *   - XMP Dynamic Media: `shotLocation`; DJI drones: `Gps…` and `AbsoluteAltitude`.
 * Each, written as an attribute or as an element with all it contains, is overwritten with spaces, which XML
 * takes as the whitespace between attributes or elements. What is left is then searched for the names of
 * those properties under any prefix: one still there was written in a way this does not follow (a default
 * namespace, markup split oddly), and the packet is reported as one that cannot be edited in place, so no
 * file is said to be free of its place while it is not.
 */
const PLACE_PROPERTIES: readonly (readonly [uri: string, names: RegExp])[] = [
  ['http://ns.adobe.com/exif/1.0/', /^GPS[A-Za-z]*$/],
  ['http://ns.adobe.com/photoshop/1.0/', /^(City|State|Country)$/],
  ['http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/', /^(Location|CountryCode)$/],
  ['http://iptc.org/std/Iptc4xmpExt/2008-02-29/', /^(LocationCreated|LocationShown)$/],
  ['http://ns.adobe.com/xmp/1.0/DynamicMedia/', /^shotLocation$/],
  ['http://www.dji.com/drone-dji/1.0/', /^(Gps[A-Za-z]*|AbsoluteAltitude)$/],
];

/** Names that, left anywhere in a packet after blanking, mean a place may still be there. */
const PLACE_LEFT = /[:<\s](GPS(Latitude|Longitude|Altitude|AreaInformation|DestLatitude|DestLongitude)|GpsL(at|ong)[a-z]*|LocationCreated|LocationShown|shotLocation)\b/;

const NAME = '[A-Za-z_][\\w.-]*';

/** The prefixes the packet binds to each place schema, with the names that hold a place under it. */
function placePrefixes(text: string): { prefix: string; names: RegExp }[] {
  const out: { prefix: string; names: RegExp }[] = [];
  for (const m of text.matchAll(new RegExp(`xmlns:(${NAME})\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'g'))) {
    const uri = (m[2] ?? m[3] ?? '').trim();
    const schema = PLACE_PROPERTIES.find(([u]) => u === uri);
    if (schema) out.push({ prefix: m[1]!, names: schema[1] });
  }
  return out;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&');

/** Overwrites with spaces every property of the XMP packet in bytes[from, end) that names a place. */
export function blankXmpLocation(bytes: Uint8Array, from: number, end: number): boolean {
  // XMP is UTF-8; the property names and the markup around them are ASCII, so a latin1 view keeps offsets.
  let text = '';
  for (let i = from; i < end; i++) text += String.fromCharCode(bytes[i]!);
  let found = false;
  const blank = (at: number, length: number) => {
    bytes.fill(0x20, from + at, from + at + length);
    text = text.slice(0, at) + ' '.repeat(length) + text.slice(at + length);
    found = true;
  };
  for (const { prefix, names } of placePrefixes(text)) {
    const p = escape(prefix);
    const attribute = new RegExp(`\\s${p}:(${NAME})\\s*=\\s*("[^"]*"|'[^']*')`, 'g');
    const element = new RegExp(`<${p}:(${NAME})\\b[^>]*?(?:\\/>|>[\\s\\S]*?<\\/${p}:\\1\\s*>)`, 'g');
    for (const re of [element, attribute]) {
      for (const m of [...text.matchAll(re)]) if (names.test(m[1]!)) blank(m.index, m[0].length);
    }
  }
  if (PLACE_LEFT.test(text)) throw new Unreadable('a place written in a way that cannot be blanked in place');
  return found;
}
