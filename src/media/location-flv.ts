/**
 * [Note: Location in a Flash video]
 * FLV keeps its metadata in script-data tags, as AMF0 values: `onMetaData` (where ffmpeg writes a source's tags
 * when it remuxes, a phone's `location` among them), `onXMPData` (Adobe's tools: an XMP packet under `liveXML`),
 * and cue points or text tracks. FLV defines no field for a place, so in every script-data tag:
 * - `liveXML` is blanked as a photo's XMP is;
 * - a text is kept only under a name that holds no place (encoder, title, a codec's name…); any other is
 *   overwritten with spaces, its length kept;
 * - a number is kept only under a name known for numbers that are no place (duration, width, frame rate, the
 *   keyframe index…); any other is set to 0 (a latitude would be a number);
 * - booleans, dates and nulls are kept; the event's own name too.
 * Audio and video tags are skipped, never read. An encrypted tag, a tag of another type, an AMF3 value, values
 * nested deeper than 32, or a tag that runs past the end (but the last audio or video tag of a recording cut
 * short) make the file `unsupported`: what cannot be walked is never said to be clean.
 */
import { blankXmpLocation, Unreadable } from './location-blanking';
import { ascii, patchBlock, readExactly, readingAhead, readU32, type BytePatch, type ReadAt, type Walked } from './location-read';

/** Names whose text holds no place: kept. */
const PLACELESS_TEXT = new Set([
  'title', 'author', 'artist', 'album', 'genre', 'copyright', 'comment', 'description', 'date', 'creationdate', 'creation_time', 'encoder',
  'encoded_by', 'metadatacreator', 'creator', 'major_brand', 'minor_version', 'compatible_brands', 'handler_name', 'vendor_id', 'language',
  'videocodecid', 'audiocodecid', 'name', 'type',
]);
/** Names whose numbers are no place: kept. */
const PLACELESS_NUMBER = new Set([
  'duration', 'width', 'height', 'videodatarate', 'framerate', 'videocodecid', 'audiodatarate', 'audiosamplerate', 'audiosamplesize',
  'audiocodecid', 'filesize', 'datasize', 'videosize', 'audiosize', 'lasttimestamp', 'lastkeyframetimestamp', 'lastkeyframelocation',
  'times', 'filepositions', 'time', 'audiodelay', 'totalduration', 'totaldatarate', 'bytelength', 'framewidth', 'frameheight',
  'displaywidth', 'displayheight', 'avcprofile', 'avclevel', 'aacaot', 'audiochannels', 'moovposition', 'timescale', 'trackid',
  'minor_version', 'stereo',
]);
const XMP_NAME = 'liveXML';
const MAX_DEPTH = 32;
const SCRIPT_DATA = 18;
const AUDIO = 8;
const VIDEO = 9;
/** Read through a file's tags a mebibyte at a time. */
const WINDOW_BYTES = 1024 * 1024;

/** The place patches of an FLV file. */
export async function flvPatches(read: ReadAt, size: number): Promise<Walked> {
  const r = readingAhead(read, WINDOW_BYTES);
  const head = await readExactly(r, 0, 9);
  if (ascii(head, 0, 3) !== 'FLV') throw new Unreadable('not an FLV file');
  const patches: BytePatch[] = [];
  // The header, then the size of the tag before the first (0).
  let at = readU32(head, 5, false) + 4;
  while (at + 11 <= size) {
    const h = await readExactly(r, at, 11);
    const type = h[0]! & 0x1f;
    const length = (h[1]! << 16) | (h[2]! << 8) | h[3]!;
    const start = at + 11;
    const end = start + length;
    if (end > size) {
      if (type === AUDIO || type === VIDEO) break;
      throw new Unreadable('an FLV tag runs past the end');
    }
    if (h[0]! & 0x20) throw new Unreadable('an encrypted FLV tag');
    if (type === SCRIPT_DATA) patchBlock(patches, await readExactly(r, start, length), start, blankScriptData);
    else if (type !== AUDIO && type !== VIDEO) throw new Unreadable(`an FLV tag of type ${type}`);
    // The tag, then the size of the tag.
    at = end + 4;
  }
  return { outcome: 'none', patches };
}

/** Blanks, in a script-data tag's bytes, every value that may be a place. */
function blankScriptData(bytes: Uint8Array): boolean {
  const v = new Amf(bytes);
  if (v.u8() !== STRING) throw new Unreadable('a script-data tag without a name');
  const event = v.text(v.u16());
  while (v.at < bytes.length) value(v, event, 1);
  return true;
}

const NUMBER = 0;
const STRING = 2;

/** One AMF0 value at `v.at`, named `key` (the property it is, or the array it is in). */
function value(v: Amf, key: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new Unreadable('AMF values nested too deep');
  const type = v.u8();
  switch (type) {
    case NUMBER: {
      const at = v.skip(8);
      if (!PLACELESS_NUMBER.has(key)) v.bytes.fill(0, at, at + 8);
      return;
    }
    case 1: // boolean
      v.skip(1);
      return;
    case STRING:
      return text(v, key, v.u16());
    case 12: // long string
    case 15: // XML document
      return text(v, key, v.u32());
    case 3: // object
      return properties(v, depth);
    case 8: // ECMA array: a count, then properties as an object's
      v.skip(4);
      return properties(v, depth);
    case 16: // typed object: its class's name, then properties
      v.skip(v.u16());
      return properties(v, depth);
    case 10: {
      // strict array: each value named as the array is
      const n = v.u32();
      for (let i = 0; i < n; i++) value(v, key, depth + 1);
      return;
    }
    case 11: // date: milliseconds and a time zone
      v.skip(10);
      return;
    case 7: // reference to an earlier object
      v.skip(2);
      return;
    case 5: // null
    case 6: // undefined
    case 13: // unsupported
      return;
    default:
      throw new Unreadable(`an AMF0 value of type ${type}`);
  }
}

function properties(v: Amf, depth: number): void {
  for (;;) {
    const n = v.u16();
    if (n === 0 && v.bytes[v.at] === 9) {
      v.skip(1);
      return;
    }
    value(v, v.text(n), depth + 1);
  }
}

function text(v: Amf, key: string, length: number): void {
  const at = v.skip(length);
  if (key === XMP_NAME) blankXmpLocation(v.bytes, at, at + length);
  else if (!PLACELESS_TEXT.has(key)) v.bytes.fill(0x20, at, at + length);
}

/** A cursor over AMF0 bytes (big-endian), which are blanked where they are. */
class Amf {
  at = 0;
  constructor(readonly bytes: Uint8Array) {}

  /** Moves past `n` bytes; where they start. */
  skip(n: number): number {
    const at = this.at;
    if (at + n > this.bytes.length) throw new Unreadable('an AMF value runs past its tag');
    this.at += n;
    return at;
  }
  u8(): number {
    return this.bytes[this.skip(1)]!;
  }
  u16(): number {
    const at = this.skip(2);
    return (this.bytes[at]! << 8) | this.bytes[at + 1]!;
  }
  u32(): number {
    return readU32(this.bytes, this.skip(4), false);
  }
  text(n: number): string {
    const at = this.skip(n);
    return new TextDecoder().decode(this.bytes.subarray(at, at + n));
  }
}
