#!/usr/bin/env node
// Camera raw files for the raw preview tests, built around real JPEGs: no raw sample is committed (they are
// tens of megabytes each, and no distribution package ships them), so each format's container is written here
// as the cameras lay it out, holding the committed JPEGs as its thumbnail and previews, and for CR2 and DNG a
// lossless JPEG (SOF3) standing in for the sensor data. ExifTool reads them as the formats they claim to be.
//   node scripts/make-raw-fixtures.mjs OUT_DIR [RAW_MEGABYTES]   → prints the written paths, one a line
// RAW_MEGABYTES sizes the stand-in sensor data (64 KiB by default), to measure how much of a real-sized file
// is read.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const fixtures = new URL('../tests/fixtures/', import.meta.url).pathname;

/** The committed JPEGs used as embedded images: stored size, and the orientation their own EXIF states. */
export const JPEGS = {
  /** 2400×1600, progressive, EXIF orientation 1. */
  large: 'orientation-1.jpg',
  /** 1600×2400, progressive, EXIF orientation 6. */
  tall: 'orientation-6.jpg',
  /** 600×800, progressive, EXIF orientation 8. */
  portrait: 'orientation-8.jpg',
  /** 800×600, progressive, EXIF orientation 3. */
  medium: 'orientation-3.jpg',
  /** 640×427, baseline, 110 kB: more bytes than the large one, fewer pixels. */
  heavy: 'location/rocket.jpg',
  /** 640×480, progressive, no orientation. */
  small: 'xmp.jpg',
};

export const jpeg = (name) => new Uint8Array(readFileSync(join(fixtures, name)));

/**
 * What each file holds: its ExifTool FileType, the JPEG the largest preview is (a key of JPEGS, or null), the
 * tag under which ExifTool extracts it (`-a -G1`), the orientation of the raw, and the other JPEGs ExifTool
 * finds in it (tag → key), which must lose to the largest.
 */
export const RAW_FIXTURES = [
  { file: 'le.dng', fileType: 'DNG', preview: 'large', tag: 'SubIFD1:PreviewImage', orientation: 6, others: { 'SubIFD2:JpgFromRaw': 'heavy' } },
  { file: 'be.dng', fileType: 'DNG', preview: 'large', tag: 'SubIFD2:JpgFromRaw', orientation: 8, others: { 'SubIFD1:PreviewImage': 'medium' } },
  { file: 'canon.cr2', fileType: 'CR2', preview: 'large', tag: 'IFD0:PreviewImage', orientation: 8, others: { 'IFD1:ThumbnailImage': 'heavy' } },
  { file: 'canon.cr3', fileType: 'CR3', preview: 'large', tag: 'Track1:JpgFromRaw', orientation: 6, others: { 'QuickTime:PreviewImage': 'medium', 'Canon:ThumbnailImage': 'small' } },
  { file: 'prvw-only.cr3', fileType: 'CR3', preview: 'medium', tag: 'QuickTime:PreviewImage', orientation: 1, others: { 'Canon:ThumbnailImage': 'small' } },
  { file: 'nikon.nef', fileType: 'NEF', preview: 'large', tag: 'SubIFD:JpgFromRaw', orientation: 8, others: {} },
  { file: 'sony.arw', fileType: 'ARW', preview: 'large', tag: 'IFD0:PreviewImage', orientation: 6, others: { 'IFD1:ThumbnailImage': 'heavy' } },
  { file: 'fuji.raf', fileType: 'RAF', preview: 'tall', tag: 'File:PreviewImage', orientation: 6, others: {} },
  { file: 'fuji-8.raf', fileType: 'RAF', preview: 'portrait', tag: 'File:PreviewImage', orientation: 8, others: {} },
  { file: 'olympus.orf', fileType: 'ORF', preview: 'large', tag: 'Olympus:PreviewImage', orientation: 3, others: {} },
  { file: 'olympus-be.orf', fileType: 'ORF', preview: 'tall', tag: 'Olympus:PreviewImage', orientation: 1, others: {} },
  { file: 'panasonic.rw2', fileType: 'RW2', preview: 'tall', tag: 'IFD0:JpgFromRaw', orientation: 6, others: {} },
  // No JPEG at all: a NEF whose only picture is an uncompressed thumbnail.
  { file: 'no-preview.nef', fileType: 'NEF', preview: null, tag: null, orientation: 1, others: {} },
  // IFD1's next IFD is IFD0 again, and the SubIFD names itself: the walk must end and find the preview.
  { file: 'loop.arw', fileType: 'ARW', preview: 'large', tag: 'IFD0:PreviewImage', orientation: 6, others: { 'IFD1:ThumbnailImage': 'heavy' } },
  // The preview's offset points past the end of the file: the thumbnail is what is left.
  { file: 'past-end.arw', fileType: 'ARW', preview: 'heavy', tag: 'IFD1:ThumbnailImage', orientation: 6, others: {} },
  // A scan: TIFF with a JPEG thumbnail in IFD1 but no sensor data, so not a raw.
  { file: 'scan.tif', fileType: 'TIFF', preview: null, tag: null, orientation: 1, others: { 'IFD1:ThumbnailImage': 'small' } },
];

