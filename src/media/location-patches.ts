/**
 * [Note: Removing location without touching the picture]
 * An original kept in an album that removes location must carry no place, yet stay the file the camera wrote:
 * same length, same offsets, the same compressed image data, so nothing is re-encoded and any tool still reads
 * every other tag. In a JPEG the place lives in three spots, and each is blanked in place:
 *   - EXIF (APP1 `Exif\0\0`): IFD0's GPSInfo pointer leads to the GPS IFD. Its entries, and every value they
 *     point to, are overwritten with zeros, GPSVersionID included: an empty IFD, still valid, in which readers
 *     find no GPS tag at all, and no coordinates remain anywhere in the bytes.
 *   - XMP (APP1 `http://ns.adobe.com/xap/1.0/\0`, and the Extended XMP that continues it in further APP1
 *     segments): every property that names a place, under whatever prefix ([Note: Where XMP names a place] in
 *     location-blanking.ts), is overwritten with spaces.
 *   - IPTC-IIM (APP13 `Photoshop 3.0\0`, the image resource 0x0404): the datasets naming a place (city,
 *     sublocation, region, country) get spaces for their values ([Note: Place names in IPTC-IIM] in
 *     location-iptc.ts); an EXIF block or XMP packet among those resources is blanked as above.
 * Nothing after the first SOS marker (the image data) is read or written. A file that is not a JPEG, or whose
 * segments cannot be followed, is reported as such and left alone: the caller keeps it as it is and says so.
 * The other containers carry the same EXIF and XMP blocks and get the same blanking (location-patches.ts,
 * location-heif.ts):
 *   - PNG: the `eXIf` chunk holds the TIFF structure, an `iTXt` or `tEXt` chunk named XML:com.adobe.xmp the XMP
 *     packet; each changed chunk gets its CRC again. An XMP packet stored compressed (`zTXt`, or a compressed
 *     `iTXt`) cannot be edited in place: such a file is unsupported. Text chunks holding EXIF, XMP or IPTC the
 *     old ImageMagick way ("Raw profile type …", hex in zlib, as ExifTool still writes IPTC into a PNG) cannot
 *     be edited in place: such a file is unsupported.
 *   - WebP: the RIFF `EXIF` and `XMP ` chunks.
 *   - HEIF (HEIC, AVIF): the `Exif` item and the XMP `mime` item found through the meta box's iinf and iloc;
 *     an Exif item starts with the offset of its TIFF header.
 *   - TIFF and DNG: the file is the TIFF structure itself; its GPS IFD, its XMP (tag 700) and its IIM (tags 33723
 *     and 34377), read by offset (location-tiff.ts).
 *   - JPEG XL: the container's `Exif` and `xml ` boxes. One compressed with Brotli (a `brob` box, as cjxl
 *     keeps a JPEG's EXIF) cannot be edited in place: it is retired whole ([Note: Retiring a compressed JPEG XL
 *     box]). A bare codestream holds no metadata.
 *   - MP4 and MOV: the movie box's user data, QuickTime keys and XMP ([Note: Location in a video] in
 *     location-movie.ts); Canon CR3, ISO base media too, its GPS IFD in the movie box.
 *   - Matroska and WebM: tags naming a place, and attached pictures ([Note: Location in a Matroska file] in
 *     location-matroska.ts).
 *   - AVI: its XMP, INFO tags that may name a place and vendor data; a text stream or EXIF in a stream makes it
 *     unsupported ([Note: Location in an AVI file] in location-avi.ts).
 *   - MPEG transport streams (AVCHD `.MTS`): the GPS entries of the MDPM data in the H.264 video's SEI
 *     ([Note: Location in an MPEG transport stream] in location-mpegts.ts).
 *   - MPEG program streams (`.mpg`, `.vob`): no field for a place; walked to make sure no stream could hold one
 *     ([Note: Location in an MPEG program stream] in location-mpegps.ts).
 *   - Flash video: texts and numbers of its script data that may be a place, and its XMP ([Note: Location in a
 *     Flash video] in location-flv.ts).
 *   - Windows Media (ASF): named attributes that may hold a place, and its XMP ([Note: Location in a Windows
 *     Media file] in location-asf.ts).
 *   - Fujifilm RAF: its JPEG preview (the raw's EXIF) and sensor data stored as TIFF ([Note: Location in a
 *     Fujifilm RAF] in location-raf.ts).
 * The upload never copies a file to do this: only the metadata blocks are read, the changed bytes become
 * patches (offset + bytes, kept with the upload task), and the original sent is `new Blob([slice, patch,
 * slice, …])` over the user's file, so a 4 GB file costs a few kilobytes of memory.
 * ExifTool compiled to WebAssembly (@uswriting/exiftool 1.0.9, ExifTool 13.42) knows more formats, but was
 * weighed and not taken: its Perl interpreter is 7.2 MiB gzip to download (25 MB of WebAssembly), it took
 * 0.8–1.2 s per camera JPEG against 0.34 ms here (Node 20, tests/fixtures/orientation-1.jpg), and it writes
 * a whole new copy of the file in memory, which a long video does not fit. A file this cannot clean is not
 * uploaded as it is: the person chooses ([Note: An original that keeps its place] in original-location.ts).
 */
