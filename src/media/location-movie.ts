/**
 * [Note: Location in a video]
 * An MP4 or MOV (ISO base media) keeps the place it was filmed in the movie box (`moov`), in three ways, and
 * each is blanked in place, the media data (`mdat`) never read:
 *   - user data (`udta`, of the movie or of a track): `©xyz` (an ISO 6709 string, as phones write it) and
 *     `loci` (3GPP: a place name and coordinates) become `free` boxes with their content zeroed, which every
 *     reader skips; an `XMP_` box there has its place properties blanked as in a photo;
 *   - QuickTime metadata (`meta` with `keys` and `ilst`, as iPhones write it): the items of the keys named
 *     `com.apple.quicktime.location.…` become `free` boxes, zeroed (a zeroed value would read as the place
 *     0° N 0° E); an iTunes style `ilst` item `©xyz` too;
 *   - XMP in a top-level `uuid` box (BE7ACFCB-97A9-42E8-9C71-999491E3AFAC);
 *   - a Canon CR3 (a raw photo in the same boxes): the movie box's Canon `uuid` box
 *     (85C0B687-820F-11E0-8111-F4CE462B6A48) holds the photo's TIFF structures as boxes, `CMT1` (IFD0),
 *     `CMT2` (the EXIF IFD), `CMT3` (the maker notes), `CMT4` (the GPS IFD, as the first IFD of its own TIFF
 *     structure); `CMT4` is blanked as any GPS IFD, and `CMT1` too should its IFD0 point to one.
 * The movie box is read whole (at most 16 MiB): a longer one cannot be edited here, and the file is reported
 * as unsupported, as is any structure that cannot be followed.
 */
import { blankExifGps, blankGpsIfd0, blankXmpLocation, Unreadable } from './location-blanking';
import { boxes, type Box } from './location-boxes';
import { ascii, patchBlock, readExactly, type BytePatch, type ReadAt, type Walked } from './location-read';

const XMP_UUID = 'be7acfcb97a942e89c71999491e3afac';
const CANON_UUID = '85c0b687820f11e08111f4ce462b6a48';
/** The boxes a Canon uuid box holds (ExifTool's Canon::uuid table); any other may hold a place unseen. */
const CANON_BOXES = new Set(['CNCV', 'CNDM', 'CNTH', 'CCTP', 'CTBO', 'CMT1', 'CMT2', 'CMT3', 'CMT4', 'THMB', 'CNOP', 'free']);
/** Boxes that hold only boxes, on the way to user data and metadata. */
const CONTAINERS = new Set(['moov', 'trak', 'udta', 'mdia', 'minf']);
const PLACE_BOXES = new Set(['\u00a9xyz', 'loci']);
const FREE = [0x66, 0x72, 0x65, 0x65];

export async function moviePatches(read: ReadAt, top: readonly (Box & { at: number })[]): Promise<Walked> {
  const patches: BytePatch[] = [];
  for (const box of top) {
    if (box.type === 'moov') {
      const header = box.start - box.at;
      patchBlock(patches, await readExactly(read, box.at, box.end - box.at), box.at, (b) => blankMovie(b, header, b.length));
    } else if (box.type === 'uuid' && box.end - box.start >= 16) {
      if (uuid(await readExactly(read, box.start, 16), 0) !== XMP_UUID) continue;
      patchBlock(patches, await readExactly(read, box.start + 16, box.end - box.start - 16), box.start + 16, (b) => blankXmpLocation(b, 0, b.length));
    }
  }
  return { outcome: 'none', patches };
}

/** Blanks every place in the boxes of bytes[from, to); true when one was found. */
function blankMovie(bytes: Uint8Array, from: number, to: number): boolean {
  let found = false;
  for (const box of boxes(bytes, from, to)) {
    if (CONTAINERS.has(box.type)) found = blankMovie(bytes, box.start, box.end) || found;
    else if (box.type === 'meta') found = blankMeta(bytes, box) || found;
    else if (PLACE_BOXES.has(box.type)) found = toFree(bytes, box) || found;
    else if (box.type === 'XMP_') found = blankXmpLocation(bytes, box.start, box.end) || found;
    else if (box.type === 'uuid' && box.end - box.start >= 16 && uuid(bytes, box.start) === CANON_UUID) found = blankCanon(bytes, box) || found;
  }
  return found;
}

/** A Canon uuid box: after its 16-byte id, boxes; `CMT4` a TIFF structure whose first IFD is the GPS IFD. */
function blankCanon(bytes: Uint8Array, canon: Box): boolean {
  let found = false;
  for (const box of boxes(bytes, canon.start + 16, canon.end)) {
    if (!CANON_BOXES.has(box.type)) throw new Unreadable('unknown box in the Canon uuid box');
    if (box.type === 'CMT4') found = blankGpsIfd0(bytes, box.start, box.end) || found;
    else if (box.type === 'CMT1') found = blankExifGps(bytes, box.start, box.end) || found;
  }
  return found;
}

/** The 16 bytes at `at` as lowercase hex digits. */
function uuid(bytes: Uint8Array, at: number): string {
  return [...bytes.subarray(at, at + 16)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/** A box made `free`, its content zeroed. */
function toFree(bytes: Uint8Array, box: Box): true {
  bytes.set(FREE, box.start - 4);
  bytes.fill(0, box.start, box.end);
  return true;
}

/** A `meta` box: QuickTime's (boxes at once) or ISO's (a full box: version and flags first). */
function blankMeta(bytes: Uint8Array, meta: Box): boolean {
  const first = ascii(bytes, meta.start + 4, 4) === 'hdlr' ? meta.start : meta.start + 4;
  const children = boxes(bytes, first, meta.end);
  const keys = children.find((b) => b.type === 'keys');
  const names = keys ? keyNames(bytes, keys) : [];
  let found = false;
  for (const ilst of children.filter((b) => b.type === 'ilst')) {
    for (const item of boxes(bytes, ilst.start, ilst.end)) {
      if (PLACE_BOXES.has(item.type)) {
        found = toFree(bytes, item) || found;
        continue;
      }
      // A QuickTime item's type is the 1-based index of its key: a `free` box is no key's item.
      const index = new DataView(bytes.buffer, bytes.byteOffset).getUint32(item.start - 4);
      if (/^com\.apple\.quicktime\.location\./.test(names[index - 1] ?? '')) found = toFree(bytes, item) || found;
    }
  }
  return found;
}

/** The names of a `keys` box, in order. */
function keyNames(bytes: Uint8Array, keys: Box): string[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset);
  if (keys.end - keys.start < 8) throw new Unreadable('keys');
  const count = view.getUint32(keys.start + 4);
  const names: string[] = [];
  let at = keys.start + 8;
  for (let i = 0; i < count; i++) {
    if (at + 8 > keys.end) throw new Unreadable('keys run past their box');
    const size = view.getUint32(at);
    if (size < 8 || at + size > keys.end) throw new Unreadable('a key runs past its box');
    names.push(ascii(bytes, at + 8, size - 8));
    at += size;
  }
  return names;
}
