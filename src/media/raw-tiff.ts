/** TIFF-based raws (DNG, CR2, NEF, ARW, ORF, RW2): their IFDs and the JPEGs they point at ([Note: Previews inside raw photos]). */
import { ascii, readU32 as u32 } from './location-read';
import { jpegFrame } from './raw-jpeg';
import { MAX_CANDIDATES, u16, type Candidate, type Found, type Source } from './raw-source';

/** IFDs visited in one file: a DNG has about five, a NEF or CR2 about six. */
const MAX_IFDS = 32;
/** Entries in one IFD: cameras write fewer than 300, maker notes included. */
const MAX_ENTRIES = 1024;
/** SubIFDs named by one IFD. */
const MAX_SUB_IFDS = 8;
/** SubIFDs of SubIFDs: DNG and NEF use one level. */
const MAX_DEPTH = 3;
/** PhotometricInterpretation of sensor data: a colour filter array, or demosaiced linear raw. */
const CFA = 32803;
const LINEAR_RAW = 34892;

/** The TIFF-based kinds; 'tiff' is any other TIFF, a raw (NEF, ARW, …) only when it holds sensor data. */
type Format = 'dng' | 'cr2' | 'orf' | 'rw2' | 'tiff';

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
export class Tiff {
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
export async function tiffFormat(tiff: Tiff, ifd0Offset: number, format: Format): Promise<Found | null> {
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

export function absolute(tiff: Tiff, value: { offset: number; length: number }): Candidate {
  return { offset: tiff.base + value.offset, length: value.length };
}

/** The orientation in a JPEG's own EXIF block (the raw's, for a RAF or a RW2). */
export async function jpegOrientation(file: Source, jpeg: Candidate): Promise<number | null> {
  const frame = await jpegFrame(file, jpeg);
  if (!frame || frame.exif === null) return null;
  const head = await file.bytes(frame.exif, 8);
  if (!head) return null;
  const order = ascii(head, 0, 2);
  if (order !== 'II' && order !== 'MM') return null;
  const tiff = new Tiff(file, frame.exif, order === 'II');
  return tiff.orientation(await tiff.ifd(u32(head, 4, tiff.le)));
}

