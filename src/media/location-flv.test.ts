/**
 * Location in Flash video ([Note: Location in a Flash video] in location-flv.ts): an FLV made here tag by tag, with a
 * place where ffmpeg writes a remuxed phone video's (`location` in onMetaData), as a number, in a cue point and in
 * XMP; ExifTool reads the places before and none after, the title, the duration and the media as they were.
 */
import { describe, expect, it } from 'vitest';
import { exiftoolReader } from '../testing/exiftool-files';
import { findLocationPatches, withPatches } from './location-patches';

const u16 = (n: number) => Buffer.from([n >> 8, n & 0xff]);
const u24 = (n: number) => Buffer.from([(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff]);
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
/** AMF0 values. */
const num = (n: number) => {
  const b = Buffer.alloc(9);
  b.writeDoubleBE(n, 1);
  return b;
};
const str = (s: string) => Buffer.concat([Buffer.from([2]), u16(Buffer.byteLength(s)), Buffer.from(s)]);
const props = (entries: Record<string, Buffer>) =>
  Buffer.concat([...Object.entries(entries).flatMap(([k, v]) => [u16(Buffer.byteLength(k)), Buffer.from(k), v]), Buffer.from([0, 0, 9])]);
const ecma = (entries: Record<string, Buffer>) => Buffer.concat([Buffer.from([8]), u32(Object.keys(entries).length), props(entries)]);
const obj = (entries: Record<string, Buffer>) => Buffer.concat([Buffer.from([3]), props(entries)]);
const array = (values: Buffer[]) => Buffer.concat([Buffer.from([10]), u32(values.length), ...values]);

/** A tag: its type (8 audio, 9 video, 18 script data), length, time and stream; its data; then its whole size. */
const tag = (type: number, data: Buffer) => Buffer.concat([Buffer.from([type]), u24(data.length), Buffer.alloc(7), data, u32(11 + data.length)]);
const script = (name: string, ...values: Buffer[]) => tag(18, Buffer.concat([str(name), ...values]));
const flv = (...tags: Buffer[]) => Buffer.concat([Buffer.from('FLV'), Buffer.from([1, 5]), u32(9), u32(0), ...tags]);
const blob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]);

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" exif:GPSLatitude="38,43.338N" exif:GPSLongitude="9,8.358W"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Tram 28</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>`;
const media = Buffer.from('frame data, never read');

function tagged(): Buffer {
  return flv(
    script(
      'onMetaData',
      ecma({
        duration: num(1.5),
        width: num(160),
        title: str('Alfama by tram'),
        encoder: str('Lavf59.27.100'),
        location: str('+38.7223-009.1393/'),
        latitude: num(38.7223),
        keyframes: obj({ times: array([num(0), num(1)]), filepositions: array([num(13), num(200)]) }),
      }),
    ),
    script('onXMPData', ecma({ liveXML: str(XMP) })),
    tag(9, media),
    script('onCuePoint', obj({ name: str('start'), time: num(0.5), parameters: obj({ where: str('Rua da Saudade') }) })),
    tag(8, Buffer.from('sound')),
  );
}

const exiftool = exiftoolReader('flv');
const placeTags = (tags: Record<string, unknown>) => Object.keys(tags).filter((k) => /GPS|Location/i.test(k) && String(tags[k]).trim() !== '');

describe('location in Flash video', () => {
  it('blanks the texts, numbers and XMP that may be a place, and keeps the title, the duration, the index and the media', async () => {
    const file = tagged();
    const before = exiftool(file, 'before.flv');
    expect(before).toMatchObject({ 'Flash:Location': '+38.7223-009.1393/', 'Flash:Title': 'Alfama by tram' });
    expect(placeTags(before).length).toBeGreaterThanOrEqual(3);

    const { outcome, patches } = await findLocationPatches(blob(file));
    expect(outcome).toBe('removed');
    const out = Buffer.from(await withPatches(blob(file), patches).arrayBuffer());
    expect(out.length).toBe(file.length);
    const after = exiftool(out, 'after.flv');
    expect(placeTags(after)).toEqual([]);
    expect(after).toMatchObject({ 'Flash:Title': 'Alfama by tram', 'Flash:Duration': '1.50 s', 'Flash:ImageWidth': 160, 'XMP-dc:Title': 'Tram 28' });
    expect(out.toString('latin1')).not.toMatch(/38[.,]7|9[.,]13|Saudade/);
    // The latitude as a number, and nothing else, is gone.
    expect(out.includes(num(38.7223).subarray(1))).toBe(false);
    expect(out.includes(num(200).subarray(1))).toBe(true);
    expect(out.includes(media)).toBe(true);
  });

  it('says none for an FLV with nowhere a place is, even when its last tag was cut short', async () => {
    const plain = flv(script('onMetaData', ecma({ duration: num(2), encoder: str('Lavf') })), tag(9, media), tag(9, media));
    expect(await findLocationPatches(blob(plain))).toEqual({ outcome: 'none', patches: [] });
    expect(await findLocationPatches(blob(plain.subarray(0, plain.length - 10)))).toEqual({ outcome: 'none', patches: [] });
  });

  it('says unsupported for what it cannot walk: an encrypted tag, a tag of another type, an AMF3 value, a script tag cut short', async () => {
    const meta = script('onMetaData', ecma({ duration: num(2) }));
    const encrypted = Buffer.from(tag(9, media));
    encrypted[0] = 0x20 | 9;
    const amf3 = tag(18, Buffer.concat([str('onMetaData'), Buffer.from([0x11, 0x06, 0x03, 0x41])]));
    for (const file of [flv(meta, encrypted), flv(meta, tag(20, media)), flv(amf3), flv(tag(9, media), meta).subarray(0, -8)]) {
      expect(await findLocationPatches(blob(file))).toEqual({ outcome: 'unsupported', patches: [] });
    }
  });
});