import { blankExifGps, blankXmpLocation, Unreadable } from './location-blanking';
import { topLevel } from './location-boxes';
import { heifPatches } from './location-heif';
import { blankIim, blankPhotoshopResources, iimContext, type IimContext } from './location-iptc';
import { tiffPatches } from './location-tiff';
import { ascii, blobReader, diffPatch, MAX_BLOCK_BYTES, patchBlock, readExactly, type BytePatch, type LocationOutcome, type Walked, type Walker } from './location-read';

export type { BytePatch, LocationOutcome } from './location-read';
/** For a sidecar stored beside its original (src/upload/stored-sidecar.ts), from the chunk an upload already has. */
export { blankXmpLocation, Unreadable };

export interface LocationPatches {
  outcome: LocationOutcome;
  /** Empty unless the outcome is `removed`; sorted, never overlapping. */
  patches: BytePatch[];
}

/** The location patches of `blob`, found from its first bytes; anything not recognised is `unsupported`. */
export async function findLocationPatches(blob: Blob): Promise<LocationPatches> {
  const read = blobReader(blob);
  const size = blob.size;
  const head = await read(0, 16);
  // A bare JPEG XL codestream has nowhere to keep metadata.
  if (head[0] === 0xff && head[1] === 0x0a) return { outcome: 'none', patches: [] };
  // The walkers of rarer containers load with the first file the common ones do not know.
  const walker = walkerFor(head) ?? (await import('./location-rare')).rareWalkerFor(head, { walkerFor, jpeg: jpegPatches, tiff: tiffWalker });
  if (!walker) return { outcome: 'unsupported', patches: [] };
  try {
    const found = await walker(read, size);
    // A block that may hold a place and cannot be edited: the whole file is kept as it is, and says so.
    if (found.outcome === 'unsupported') return { outcome: 'unsupported', patches: [] };
    const patches = found.patches.sort((a, b) => a.offset - b.offset);
    // Blocks that overlap point into each other: a structure not to be trusted.
    if (patches.some((p, i) => i > 0 && p.offset < patches[i - 1]!.offset + patches[i - 1]!.bytes.length)) return { outcome: 'unsupported', patches: [] };
    return patches.length > 0 ? { outcome: 'removed', patches } : { outcome: found.outcome, patches: [] };
  } catch (e) {
    if (e instanceof Unreadable) return { outcome: 'unsupported', patches: [] };
    throw e;
  }
}

/** The walker for a picture or an ISO base media file (MP4, MOV, HEIF), by its first bytes. */
function walkerFor(head: Uint8Array): Walker | null {
  if (isJpeg(head)) return jpegPatches;
  if (isPng(head)) return pngPatches;
  if (isWebp(head)) return webpPatches;
  if (isJxlContainer(head)) return jxlPatches;
  if (isIsobmff(head)) return heifPatches;
  if (isTiff(head)) return tiffWalker;
  return null;
}

const tiffWalker: Walker = (read, size) => tiffPatches(read, size, jpegPatches);

/** `blob` with `patches` laid over it, made of slices of `blob`: nothing is copied but the patches. */
export function withPatches(blob: Blob, patches: readonly BytePatch[]): Blob {
  if (patches.length === 0) return blob;
  const parts: BlobPart[] = [];
  let at = 0;
  for (const p of [...patches].sort((a, b) => a.offset - b.offset)) {
    if (p.offset < at || p.offset + p.bytes.length > blob.size) throw new RangeError('patches overlap or run past the end');
    parts.push(blob.slice(at, p.offset), p.bytes as Uint8Array<ArrayBuffer>);
    at = p.offset + p.bytes.length;
  }
  parts.push(blob.slice(at));
  return new Blob(parts, { type: blob.type });
}


