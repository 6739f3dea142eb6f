/**
 * [Note: Previews inside raw photos]
 * A camera raw file holds, beside the sensor data, the JPEGs the camera made for its own screen: a small
 * thumbnail and a preview (often full size). A thumbnail made from the largest of them looks like the photo the
 * camera showed, without demosaicing 20–80 MB of sensor data. Where each format keeps them:
 *   - DNG: IFD0 and its SubIFDs; a preview is an IFD of NewSubfileType 1 (reduced resolution) compressed as
 *     JPEG (7, or 6 as old-style JPEG), in one strip or behind JPEGInterchangeFormat (0x201/0x202);
 *   - CR2: IFD0's strip is the preview, IFD1 the thumbnail (0x201/0x202); IFD3's strip is the sensor data, a
 *     lossless JPEG;
 *   - NEF: a SubIFD (0x14A) with 0x201/0x202; ARW: IFD0 and IFD1 with 0x201/0x202, the SubIFD holds the raw.
 *     Both are plain TIFF by their header: what makes them raws is an IFD of sensor data (PhotometricInterpretation
 *     CFA or LinearRaw), which a scanned or edited TIFF never has; such a TIFF is decoded whole, not here;
 *   - ORF (magic "IIRO", "MMOR", "IIRS"): the Olympus maker note (0x927C in the EXIF IFD) starts with
 *     "OLYMPUS\0" (or "OM SYSTEM\0") and a TIFF byte order; its CameraSettings IFD (0x2020) gives
 *     PreviewImageStart (0x101) and its length (0x102), offsets counted from the maker note's first byte;
 *   - RW2 (magic "IIU\0"): IFD0 tag 0x2E is a whole JPEG, with its own EXIF;
 *   - RAF: a big-endian header whose offset 84 and length 88 locate the JPEG;
 *   - CR3 (ISO base media, brand "crx "): the top-level uuid box EAF42B5E-… holds a PRVW box with a preview,
 *     the Canon uuid box in the movie box a THMB thumbnail and CMT1 (IFD0), and the first track's only sample
 *     is a full-size JPEG (its stco and stsz).
 * Every JPEG the format points at is a candidate. One is kept only when it lies inside the file, starts with
 * SOI, and its frame is 8-bit baseline or progressive Huffman (SOF0, SOF1, SOF2) with a plausible size: the
 * sensor data of a CR2 or DNG is a lossless JPEG (SOF3), and arithmetic coding or 12-bit samples are not
 * decoded by browsers. The one with the most pixels wins.
 * The orientation is the raw's own (IFD0's 0x112; CMT1 in a CR3): an embedded JPEG's EXIF, when it has one,
 * need not agree with it. A RAF header has none, its JPEG's EXIF being the raw's EXIF; a RW2's IFD0 may leave it
 * to its JPEG's EXIF too.
 * Only the slices that hold structure are read; every count, chain and nesting is bounded, and an IFD is
 * visited once, so a loop of offsets ends.
 */
import { boxes, type Box } from './location-boxes';
import { ascii, readU32 as u32 } from './location-read';

export interface RawPreview {
  /** The embedded JPEG's bytes, exactly as stored (a Blob slice of the original). */
  jpeg: Blob;
  /** The RAW's own EXIF orientation, 1–8 (1 when absent or invalid); the embedded JPEG's own EXIF orientation, if any, must be ignored by the caller. */
  orientation: number;
  /** The preview's pixel size read from its SOF marker. */
  width: number;
  height: number;
}

/** IFDs visited in one file: a DNG has about five, a NEF or CR2 about six. */
const MAX_IFDS = 32;
/** Entries in one IFD: cameras write fewer than 300, maker notes included. */
const MAX_ENTRIES = 1024;
/** SubIFDs named by one IFD. */
const MAX_SUB_IFDS = 8;
/** SubIFDs of SubIFDs: DNG and NEF use one level. */
const MAX_DEPTH = 3;
const MAX_CANDIDATES = 16;
/** Top-level boxes of a CR3: ftyp, moov, three uuid boxes and mdat. */
const MAX_TOP_BOXES = 64;
/** A CR3's movie box is some hundred kilobytes (the maker notes and the thumbnail); it is read whole. */
const MAX_MOOV_BYTES = 8 * 1024 * 1024;
/** JPEG marker segments are read through windows of this size (an EXIF block is at most 64 KiB). */
const JPEG_WINDOW = 64 * 1024;
const MAX_SEGMENTS = 256;
/** The smallest JPEG worth decoding: SOI, quantisation and Huffman tables, a frame, a scan, EOI. */
const MIN_JPEG_BYTES = 128;
/** Plausible preview sides: no camera's JPEG is narrower or longer than these, nor stretched further. */
const MIN_SIDE = 8;
const MAX_SIDE = 32_768;
const MAX_ASPECT = 8;

