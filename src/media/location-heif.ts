/**
 * Location in HEIF files (HEIC, AVIF: ISO/IEC 23008-12 over the ISO base media file format). The metadata
 * are items like the picture itself: `iinf` names each item's type (`Exif`, or `mime` with the XMP content
 * type), `iloc` says where its bytes are (in the file, or in the meta box's own `idat`). Only the top-level
 * boxes' headers, the meta box and those items are read; the picture's items are never touched.
 */
import { blankExifGps, blankXmpLocation, Unreadable } from './location-blanking';
import { ascii, patchBlock, readExactly, type BytePatch, type ReadAt, type Walked } from './location-read';
import { boxes, toSafe, topLevel, type Box } from './location-boxes';
import { moviePatches } from './location-movie';

const HEIF_BRANDS = new Set(['mif1', 'msf1', 'heic', 'heix', 'heim', 'heis', 'hevc', 'hevx', 'avif', 'avis', 'mif2', 'miaf']);
const XMP_TYPES = new Set(['application/rdf+xml', 'application/xmp+xml']);

interface Extent {
  /** 0: an offset in the file; 1: an offset in the meta box's idat. */
  method: number;
  offset: number;
  length: number;
}

export async function heifPatches(read: ReadAt, size: number): Promise<Walked> {
  const top = await topLevel(read, size);
  const items = await heifMetadataItems(read, top);
  // Other ISOBMFF files (MP4, MOV, 3GP) keep location in the movie's boxes.
  if (items === null) return moviePatches(read, top);
  const patches: BytePatch[] = [];
  for (const { kind, offset, length } of items) {
    patchBlock(patches, await readExactly(read, offset, length), offset, (copy) => {
      if (kind === 'xmp') return blankXmpLocation(copy, 0, copy.length);
      // ExifDataBlock: a 32-bit offset to the TIFF header, counted from the end of that field.
      if (copy.length < 4) throw new Unreadable('Exif item');
      const tiff = 4 + new DataView(copy.buffer).getUint32(0);
      if (tiff >= copy.length) throw new Unreadable('Exif item');
      return blankExifGps(copy, tiff, copy.length);
    });
  }
  return { outcome: 'none', patches };
}

/** A metadata item of a HEIF file: what it is, and where its bytes lie in the file. */
export interface HeifMetadataItem {
  kind: 'exif' | 'xmp';
  offset: number;
  length: number;
}

/**
 * The Exif and XMP items of a HEIF file (`top`: its top-level boxes), each in one piece in the file; null when
 * the file is another kind of ISO base media file (a movie). Throws `Unreadable` for a structure not followed.
 */
export async function heifMetadataItems(read: ReadAt, top: readonly (Box & { at: number })[]): Promise<HeifMetadataItem[] | null> {
  const ftyp = top[0];
  if (ftyp?.type !== 'ftyp') throw new Unreadable('no ftyp');
  const brands = await readExactly(read, ftyp.start, ftyp.end - ftyp.start);
  const names = [ascii(brands, 0, 4)];
  for (let i = 8; i + 4 <= brands.length; i += 4) names.push(ascii(brands, i, 4));
  if (!names.some((b) => HEIF_BRANDS.has(b))) return null;
  const metaBox = top.find((b) => b.type === 'meta');
  if (!metaBox) return [];
  const meta = await readExactly(read, metaBox.start, metaBox.end - metaBox.start);
  // meta is a full box: version and flags first.
  const children = boxes(meta, 4, meta.length);
  const iinf = children.find((b) => b.type === 'iinf');
  const iloc = children.find((b) => b.type === 'iloc');
  const idat = children.find((b) => b.type === 'idat');
  if (!iinf) return [];
  const kinds = itemKinds(meta, iinf);
  if (kinds.size === 0) return [];
  if (!iloc) throw new Unreadable('no iloc');
  const places = itemLocations(meta, iloc);
  const items: HeifMetadataItem[] = [];
  for (const [id, kind] of kinds) {
    const extents = places.get(id);
    if (!extents || extents.length !== 1) throw new Unreadable('metadata item in several pieces');
    const [extent] = extents as [Extent];
    if (extent.length === 0) throw new Unreadable('metadata item without a length');
    let offset: number;
    if (extent.method === 0) offset = extent.offset;
    else if (extent.method === 1 && idat && extent.offset + extent.length <= idat.end - idat.start) offset = metaBox.start + idat.start + extent.offset;
    else throw new Unreadable('metadata item stored in a way not handled');
    items.push({ kind, offset, length: extent.length });
  }
  return items;
}