const isJpeg = (h: Uint8Array) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff;
const isPng = (h: Uint8Array) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => h[i] === b);
const isWebp = (h: Uint8Array) => ascii(h, 0, 4) === 'RIFF' && ascii(h, 8, 4) === 'WEBP';
const isIsobmff = (h: Uint8Array) => ascii(h, 4, 4) === 'ftyp';
const isJxlContainer = (h: Uint8Array) => ascii(h, 4, 8) === 'JXL \r\n\x87\n';
/** TIFF, and the raws built on it with a magic of their own: Olympus ORF ("IIRO", "MMOR", "IIRS"), Panasonic RW2. */
const isTiff = (h: Uint8Array) => ['II*\0', 'MM\0*', 'IIRO', 'MMOR', 'IIRS', 'IIU\0'].includes(ascii(h, 0, 4));

const EXIF_PREFIX = 'Exif\0\0';
const XMP_PREFIX = 'http://ns.adobe.com/xap/1.0/\0';

/** The TIFF structure of an EXIF block that may start with `Exif\0\0` (as in WebP and some PNGs) or not. */
function blankExifBlock(bytes: Uint8Array): boolean {
  const tiff = ascii(bytes, 0, 6) === EXIF_PREFIX ? 6 : 0;
  return blankExifGps(bytes, tiff, bytes.length);
}

/** APP13: Photoshop's image resources, among them the IPTC-IIM datasets (location-iptc.ts). */
const PHOTOSHOP_PREFIX = 'Photoshop 3.0\0';
const OLD_PHOTOSHOP_PREFIX = 'Adobe_Photoshop2.5:';

/** JPEG: the APP1 and APP13 segments before the first SOS, each at most 64 KiB. */
const jpegPatches: Walker = async (read, size) => {
  const patches: BytePatch[] = [];
  const extended: ExtendedXmpPart[] = [];
  let photoshop = false;
  let iim: IimContext | null = null;
  let at = 2;
  while (at + 4 <= size) {
    const h = await readExactly(read, at, 4);
    if (h[0] !== 0xff) throw new Unreadable('segment marker expected');
    const marker = h[1]!;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break;
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    const length = (h[2]! << 8) | h[3]!;
    if (length < 2 || at + 2 + length > size) throw new Unreadable('segment runs past the end');
    if (marker === 0xe1) {
      const segment = await readExactly(read, at + 4, length - 2);
      if (ascii(segment, 0, 6) === EXIF_PREFIX) patchBlock(patches, segment, at + 4, (b) => blankExifGps(b, 6, b.length));
      else if (ascii(segment, 0, XMP_PREFIX.length) === XMP_PREFIX) patchBlock(patches, segment, at + 4, (b) => blankXmpLocation(b, XMP_PREFIX.length, b.length));
      else if (ascii(segment, 0, EXTENDED_XMP_PREFIX.length) === EXTENDED_XMP_PREFIX) extended.push(extendedXmpPart(segment, at + 4));
    } else if (marker === 0xed) {
      const segment = await readExactly(read, at + 4, length - 2);
      if (ascii(segment, 0, PHOTOSHOP_PREFIX.length) === PHOTOSHOP_PREFIX) {
        // Resources too large for one segment go on in the next ones, a block possibly split between two.
        if (photoshop) throw new Unreadable('Photoshop resources over several APP13 segments');
        photoshop = true;
        const context = (iim ??= await iimContext());
        patchBlock(patches, segment, at + 4, (b) => blankPhotoshopResources(b, PHOTOSHOP_PREFIX.length, b.length, context));
      } else if (segment[0] === 0x1c) {
        // Bare IIM datasets, as some old tools wrote them.
        const context = (iim ??= await iimContext());
        patchBlock(patches, segment, at + 4, (b) => blankIim(b, 0, b.length, context));
      } else if (ascii(segment, 0, OLD_PHOTOSHOP_PREFIX.length) === OLD_PHOTOSHOP_PREFIX) {
        throw new Unreadable('Photoshop 2.5 resources');
      }
    }
    at += 2 + length;
  }
  patches.push(...extendedXmpPatches(extended));
  return { outcome: 'none', patches };
};