/** PhotometricInterpretation of sensor data: a colour filter array, or demosaiced linear raw. */
const CFA = 32803;
const LINEAR_RAW = 34892;

const CR3_PREVIEW_UUID = 'eaf42b5e1c984b88b9fbb7dc406e4d16';
const CANON_UUID = '85c0b687820f11e08111f4ce462b6a48';

/** The TIFF-based kinds; 'tiff' is any other TIFF, a raw (NEF, ARW, …) only when it holds sensor data. */
type Format = 'dng' | 'cr2' | 'orf' | 'rw2' | 'tiff';

interface Candidate {
  offset: number;
  length: number;
}

/** Null when the file is not a RAW this understands or holds no usable JPEG preview. Never throws for bad content; reads only the slices it needs (RAWs are 20–80 MB). */
export async function findRawPreview(blob: Blob): Promise<RawPreview | null> {
  const file = new Source(blob);
  try {
    const found = await candidates(file);
    if (!found) return null;
    let best: { candidate: Candidate; width: number; height: number } | null = null;
    for (const candidate of found.candidates.slice(0, MAX_CANDIDATES)) {
      const frame = await jpegFrame(file, candidate);
      if (!frame || !plausible(frame.width, frame.height)) continue;
      const pixels = frame.width * frame.height;
      const bestPixels = best ? best.width * best.height : 0;
      // Of two of the same size, the longer was compressed less.
      if (pixels > bestPixels || (best && pixels === bestPixels && candidate.length > best.candidate.length)) {
        best = { candidate, width: frame.width, height: frame.height };
      }
    }
    if (!best) return null;
    const { offset, length } = best.candidate;
    return { jpeg: blob.slice(offset, offset + length), orientation: await found.orientation(), width: best.width, height: best.height };
  } catch {
    // A read the file refuses (it changed on disk, say) leaves nothing to show: the caller falls back.
    return null;
  }
}

/** Reads slices of the file; null instead of fewer bytes than asked. */
class Source {
  readonly size: number;
  constructor(private readonly blob: Blob) {
    this.size = blob.size;
  }
  async bytes(offset: number, length: number): Promise<Uint8Array | null> {
    if (!Number.isSafeInteger(offset) || offset < 0 || length < 0 || offset + length > this.size) return null;
    const bytes = new Uint8Array(await this.blob.slice(offset, offset + length).arrayBuffer());
    return bytes.length === length ? bytes : null;
  }
}

interface Found {
  candidates: Candidate[];
  /** Read only when a preview was found. */
  orientation: () => Promise<number>;
}