/** The Exif and XMP items of `iinf`, by item id. */
function itemKinds(meta: Uint8Array, iinf: Box): Map<number, 'exif' | 'xmp'> {
  const view = new DataView(meta.buffer, meta.byteOffset, meta.byteLength);
  const version = meta[iinf.start]!;
  const first = iinf.start + 4 + (version === 0 ? 2 : 4);
  const out = new Map<number, 'exif' | 'xmp'>();
  for (const infe of boxes(meta, first, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const v = meta[infe.start]!;
    // Versions 0 and 1 name no item type: such files predate HEIF's metadata items.
    if (v < 2) continue;
    let at = infe.start + 4;
    const id = v === 2 ? view.getUint16(at) : view.getUint32(at);
    at += (v === 2 ? 2 : 4) + 2;
    const type = ascii(meta, at, 4);
    at += 4;
    if (type === 'Exif') out.set(id, 'exif');
    else if (type === 'mime') {
      // item_name, then content_type, each NUL-terminated.
      const nameEnd = meta.indexOf(0, at);
      if (nameEnd < 0 || nameEnd >= infe.end) continue;
      const typeEnd = meta.indexOf(0, nameEnd + 1);
      const contentType = ascii(meta, nameEnd + 1, (typeEnd < 0 || typeEnd > infe.end ? infe.end : typeEnd) - nameEnd - 1);
      if (XMP_TYPES.has(contentType.trim().toLowerCase())) out.set(id, 'xmp');
    }
  }
  return out;
}

/** Every item's extents from `iloc` (versions 0, 1 and 2). */
function itemLocations(meta: Uint8Array, iloc: Box): Map<number, Extent[]> {
  const view = new DataView(meta.buffer, meta.byteOffset, meta.byteLength);
  const version = meta[iloc.start]!;
  if (version > 2) throw new Unreadable('iloc version');
  let at = iloc.start + 4;
  const need = (n: number) => {
    if (at + n > iloc.end) throw new Unreadable('iloc runs past its box');
  };
  const sized = (size: number): number => {
    need(size);
    const value = size === 0 ? 0 : size === 4 ? view.getUint32(at) : size === 8 ? toSafe(view.getBigUint64(at)) : NaN;
    if (Number.isNaN(value)) throw new Unreadable('iloc field size');
    at += size;
    return value;
  };
  need(2);
  const offsetSize = meta[at]! >> 4;
  const lengthSize = meta[at]! & 15;
  const baseOffsetSize = meta[at + 1]! >> 4;
  const indexSize = version === 0 ? 0 : meta[at + 1]! & 15;
  at += 2;
  const count = version < 2 ? sized2() : sized(4);
  function sized2(): number {
    need(2);
    const v = view.getUint16(at);
    at += 2;
    return v;
  }
  const out = new Map<number, Extent[]>();
  for (let i = 0; i < count; i++) {
    const id = version < 2 ? sized2() : sized(4);
    const method = version === 0 ? 0 : sized2() & 15;
    sized2(); // data_reference_index: 0 is this file
    const base = sized(baseOffsetSize);
    const extents: Extent[] = [];
    for (let e = sized2(); e > 0; e--) {
      sized(indexSize);
      const offset = base + sized(offsetSize);
      const length = sized(lengthSize);
      extents.push({ method, offset, length });
    }
    out.set(id, extents);
  }
  return out;
}
