/**
 * [Note: Location in a Windows Media file]
 * ASF (WMV, WMA, ASF) has no field for a place, but a place can be in one: its named attributes (the Extended
 * Content Description, and the Metadata and Metadata Library objects of the header extension) take any name, and
 * ffmpeg writes a phone's `location` there when it remuxes; an XMP packet (Adobe's tools) sits in an object of
 * its own. So:
 * - the XMP object is blanked as a photo's XMP is;
 * - an attribute keeps its value only under a name that holds no place (`WM/AlbumTitle`, `WM/EncodingSettings`,
 *   `IsVBR`…); every other value (`location`, a cover picture that may carry EXIF) is zeroed, its length kept;
 * - padding is zeroed;
 * - streams must be audio or video; the title, author, copyright, description and rating are kept, as a photo's
 *   are;
 * - the media (the Data object) and its indexes are skipped, never read.
 * Any other object (script commands, markers, branding, encryption), an object that runs past its parent, or a
 * block too large to read makes the file `unsupported`: what cannot be walked is never said to be clean.
 */
import { blankXmpLocation, Unreadable } from './location-blanking';
import { patchBlock, readExactly, readU32, type BytePatch, type ReadAt, type Walked, zeroed } from './location-read';

const HEADER = '75B22630-668E-11CF-A6D9-00AA0062CE6C';
const DATA = '75B22636-668E-11CF-A6D9-00AA0062CE6C';
const XMP = 'BE7ACFCB-97A9-42E8-9C71-999491E3AFAC';
/** The media's indexes: simple, index, media object, timecode. */
const INDEXES = new Set(['33000890-E5B1-11CF-89F4-00A0C90349CB', 'D6E229D3-35DA-11D1-9034-00A0C90349BE', 'FEB103F8-12AD-4C64-840F-2A1D2F7AD48C', '3CB73FD0-0C4A-4803-953D-EDF7B6228F0C']);

const STREAM_PROPERTIES = 'B7DC0791-A9B7-11CF-8EE6-00C00C205365';
const HEADER_EXTENSION = '5FBF03B5-A92E-11CF-8EE3-00C00C205365';
const EXTENDED_CONTENT_DESCRIPTION = 'D2D0A440-E307-11D2-97F0-00A0C95EA850';
const PADDING = '1806D474-CADF-4509-A4BA-9AABCB96AAE8';
const METADATA = 'C5F8CBEA-5BAF-4877-8467-AA8C44FA4CCA';
const METADATA_LIBRARY = '44231C94-9498-49D1-A141-1D134E457054';
const EXTENDED_STREAM_PROPERTIES = '14E6A5CB-C672-4332-8399-A96952065B5A';
/** Header objects of numbers, codecs and the title, author, copyright, description and rating: nothing to blank. */
const KEPT_HEADER = new Set([
  '8CABDCA1-A947-11CF-8EE4-00C00C205365', // file properties
  '86D15240-311D-11D0-A3A4-00A0C90348F6', // codec list
  '7BF875CE-468D-11D1-8D82-006097C9A2B2', // stream bitrate properties
  '75B22635-668E-11CF-A6D9-00AA0062CE6C', // error correction
  'D6E229DC-35DA-11D1-9034-00A0C90349BE', // bitrate mutual exclusion
  '75B22633-668E-11CF-A6D9-00AA0062CE6C', // content description
]);
/** Objects of the header extension that hold no place. */
const KEPT_EXTENSION = new Set([
  '7C4346A9-EFE0-4BFC-B229-393EDE415C85', // language list
  'D4FED15B-88D3-454F-81F0-ED5C45999E24', // stream prioritization
  'A08649CF-4775-4670-8A16-6E35357566CD', // advanced mutual exclusion
  'D1465A40-5A79-4338-B71B-E36B8FD6C249', // group mutual exclusion
  'A69609E6-517B-11D2-B6AF-00C04FD908E9', // bandwidth sharing
  'D6E229DF-35DA-11D1-9034-00A0C90349BE', // index parameters
  '6B203BAD-3F11-48E4-ACA8-D7613DE2CFA7', // timecode index parameters
  '26F18B5D-4584-47EC-9F5F-0E651F0452C9', // compatibility
]);
const AUDIO = 'F8699E40-5B4D-11CF-A8FD-00805F5C442B';
const VIDEO = 'BC19EFC0-5B4D-11CF-A8FD-00805F5C442B';