async function candidates(file: Source): Promise<Found | null> {
  const head = await file.bytes(0, Math.min(file.size, 96));
  if (!head || head.length < 16) return null;
  if (ascii(head, 0, 15) === 'FUJIFILMCCD-RAW') return raf(file, head);
  if (ascii(head, 4, 8) === 'ftypcrx ') return cr3(file);
  const order = ascii(head, 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const le = order === 'II';
  const magic = u16(head, 2, le);
  const ifd0 = u32(head, 4, le);
  const tiff = new Tiff(file, 0, le);
  if (magic === 0x4f52 || magic === 0x5352) return tiffFormat(tiff, ifd0, 'orf');
  if (magic === 0x55 && le) return tiffFormat(tiff, ifd0, 'rw2');
  if (magic !== 42) return null;
  if (ascii(head, 8, 2) === 'CR') return tiffFormat(tiff, ifd0, 'cr2');
  const first = await tiff.ifd(ifd0);
  if (!first) return null;
  return tiffFormat(tiff, ifd0, first.has(0xc612) ? 'dng' : 'tiff');
}

// ---- TIFF structures -------------------------------------------------------------------------------------

interface Entry {
  type: number;
  count: number;
  /** The four bytes of the value field, and where they are (relative to the TIFF header). */
  field: Uint8Array;
  at: number;
}

const TYPE_SIZE: Record<number, number> = { 1: 1, 2: 1, 3: 2, 4: 4, 7: 1, 9: 4, 13: 4, 16: 8 };

class Ifd {
  constructor(
    readonly entries: Map<number, Entry>,
    readonly next: number,
  ) {}
  has(tag: number): boolean {
    return this.entries.has(tag);
  }
  get(tag: number): Entry | undefined {
    return this.entries.get(tag);
  }
}

/** A TIFF structure whose offsets count from `base` in the file. */
class Tiff {
  constructor(
    readonly file: Source,
    readonly base: number,
    readonly le: boolean,
  ) {}

  async ifd(offset: number): Promise<Ifd | null> {
    const head = await this.file.bytes(this.base + offset, 2);
    if (!head) return null;
    const count = u16(head, 0, this.le);
    if (count === 0 || count > MAX_ENTRIES) return null;
    const bytes = await this.file.bytes(this.base + offset + 2, count * 12 + 4);
    // An IFD cut short by the end of the file may still have its entries: the next offset is then 0.
    const entries = bytes ?? (await this.file.bytes(this.base + offset + 2, count * 12));
    if (!entries) return null;
    const map = new Map<number, Entry>();
    for (let i = 0; i < count; i++) {
      const at = i * 12;
      const tag = u16(entries, at, this.le);
      if (!map.has(tag)) {
        map.set(tag, { type: u16(entries, at + 2, this.le), count: u32(entries, at + 4, this.le), field: entries.subarray(at + 8, at + 12), at: offset + 2 + at + 8 });
      }
    }
    return new Ifd(map, bytes ? u32(bytes, count * 12, this.le) : 0);
  }

  /** The first `max` integers of an entry (BYTE, SHORT, LONG or IFD), or null. */
  async numbers(entry: Entry | undefined, max: number): Promise<number[] | null> {
    if (!entry || entry.count === 0) return null;
    const size = entry.type === 3 ? 2 : entry.type === 4 || entry.type === 13 ? 4 : entry.type === 1 ? 1 : 0;
    if (size === 0) return null;
    const n = Math.min(entry.count, max);
    const bytes = entry.count * size <= 4 ? entry.field : await this.file.bytes(this.base + u32(entry.field, 0, this.le), n * size);
    if (!bytes) return null;
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push(size === 1 ? bytes[i]! : size === 2 ? u16(bytes, i * 2, this.le) : u32(bytes, i * 4, this.le));
    return out;
  }

  async number(entry: Entry | undefined): Promise<number | null> {
    const values = await this.numbers(entry, 1);
    return values?.[0] ?? null;
  }

  /** Where an entry's value is, relative to the TIFF header, and its length in bytes. */
  valueAt(entry: Entry): { offset: number; length: number } {
    const length = (TYPE_SIZE[entry.type] ?? 1) * entry.count;
    return { offset: length <= 4 ? entry.at : u32(entry.field, 0, this.le), length };
  }

  async orientation(ifd: Ifd | null): Promise<number | null> {
    const value = ifd ? await this.number(ifd.get(0x112)) : null;
    return value !== null && value >= 1 && value <= 8 ? value : null;
  }
}

/** The candidates of a TIFF-based raw: its IFD chain, their SubIFDs, and what the format adds. */
async function tiffFormat(tiff: Tiff, ifd0Offset: number, format: Format): Promise<Found | null> {
  const found: Candidate[] = [];
  const visited = new Set<number>();
  const queue: { offset: number; depth: number; chain: boolean }[] = [{ offset: ifd0Offset, depth: 0, chain: true }];
  let ifd0: Ifd | null = null;
  let sensorData = false;
  while (queue.length > 0 && visited.size < MAX_IFDS && found.length < MAX_CANDIDATES) {
    const { offset, depth, chain } = queue.shift()!;
    if (offset === 0 || visited.has(offset)) continue;
    visited.add(offset);
    const ifd = await tiff.ifd(offset);
    if (!ifd) continue;
    const isIfd0 = offset === ifd0Offset;
    if (isIfd0) ifd0 = ifd;
    const photometric = await tiff.number(ifd.get(0x106));
    if (photometric === CFA || photometric === LINEAR_RAW) sensorData = true;
    found.push(...(await ifdCandidates(tiff, ifd, format)));
    if (format === 'rw2' && isIfd0) {
      const jpeg = ifd.get(0x2e);
      if (jpeg) found.push(absolute(tiff, tiff.valueAt(jpeg)));
    }
    if (format === 'orf' && isIfd0) found.push(...(await olympusPreview(tiff, ifd)));
    if (chain && ifd.next !== 0) queue.push({ offset: ifd.next, depth, chain: true });
    if (depth < MAX_DEPTH) {
      for (const sub of (await tiff.numbers(ifd.get(0x14a), MAX_SUB_IFDS)) ?? []) queue.push({ offset: sub, depth: depth + 1, chain: false });
    }
  }
  // A NEF or an ARW is a plain TIFF to a sniffer, and so is a scan with a JPEG thumbnail: the sensor data
  // (a colour filter array, or linear raw) tells the raw from the scan, which is better decoded whole.
  if (format === 'tiff' && !sensorData) return null;
  return {
    candidates: found,
    orientation: async () => {
      const own = await tiff.orientation(ifd0);
      if (own !== null || format !== 'rw2' || !ifd0) return own ?? 1;
      // A RW2's IFD0 may leave the orientation to the EXIF of the JPEG it holds.
      const jpeg = ifd0.get(0x2e);
      return jpeg ? ((await jpegOrientation(tiff.file, absolute(tiff, tiff.valueAt(jpeg)))) ?? 1) : 1;
    },
  };
}

/** JPEGs an IFD points at: JPEGInterchangeFormat, or a single strip compressed as JPEG. */
async function ifdCandidates(tiff: Tiff, ifd: Ifd, format: Format): Promise<Candidate[]> {
  if (format === 'dng') {
    // Only reduced-resolution images (or DNG 1.2's alternative previews) are previews: the rest is raw data.
    const subfile = await tiff.number(ifd.get(0xfe));
    if (subfile !== 1 && subfile !== 0x10001) return [];
  }
  const out: Candidate[] = [];
  const start = await tiff.number(ifd.get(0x201));
  const length = await tiff.number(ifd.get(0x202));
  if (start !== null && length !== null) out.push({ offset: tiff.base + start, length });
  const compression = await tiff.number(ifd.get(0x103));
  if (compression === 6 || compression === 7) {
    const strips = await tiff.numbers(ifd.get(0x111), 2);
    const counts = await tiff.numbers(ifd.get(0x117), 2);
    // Several strips are several JPEGs, none of them the whole picture.
    if (strips?.length === 1 && counts?.length === 1 && strips[0] !== start) out.push({ offset: tiff.base + strips[0]!, length: counts[0]! });
  }
  return out;
}

/** The Olympus maker note's CameraSettings preview, offsets counted from the maker note's first byte. */
async function olympusPreview(tiff: Tiff, ifd0: Ifd): Promise<Candidate[]> {
  const exifOffset = await tiff.number(ifd0.get(0x8769));
  const exif = exifOffset === null ? null : await tiff.ifd(exifOffset);
  const note = exif?.get(0x927c);
  if (!note) return [];
  const { offset } = tiff.valueAt(note);
  const start = tiff.base + offset;
  const head = await tiff.file.bytes(start, 16);
  if (!head) return [];
  const headerLength = ascii(head, 0, 8) === 'OLYMPUS\0' ? 12 : ascii(head, 0, 10) === 'OM SYSTEM\0' ? 16 : 0;
  if (headerLength === 0) return [];
  const order = ascii(head, headerLength - 4, 2);
  if (order !== 'II' && order !== 'MM') return [];
  const makerNote = new Tiff(tiff.file, start, order === 'II');
  const main = await makerNote.ifd(headerLength);
  const settingsEntry = main?.get(0x2020);
  if (!settingsEntry) return [];
  // An IFD (type 13 or LONG) names its offset; stored as UNDEFINED, the IFD is the value itself.
  const settings = await makerNote.ifd(settingsEntry.type === 7 ? makerNote.valueAt(settingsEntry).offset : ((await makerNote.number(settingsEntry)) ?? 0));
  if (!settings || (await makerNote.number(settings.get(0x100))) === 0) return [];
  const previewStart = await makerNote.number(settings.get(0x101));
  const previewLength = await makerNote.number(settings.get(0x102));
  return previewStart !== null && previewLength !== null ? [{ offset: start + previewStart, length: previewLength }] : [];
}

function absolute(tiff: Tiff, value: { offset: number; length: number }): Candidate {
  return { offset: tiff.base + value.offset, length: value.length };
}

// ---- RAF and CR3 -----------------------------------------------------------------------------------------

function raf(file: Source, head: Uint8Array): Found | null {
  if (head.length < 92) return null;
  const jpeg = { offset: u32(head, 84, false), length: u32(head, 88, false) };
  return { candidates: [jpeg], orientation: async () => (await jpegOrientation(file, jpeg)) ?? 1 };
}

async function cr3(file: Source): Promise<Found> {
  const found: Candidate[] = [];
  let cmt1: Tiff | null = null;
  for (const box of await topLevelBoxes(file)) {
    if (box.type === 'uuid') {
      const head = await file.bytes(box.start, 0x30);
      if (!head || hex(head, 0, 16) !== CR3_PREVIEW_UUID || ascii(head, 0x1c, 4) !== 'PRVW') continue;
      // After the uuid: two words, then the PRVW box: a word, the size, a word, and the JPEG's length.
      found.push({ offset: box.start + 0x30, length: Math.min(u32(head, 0x2c, false), box.end - box.start - 0x30) });
    } else if (box.type === 'moov' && box.end - box.start <= MAX_MOOV_BYTES) {
      const moov = await file.bytes(box.start, box.end - box.start);
      if (!moov) continue;
      const inMoov = safeBoxes(moov, 0, moov.length);
      const canon = inMoov.find((b) => b.type === 'uuid' && b.end - b.start >= 16 && hex(moov, b.start, 16) === CANON_UUID);
      for (const b of canon ? safeBoxes(moov, canon.start + 16, canon.end) : []) {
        if (b.type === 'CMT1' && b.end - b.start >= 8) {
          const order = ascii(moov, b.start, 2);
          if (order === 'II' || order === 'MM') cmt1 = new Tiff(file, box.start + b.start, order === 'II');
        } else if (b.type === 'THMB' && b.end - b.start >= 16) {
          // Version and flags, width, height, the JPEG's length, two words, then the JPEG.
          found.push({ offset: box.start + b.start + 16, length: Math.min(u32(moov, b.start + 8, false), b.end - b.start - 16) });
        }
      }
      const track = inMoov.find((b) => b.type === 'trak');
      const sample = track ? firstSample(moov, track) : null;
      if (sample) found.push(sample);
    }
  }
  return {
    candidates: found,
    orientation: async () => {
      if (!cmt1) return 1;
      const head = await file.bytes(cmt1.base, 8);
      return (head && (await cmt1.orientation(await cmt1.ifd(u32(head, 4, cmt1.le))))) ?? 1;
    },
  };
}

/** The file's top-level boxes from their headers alone; a box cut short by the end of the file ends the list. */
async function topLevelBoxes(file: Source): Promise<Box[]> {
  const out: Box[] = [];
  let at = 0;
  while (at + 8 <= file.size && out.length < MAX_TOP_BOXES) {
    const h = await file.bytes(at, Math.min(16, file.size - at));
    if (!h) break;
    let size = u32(h, 0, false);
    let header = 8;
    if (size === 1) {
      if (h.length < 16) break;
      size = u32(h, 8, false) * 2 ** 32 + u32(h, 12, false);
      header = 16;
    } else if (size === 0) size = file.size - at;
    if (size < header || at + size > file.size) break;
    out.push({ type: ascii(h, 4, 4), start: at + header, end: at + size });
    at += size;
  }
  return out;
}

function safeBoxes(bytes: Uint8Array, from: number, to: number): Box[] {
  try {
    return boxes(bytes, from, to);
  } catch {
    return [];
  }
}

/** The first sample of a track (trak → mdia → minf → stbl: its first chunk offset and first sample size). */
function firstSample(moov: Uint8Array, track: Box): Candidate | null {
  let box: Box | undefined = track;
  for (const type of ['mdia', 'minf', 'stbl']) {
    box = box ? safeBoxes(moov, box.start, box.end).find((b) => b.type === type) : undefined;
  }
  if (!box) return null;
  const table = safeBoxes(moov, box.start, box.end);
  const stsz = table.find((b) => b.type === 'stsz');
  const chunks = table.find((b) => b.type === 'stco' || b.type === 'co64');
  if (!stsz || !chunks || stsz.end - stsz.start < 12 || chunks.end - chunks.start < 8 || u32(moov, chunks.start + 4, false) === 0) return null;
  const fixed = u32(moov, stsz.start + 4, false);
  if (fixed === 0 && (u32(moov, stsz.start + 8, false) === 0 || stsz.end - stsz.start < 16)) return null;
  const length = fixed !== 0 ? fixed : u32(moov, stsz.start + 12, false);
  if (chunks.type === 'stco') return chunks.end - chunks.start >= 12 ? { offset: u32(moov, chunks.start + 8, false), length } : null;
  if (chunks.end - chunks.start < 16) return null;
  return { offset: u32(moov, chunks.start + 8, false) * 2 ** 32 + u32(moov, chunks.start + 12, false), length };
}

// ---- JPEG ------------------------------------------------------------------------------------------------

interface Frame {
  width: number;
  height: number;
  /** Where the EXIF block's TIFF header is in the file, when the JPEG has one before its frame. */
  exif: number | null;
}

/**
 * The frame of a JPEG that browsers decode (8-bit baseline or progressive Huffman), read from the segment
 * headers before it; null for anything else, or a JPEG that does not lie inside the file.
 */
async function jpegFrame(file: Source, jpeg: Candidate): Promise<Frame | null> {
  if (jpeg.length < MIN_JPEG_BYTES || jpeg.offset + jpeg.length > file.size) return null;
  const end = jpeg.offset + jpeg.length;
  let windowStart = jpeg.offset;
  let window: Uint8Array = new Uint8Array(0);
  const bytes = async (pos: number, n: number): Promise<Uint8Array | null> => {
    if (pos + n > end) return null;
    if (pos < windowStart || pos + n > windowStart + window.length) {
      windowStart = pos;
      window = (await file.bytes(pos, Math.min(Math.max(n, JPEG_WINDOW), end - pos))) ?? new Uint8Array(0);
    }
    const at = pos - windowStart;
    return at + n <= window.length ? window.subarray(at, at + n) : null;
  };
  const soi = await bytes(jpeg.offset, 2);
  if (!soi || soi[0] !== 0xff || soi[1] !== 0xd8) return null;
  let exif: number | null = null;
  let pos = jpeg.offset + 2;
  for (let segments = 0; segments < MAX_SEGMENTS; segments++) {
    const marker = await bytes(pos, 4);
    if (!marker || marker[0] !== 0xff) return null;
    const code = marker[1]!;
    if (code === 0xff) {
      pos += 1; // fill byte
      continue;
    }
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
      pos += 2; // markers without a length
      continue;
    }
    const length = (marker[2]! << 8) | marker[3]!;
    if (length < 2 || code === 0xd9 || code === 0xda) return null; // no frame before the scan
    if (code === 0xe1 && exif === null && length >= 16) {
      const id = await bytes(pos + 4, 6);
      if (id && ascii(id, 0, 6) === 'Exif\0\0') exif = pos + 10;
    }
    if (code >= 0xc0 && code <= 0xcf && code !== 0xc4 && code !== 0xc8 && code !== 0xcc) {
      const frame = await bytes(pos + 4, 6);
      // SOF0 baseline, SOF1 extended and SOF2 progressive, 8-bit: lossless (SOF3), hierarchical and
      // arithmetic-coded frames are raw data or nothing a browser decodes.
      if (!frame || code > 0xc2 || frame[0] !== 8) return null;
      const height = (frame[1]! << 8) | frame[2]!;
      const width = (frame[3]! << 8) | frame[4]!;
      return { width, height, exif };
    }
    pos += 2 + length;
  }
  return null;
}

/** The orientation in a JPEG's own EXIF block (the raw's, for a RAF or a RW2). */
async function jpegOrientation(file: Source, jpeg: Candidate): Promise<number | null> {
  const frame = await jpegFrame(file, jpeg);
  if (!frame || frame.exif === null) return null;
  const head = await file.bytes(frame.exif, 8);
  if (!head) return null;
  const order = ascii(head, 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const tiff = new Tiff(file, frame.exif, order === 'II');
  return tiff.orientation(await tiff.ifd(u32(head, 4, tiff.le)));
}

function plausible(width: number, height: number): boolean {
  const long = Math.max(width, height);
  const short = Math.min(width, height);
  return short >= MIN_SIDE && long <= MAX_SIDE && long <= short * MAX_ASPECT;
}

// ---- bytes -----------------------------------------------------------------------------------------------

function u16(bytes: Uint8Array, at: number, le: boolean): number {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint16(at, le);
}

function hex(bytes: Uint8Array, at: number, length: number): string {
  return [...bytes.subarray(at, at + length)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
