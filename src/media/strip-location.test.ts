import { readFileSync } from 'node:fs';
import exifr from 'exifr';
import { describe, expect, it } from 'vitest';
import { stripJpegLocation } from './strip-location';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../tests/fixtures/${name}`, import.meta.url)));

/** Where the image data starts: the first SOS marker after the metadata segments. */
function scanStart(bytes: Uint8Array): number {
  let at = 2;
  while (!(bytes[at] === 0xff && bytes[at + 1] === 0xda)) at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
  return at;
}

const OPTIONS = { tiff: true, exif: true, gps: true, xmp: true, translateValues: false, reviveValues: false };

/** A small JPEG with an XMP packet (GPS as attributes and as elements) before its image data. */
function jpegWithXmp(packet: string): Uint8Array {
  const payload = new TextEncoder().encode(`http://ns.adobe.com/xap/1.0/\0${packet}`);
  const app1 = [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
  const scan = [0xff, 0xda, 0x00, 0x08, 1, 2, 3, 4, 5, 6, 0x12, 0x34, 0x56, 0xff, 0xd9];
  return new Uint8Array([0xff, 0xd8, ...app1, ...scan]);
}

describe('stripJpegLocation', () => {
  it('removes the GPS position of a camera JPEG and changes nothing else: same length, same image data, the other tags read as before', async () => {
    const original = fixture('orientation-1.jpg');
    const before = original.slice();
    expect(await exifr.gps(original)).toMatchObject({ latitude: expect.closeTo(48.858, 2) });

    const { bytes, outcome } = stripJpegLocation(original);
    expect(outcome).toBe('removed');
    expect(original).toEqual(before);
    expect(bytes.length).toBe(original.length);
    const scan = scanStart(original);
    expect(scanStart(bytes)).toBe(scan);
    expect(Buffer.from(bytes.subarray(scan)).equals(Buffer.from(original.subarray(scan)))).toBe(true);

    expect(await exifr.gps(bytes)).toBeUndefined();
    const tags = (await exifr.parse(bytes, OPTIONS)) as Record<string, unknown>;
    const kept = (await exifr.parse(original, OPTIONS)) as Record<string, unknown>;
    // No GPS tag at all is left, not even the version.
    expect(Object.keys(kept).filter((k) => k.startsWith('GPS')).length).toBeGreaterThan(1);
    expect(Object.keys(tags).filter((k) => k.startsWith('GPS'))).toEqual([]);
    // Done once is done: nothing is left to remove.
    expect(stripJpegLocation(bytes).outcome).toBe('none');
    // Every tag but the position (exifr derives latitude and longitude from the GPS tags) reads the same.
    const place = (k: string) => k.startsWith('GPS') || k === 'latitude' || k === 'longitude';
    expect(Object.keys(kept).filter((k) => !place(k)).length).toBeGreaterThan(15);
    for (const key of Object.keys(kept).filter((k) => !place(k))) expect(tags[key]).toEqual(kept[key]);
    expect(tags.latitude).toBeUndefined();
    // The coordinates are gone from the bytes themselves, not only from what readers show: 48° 51' and 2° 17'.
    const rationals = (a: number, b: number) => Buffer.from([0, 0, 0, a, 0, 0, 0, b]);
    expect(Buffer.from(bytes).includes(rationals(48, 1)) || Buffer.from(bytes).includes(rationals(48, 1).reverse())).toBe(false);
  });

  it('removes the GPS properties of an XMP packet, as attributes and as elements, without moving a byte', async () => {
    const packet =
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      '<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"' +
      ' exif:GPSLatitude="48,51.493N" exif:GPSLongitude="2,17.667E" exif:ExposureTime="1/125">' +
      '<exif:GPSAltitude>35/1</exif:GPSAltitude><dc:title><rdf:Alt><rdf:li xml:lang="x-default">Tour</rdf:li></rdf:Alt></dc:title>' +
      '</rdf:Description></rdf:RDF></x:xmpmeta>';
    const original = jpegWithXmp(packet);
    const { bytes, outcome } = stripJpegLocation(original);
    expect(outcome).toBe('removed');
    expect(bytes.length).toBe(original.length);
    const text = new TextDecoder().decode(bytes);
    expect(text).not.toMatch(/GPS|48,51|17\.667|35\/1/);
    expect(text).toContain('exif:ExposureTime="1/125"');
    expect(text).toContain('<rdf:li xml:lang="x-default">Tour</rdf:li>');
    // Still a packet that parses, with what was not location.
    const xmp = (await exifr.parse(bytes, { xmp: true, tiff: false })) as Record<string, unknown> | undefined;
    expect(JSON.stringify(xmp)).toMatch(/Tour/);
    expect(JSON.stringify(xmp)).not.toMatch(/GPS/);
  });

  it('leaves alone a JPEG without location, a file that is not a JPEG, and one whose segments cannot be followed', () => {
    const plain = fixture('xmp.jpg');
    expect(stripJpegLocation(plain)).toEqual({ bytes: plain, outcome: 'none' });
    const png = fixture('transparent.png');
    expect(stripJpegLocation(png)).toEqual({ bytes: png, outcome: 'unsupported' });
    const cut = fixture('orientation-1.jpg').subarray(0, 40);
    expect(stripJpegLocation(cut).outcome).toBe('unsupported');
    expect(stripJpegLocation(cut).bytes).toBe(cut);
  });
});
