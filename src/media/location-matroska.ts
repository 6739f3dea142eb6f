/**
 * [Note: Location in a Matroska file]
 * Matroska (MKV) and WebM keep metadata as tags: `Tags` › `Tag` › `SimpleTag`, each a name and a text or binary
 * value. No camera writes a place there, but remuxing a phone's MP4 does: ffmpeg carries `©xyz` over as a tag
 * named `LOCATION`, an iPhone's keys as `COM.APPLE.QUICKTIME.LOCATION.ISO6709`, and the Matroska tag list has
 * `RECORDING_LOCATION`. Every SimpleTag whose name speaks of a place (LOCATION, GPS, LATITUDE, LONGITUDE,
 * ISO6709, COORDINATES, CITY, COUNTRY…), nested tags and all, becomes an EBML `Void` element of the same length,
 * content zeroed, which every reader skips; an XMP packet kept as a tag is blanked as in a photo. Attachments
 * that are pictures (a cover) are walked as pictures.
 * Only the segment's top-level elements are read, by their sizes; clusters (the media) are skipped, never read.
 * A cluster of unknown size (a live recording, as the browser's MediaRecorder writes it) ends where the next
 * element a segment holds begins: its blocks are stepped over by their own sizes, a window of the file at a time,
 * until one comes (or the segment ends, or its last block is cut off, as when the recording tab closed). Anything
 * in such a cluster that a cluster does not hold, or a block of unknown size, cannot be followed: the file is then
 * `unsupported`, as is any other element that runs past its parent.
 */
import { blankXmpLocation, Unreadable } from './location-blanking';
import { inWhole, partReader, readExactly, patchBlock, type BytePatch, type ReadAt, type Walked } from './location-read';

const SEGMENT = 0x18538067;
const TAGS = 0x1254c367;
const TAG = 0x7373;
const SIMPLE_TAG = 0x67c8;
const TAG_NAME = 0x45a3;
const TAG_STRING = 0x4487;
const TAG_BINARY = 0x4485;
const ATTACHMENTS = 0x1941a469;
const ATTACHED_FILE = 0x61a7;
const FILE_MIME_TYPE = 0x4660;
const FILE_DATA = 0x465c;
const VOID = 0xec;
const CLUSTER = 0x1f43b675;
/** What a segment holds (SeekHead, Info, Tracks, Cluster, Cues, Attachments, Chapters, Tags): one ends a cluster of unknown size. */
const SEGMENT_CHILDREN = new Set([0x114d9b74, 0x1549a966, 0x1654ae6b, CLUSTER, 0x1c53bb6b, ATTACHMENTS, 0x1043a770, TAGS]);
/** What a cluster holds: Timestamp, SilentTracks, Position, PrevSize, SimpleBlock, BlockGroup, EncryptedBlock, Void, CRC-32. */
const CLUSTER_CHILDREN = new Set([0xe7, 0x5854, 0xa7, 0xab, 0xa3, 0xa0, 0xaf, VOID, 0xbf]);
/** How much of a cluster of unknown size is read at once to step over its blocks. */
const WINDOW_BYTES = 1024 * 1024;

const PLACE_TAG = /LOCATION|GPS|LATITUDE|LONGITUDE|ALTITUDE|ISO6709|COORDINATES|CITY|COUNTRY|PLACE|ADDRESS/;
/** Pictures with nowhere to keep a place (as upload/original-location.ts counts them). */
const PLACELESS_PICTURES = /^image\/(gif|bmp|x-ms-bmp|x-icon|vnd\.microsoft\.icon)$/;
const XMP_START = /^\s*(<\?xpacket|<x:xmpmeta|<rdf:RDF)/;

/** An element's header: its id, where its content starts and ends; `end` null when its size is unknown. */
interface Element {
  id: number;
  at: number;
  headerLength: number;
  sizeLength: number;
  start: number;
  end: number | null;
}

