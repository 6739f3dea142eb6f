/**
 * Location in Matroska and WebM files ([Note: Location in a Matroska file] in location-matroska.ts): a real WebM
 * (recorded by Chromium) given the tags a remuxed phone video carries and a cover with GPS; ExifTool reads the
 * places before and none after, and everything else as it was.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exiftoolReader } from '../testing/exiftool-files';
import { findLocationPatches, withPatches } from './location-patches';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../tests/fixtures/${name}`, import.meta.url)));
const blob = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);

/** An EBML element: its id (hex), a size of `sizeLength` bytes (1 or 4), its content. */
function el(id: string, ...content: (Uint8Array | string)[]): Uint8Array {
  return sized(id, 0, ...content);
}
function sized(id: string, sizeLength: number, ...content: (Uint8Array | string)[]): Uint8Array {
  const body = Buffer.concat(content.map((c) => (typeof c === 'string' ? Buffer.from(c, 'utf8') : Buffer.from(c))));
  const length = sizeLength || (body.length < 127 ? 1 : 4);
  const size = length === 1 ? Buffer.from([0x80 | body.length]) : Buffer.from([0x10, body.length >> 16, (body.length >> 8) & 0xff, body.length & 0xff]);
  return new Uint8Array(Buffer.concat([Buffer.from(id, 'hex'), size, body]));
}
const simpleTag = (name: string, value: string, ...nested: Uint8Array[]) => el('67c8', el('45a3', name), el('4487', value), ...nested);

const XMP = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.4932N" exif:GPSLongitude="2,17.67E"/></rdf:RDF></x:xmpmeta>`;

/** The Chromium-recorded WebM fixture with `extra` elements added at the end of its segment. */
function webmWith(...extra: Uint8Array[]): Uint8Array {
  const base = fixture('clip-320x240.webm');
  const added = Buffer.concat(extra);
  const out = new Uint8Array(Buffer.concat([base, added]));
  // The segment (at 36: a 4-byte id and an 8-byte size) ran to the end of the file; it now holds the additions.
  const view = new DataView(out.buffer);
  expect(view.getUint32(36)).toBe(0x18538067);
  expect(out[40]).toBe(0x01);
  const size = Number(view.getBigUint64(40) & 0x00ffffffffffffffn) + added.length;
  view.setBigUint64(40, 0x0100000000000000n | BigInt(size));
  return out;
}

/** The fixture's first cluster (at 261) given the unknown size a recording being written has, as MediaRecorder writes it. */
function unsized(bytes: Uint8Array): Uint8Array {
  const live = bytes.slice();
  expect(new DataView(live.buffer).getUint32(261)).toBe(0x1f43b675);
  const sizeLength = Math.clz32(live[265]!) - 23;
  live.fill(0xff, 265, 265 + sizeLength);
  live[265] = 0xff >> (sizeLength - 1);
  return live;
}
/** Where that cluster's second child begins (its first is the timestamp). */
function clusterBlocks(bytes: Uint8Array): number {
  const start = 265 + Math.clz32(bytes[265]!) - 23;
  expect(bytes[start]).toBe(0xe7);
  return start + 2 + (bytes[start + 1]! & 0x7f);
}

const exiftool = exiftoolReader('matroska', ['-ee']);
const placeTags = (tags: Record<string, unknown>) => Object.keys(tags).filter((k) => /GPS|Location|6709|Coordinates/i.test(k));

async function cleaned(bytes: Uint8Array): Promise<{ outcome: string; out: Uint8Array }> {
  const { outcome, patches } = await findLocationPatches(blob(bytes));
  return { outcome, out: new Uint8Array(await withPatches(blob(bytes), patches).arrayBuffer()) };
}

