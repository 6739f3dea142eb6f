/**
 * [Note: Place names in IPTC-IIM]
 * The older IPTC standard (IIM) keeps a photo's place as text datasets of its application record (record 2):
 * City (2:90), Sub-location (2:92), Province-State (2:95), the country's code and name (2:100, 2:101), and
 * the place shown, Content Location Code and Name (2:26, 2:27). A JPEG carries them in APP13 as a Photoshop
 * image resource (0x0404) among others; a TIFF as the value of tag 33723 (IPTC-NAA), and again in the
 * Photoshop resources of tag 34377. Those resources can hold an EXIF block (0x0422) and an XMP packet (0x0424)
 * as well, blanked as anywhere else.
 * Each such dataset keeps its header and length and gets spaces for its value. The dataset cannot be taken
 * out without moving the bytes after it, and every same-length form leaves its name: ExifTool then reads
 * `City: "      "` (spaces) or `City: ""` (zeros); spaces are chosen because IIM text allows only graphic
 * characters and space, and other readers (exifr) hand NUL bytes back as they are. Nothing of the name is left
 * but its length.
 * Photoshop's IPTC digest (resource 0x0425) is the MD5 of the IIM block: XMP-aware readers use it to tell
 * whether the XMP still agrees with the IIM, and when it does not (ExifTool warns "IPTCDigest is not current")
 * they take the IIM over the XMP. A digest that matched the block before blanking is therefore set to the MD5
 * of the blanked block, as ExifTool does when it edits IIM; one that did not match is left as it was.
 * Anything that does not parse as described (an unknown resource signature, a length that runs past its block,
 * an IIM extended length) is Unreadable: the file is then kept as it is.
 */
import { blankExifGps, blankXmpLocation, Unreadable } from './location-blanking';
import { ascii } from './location-read';

const PLACE_DATASETS = new Set([26, 27, 90, 92, 95, 100, 101]);
const IPTC_RESOURCE = 0x0404;
/** A TIFF structure, as in a JPEG's APP1 (Photoshop keeps EXIF here in PSD and EPS files). */
const EXIF_RESOURCE = 0x0422;
const XMP_RESOURCE = 0x0424;
const DIGEST_RESOURCE = 0x0425;
const SPACE = 0x20;

/** An IIM block's MD5 before and after blanking: a Photoshop digest equal to the one becomes the other. */
export interface IimDigest {
  before: Uint8Array;
  after: Uint8Array;
}

/** What blanking IIM needs: an MD5 (hash-wasm's, loaded once a file holds IIM) and the digests of one file. */
export interface IimContext {
  md5: (bytes: Uint8Array) => Uint8Array;
  digests: IimDigest[];
}

/** A context for one file's IIM blocks. hash-wasm loads only for a file that holds IIM: most never do. */
export async function iimContext(): Promise<IimContext> {
  const { createMD5 } = await import('hash-wasm');
  const hasher = await createMD5();
  const md5 = (bytes: Uint8Array) => {
    hasher.init();
    hasher.update(bytes);
    return hasher.digest('binary');
  };
  return { md5, digests: [] };
}

/**
 * Blanks the place datasets of the IIM block bytes[from, to); true when a byte changed, and then the block's
 * digests are added to the context's.
 */
export function blankIim(bytes: Uint8Array, from: number, to: number, iim: IimContext): boolean {
  const original = bytes.slice(from, to);
  let changed = false;
  let at = from;
  while (at < to) {
    if (bytes[at] !== 0x1c) {
      // Some writers pad the block with zeros.
      if (bytes.subarray(at, to).every((b) => b === 0)) break;
      throw new Unreadable('IIM dataset marker expected');
    }
    if (at + 5 > to) throw new Unreadable('IIM dataset header runs past its block');
    const length = (bytes[at + 3]! << 8) | bytes[at + 4]!;
    // An extended length (top bit set) is for large binary datasets, never for a place.
    if (length & 0x8000) throw new Unreadable('IIM extended dataset length');
    const value = at + 5;
    if (value + length > to) throw new Unreadable('IIM dataset runs past its block');
    if (bytes[at + 1] === 2 && PLACE_DATASETS.has(bytes[at + 2]!) && bytes.subarray(value, value + length).some((b) => b !== SPACE)) {
      bytes.fill(SPACE, value, value + length);
      changed = true;
    }
    at = value + length;
  }
  if (changed) iim.digests.push({ before: iim.md5(original), after: iim.md5(bytes.subarray(from, to)) });
  return changed;
}

/**
 * Blanks the places held in the Photoshop image resource blocks of bytes[from, to) (`8BIM`, a 2-byte id, a
 * Pascal name padded to an even length, a 4-byte size, the data padded to an even length): the IIM, and the
 * EXIF and XMP that Photoshop may keep there too. Sets the IPTC digest again when it matched an IIM block that
 * changed, here or elsewhere in the same file (the context's digests).
 */
export function blankPhotoshopResources(bytes: Uint8Array, from: number, to: number, iim: IimContext): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stored: number[] = [];
  let changed = false;
  let at = from;
  while (at < to) {
    if (bytes.subarray(at, to).every((b) => b === 0)) break;
    // Other signatures (PHUT, AgHg, …) come from old tools and give the ids other meanings.
    if (at + 8 > to || ascii(bytes, at, 4) !== '8BIM') throw new Unreadable('Photoshop resource signature');
    const id = view.getUint16(at + 4);
    const sizeAt = at + 6 + ((bytes[at + 6]! + 2) & ~1);
    if (sizeAt + 4 > to) throw new Unreadable('Photoshop resource header runs past its block');
    const size = view.getUint32(sizeAt);
    const data = sizeAt + 4;
    if (data + size > to) throw new Unreadable('Photoshop resource runs past its block');
    if (id === IPTC_RESOURCE) changed = blankIim(bytes, data, data + size, iim) || changed;
    else if (id === EXIF_RESOURCE) changed = blankExifGps(bytes, data, data + size) || changed;
    else if (id === XMP_RESOURCE) changed = blankXmpLocation(bytes, data, data + size) || changed;
    else if (id === DIGEST_RESOURCE && size === 16) stored.push(data);
    // The last block's padding byte is sometimes left out.
    at = Math.min(to, data + size + (size & 1));
  }
  for (const digest of stored) {
    const match = iim.digests.find((d) => d.before.every((b, i) => b === bytes[digest + i]));
    if (match) {
      bytes.set(match.after, digest);
      changed = true;
    }
  }
  return changed;
}