/** The element whose header starts at bytes[at]; null past `limit`. */
function element(bytes: Uint8Array, at: number, base: number, limit: number): Element | null {
  if (at >= limit) return null;
  const idLength = vintLength(bytes[at]);
  if (idLength > 4 || at + idLength >= limit) throw new Unreadable('EBML id');
  let id = 0;
  for (let i = 0; i < idLength; i++) id = id * 256 + bytes[at + i]!;
  const sizeAt = at + idLength;
  const sizeLength = vintLength(bytes[sizeAt]);
  if (sizeAt + sizeLength > limit) throw new Unreadable('EBML size');
  let size = bytes[sizeAt]! & (0xff >> sizeLength);
  let unknown = size === 0xff >> sizeLength;
  for (let i = 1; i < sizeLength; i++) {
    size = size * 256 + bytes[sizeAt + i]!;
    unknown &&= bytes[sizeAt + i] === 0xff;
  }
  const start = base + sizeAt + sizeLength;
  if (!unknown && !Number.isSafeInteger(start + size)) throw new Unreadable('EBML size');
  return { id, at: base + at, headerLength: idLength + sizeLength, sizeLength, start, end: unknown ? null : start + size };
}

/** How many bytes a variable-length integer whose first byte is `first` takes (1–8). */
function vintLength(first: number | undefined): number {
  if (!first) throw new Unreadable('EBML variable-length integer');
  return Math.clz32(first) - 23;
}

/** The children of bytes[from, to), each with a known size inside it. */
function* children(bytes: Uint8Array, from: number, to: number): Generator<Element & { end: number }> {
  let at = from;
  while (at < to) {
    const e = element(bytes, at, 0, to)!;
    if (e.end === null || e.end > to) throw new Unreadable('EBML element runs past its parent');
    yield e as Element & { end: number };
    at = e.end;
  }
}

/** The elements of the file from `from` to `to`, read header by header; each must have a size that ends inside. */
async function* elementsAt(read: ReadAt, from: number, to: number): AsyncGenerator<Element & { end: number }> {
  let at = from;
  while (at < to) {
    const e = element(await read(at, 12), 0, at, Math.min(12, to - at));
    if (!e) return;
    if (e.end === null) {
      // A cluster being recorded: its end is found by stepping over every block in it.
      if (e.id !== CLUSTER) throw new Unreadable('element of unknown size');
      e.end = await unsizedClusterEnd(read, e.start, to);
    }
    if (e.end > to) throw new Unreadable('element runs past its parent');
    yield e as Element & { end: number };
    at = e.end;
  }
}

/** Where a cluster of unknown size starting its blocks at `from` ends: at the next element a segment holds, or at `to`. */
async function unsizedClusterEnd(read: ReadAt, from: number, to: number): Promise<number> {
  let windowAt = from;
  let window: Uint8Array = new Uint8Array(0);
  let at = from;
  while (at < to) {
    if (at < windowAt || at + Math.min(12, to - at) > windowAt + window.length) {
      windowAt = at;
      window = await read(at, Math.min(WINDOW_BYTES, to - at));
    }
    const e = element(window, at - windowAt, windowAt, window.length);
    if (!e) break;
    if (SEGMENT_CHILDREN.has(e.id)) return at;
    if (!CLUSTER_CHILDREN.has(e.id) || e.end === null) throw new Unreadable('an element a cluster does not hold');
    // A recording cut off in the middle of a block (the tab closed while recording): nothing follows it.
    if (e.end > to) return to;
    at = e.end;
  }
  return to;
}

export type PictureWalker = (read: ReadAt, size: number) => Promise<Walked | null>;

/** The place patches of a Matroska or WebM file; `picture` walks an attached picture (null: not a picture it knows). */
export async function matroskaPatches(read: ReadAt, size: number, picture: PictureWalker): Promise<Walked> {
  const patches: BytePatch[] = [];
  let outcome: Walked['outcome'] = 'none';
  // The EBML header, then one segment (or, rarely, several) holding the rest.
  let at = 0;
  while (at < size) {
    const top = element(await read(at, 12), 0, at, Math.min(12, size - at));
    if (!top) break;
    if (top.id !== SEGMENT) {
      if (top.end === null) throw new Unreadable('EBML element of unknown size');
      at = top.end;
      continue;
    }
    const end = top.end ?? size;
    if (end > size) throw new Unreadable('segment runs past the end');
    for await (const e of elementsAt(read, top.start, end)) {
      if (e.id === TAGS) {
        patchBlock(patches, await readExactly(read, e.at, e.end - e.at), e.at, (b) => blankTags(b, e.headerLength, b.length));
      } else if (e.id === ATTACHMENTS) {
        const found = await attachmentPatches(read, e, picture);
        if (found.outcome === 'unsupported') outcome = 'unsupported';
        patches.push(...found.patches);
      }
    }
    at = end;
  }
  return { outcome, patches };
}