/**
 * Extended XMP: a packet too large for one segment, split over APP1 segments that each carry the packet's
 * GUID (32 hex digits), its full length and the part's offset in it. The parts are put back together, the
 * packet is blanked as one (a property may straddle two parts), and each changed part becomes a patch.
 */
const EXTENDED_XMP_PREFIX = 'http://ns.adobe.com/xmp/extension/\0';

interface ExtendedXmpPart {
  guid: string;
  fullLength: number;
  offset: number;
  data: Uint8Array;
  /** Where `data` starts in the file. */
  at: number;
}

function extendedXmpPart(segment: Uint8Array, at: number): ExtendedXmpPart {
  const head = EXTENDED_XMP_PREFIX.length;
  if (segment.length < head + 40) throw new Unreadable('extended XMP header');
  const view = new DataView(segment.buffer, segment.byteOffset, segment.byteLength);
  const start = head + 40;
  return { guid: ascii(segment, head, 32), fullLength: view.getUint32(head + 32), offset: view.getUint32(head + 36), data: segment.subarray(start), at: at + start };
}

function extendedXmpPatches(parts: readonly ExtendedXmpPart[]): BytePatch[] {
  const patches: BytePatch[] = [];
  const byPacket = new Map<string, ExtendedXmpPart[]>();
  for (const p of parts) byPacket.set(p.guid, [...(byPacket.get(p.guid) ?? []), p]);
  for (const group of byPacket.values()) {
    const fullLength = group[0]!.fullLength;
    if (fullLength > MAX_BLOCK_BYTES || group.some((p) => p.fullLength !== fullLength || p.offset + p.data.length > fullLength)) {
      throw new Unreadable('extended XMP parts do not fit their packet');
    }
    const packet = new Uint8Array(fullLength);
    for (const p of group) packet.set(p.data, p.offset);
    const blanked = packet.slice();
    if (!blankXmpLocation(blanked, 0, blanked.length)) continue;
    for (const p of group) {
      const patch = diffPatch(p.data, blanked.subarray(p.offset, p.offset + p.data.length), p.at);
      if (patch) patches.push(patch);
    }
  }
  return patches;
}

/** The keyword of the text chunks that hold an XMP packet. */
const PNG_XMP = 'XML:com.adobe.xmp';

/** Text chunks that hold EXIF, XMP or IPTC hex-encoded in zlib (ImageMagick's old way): not editable in place. */
const RAW_PROFILE = /^Raw profile type (exif|app1|xmp|iptc|8bim)$/i;

/** PNG: every chunk's header; `eXIf` and the XMP `iTXt` read whole and written back with their CRC. */
const pngPatches: Walker = async (read, size) => {
  const patches: BytePatch[] = [];
  let outcome: Walked['outcome'] = 'none';
  let at = 8;
  while (at + 12 <= size) {
    const h = await readExactly(read, at, 8);
    const length = new DataView(h.buffer, h.byteOffset).getUint32(0);
    const type = ascii(h, 4, 4);
    const end = at + 12 + length;
    if (end > size) throw new Unreadable('chunk runs past the end');
    if (type === 'eXIf' || type === 'iTXt' || type === 'tEXt' || type === 'zTXt') {
      // Type and data together: the CRC covers both.
      const chunk = await readExactly(read, at + 4, 4 + length);
      const data = chunk.subarray(4);
      const keyword = ascii(data, 0, Math.max(0, data.indexOf(0)));
      if (type !== 'eXIf' && RAW_PROFILE.test(keyword)) outcome = 'unsupported';
      // An XMP packet stored compressed cannot be blanked in place.
      if (type === 'zTXt' && keyword === PNG_XMP) outcome = 'unsupported';
      const blank =
        type === 'eXIf'
          ? (c: Uint8Array) => blankExifBlock(c.subarray(4))
          : type === 'iTXt' && keyword === PNG_XMP
            ? (c: Uint8Array) => blankPngXmp(c.subarray(4))
            : type === 'tEXt' && keyword === PNG_XMP
              ? (c: Uint8Array) => blankXmpLocation(c, 4 + keyword.length + 1, c.length)
              : null;
      if (blank) {
        const copy = chunk.slice();
        if (blank(copy)) {
          const crc = crc32(copy);
          const withCrc = new Uint8Array(copy.length + 4);
          withCrc.set(copy);
          new DataView(withCrc.buffer).setUint32(copy.length, crc);
          const original = new Uint8Array(chunk.length + 4);
          original.set(chunk);
          original.set(await readExactly(read, at + 8 + length, 4), chunk.length);
          const patch = diffPatch(original, withCrc, at + 4);
          if (patch) patches.push(patch);
        }
      }
    }
    if (type === 'IEND') break;
    at = end;
  }
  return { outcome, patches };
};