describe('location in Matroska and WebM', () => {
  it('turns every tag naming a place into void, keeps the others, and the file stays the same length', async () => {
    const tagged = webmWith(
      el(
        '1254c367',
        el(
          '7373',
          el('63c0'),
          simpleTag('TITLE', 'Eiffel tower at noon'),
          simpleTag('LOCATION', '+48.8584+002.2945/'),
          sized('67c8', 4, el('45a3', 'COM.APPLE.QUICKTIME.LOCATION.ISO6709'), el('4487', '+48.8584+002.2945+035.000/')),
          // A place nested under a tag that is none, and an XMP packet kept as a tag.
          simpleTag('COMMENT', 'walk', simpleTag('RECORDING_LOCATION', 'FR')),
          simpleTag('XMP', XMP),
        ),
      ),
    );
    const before = exiftool(tagged, 'tagged.webm');
    expect(before).toMatchObject({ 'Matroska:Location': '+48.8584+002.2945/', 'Matroska:Title': 'Eiffel tower at noon' });
    expect(placeTags(before).length).toBeGreaterThanOrEqual(2);

    const { outcome, out } = await cleaned(tagged);
    expect(outcome).toBe('removed');
    expect(out.length).toBe(tagged.length);
    const after = exiftool(out, 'cleaned.webm');
    expect(placeTags(after)).toEqual([]);
    expect(JSON.stringify(after)).not.toMatch(/48\.85|2\.29|\bFR\b/);
    expect(after).toMatchObject({ 'Matroska:Title': 'Eiffel tower at noon', 'Track1:ImageWidth': 320, 'Matroska:Duration': before['Matroska:Duration'] });
    expect(Buffer.from(out).includes(Buffer.from('+48.8584'))).toBe(false);
    expect(Buffer.from(out).includes(Buffer.from('GPSLatitude="48'))).toBe(false);
    // The media before the tags is untouched, byte for byte.
    const media = fixture('clip-320x240.webm').length;
    expect(Buffer.from(out.subarray(48, media)).equals(Buffer.from(tagged.subarray(48, media)))).toBe(true);
  });

  it('finds the tags after the clusters of a recording whose clusters have no size, stepping over their blocks', async () => {
    const tagged = webmWith(el('1254c367', el('7373', el('63c0'), simpleTag('TITLE', 'Night bus'), simpleTag('LOCATION', '+38.7223-009.1393/'))));
    expect(exiftool(tagged, 'sized-tagged.webm')).toMatchObject({ 'Matroska:Location': '+38.7223-009.1393/' });
    const live = unsized(tagged);
    const { outcome, out } = await cleaned(live);
    expect(outcome).toBe('removed');
    expect(out.length).toBe(live.length);
    expect(Buffer.from(out).includes(Buffer.from('+38.7223'))).toBe(false);
    // ExifTool stops at a cluster of unknown size: read with the cluster's size given back, the title is there, no place.
    const resized = out.slice();
    resized.set(tagged.subarray(265, 273), 265);
    const after = exiftool(resized, 'live-cleaned.webm');
    expect(placeTags(after)).toEqual([]);
    expect(after).toMatchObject({ 'Matroska:Title': 'Night bus', 'Track1:ImageWidth': 320 });
    // Without a place, such a recording has nothing to remove; nor has one cut off in the middle of a block.
    const recording = unsized(fixture('clip-320x240.webm'));
    expect(await findLocationPatches(blob(recording))).toEqual({ outcome: 'none', patches: [] });
    const cut = recording.slice(0, -100);
    cut.set([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], 40); // as MediaRecorder writes it: a segment of unknown size
    expect(await findLocationPatches(blob(cut))).toEqual({ outcome: 'none', patches: [] });
  });

  it('walks an attached cover as a picture: its GPS goes, the cover stays', async () => {
    const cover = fixture('orientation-6.jpg');
    const attached = webmWith(el('1941a469', el('61a7', el('466e', 'cover.jpg'), el('4660', 'image/jpeg'), sized('465c', 4, cover), el('46ae', new Uint8Array([1, 2, 3, 4])))));
    const { outcome, out } = await cleaned(attached);
    expect(outcome).toBe('removed');
    const at = Buffer.from(out).indexOf(Buffer.from([0xff, 0xd8, 0xff]));
    const coverAfter = out.subarray(at, at + cover.length);
    const tags = exiftool(coverAfter, 'cover.jpg');
    expect(placeTags(tags)).toEqual([]);
    expect(tags).toMatchObject({ 'IFD0:Make': 'Shoebox Optics', 'File:ImageWidth': expect.any(Number) });
  });

  it('says none for a WebM without a place, and unsupported for what it cannot follow', async () => {
    expect(await findLocationPatches(blob(fixture('clip-320x240.webm')))).toEqual({ outcome: 'none', patches: [] });
    // A recording's cluster holding something no cluster holds: its end cannot be found.
    const odd = unsized(webmWith());
    odd.set([0x1a, 0x45, 0xdf, 0xa3], clusterBlocks(odd));
    expect((await findLocationPatches(blob(odd))).outcome).toBe('unsupported');
    // Tags that run past their segment, and a picture of a kind not edited here; a GIF holds no place.
    const cut = webmWith(el('1254c367', el('7373', simpleTag('LOCATION', 'x')))).slice(0, -3);
    expect((await findLocationPatches(blob(cut))).outcome).toBe('unsupported');
    const unknown = webmWith(el('1941a469', el('61a7', el('4660', 'image/x-unknown'), el('465c', 'not a picture known here'))));
    expect((await findLocationPatches(blob(unknown))).outcome).toBe('unsupported');
    const gif = webmWith(el('1941a469', el('61a7', el('4660', 'image/gif'), el('465c', fixture('small.gif')))));
    expect(await findLocationPatches(blob(gif))).toEqual({ outcome: 'none', patches: [] });
  });
});