// ---- TIFF ---------------------------------------------------------------------------------------------------

const ASCII = 2, SHORT = 3, LONG = 4, UNDEFINED = 7, IFD = 13;
const TYPE_SIZE = { 1: 1, 2: 1, 3: 2, 4: 4, 7: 1, 13: 4 };

/**
 * Writes TIFF structures: IFDs (`{ entries: [[tag, type, value]], next }`) laid out after `header`, the first
 * at `header.length`, then the data blocks. A value is a number or numbers, a string (ASCII), bytes
 * (UNDEFINED), `{ data: key }` or `{ length: key }` (where a data block is, how long it is), or `{ ifds: [...] }`
 * (where other IFDs are). `next` is another IFD (a loop is allowed) or a raw offset. Offsets count from the
 * block's first byte; answers the block and where everything went.
 */
function tiffBlock({ le, header, pointerAt = 4, root, data = {} }) {
  const ifds = [];
  const visit = (ifd) => {
    if (!ifd || typeof ifd !== 'object' || ifds.includes(ifd)) return;
    ifds.push(ifd);
    for (const [, , value] of ifd.entries) for (const sub of value?.ifds ?? []) visit(sub);
    visit(ifd.next);
  };
  visit(root);
  const even = (n) => n + (n & 1);
  const count = (type, value) =>
    typeof value === 'string' ? value.length + 1
    : value instanceof Uint8Array ? value.length
    : value?.ifds ? value.ifds.length
    : Array.isArray(value) ? value.length
    : 1;
  let pos = header.length;
  const ifdAt = new Map();
  for (const ifd of ifds) {
    ifd.entries.sort((a, b) => a[0] - b[0]);
    ifdAt.set(ifd, pos);
    pos += 2 + ifd.entries.length * 12 + 4;
    for (const [, type, value] of ifd.entries) {
      const size = TYPE_SIZE[type] * count(type, value);
      if (size > 4) pos += even(size);
    }
  }
  const dataAt = {};
  for (const [key, bytes] of Object.entries(data)) {
    pos = even(pos);
    dataAt[key] = pos;
    pos += bytes.length;
  }
  const out = Buffer.alloc(pos);
  out.set(header, 0);
  const put = (size, at, n) => (size === 2 ? (le ? out.writeUInt16LE(n, at) : out.writeUInt16BE(n, at)) : le ? out.writeUInt32LE(n >>> 0, at) : out.writeUInt32BE(n >>> 0, at));
  const resolve = (value) =>
    value?.data !== undefined ? [dataAt[value.data]]
    : value?.length !== undefined && !(value instanceof Uint8Array) && typeof value !== 'string' && !Array.isArray(value) ? [data[value.length].length]
    : value?.ifds ? value.ifds.map((i) => ifdAt.get(i))
    : Array.isArray(value) ? value
    : [value];
  if (pointerAt !== null) put(4, pointerAt, ifdAt.get(root));
  for (const ifd of ifds) {
    let at = ifdAt.get(ifd);
    let ext = at + 2 + ifd.entries.length * 12 + 4;
    put(2, at, ifd.entries.length);
    for (const [tag, type, value] of ifd.entries) {
      const n = count(type, value);
      const size = TYPE_SIZE[type] * n;
      put(2, at + 2, tag);
      put(2, at + 4, type);
      put(4, at + 6, n);
      const valueAt = size > 4 ? ext : at + 10;
      if (size > 4) {
        put(4, at + 10, ext);
        ext += even(size);
      }
      if (typeof value === 'string') out.write(value, valueAt, 'latin1');
      else if (value instanceof Uint8Array) out.set(value, valueAt);
      else resolve(value).forEach((v, i) => put(TYPE_SIZE[type], valueAt + i * TYPE_SIZE[type], v));
      at += 12;
    }
    const next = typeof ifd.next === 'object' ? ifdAt.get(ifd.next) : (ifd.next ?? 0);
    put(4, at + 2, next);
  }
  for (const [key, bytes] of Object.entries(data)) out.set(bytes, dataAt[key]);
  return { bytes: new Uint8Array(out), ifdAt, dataAt };
}