/** Attribute names whose values hold no place: kept. */
const PLACELESS_ATTRIBUTES = new Set(
  [
    'IsVBR', 'VBR Peak', 'Buffer Average', 'DeviceConformanceTemplate', 'WMFSDKVersion', 'WMFSDKNeeded', 'AspectRatioX', 'AspectRatioY',
    'Title', 'Author', 'Copyright', 'Description', 'Rating', 'Duration', 'Bitrate', 'Seekable', 'Stridable', 'Broadcast', 'Is_Protected',
    'Is_Trusted', 'Signature_Name', 'HasAudio', 'HasImage', 'HasScript', 'HasVideo', 'CurrentBitrate', 'OptimalBitrate', 'HasAttachedImages',
    'Can_Skip_Backward', 'Can_Skip_Forward', 'NumberOfFrames', 'FileSize', 'HasArbitraryDataStream', 'HasFileTransferStream',
  ].concat(
    [
      'AlbumTitle', 'AlbumArtist', 'AlbumSortOrder', 'AuthorSortOrder', 'TitleSortOrder', 'Genre', 'GenreID', 'Year', 'TrackNumber', 'Track',
      'Composer', 'Conductor', 'Writer', 'Producer', 'Director', 'Publisher', 'ContentDistributor', 'EncodingTime', 'EncodingSettings',
      'ToolName', 'ToolVersion', 'Codec', 'MediaClassPrimaryID', 'MediaClassSecondaryID', 'WMContentID', 'WMCollectionID',
      'WMCollectionGroupID', 'Provider', 'ProviderRating', 'ProviderStyle', 'ProviderCopyright', 'SubscriptionContentID', 'ParentalRating',
      'Mood', 'BeatsPerMinute', 'InitialKey', 'Language', 'SubTitle', 'SubTitleDescription', 'OriginalAlbumTitle', 'OriginalArtist',
      'OriginalFilename', 'OriginalReleaseYear', 'PartOfSet', 'Period', 'Category', 'IsCompilation', 'SharedUserRating', 'MCDI',
      'UniqueFileIdentifier', 'VideoHeight', 'VideoWidth', 'VideoFrameRate', 'StreamTypeInfo', 'WMADRCPeakReference', 'WMADRCPeakTarget',
      'WMADRCAverageReference', 'WMADRCAverageTarget', 'Comments', 'MediaIsStereo', 'MediaIsFinale', 'MediaIsLive', 'MediaIsTape',
      'MediaIsDelay', 'MediaIsSAP', 'MediaIsRepeat', 'MediaIsPremiere', 'MediaIsSubtitled', 'VideoClosedCaptioning', 'Media/IsStereo',
    ].map((n) => `WM/${n}`),
  ),
);

interface AsfObject {
  id: string;
  start: number;
  end: number;
}

const u16 = (b: Uint8Array, at: number) => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number) => readU32(b, at, true);
const hex = (b: Uint8Array, from: number, to: number, reversed: boolean) => {
  const bytes = [...b.subarray(from, to)];
  return (reversed ? bytes.reverse() : bytes).map((x) => x.toString(16).padStart(2, '0')).join('');
};
/** A GUID as written (its first three fields little-endian), in its usual form. */
const guid = (b: Uint8Array, at: number) =>
  [hex(b, at, at + 4, true), hex(b, at + 4, at + 6, true), hex(b, at + 6, at + 8, true), hex(b, at + 8, at + 10, false), hex(b, at + 10, at + 16, false)]
    .join('-')
    .toUpperCase();

/** The objects of the file from `from` to `to`: a GUID and a 64-bit size (its own 24 bytes included) each. */
async function* objectsAt(read: ReadAt, from: number, to: number): AsyncGenerator<AsfObject> {
  let at = from;
  while (at + 24 <= to) {
    const h = await readExactly(read, at, 24);
    const id = guid(h, 0);
    const size = u32(h, 16) + u32(h, 20) * 2 ** 32;
    // A Data object may say 0 while it is being written: it then runs to the end.
    const end = size === 0 && id === DATA ? to : at + size;
    if (size < 24 && id !== DATA) throw new Unreadable('an ASF object smaller than its header');
    if (end > to) throw new Unreadable('an ASF object runs past its parent');
    yield { id, start: at + 24, end };
    at = end;
  }
  if (at !== to) throw new Unreadable('bytes left over after the last ASF object');
}

/** The place patches of an ASF file (WMV, WMA). */
export async function asfPatches(read: ReadAt, size: number): Promise<Walked> {
  const patches: BytePatch[] = [];
  let first = true;
  for await (const o of objectsAt(read, 0, size)) {
    if (first !== (o.id === HEADER)) throw new Unreadable('an ASF file that does not start with its header');
    first = false;
    if (o.id === HEADER) await header(read, o, patches);
    else if (o.id === XMP) patchBlock(patches, await readExactly(read, o.start, o.end - o.start), o.start, (b) => blankXmpLocation(b, 0, b.length));
    else if (o.id !== DATA && !INDEXES.has(o.id)) throw new Unreadable(`an ASF object not walked: ${o.id}`);
  }
  return { outcome: 'none', patches };
}