/** Blanks the place tags among the Tag elements in bytes[from, to); true when one was found. */
function blankTags(bytes: Uint8Array, from: number, to: number): boolean {
  let found = false;
  for (const tag of children(bytes, from, to)) {
    if (tag.id !== TAG) continue;
    for (const simple of children(bytes, tag.start, tag.end)) {
      if (simple.id === SIMPLE_TAG) found = blankSimpleTag(bytes, simple) || found;
    }
  }
  return found;
}

function blankSimpleTag(bytes: Uint8Array, simple: Element & { end: number }): boolean {
  let name = '';
  let found = false;
  for (const field of children(bytes, simple.start, simple.end)) {
    if (field.id === TAG_NAME) name = new TextDecoder().decode(bytes.subarray(field.start, field.end)).toUpperCase();
  }
  if (PLACE_TAG.test(name)) {
    toVoid(bytes, simple);
    return true;
  }
  for (const field of children(bytes, simple.start, simple.end)) {
    if (field.id === SIMPLE_TAG) found = blankSimpleTag(bytes, field) || found;
    else if ((field.id === TAG_STRING || field.id === TAG_BINARY) && (name === 'XMP' || XMP_START.test(new TextDecoder().decode(bytes.subarray(field.start, Math.min(field.end, field.start + 64)))))) {
      found = blankXmpLocation(bytes, field.start, field.end) || found;
    }
  }
  return found;
}

/** The element, header and all, as a Void element of the same length: its id one byte shorter, its size one longer. */
function toVoid(bytes: Uint8Array, e: Element & { end: number }): void {
  const idLength = e.headerLength - e.sizeLength;
  const sizeLength = e.sizeLength + idLength - 1;
  if (sizeLength > 8) throw new Unreadable('element header too long to turn void');
  const at = e.at;
  const content = e.end - e.start;
  bytes[at] = VOID;
  // The size, in `sizeLength` bytes: the length marker in the first, the value in the rest.
  let value = content;
  for (let i = sizeLength; i >= 1; i--) {
    bytes[at + i] = value % 256;
    value = Math.floor(value / 256);
  }
  bytes[at + 1]! |= 0x80 >> (sizeLength - 1);
  bytes.fill(0, e.start, e.end);
}

/** Attachments: a picture among them (a cover) is walked as a picture; fonts and the rest hold no place. */
async function attachmentPatches(read: ReadAt, attachments: Element & { end: number }, picture: PictureWalker): Promise<Walked> {
  const patches: BytePatch[] = [];
  let outcome: Walked['outcome'] = 'none';
  for await (const file of elementsAt(read, attachments.start, attachments.end)) {
    if (file.id === ATTACHED_FILE) {
      let mime = '';
      let data: { start: number; end: number } | null = null;
      for await (const f of elementsAt(read, file.start, file.end)) {
        if (f.id === FILE_MIME_TYPE) mime = new TextDecoder().decode(await readExactly(read, f.start, Math.min(f.end - f.start, 255)));
        else if (f.id === FILE_DATA) data = { start: f.start, end: f.end };
      }
      if (data && (mime.startsWith('image/') || mime === 'application/octet-stream')) {
        const { start } = data;
        const walked = await picture(partReader(read, start, data.end - start), data.end - start);
        // A picture of a kind not edited here, or one whose structure cannot be followed, may hold a place.
        if (!walked && mime.startsWith('image/') && !PLACELESS_PICTURES.test(mime)) outcome = 'unsupported';
        if (walked?.outcome === 'unsupported') outcome = 'unsupported';
        patches.push(...inWhole(walked?.patches ?? [], start));
      }
    }
  }
  return { outcome, patches };
}
