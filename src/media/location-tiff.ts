/**
 * Location in TIFF files and the camera raws built on TIFF (DNG, NEF, ARW, CR2, and with magics of their own
 * Olympus ORF and Panasonic RW2): the file is itself the TIFF structure a JPEG's EXIF block holds, so its first
 * IFD points to the GPS IFD, its XMP is the value of tag 700 (XMLPacket), and its IPTC-IIM that of tag 33723
 * (and of a resource in tag 34377). They are read by offset, never the whole file (a raw is tens of megabytes):
 * the GPS IFD's entries and the values they point to become zeros, as in location-blanking.ts, and the XMP
 * packet and the IIM are blanked as in every other format. A RW2 keeps a whole JPEG in IFD0 (tag 0x2E) with an
 * EXIF of its own, GPS included: it is walked as the JPEG it is (`embeddedJpeg`).
 */
import { blankXmpLocation, TYPE_SIZE, Unreadable } from './location-blanking';
import { blankIim, blankPhotoshopResources, iimContext } from './location-iptc';
import { inWhole, partReader, patchBlock, readExactly, type BytePatch, type ReadAt, type Walked } from './location-read';

const GPS_INFO_TAG = 0x8825;
const XMP_TAG = 700;
/** IPTC-NAA: the IIM datasets (location-iptc.ts). */
const IPTC_TAG = 33723;
/** Photoshop's image resources, which may hold the IIM again and its digest. */
const PHOTOSHOP_TAG = 34377;

/** The TIFF header's version: 42, or ORF's "RO" and "RS" and RW2's "U" in the file's byte order. */
const VERSIONS = new Set([42, 0x4f52, 0x5352, 0x55]);
/** Panasonic RW2: a whole JPEG (its own EXIF, GPS and all) as the value of IFD0's tag 0x2E. */
const RW2_JPEG_TAG = 0x2e;

type EmbeddedWalker = (read: ReadAt, size: number) => Promise<Walked>;

export async function tiffPatches(read: ReadAt, size: number, embeddedJpeg: EmbeddedWalker): Promise<Walked> {
  const head = await readExactly(read, 0, 8);
  const le = head[0] === 0x49;
  // BigTIFF (version 43) has eight-byte offsets: not handled here.
  if (!VERSIONS.has(field(head, 2, 2, le))) throw new Unreadable('not a classic TIFF');
  const within = (offset: number, length: number) => {
    if (offset + length > size) throw new Unreadable('structure runs past the end');
    return offset;
  };
  const ifd0 = field(head, 4, 4, le);
  const count0 = field(await readExactly(read, within(ifd0, 2), 2), 0, 2, le);
  const entries = await readExactly(read, within(ifd0 + 2, count0 * 12), count0 * 12);
  let gps: number | null = null;
  const values = new Map<number, { offset: number; length: number }>();
  for (let i = 0; i < count0; i++) {
    const tag = field(entries, i * 12, 2, le);
    if (tag === GPS_INFO_TAG) gps = field(entries, i * 12 + 8, 4, le);
    if (tag === XMP_TAG || tag === IPTC_TAG || tag === PHOTOSHOP_TAG || tag === RW2_JPEG_TAG) {
      const length = (TYPE_SIZE[field(entries, i * 12 + 2, 2, le)] ?? 1) * field(entries, i * 12 + 4, 4, le);
      values.set(tag, { offset: length > 4 ? field(entries, i * 12 + 8, 4, le) : ifd0 + 2 + i * 12 + 8, length });
    }
  }
  const patches: BytePatch[] = [];
  if (gps !== null) patches.push(...(await gpsPatches(read, within(gps, 2), le, within)));
  const blank = async (tag: number, blanking: (copy: Uint8Array) => boolean) => {
    const value = values.get(tag);
    if (!value || value.length === 0) return;
    patchBlock(patches, await readExactly(read, within(value.offset, value.length), value.length), value.offset, blanking);
  };
  await blank(XMP_TAG, (b) => blankXmpLocation(b, 0, b.length));
  // The IIM first: the IPTC digest among the Photoshop resources is that of the IIM block.
  if (values.has(IPTC_TAG) || values.has(PHOTOSHOP_TAG)) {
    const iim = await iimContext();
    await blank(IPTC_TAG, (b) => blankIim(b, 0, b.length, iim));
    await blank(PHOTOSHOP_TAG, (b) => blankPhotoshopResources(b, 0, b.length, iim));
  }
  const jpeg = values.get(RW2_JPEG_TAG);
  if (jpeg && jpeg.length > 4) {
    const base = within(jpeg.offset, jpeg.length);
    const inner = await embeddedJpeg(partReader(read, base, jpeg.length), jpeg.length);
    if (inner.outcome === 'unsupported') return inner;
    patches.push(...inWhole(inner.patches, base));
  }
  return { outcome: 'none', patches };
}

/** Zeros for the GPS IFD at `at` and every value it points to; none when it names no place. */
async function gpsPatches(read: ReadAt, at: number, le: boolean, within: (offset: number, length: number) => number): Promise<BytePatch[]> {
  const count = field(await readExactly(read, at, 2), 0, 2, le);
  if (count === 0) return [];
  const entries = await readExactly(read, within(at + 2, count * 12), count * 12);
  // A version alone names no place.
  if (count === 1 && field(entries, 0, 2, le) === 0) return [];
  const patches: BytePatch[] = [{ offset: at, bytes: new Uint8Array(2 + count * 12) }];
  for (let i = 0; i < count; i++) {
    const length = (TYPE_SIZE[field(entries, i * 12 + 2, 2, le)] ?? 1) * field(entries, i * 12 + 4, 4, le);
    if (length > 4) patches.push({ offset: within(field(entries, i * 12 + 8, 4, le), length), bytes: new Uint8Array(length) });
  }
  return patches;
}

function field(bytes: Uint8Array, at: number, size: 2 | 4, le: boolean): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return size === 2 ? view.getUint16(at, le) : view.getUint32(at, le);
}