const tiffHeader = (le, magic = 42, extra = 0) => {
  const h = Buffer.alloc(8 + extra);
  h.write(le ? 'II' : 'MM', 0, 'latin1');
  if (le) h.writeUInt16LE(magic, 2);
  else h.writeUInt16BE(magic, 2);
  return h;
};

/** An uncompressed RGB strip, as IFD0 of a DNG or NEF holds its thumbnail. */
const rgbThumbnail = (width, height) => new Uint8Array(width * height * 3).fill(0x80);
const rgbEntries = (width, height, key) => [
  [0x100, SHORT, width], [0x101, SHORT, height], [0x102, SHORT, [8, 8, 8]], [0x103, SHORT, 1], [0x106, SHORT, 2],
  [0x111, LONG, { data: key }], [0x115, SHORT, 3], [0x116, SHORT, height], [0x117, LONG, { length: key }],
];
/** Sensor data entries (a colour filter array): `compression` as the maker writes it. */
const cfaEntries = (key, compression, width = 6000, height = 4000) => [
  [0xfe, LONG, 0], [0x100, LONG, width], [0x101, LONG, height], [0x102, SHORT, 14], [0x103, SHORT, compression],
  [0x106, SHORT, 32803], [0x111, LONG, { data: key }], [0x115, SHORT, 1], [0x116, LONG, height], [0x117, LONG, { length: key }],
];

/**
 * Sensor data as CR2 and DNG store it: a lossless JPEG (SOF3), its frame declaring 6000×4000, larger than any
 * preview, so that only its kind of frame keeps it from being chosen; then `size` bytes of scan data.
 */
function losslessJpeg(size) {
  const frame = Buffer.from([0xff, 0xc3, 0, 14, 14, 4000 >> 8, 4000 & 0xff, 6000 >> 8, 6000 & 0xff, 2, 1, 0x11, 0, 2, 0x11, 0]);
  const huffman = Buffer.from([0xff, 0xc4, 0, 20, 0x00, 0, 1, ...new Array(14).fill(0), 0]);
  const scan = Buffer.from([0xff, 0xda, 0, 10, 2, 1, 0, 2, 0, 1, 0, 0]);
  const body = Buffer.alloc(size, 0x55);
  return new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xd8]), huffman, frame, scan, body, Buffer.from([0xff, 0xd9])]));
}

const common = (make, model, orientation) => [[0x10f, ASCII, make], [0x110, ASCII, model], [0x112, SHORT, orientation]];

