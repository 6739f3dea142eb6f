/**
 * Location in Windows Media files ([Note: Location in a Windows Media file] in location-asf.ts): an ASF made here
 * object by object, with a place where ffmpeg writes a remuxed phone video's (a `location` attribute), in the
 * header extension's metadata, in XMP and in padding; none of it is left after, and the title, the description,
 * the streams and the media are as they were.
 */
import { describe, expect, it } from 'vitest';
import { exiftoolReader } from '../testing/exiftool-files';
import { findLocationPatches, withPatches } from './location-patches';

/** A GUID as ASF writes it: its first three fields little-endian. */
function guid(text: string): Buffer {
  const hex = text.replace(/-/g, '');
  const bytes = Buffer.from(hex, 'hex');
  return Buffer.concat([Buffer.from(bytes.subarray(0, 4)).reverse(), Buffer.from(bytes.subarray(4, 6)).reverse(), Buffer.from(bytes.subarray(6, 8)).reverse(), bytes.subarray(8)]);
}
const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
const utf16 = (s: string) => Buffer.from(`${s}\0`, 'utf16le');
const object = (id: string, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([guid(id), u64(24 + body.length), body]);
};

const ID = {
  header: '75B22630-668E-11CF-A6D9-00AA0062CE6C',
  data: '75B22636-668E-11CF-A6D9-00AA0062CE6C',
  simpleIndex: '33000890-E5B1-11CF-89F4-00A0C90349CB',
  xmp: 'BE7ACFCB-97A9-42E8-9C71-999491E3AFAC',
  fileProperties: '8CABDCA1-A947-11CF-8EE4-00C00C205365',
  streamProperties: 'B7DC0791-A9B7-11CF-8EE6-00C00C205365',
  contentDescription: '75B22633-668E-11CF-A6D9-00AA0062CE6C',
  extendedContentDescription: 'D2D0A440-E307-11D2-97F0-00A0C95EA850',
  headerExtension: '5FBF03B5-A92E-11CF-8EE3-00C00C205365',
  metadata: 'C5F8CBEA-5BAF-4877-8467-AA8C44FA4CCA',
  padding: '1806D474-CADF-4509-A4BA-9AABCB96AAE8',
  scriptCommand: '1EFB1A30-0B62-11D0-A39B-00A0C90348F6',
  video: 'BC19EFC0-5B4D-11CF-A8FD-00805F5C442B',
  command: '59DACFC0-59E6-11D0-A3AC-00A0C90348F6',
  noErrorCorrection: '20FB5700-5B55-11CF-A8FD-00805F5C442B',
};

const header = (...objects: Buffer[]) => object(ID.header, u32(objects.length), Buffer.from([1, 2]), ...objects);
const stream = (type: string) => object(ID.streamProperties, guid(type), guid(ID.noErrorCorrection), Buffer.alloc(8), u32(0), u32(0), u16(1), u32(0));
const fileProperties = object(ID.fileProperties, Buffer.alloc(80));
const description = (title: string, text: string) => {
  const strings = [title, '', '', text, ''].map(utf16);
  return object(ID.contentDescription, ...strings.map((s) => u16(s.length)), ...strings);
};
/** Extended Content Description: text descriptors. */
const descriptors = (entries: Record<string, string>) =>
  object(
    ID.extendedContentDescription,
    u16(Object.keys(entries).length),
    ...Object.entries(entries).flatMap(([name, value]) => [u16(utf16(name).length), utf16(name), u16(0), u16(utf16(value).length), utf16(value)]),
  );
/** A Metadata object's text records. */
const metadata = (entries: Record<string, string>) =>
  object(
    ID.metadata,
    u16(Object.keys(entries).length),
    ...Object.entries(entries).flatMap(([name, value]) => [u16(0), u16(1), u16(utf16(name).length), u16(0), u32(utf16(value).length), utf16(name), utf16(value)]),
  );
const extension = (...objects: Buffer[]) => {
  const body = Buffer.concat(objects);
  return object(ID.headerExtension, guid('ABD3D211-A9BA-11CF-8EE6-00C00C205365'), u16(6), u32(body.length), body);
};
const media = Buffer.from('packets of media, never read');
const data = object(ID.data, Buffer.alloc(16), u64(1), Buffer.from([1, 1]), media);
const blob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]);

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" exif:GPSLatitude="38,43.338N" exif:GPSLongitude="9,8.358W"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Tram 28</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>`;

function tagged(): Buffer {
  return Buffer.concat([
    header(
      fileProperties,
      stream(ID.video),
      description('Alfama by tram', 'Looking down'),
      descriptors({ 'WM/EncodingSettings': 'Lavf59.27.100', location: '+38.7223-009.1393/', 'WM/Text': 'Rua da Saudade' }),
      extension(metadata({ IsVBR: 'no', 'com.apple.quicktime.location.ISO6709': '+38.7223-009.1393+010.000/' }), object(ID.padding, Buffer.from('GPS 38.7223N'))),
    ),
    data,
    object(ID.xmp, Buffer.from(XMP)),
    object(ID.simpleIndex, Buffer.alloc(32)),
  ]);
}

const exiftool = exiftoolReader('asf');
const text = (b: Buffer) => `${b.toString('latin1')}${b.toString('utf16le')}${b.subarray(1).toString('utf16le')}`;

describe('location in Windows Media', () => {
  it('zeroes the attributes and padding that may hold a place, blanks its XMP, and keeps the title, the description and the media', async () => {
    const file = tagged();
    const before = exiftool(file, 'before.wmv');
    expect(before).toMatchObject({ 'ASF:Title': 'Alfama by tram', 'XMP-exif:GPSLatitude': expect.stringMatching(/^38 deg/) });
    expect(text(file)).toMatch(/38\.7223-009/);

    const { outcome, patches } = await findLocationPatches(blob(file));
    expect(outcome).toBe('removed');
    const out = Buffer.from(await withPatches(blob(file), patches).arrayBuffer());
    expect(out.length).toBe(file.length);
    const after = exiftool(out, 'after.wmv');
    expect(Object.keys(after).filter((k) => /GPS/.test(k))).toEqual([]);
    expect(after).toMatchObject({ 'ASF:Title': 'Alfama by tram', 'ASF:Description': 'Looking down', 'ASF:EncodingSettings': 'Lavf59.27.100', 'XMP-dc:Title': 'Tram 28', 'ASF:StreamType': 'Video' });
    expect(text(out)).not.toMatch(/38[.,]7|9[.,]13|Saudade/);
    expect(out.includes(media)).toBe(true);
  });

  it('says none for a file with nowhere a place is', async () => {
    const plain = Buffer.concat([header(fileProperties, stream(ID.video), descriptors({ IsVBR: 'no' })), data]);
    expect(await findLocationPatches(blob(plain))).toEqual({ outcome: 'none', patches: [] });
  });

  it('says unsupported for a command stream, script commands, an object it does not know, or one that runs past its parent', async () => {
    const past = Buffer.from(header(fileProperties));
    past.writeUInt32LE(past.length + 100, 16);
    for (const file of [
      Buffer.concat([header(fileProperties, stream(ID.command)), data]),
      Buffer.concat([header(fileProperties, object(ID.scriptCommand, Buffer.alloc(20))), data]),
      Buffer.concat([header(fileProperties), data, object('00000000-1111-2222-3333-444444444444', Buffer.alloc(4))]),
      Buffer.concat([past, data]),
    ]) {
      expect(await findLocationPatches(blob(file))).toEqual({ outcome: 'unsupported', patches: [] });
    }
  });
});
