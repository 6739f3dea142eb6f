/**
 * [Note: Removing location without touching the picture]
 * An original kept in an album that removes location must carry no place, yet stay the file the camera wrote:
 * same length, same offsets, the same compressed image data, so nothing is re-encoded and any tool still reads
 * every other tag. In a JPEG the place lives in two spots, and both are blanked in place:
 *   - EXIF (APP1 `Exif\0\0`): IFD0's GPSInfo pointer leads to the GPS IFD. Its entries, and every value they
 *     point to, are overwritten with zeros, GPSVersionID included: an empty IFD, still valid, in which readers
 *     find no GPS tag at all, and no coordinates remain anywhere in the bytes.
 *   - XMP (APP1 `http://ns.adobe.com/xap/1.0/\0`): each `exif:GPS…` property, written as an attribute or as an
 *     element, is overwritten with spaces, which XML takes as the whitespace between attributes or elements.
 * Nothing after the first SOS marker (the image data) is read or written. A file that is not a JPEG, or whose
 * segments cannot be followed, is reported as such and left alone: the caller keeps it as it is and says so.
 * The other containers carry the same two blocks and get the same blanking (location-patches.ts, location-heif.ts):
 *   - PNG: the `eXIf` chunk holds the TIFF structure, an `iTXt` chunk named XML:com.adobe.xmp the XMP packet
 *     (only when stored uncompressed); each changed chunk gets its CRC again. Text chunks holding EXIF the old
 *     ImageMagick way ("Raw profile type …", hex in zlib) cannot be edited in place: such a file is unsupported.
 *   - WebP: the RIFF `EXIF` and `XMP ` chunks.
 *   - HEIF (HEIC, AVIF): the `Exif` item and the XMP `mime` item found through the meta box's iinf and iloc;
 *     an Exif item starts with the offset of its TIFF header.
 * The upload never copies a file to do this: only the metadata blocks are read, the changed bytes become
 * patches (offset + bytes, kept with the upload task), and the original sent is `new Blob([slice, patch,
 * slice, …])` over the user's file, so a 4 GB file costs a few kilobytes of memory.
 */
import { blankExifGps, blankXmpGps, Unreadable } from './location-blanking';

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
