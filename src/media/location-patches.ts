/**
 * Location removal for the upload, without copying the file: reads only the metadata blocks of a JPEG, PNG,
 * WebP or HEIF (HEIC, AVIF) file, blanks their location in memory, and answers the changed bytes as patches.
 * `withPatches` then builds the file to upload from slices of the original and the patches. See
 * [Note: Removing location without touching the picture] in strip-location.ts.
 */
import { blankExifGps, blankXmpGps, Unreadable } from './location-blanking';
import { heifPatches } from './location-heif';
import { ascii, blobReader, diffPatch, readExactly, type BytePatch, type ReadAt, type Walked } from './location-read';
import type { LocationOutcome } from './strip-location';

export type { BytePatch } from './location-read';

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
  const walker = isJpeg(head) ? jpegPatches : isPng(head) ? pngPatches : isWebp(head) ? webpPatches : isIsobmff(head) ? heifPatches : null;
  if (!walker) return { outcome: 'unsupported', patches: [] };
  try {
    const found = await walker(read, size);
    // A block that may hold a place and cannot be edited: the whole file is kept as it is, and says so.
    if (found.outcome === 'unsupported') return { outcome: 'unsupported', patches: [] };
    return found.patches.length > 0 ? { outcome: 'removed', patches: found.patches.sort((a, b) => a.offset - b.offset) } : { outcome: found.outcome, patches: [] };
  } catch (e) {
    if (e instanceof Unreadable) return { outcome: 'unsupported', patches: [] };
    throw e;
  }
}

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

type Walker = (read: ReadAt, size: number) => Promise<Walked>;

const isJpeg = (h: Uint8Array) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff;
const isPng = (h: Uint8Array) => [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => h[i] === b);
const isWebp = (h: Uint8Array) => ascii(h, 0, 4) === 'RIFF' && ascii(h, 8, 4) === 'WEBP';
const isIsobmff = (h: Uint8Array) => ascii(h, 4, 4) === 'ftyp';

const EXIF_PREFIX = 'Exif\0\0';
const XMP_PREFIX = 'http://ns.adobe.com/xap/1.0/\0';

/** Blanks a block read at `offset` with `blank` and adds the patch for what changed. */
function patchBlock(patches: BytePatch[], block: Uint8Array, offset: number, blank: (copy: Uint8Array) => boolean): void {
  const copy = block.slice();
  if (!blank(copy)) return;
  const patch = diffPatch(block, copy, offset);
  if (patch) patches.push(patch);
}

/** The TIFF structure of an EXIF block that may start with `Exif\0\0` (as in WebP and some PNGs) or not. */
function blankExifBlock(bytes: Uint8Array): boolean {
  const tiff = ascii(bytes, 0, 6) === EXIF_PREFIX ? 6 : 0;
  return blankExifGps(bytes, tiff, bytes.length);
}

/** JPEG: the APP1 segments before the first SOS, each at most 64 KiB. */
const jpegPatches: Walker = async (read, size) => {
  const patches: BytePatch[] = [];
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
      else if (ascii(segment, 0, XMP_PREFIX.length) === XMP_PREFIX) patchBlock(patches, segment, at + 4, (b) => blankXmpGps(b, XMP_PREFIX.length, b.length));
    }
    at += 2 + length;
  }
  return { outcome: 'none', patches };
};

/** Text chunks that hold EXIF or XMP hex-encoded in zlib (ImageMagick's old way): not editable in place. */
const RAW_PROFILE = /^Raw profile type (exif|app1|xmp)$/i;

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
      const blank =
        type === 'eXIf'
          ? (c: Uint8Array) => blankExifBlock(c.subarray(4))
          : type === 'iTXt' && keyword === 'XML:com.adobe.xmp'
            ? (c: Uint8Array) => blankPngXmp(c.subarray(4))
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
  return blankXmpGps(data, at, data.length);
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
    else if (type === 'XMP ') patchBlock(patches, await readExactly(read, at + 8, length), at + 8, (b) => blankXmpGps(b, 0, b.length));
    at += 8 + length + (length & 1);
  }
  return { outcome: 'none', patches };
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