function dng({ le, orientation, previews, raw }) {
  const subIfds = [
    { entries: [...cfaEntries('raw', 7)] },
    ...previews.map((key, i) => ({
      entries: [[0xfe, LONG, 1], [0x100, LONG, 0], [0x101, LONG, 0], [0x102, SHORT, [8, 8, 8]], [0x103, SHORT, 7], [0x106, SHORT, 6], [0x111, LONG, { data: `p${i}` }], [0x115, SHORT, 3], [0x116, LONG, 0], [0x117, LONG, { length: `p${i}` }]],
      key,
    })),
  ];
  const data = { thumb: rgbThumbnail(16, 12), raw };
  previews.forEach((key, i) => (data[`p${i}`] = jpeg(JPEGS[key])));
  // The previews' sizes, from their frames, as a DNG writer states them.
  for (const sub of subIfds.slice(1)) {
    const size = sofSize(jpeg(JPEGS[sub.key]));
    sub.entries = sub.entries.map(([t, ty, v]) => [t, ty, t === 0x100 ? size.width : t === 0x101 || t === 0x116 ? size.height : v]);
  }
  const ifd0 = {
    entries: [[0xfe, LONG, 1], ...rgbEntries(16, 12, 'thumb'), ...common('Shoebox', 'Test DNG', orientation), [0x14a, LONG, { ifds: subIfds }], [0xc612, 1, new Uint8Array([1, 4, 0, 0])], [0xc614, ASCII, 'Shoebox Test DNG']],
  };
  return tiffBlock({ le, header: tiffHeader(le), root: ifd0, data }).bytes;
}

function cr2({ orientation, raw }) {
  const ifd3 = { entries: [[0x103, SHORT, 6], [0x111, LONG, { data: 'raw' }], [0x117, LONG, { length: 'raw' }], [0xc5d9, LONG, 2], [0xc6c5, LONG, 1]] };
  const ifd2 = { entries: [...rgbEntries(16, 12, 'rgb')], next: ifd3 };
  const ifd1 = { entries: [[0x103, SHORT, 6], [0x201, LONG, { data: 'thumb' }], [0x202, LONG, { length: 'thumb' }]], next: ifd2 };
  const ifd0 = {
    entries: [[0x100, SHORT, 2400], [0x101, SHORT, 1600], [0x102, SHORT, [8, 8, 8]], [0x103, SHORT, 6], ...common('Canon', 'Canon EOS 5D Mark IV', orientation), [0x111, LONG, { data: 'preview' }], [0x117, LONG, { length: 'preview' }]],
    next: ifd1,
  };
  // After the TIFF header: "CR", version 2.0, and where the sensor data's IFD is.
  const header = tiffHeader(true, 42, 8);
  header.write('CR\x02\x00', 8, 'latin1');
  const block = tiffBlock({ le: true, header, root: ifd0, data: { preview: jpeg(JPEGS.large), thumb: jpeg(JPEGS.heavy), rgb: rgbThumbnail(16, 12), raw } });
  Buffer.from(block.bytes.buffer).writeUInt32LE(block.ifdAt.get(ifd3), 12);
  return block.bytes;
}

function nef({ orientation, raw, withPreview = true }) {
  const preview = { entries: [[0xfe, LONG, 1], [0x103, SHORT, 6], [0x11a, LONG, 300], [0x201, LONG, { data: 'preview' }], [0x202, LONG, { length: 'preview' }], [0x213, SHORT, 2]] };
  const sensor = { entries: cfaEntries('raw', 34713) };
  const ifd0 = {
    entries: [[0xfe, LONG, 1], ...rgbEntries(16, 12, 'thumb'), ...common('NIKON CORPORATION', 'NIKON Z 6', orientation), [0x14a, LONG, { ifds: withPreview ? [preview, sensor] : [sensor] }]],
  };
  const data = { thumb: rgbThumbnail(16, 12), raw };
  if (withPreview) data.preview = jpeg(JPEGS.large);
  return tiffBlock({ le: false, header: tiffHeader(false), root: ifd0, data }).bytes;
}