/** The XMP text of an iTXt chunk's data: keyword, flag, method, language, translated keyword, then the text. */
function blankPngXmp(data: Uint8Array): boolean {
  let at = data.indexOf(0) + 1;
  const compressed = data[at];
  if (compressed !== 0) throw new Unreadable('compressed XMP');
  at += 2;
  at = data.indexOf(0, at) + 1;
  at = data.indexOf(0, at) + 1;
  if (at <= 0) throw new Unreadable('iTXt fields');
  return blankXmpLocation(data, at, data.length);
}

/** WebP: the RIFF chunks; `EXIF` and `XMP ` read whole. */
const webpPatches: Walker = async (read, size) => {
  const patches: BytePatch[] = [];
  const riff = await readExactly(read, 0, 12);
  const end = Math.min(size, 8 + new DataView(riff.buffer, riff.byteOffset).getUint32(4, true));
  let at = 12;
  while (at + 8 <= end) {
    const h = await readExactly(read, at, 8);
    const type = ascii(h, 0, 4);
    const length = new DataView(h.buffer, h.byteOffset).getUint32(4, true);
    if (at + 8 + length > end) throw new Unreadable('chunk runs past the end');
    if (type === 'EXIF') patchBlock(patches, await readExactly(read, at + 8, length), at + 8, blankExifBlock);
    else if (type === 'XMP ') patchBlock(patches, await readExactly(read, at + 8, length), at + 8, (b) => blankXmpLocation(b, 0, b.length));
    at += 8 + length + (length & 1);
  }
  return { outcome: 'none', patches };
};

/**
 * JPEG XL in its container: ISO base media boxes, `Exif` (the offset of its TIFF header, then the TIFF
 * structure) and `xml ` (XMP).
 *
 * [Note: Retiring a compressed JPEG XL box]
 * A `brob` box holds another box compressed with Brotli; cjxl keeps a JPEG's EXIF that way. Its place cannot be
 * blanked in place (and reading it would take a Brotli decoder), so a `brob` holding EXIF or XMP is retired
 * whole: its type becomes `free` (a box JPEG XL readers skip) and its compressed bytes zeros. The file keeps its
 * length and its picture, and decodes as before (libjxl's djxl; the test checks it); what goes is that box's
 * metadata, camera fields included: the item has already read them, and an album that keeps locations uploads
 * the file untouched.
 */
const FREE = new Uint8Array([0x66, 0x72, 0x65, 0x65]);
const jxlPatches: Walker = async (read, size) => {
  const patches: BytePatch[] = [];
  const outcome: Walked['outcome'] = 'none';
  for (const box of await topLevel(read, size)) {
    if (box.type === 'brob') {
      const inner = ascii(await readExactly(read, box.start, 4), 0, 4);
      if (inner !== 'Exif' && inner !== 'xml ') continue;
      if (box.end - box.start > MAX_BLOCK_BYTES) throw new Unreadable('compressed box too large');
      patches.push({ offset: box.at + 4, bytes: FREE.slice() }, { offset: box.start, bytes: new Uint8Array(box.end - box.start) });
    } else if (box.type === 'Exif') {
      patchBlock(patches, await readExactly(read, box.start, box.end - box.start), box.start, (b) => {
        if (b.length < 4) throw new Unreadable('Exif box');
        return blankExifGps(b, 4 + new DataView(b.buffer, b.byteOffset).getUint32(0), b.length);
      });
    } else if (box.type === 'xml ') {
      patchBlock(patches, await readExactly(read, box.start, box.end - box.start), box.start, (b) => blankXmpLocation(b, 0, b.length));
    }
  }
  return { outcome, patches };
};

let CRC_TABLE: Uint32Array | null = null;

/** CRC-32 as PNG computes it (ISO 3309), over a chunk's type and data. */
export function crc32(bytes: Uint8Array): number {
  if (!CRC_TABLE) {
    CRC_TABLE = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      CRC_TABLE[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