/** The header's objects (after its count and two reserved bytes). */
async function header(read: ReadAt, o: AsfObject, patches: BytePatch[]): Promise<void> {
  for await (const c of objectsAt(read, o.start + 6, o.end)) {
    if (c.id === STREAM_PROPERTIES) await streamType(read, c);
    else if (c.id === EXTENDED_CONTENT_DESCRIPTION) await attributes(read, c, patches, 'descriptors');
    else if (c.id === HEADER_EXTENSION) await extension(read, c, patches);
    else if (c.id === PADDING) await zeroed(read, c, patches);
    else if (!KEPT_HEADER.has(c.id)) throw new Unreadable(`an ASF header object not walked: ${c.id}`);
  }
}

/** The header extension's objects (after a reserved GUID, a reserved number and their length). */
async function extension(read: ReadAt, o: AsfObject, patches: BytePatch[]): Promise<void> {
  const h = await readExactly(read, o.start, 22);
  if (o.start + 22 + u32(h, 18) !== o.end) throw new Unreadable('an ASF header extension of the wrong length');
  for await (const c of objectsAt(read, o.start + 22, o.end)) {
    if (c.id === METADATA || c.id === METADATA_LIBRARY) await attributes(read, c, patches, 'records');
    else if (c.id === EXTENDED_STREAM_PROPERTIES) await extendedStream(read, c);
    else if (c.id === PADDING) await zeroed(read, c, patches);
    else if (!KEPT_EXTENSION.has(c.id)) throw new Unreadable(`an ASF header extension object not walked: ${c.id}`);
  }
}

/** A stream must be audio or video: commands, pictures, files and binary streams may carry anything. */
async function streamType(read: ReadAt, o: AsfObject): Promise<void> {
  const type = guid(await readExactly(read, o.start, 16), 0);
  if (type !== AUDIO && type !== VIDEO) throw new Unreadable(`an ASF stream of type ${type}`);
}

/** An extended stream's names and payload extensions are skipped; the stream properties it may embed are checked. */
async function extendedStream(read: ReadAt, o: AsfObject): Promise<void> {
  const b = await readExactly(read, o.start, o.end - o.start);
  const at = { n: 60 };
  const take = (n: number) => {
    if (at.n + n > b.length) throw new Unreadable('an ASF extended stream runs past its end');
    const from = at.n;
    at.n += n;
    return from;
  };
  const names = u16(b, take(2));
  const extensions = u16(b, take(2));
  for (let i = 0; i < names; i++) take(u16(b, take(4) + 2));
  for (let i = 0; i < extensions; i++) take(u32(b, take(22) + 18));
  if (at.n === b.length) return;
  // The stream's own properties, as an object.
  if (at.n + 40 > b.length || guid(b, at.n) !== STREAM_PROPERTIES) throw new Unreadable('an ASF extended stream with more than its properties');
  const type = guid(b, at.n + 24);
  if (type !== AUDIO && type !== VIDEO) throw new Unreadable(`an ASF stream of type ${type}`);
}

/**
 * Named attributes: the Extended Content Description's descriptors (a 16-bit count; each a name's length, the
 * name, a type, a 16-bit value length, the value) or the Metadata and Metadata Library objects' records (a 16-bit
 * count; each a language, a stream, a name's length, a type, a 32-bit value length, the name, the value). Values
 * under names that may hold a place are zeroed.
 */
async function attributes(read: ReadAt, o: AsfObject, patches: BytePatch[], layout: 'descriptors' | 'records'): Promise<void> {
  patchBlock(patches, await readExactly(read, o.start, o.end - o.start), o.start, (b) => {
    let at = 2;
    const need = (n: number) => {
      if (at + n > b.length) throw new Unreadable('an ASF attribute runs past its object');
    };
    need(0);
    for (let i = u16(b, 0); i > 0; i--) {
      let name: string;
      let value: number;
      let length: number;
      if (layout === 'descriptors') {
        need(2);
        const nameLength = u16(b, at);
        need(2 + nameLength + 4);
        name = utf16(b, at + 2, nameLength);
        length = u16(b, at + 2 + nameLength + 2);
        value = at + 2 + nameLength + 4;
      } else {
        need(12);
        const nameLength = u16(b, at + 4);
        length = u32(b, at + 8);
        name = utf16(b, at + 12, nameLength);
        value = at + 12 + nameLength;
      }
      at = value;
      need(length);
      if (!PLACELESS_ATTRIBUTES.has(name)) b.fill(0, value, value + length);
      at = value + length;
    }
    if (at !== b.length) throw new Unreadable('bytes left over after an ASF object\'s attributes');
    return true;
  });
}

/** A UTF-16 little-endian name, without its closing NUL. */
function utf16(b: Uint8Array, at: number, length: number): string {
  if (at + length > b.length) throw new Unreadable('an ASF name runs past its object');
  return new TextDecoder('utf-16le').decode(b.subarray(at, at + length)).replace(/\0+$/, '');
}