function arw({ orientation, raw, loop = false, previewPastEnd = false }) {
  const sensor = { entries: cfaEntries('raw', 32767) };
  const ifd1 = { entries: [[0x103, SHORT, 6], [0x201, LONG, { data: 'thumb' }], [0x202, LONG, { length: 'thumb' }]] };
  const ifd0 = {
    entries: [[0xfe, LONG, 0], ...common('SONY', 'ILCE-7M3', orientation), [0x14a, LONG, { ifds: [sensor] }], [0x201, LONG, { data: 'preview' }], [0x202, LONG, { length: 'preview' }]],
    next: ifd1,
  };
  if (loop) {
    ifd1.next = ifd0;
    sensor.entries.push([0x14a, LONG, { ifds: [sensor] }]);
  }
  const block = tiffBlock({ le: true, header: tiffHeader(true), root: ifd0, data: { thumb: jpeg(JPEGS.heavy), preview: jpeg(JPEGS.large), raw } });
  if (previewPastEnd) {
    // The preview's offset, moved to just before the end: its length then runs past it.
    const view = Buffer.from(block.bytes.buffer);
    const entry = findEntry(view, block.ifdAt.get(ifd0), 0x201, true);
    view.writeUInt32LE(view.length - 100, entry + 8);
  }
  return block.bytes;
}

function findEntry(view, ifdAt, tag, le) {
  const n = le ? view.readUInt16LE(ifdAt) : view.readUInt16BE(ifdAt);
  for (let i = 0; i < n; i++) {
    const at = ifdAt + 2 + i * 12;
    if ((le ? view.readUInt16LE(at) : view.readUInt16BE(at)) === tag) return at;
  }
  throw new Error(`no tag ${tag}`);
}

/** An ORF: sensor data in IFD0, the preview in the Olympus maker note's CameraSettings IFD. */
function orf({ le, orientation, preview, raw }) {
  const settings = { entries: [[0x0, UNDEFINED, new Uint8Array([0x30, 0x31, 0x30, 0x30])], [0x100, LONG, 1], [0x101, LONG, { data: 'preview' }], [0x102, LONG, { length: 'preview' }]] };
  const main = { entries: [[0x0, UNDEFINED, new Uint8Array([0x30, 0x31, 0x30, 0x30])], [0x2020, IFD, { ifds: [settings] }]] };
  // "OLYMPUS\0", the byte order, version 3: offsets in the maker note count from its first byte.
  const noteHeader = Buffer.from(`OLYMPUS\0${le ? 'II' : 'MM'}\x03\x00`, 'latin1');
  const note = tiffBlock({ le, header: noteHeader, pointerAt: null, root: main, data: { preview: jpeg(JPEGS[preview]) } }).bytes;
  const exif = { entries: [[0x9003, ASCII, '2024:05:01 10:00:00'], [0x927c, UNDEFINED, note]] };
  const ifd0 = { entries: [...cfaEntries('raw', 1, 4640, 3472).filter(([t]) => t !== 0xfe), ...common('OLYMPUS CORPORATION', 'E-M5MarkII', orientation), [0x8769, LONG, { ifds: [exif] }]] };
  return tiffBlock({ le, header: tiffHeader(le, 0x4f52), root: ifd0, data: { raw } }).bytes;
}

/** A RW2: "IIU\0", IFD0 at 0x18 after Panasonic's 16-byte signature; tag 0x2E is a whole JPEG. */
function rw2({ orientation, preview, raw }) {
  const header = Buffer.alloc(0x18);
  header.write('IIU\0', 0, 'latin1');
  Buffer.from('88e774d8f8251d4d947a6e77822b5d6a', 'hex').copy(header, 8);
  const ifd0 = {
    entries: [
      [0x1, UNDEFINED, new Uint8Array([0x30, 0x33, 0x31, 0x30])], [0x2, SHORT, 5200], [0x3, SHORT, 3900], [0x4, SHORT, 0], [0x5, SHORT, 0], [0x6, SHORT, 3900], [0x7, SHORT, 5200],
      [0x2e, UNDEFINED, jpeg(JPEGS[preview])], ...common('Panasonic', 'DC-G9', orientation), [0x111, LONG, { data: 'raw' }], [0x116, SHORT, 3900], [0x117, LONG, { length: 'raw' }],
    ],
  };
  return tiffBlock({ le: true, header, root: ifd0, data: { raw } }).bytes;
}

/** A RAF: Fujifilm's big-endian header, the JPEG at the offset in bytes 84–87 for the length in 88–91. */
function raf({ preview, raw }) {
  const header = Buffer.alloc(0x100);
  header.write('FUJIFILMCCD-RAW 0201FF383501', 0, 'latin1');
  header.write('X-T4', 0x1c, 'latin1');
  header.write('0100', 0x3c, 'latin1');
  const image = jpeg(JPEGS[preview]);
  header.writeUInt32BE(header.length, 84);
  header.writeUInt32BE(image.length, 88);
  return new Uint8Array(Buffer.concat([header, image, raw]));
}

