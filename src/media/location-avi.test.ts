/**
 * Location in AVI files ([Note: Location in an AVI file] in location-avi.ts): an AVI made here chunk by chunk with a
 * place in every spot one can hide (XMP, INFO tags, JUNK); ExifTool reads the places before and none after, the
 * title and the media as they were.
 */
import { describe, expect, it } from 'vitest';
import { exiftoolReader } from '../testing/exiftool-files';
import { findLocationPatches, withPatches } from './location-patches';

/** A RIFF chunk: its id, its length (little-endian), its content, a pad byte when odd. */
function chunk(id: string, ...content: (Buffer | string)[]): Buffer {
  const body = Buffer.concat(content.map((c) => (typeof c === 'string' ? Buffer.from(c, 'latin1') : c)));
  const head = Buffer.alloc(8);
  head.write(id, 0, 'latin1');
  head.writeUInt32LE(body.length, 4);
  return Buffer.concat([head, body, Buffer.alloc(body.length & 1)]);
}
const blob = (bytes: Buffer) => new Blob([new Uint8Array(bytes)]);
const list = (form: string, ...chunks: Buffer[]) => chunk('LIST', form, ...chunks);
const riff = (form: string, ...chunks: Buffer[]) => chunk('RIFF', form, ...chunks);

/** A stream header of `type` (vids, auds, txts…), the rest zero. */
const strh = (type: string) => chunk('strh', type, Buffer.alloc(52));
const video = list('strl', strh('vids'), chunk('strf', Buffer.alloc(40)));

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" exif:GPSLatitude="38,43.338N" exif:GPSLongitude="9,8.358W"><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Tram 28</rdf:li></rdf:Alt></dc:title></rdf:Description></rdf:RDF></x:xmpmeta>`;

function avi(...extra: Buffer[]): Buffer {
  return riff(
    'AVI ',
    list('hdrl', chunk('avih', Buffer.alloc(56)), video),
    list('INFO', chunk('INAM', 'Alfama by tram\0'), chunk('ICNT', 'Portugal\0'), chunk('IARL', 'Lisbon, Rua da Saudade\0')),
    chunk('JUNK', 'GPS 38.7223N 9.1393W'),
    chunk('_PMX', XMP),
    ...extra,
    list('movi', chunk('00dc', Buffer.from('frame data, never read'))),
    chunk('idx1', Buffer.alloc(16)),
  );
}

const exiftool = exiftoolReader('avi');
const placeTags = (tags: Record<string, unknown>) => Object.keys(tags).filter((k) => /GPS|Location|Country|Archival/i.test(k));

describe('location in AVI', () => {
  it('blanks the XMP place, empties INFO tags that may name a place and the JUNK, and keeps the title and the media', async () => {
    const file = avi();
    const before = exiftool(file, 'before.avi');
    expect(before).toMatchObject({ 'RIFF:Title': 'Alfama by tram', 'RIFF:Country': 'Portugal', 'RIFF:ArchivalLocation': 'Lisbon, Rua da Saudade' });
    expect(placeTags(before).length).toBeGreaterThanOrEqual(4);

    const { outcome, patches } = await findLocationPatches(blob(file));
    expect(outcome).toBe('removed');
    const out = Buffer.from(await withPatches(blob(file), patches).arrayBuffer());
    expect(out.length).toBe(file.length);
    const after = exiftool(out, 'after.avi');
    expect(placeTags(after).filter((k) => after[k] !== '')).toEqual([]);
    expect(after).toMatchObject({ 'RIFF:Title': 'Alfama by tram', 'XMP-dc:Title': 'Tram 28' });
    expect(out.toString('latin1')).not.toMatch(/38[.,]7|9[.,]13|Portugal|Saudade/);
    // The media is not touched.
    const movi = file.indexOf('movi');
    expect(out.subarray(movi).equals(file.subarray(movi))).toBe(true);
  });

  it('says none for an AVI with nowhere a place is, and unsupported for a text stream, EXIF, or a chunk it does not know', async () => {
    const plain = riff('AVI ', list('hdrl', chunk('avih', Buffer.alloc(56)), video), list('INFO', chunk('INAM', 'x\0')), list('movi', chunk('00dc', 'x')), chunk('idx1', Buffer.alloc(16)));
    expect(await findLocationPatches(blob(plain))).toEqual({ outcome: 'none', patches: [] });
    // A dashcam's GPS track as a text stream beside the video.
    const dashcam = riff('AVI ', list('hdrl', chunk('avih', Buffer.alloc(56)), video, list('strl', strh('txts'), chunk('strf', Buffer.alloc(4)))), list('movi', chunk('02tx', 'N38.7223 W9.1393')));
    expect((await findLocationPatches(blob(dashcam))).outcome).toBe('unsupported');
    const exif = riff('AVI ', list('hdrl', chunk('avih', Buffer.alloc(56)), list('strl', strh('vids'), chunk('strf', Buffer.alloc(40)), chunk('strd', 'AVIF', Buffer.alloc(8)))));
    expect((await findLocationPatches(blob(exif))).outcome).toBe('unsupported');
    expect((await findLocationPatches(blob(avi(list('ncdt', chunk('nctg', Buffer.alloc(8))))))).outcome).toBe('unsupported');
    // A chunk that runs past its parent.
    expect((await findLocationPatches(blob(avi().subarray(0, 200)))).outcome).toBe('unsupported');
  });
});