// ---- ISO base media (CR3) -----------------------------------------------------------------------------------

const box = (type, ...content) => {
  const body = Buffer.concat(content.map((c) => (typeof c === 'string' ? Buffer.from(c, 'latin1') : Buffer.from(c))));
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + body.length);
  return Buffer.concat([size, Buffer.from(type, 'latin1'), body]);
};
const u32 = (...ns) => Buffer.concat(ns.map((n) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; }));
const u16 = (...ns) => Buffer.concat(ns.map((n) => { const b = Buffer.alloc(2); b.writeUInt16BE(n); return b; }));

function sofSize(bytes) {
  for (let at = 2; at + 9 < bytes.length; ) {
    const code = bytes[at + 1];
    if (code >= 0xc0 && code <= 0xc3) return { height: (bytes[at + 5] << 8) | bytes[at + 6], width: (bytes[at + 7] << 8) | bytes[at + 8] };
    at += 2 + ((bytes[at + 2] << 8) | bytes[at + 3]);
  }
  throw new Error('no frame');
}

/**
 * A CR3 as Canon lays it out: `ftyp` (crx), the movie box (the Canon uuid box with the compressor version,
 * IFD0 in CMT1, the EXIF IFD in CMT2 and a THMB thumbnail; then one track of one sample, the full-size JPEG),
 * the preview uuid box with its PRVW box, and the media data. `trackJpeg` false puts sensor data in the track.
 */
function cr3({ orientation, raw, trackJpeg = true }) {
  const thumb = jpeg(JPEGS.small);
  const preview = jpeg(JPEGS.medium);
  const full = jpeg(JPEGS.large);
  const tsize = sofSize(thumb), psize = sofSize(preview), fsize = sofSize(full);
  const cmt1 = tiffBlock({ le: true, header: tiffHeader(true), root: { entries: [...common('Canon', 'Canon EOS R5', orientation), [0x11a, LONG, 72], [0x131, ASCII, 'Firmware 1.8.1']] } }).bytes;
  const cmt2 = tiffBlock({ le: true, header: tiffHeader(true), root: { entries: [[0x9003, ASCII, '2024:05:01 10:00:00']] } }).bytes;
  const canon = box('uuid', Buffer.from('85c0b687820f11e08111f4ce462b6a48', 'hex'),
    box('CNCV', 'CanonCR3_001/01.09.00/00.00.00'),
    box('CMT1', cmt1), box('CMT2', cmt2),
    box('THMB', Buffer.from([0, 0, 0, 0]), u16(tsize.width, tsize.height), u32(thumb.length), u16(1, 0), thumb));
  const sample = trackJpeg ? full : raw.subarray(0, 4096);
  const moovFor = (sampleAt) => {
    const craw = box('CRAW', Buffer.alloc(6), u16(1), Buffer.alloc(16), u16(fsize.width, fsize.height), u32(0x480000, 0x480000, 0), u16(1), Buffer.alloc(32), u16(0x18, 0xffff), box('JPEG', u32(0)));
    const stbl = box('stbl', box('stsd', u32(0, 1), craw), box('stts', u32(0, 1, 1, 1)), box('stsc', u32(0, 1, 1, 1, 1)), box('stsz', u32(0, 0, 1, sample.length)), box('stco', u32(0, 1, sampleAt)));
    const minf = box('minf', box('vmhd', u32(1), Buffer.alloc(8)), box('dinf', box('dref', u32(0, 1), box('url ', u32(1)))), stbl);
    const mdia = box('mdia', box('mdhd', u32(0, 0, 0, 1, 1), u16(0x55c4, 0)), box('hdlr', u32(0, 0), 'vide', Buffer.alloc(12), '\0'), minf);
    const tkhd = box('tkhd', u32(3, 0, 0, 1, 0, 1), Buffer.alloc(52), u32(fsize.width << 16, fsize.height << 16));
    const mvhd = box('mvhd', u32(0, 0, 0, 1, 1, 0x10000), u16(0x100, 0), Buffer.alloc(8), u32(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000), Buffer.alloc(24), u32(2));
    return box('moov', canon, mvhd, box('trak', tkhd, mdia));
  };
  const ftyp = box('ftyp', 'crx ', u32(1), 'crx isom');
  const prvw = box('uuid', Buffer.from('eaf42b5e1c984b88b9fbb7dc406e4d16', 'hex'), u32(0, 1),
    box('PRVW', u32(0), u16(1, psize.width, psize.height, 1), u32(preview.length), preview));
  const mdatAt = ftyp.length + moovFor(0).length + prvw.length;
  const media = trackJpeg ? Buffer.concat([full, raw]) : Buffer.from(raw);
  return new Uint8Array(Buffer.concat([ftyp, moovFor(mdatAt + 8), prvw, box('mdat', media)]));
}

/** A scanned TIFF: an RGB image and, in IFD1, a JPEG thumbnail; made by a maker that also makes cameras. */
function scan() {
  const ifd1 = { entries: [[0x103, SHORT, 6], [0x201, LONG, { data: 'thumb' }], [0x202, LONG, { length: 'thumb' }]] };
  const ifd0 = { entries: [...rgbEntries(16, 12, 'rgb'), [0x10f, ASCII, 'Nikon'], [0x110, ASCII, 'LS-5000'], [0x112, SHORT, 1]], next: ifd1 };
  return tiffBlock({ le: true, header: tiffHeader(true), root: ifd0, data: { rgb: rgbThumbnail(16, 12), thumb: jpeg(JPEGS.small) } }).bytes;
}

/** Writes every file of RAW_FIXTURES into `outDir`; `rawBytes` sizes the stand-in sensor data. Answers their paths. */
export function makeRawFixtures(outDir, { rawBytes = 64 * 1024 } = {}) {
  mkdirSync(outDir, { recursive: true });
  const filler = new Uint8Array(rawBytes).fill(0x55);
  const lossless = losslessJpeg(rawBytes);
  const files = {
    'le.dng': dng({ le: true, orientation: 6, previews: ['large', 'heavy'], raw: lossless }),
    'be.dng': dng({ le: false, orientation: 8, previews: ['medium', 'large'], raw: lossless }),
    'canon.cr2': cr2({ orientation: 8, raw: lossless }),
    'canon.cr3': cr3({ orientation: 6, raw: filler }),
    'prvw-only.cr3': cr3({ orientation: 1, raw: filler, trackJpeg: false }),
    'nikon.nef': nef({ orientation: 8, raw: filler }),
    'sony.arw': arw({ orientation: 6, raw: filler }),
    'fuji.raf': raf({ preview: 'tall', raw: filler }),
    'fuji-8.raf': raf({ preview: 'portrait', raw: filler }),
    'olympus.orf': orf({ le: true, orientation: 3, preview: 'large', raw: filler }),
    'olympus-be.orf': orf({ le: false, orientation: 1, preview: 'tall', raw: filler }),
    'panasonic.rw2': rw2({ orientation: 6, preview: 'tall', raw: filler }),
    'no-preview.nef': nef({ orientation: 1, raw: filler, withPreview: false }),
    'loop.arw': arw({ orientation: 6, raw: filler, loop: true }),
    'past-end.arw': arw({ orientation: 6, raw: filler, previewPastEnd: true }),
    'scan.tif': scan(),
  };
  return RAW_FIXTURES.map(({ file }) => {
    const path = join(outDir, file);
    writeFileSync(path, files[file]);
    return path;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = process.argv[2];
  if (!outDir) throw new Error('usage: node scripts/make-raw-fixtures.mjs OUT_DIR [RAW_MEGABYTES]');
  const megabytes = Number(process.argv[3] ?? 0);
  const paths = makeRawFixtures(outDir, megabytes > 0 ? { rawBytes: Math.round(megabytes * 1024 * 1024) } : {});
  for (const path of paths) console.log(path);
}
