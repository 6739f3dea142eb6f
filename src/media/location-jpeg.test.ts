import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import exifr from 'exifr';
import { describe, expect, it } from 'vitest';
import { findLocationPatches, withPatches, type LocationOutcome } from './location-patches';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../tests/fixtures/${name}`, import.meta.url)));

/** Where the image data starts: the first SOS marker after the metadata segments. */
function scanStart(bytes: Uint8Array): number {
  let at = 2;
  while (!(bytes[at] === 0xff && bytes[at + 1] === 0xda)) at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
  return at;
}

/** The file as the upload sends it into an album that removes location, and what was found. */
async function strip(input: Uint8Array): Promise<{ bytes: Uint8Array; outcome: LocationOutcome }> {
  const file = new Blob([input as Uint8Array<ArrayBuffer>]);
  const { outcome, patches } = await findLocationPatches(file);
  return { bytes: new Uint8Array(await withPatches(file, patches).arrayBuffer()), outcome };
}

const OPTIONS = { tiff: true, exif: true, gps: true, xmp: true, translateValues: false, reviveValues: false };

const app1 = (payload: Uint8Array) => [0xff, 0xe1, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];
const SCAN = [0xff, 0xda, 0x00, 0x08, 1, 2, 3, 4, 5, 6, 0x12, 0x34, 0x56, 0xff, 0xd9];

/** A small JPEG with an XMP packet before its image data, and the Extended XMP segments after it, if any. */
function jpegWithXmp(packet: string, extended: Uint8Array[] = []): Uint8Array {
  const payload = new TextEncoder().encode(`http://ns.adobe.com/xap/1.0/\0${packet}`);
  return new Uint8Array([0xff, 0xd8, ...app1(payload), ...extended.flatMap(app1), ...SCAN]);
}

/** `packet` as Extended XMP segments of at most `partSize` bytes each. */
function extendedXmp(packet: string, partSize: number): Uint8Array[] {
  const bytes = new TextEncoder().encode(packet);
  const guid = '0123456789ABCDEF0123456789ABCDEF';
  const parts: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += partSize) {
    const head = new Uint8Array(35 + 32 + 8);
    head.set(new TextEncoder().encode(`http://ns.adobe.com/xmp/extension/\0${guid}`));
    new DataView(head.buffer).setUint32(67, bytes.length);
    new DataView(head.buffer).setUint32(71, offset);
    parts.push(new Uint8Array([...head, ...bytes.subarray(offset, offset + partSize)]));
  }
  return parts;
}

const app13 = (payload: Uint8Array) => [0xff, 0xed, (payload.length + 2) >> 8, (payload.length + 2) & 0xff, ...payload];

/** IIM datasets, each [record, dataset, value]. */
const iim = (...datasets: [number, number, string][]) =>
  new Uint8Array(datasets.flatMap(([record, dataset, value]) => [0x1c, record, dataset, value.length >> 8, value.length & 0xff, ...Buffer.from(value, 'latin1')]));

/** An APP13 payload: `Photoshop 3.0\0`, then image resource blocks [id, name, data], each name and data padded to even. */
function photoshop(...blocks: [number, string, Uint8Array][]): Uint8Array {
  const out: number[] = [...Buffer.from('Photoshop 3.0\0', 'latin1')];
  for (const [id, name, data] of blocks) {
    out.push(...Buffer.from('8BIM'), id >> 8, id & 0xff, name.length, ...Buffer.from(name, 'latin1'));
    if (!(name.length & 1)) out.push(0);
    out.push(data.length >>> 24, (data.length >> 16) & 0xff, (data.length >> 8) & 0xff, data.length & 0xff, ...data);
    if (data.length & 1) out.push(0);
  }
  return new Uint8Array(out);
}

const md5 = (bytes: Uint8Array) => new Uint8Array(createHash('md5').update(bytes).digest());

const RDF = (inner: string, ns = '') =>
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  `<rdf:Description rdf:about=""${ns}>${inner}</rdf:Description></rdf:RDF></x:xmpmeta>`;

describe('location removal in a JPEG', () => {
  it('removes the GPS position of a camera JPEG and changes nothing else: same length, same image data, the other tags read as before', async () => {
    const original = fixture('orientation-1.jpg');
    const before = original.slice();
    expect(await exifr.gps(original)).toMatchObject({ latitude: expect.closeTo(48.858, 2) });

    const { bytes, outcome } = await strip(original);
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
    expect((await strip(bytes)).outcome).toBe('none');
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
    const { bytes, outcome } = await strip(original);
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

  it('finds a place under any prefix, in every schema that holds one, and keeps the rest', async () => {
    const packet = RDF(
      '<ns1:GPSLatitude>38,42.834N</ns1:GPSLatitude><ns1:ExposureTime>1/125</ns1:ExposureTime>' +
        '<ps:City>Lisbon</ps:City><Iptc4xmpCore:Location>Alfama</Iptc4xmpCore:Location>' +
        '<Iptc4xmpExt:LocationShown><rdf:Bag><rdf:li rdf:parseType="Resource"><Iptc4xmpExt:City>Porto</Iptc4xmpExt:City>' +
        '<exif:GPSLongitude>8,36.6W</exif:GPSLongitude></rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown>' +
        '<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Tour</rdf:li></rdf:Alt></dc:title>',
      ' xmlns:ns1="http://ns.adobe.com/exif/1.0/" xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:ps="http://ns.adobe.com/photoshop/1.0/"' +
        ' xmlns:Iptc4xmpCore="http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"' +
        ' xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:drone-dji="http://www.dji.com/drone-dji/1.0/"' +
        ' drone-dji:GpsLatitude="38.714" drone-dji:GpsLongitude="-9.139" drone-dji:AbsoluteAltitude="+91.2" drone-dji:RelativeAltitude="+40.1"' +
        ' xmlns:xmpDM="http://ns.adobe.com/xmp/1.0/DynamicMedia/" xmpDM:shotLocation="Alfama"',
    );
    const { bytes, outcome } = await strip(jpegWithXmp(packet));
    expect(outcome).toBe('removed');
    const text = new TextDecoder().decode(bytes);
    expect(text).not.toMatch(/Lisbon|Alfama|Porto|38,42|8,36|38\.714|9\.139|91\.2/);
    expect(text).toContain('<ns1:ExposureTime>1/125</ns1:ExposureTime>');
    expect(text).toContain('drone-dji:RelativeAltitude="+40.1"');
    expect(text).toContain('<rdf:li xml:lang="x-default">Tour</rdf:li>');
  });

  it('a place written in a way it cannot follow leaves the file as it is, said to be unsupported', async () => {
    // A default namespace: the property has no prefix to find it by.
    const original = jpegWithXmp(RDF('<GPSLatitude xmlns="http://ns.adobe.com/exif/1.0/">38,42.834N</GPSLatitude>'));
    expect(await strip(original)).toEqual({ bytes: original, outcome: 'unsupported' });
  });

  it('blanks Extended XMP put back together from its segments, a property split across two of them', async () => {
    const main = RDF('', ' xmlns:xmpNote="http://ns.adobe.com/xmp/note/" xmpNote:HasExtendedXMP="0123456789ABCDEF0123456789ABCDEF"');
    const big = RDF(`<exif:GPSLatitude>38,42.834N</exif:GPSLatitude><crs:Data>${'x'.repeat(500)}</crs:Data>`, ' xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:crs="http://ns.adobe.com/camera-raw-settings/1.0/"');
    const split = big.indexOf('38,42') + 2;
    const original = jpegWithXmp(main, extendedXmp(big, split));
    const { bytes, outcome } = await strip(original);
    expect(outcome).toBe('removed');
    expect(bytes.length).toBe(original.length);
    const text = Buffer.from(bytes).toString('latin1');
    expect(text).not.toMatch(/GPSLatitude|38,|42\.834/);
    expect(text).toContain('<crs:Data>xxxx');
  });

  it('blanks the place names of the IPTC-IIM in APP13, keeps every other dataset and resource, and sets the IPTC digest again', async () => {
    const datasets: [number, number, string][] = [
      [1, 90, '\x1b%G'], [2, 0, '\0\x04'], [2, 25, 'tram'], [2, 26, 'PRT'], [2, 27, 'Porto'], [2, 90, 'Lisbon'], [2, 92, 'Alfama'],
      [2, 95, 'Lisboa'], [2, 100, 'PRT'], [2, 101, 'Portugal'], [2, 120, 'Harbour tour'],
    ];
    const before = iim(...datasets);
    const after = iim(...datasets.map(([r, d, v]): [number, number, string] => [r, d, r === 2 && [26, 27, 90, 92, 95, 100, 101].includes(d) ? ' '.repeat(v.length) : v]));
    const resolution = new Uint8Array(16).fill(0x48);
    const make = (datasets: Uint8Array, digest: Uint8Array) =>
      new Uint8Array([0xff, 0xd8, ...app13(photoshop([0x03ed, 'res', resolution], [0x0404, '', datasets], [0x0425, '', digest])), ...SCAN]);

    const { bytes, outcome } = await strip(make(before, md5(before)));
    expect(outcome).toBe('removed');
    // The file as if the resources had been written with the blanked IIM and its digest in the first place.
    expect(bytes).toEqual(make(after, md5(after)));
    const { iptc } = (await exifr.parse(bytes, { iptc: true, tiff: false, mergeOutput: false })) as { iptc: Record<string, unknown> };
    expect(iptc).toMatchObject({ City: '      ', Country: '        ', Keywords: 'tram', Caption: 'Harbour tour' });
    expect((await strip(bytes)).outcome).toBe('none');

    // A digest that did not match the IIM (written by a tool that changed the IIM without it) is left as it was.
    const stale = new Uint8Array(16).fill(0x11);
    expect(await strip(make(before, stale))).toEqual({ bytes: make(after, stale), outcome: 'removed' });
  });

  it('blanks the EXIF and XMP that Photoshop may keep among its image resources, as it would in APP1', async () => {
    // The camera's EXIF block (its TIFF structure, after `Exif\0\0`), and the same blanked in APP1.
    const camera = fixture('orientation-1.jpg');
    const exif = Buffer.from(camera).indexOf('Exif\0\0') + 6;
    const end = exif - 10 + 2 + ((camera[exif - 8]! << 8) | camera[exif - 7]!);
    const blankedExif = (await strip(camera)).bytes.subarray(exif, end);
    const tiff = camera.subarray(exif, end);
    expect(Buffer.from(blankedExif).equals(Buffer.from(tiff))).toBe(false);
    const xmp = new TextEncoder().encode(RDF('<ps:City>Lisbon</ps:City><dc:title>Tour</dc:title>', ' xmlns:ps="http://ns.adobe.com/photoshop/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"'));
    const original = new Uint8Array([0xff, 0xd8, ...app13(photoshop([0x0422, '', tiff], [0x0424, '', xmp])), ...SCAN]);

    const { bytes, outcome } = await strip(original);
    expect(outcome).toBe('removed');
    const exifAt = Buffer.from(original).indexOf(tiff);
    expect(Buffer.from(bytes.subarray(exifAt, exifAt + tiff.length)).equals(Buffer.from(blankedExif))).toBe(true);
    const text = Buffer.from(bytes).toString('latin1');
    expect(text).not.toContain('Lisbon');
    expect(text).toContain('<dc:title>Tour</dc:title>');
  });

  it('leaves as it is, said to be unsupported, an APP13 it cannot follow', async () => {
    const place = iim([2, 90, 'Lisbon']);
    const jpeg = (...segments: Uint8Array[]) => new Uint8Array([0xff, 0xd8, ...segments.flatMap(app13), ...SCAN]);
    // A dataset longer than its resource.
    const long = place.slice();
    long[4] = 60;
    // An extended length: the top bit set, the length in the next two bytes.
    const extended = new Uint8Array([0x1c, 2, 90, 0x80, 2, 0, 6, ...Buffer.from('Lisbon')]);
    // A resource longer than its segment.
    const cut = photoshop([0x0404, '', place]).slice(0, -2);
    // An image resource block whose signature is not `8BIM`.
    const other = photoshop([0x0404, '', place]);
    other.set(Buffer.from('PHUT'), 14);
    // Resources that go on in a second APP13 segment.
    const first = photoshop([0x0404, '', place]);
    const cases: [string, Uint8Array][] = [
      ['dataset past its resource', jpeg(photoshop([0x0404, '', long]))],
      ['extended dataset length', jpeg(photoshop([0x0404, '', extended]))],
      ['resource past its segment', jpeg(cut)],
      ['another signature', jpeg(other)],
      ['two Photoshop segments', jpeg(first, photoshop([0x0404, '', iim([2, 92, 'Alfama'])]))],
      ['Photoshop 2.5 resources', jpeg(new Uint8Array([...Buffer.from('Adobe_Photoshop2.5:'), ...new Uint8Array(8), ...place]))],
    ];
    for (const [name, original] of cases) expect(await strip(original), name).toEqual({ bytes: original, outcome: 'unsupported' });
  });

  it('leaves alone a JPEG without location, and one whose segments cannot be followed', async () => {
    const plain = fixture('xmp.jpg');
    expect(await strip(plain)).toEqual({ bytes: plain, outcome: 'none' });
    const cut = fixture('orientation-1.jpg').subarray(0, 40);
    expect(await strip(cut)).toEqual({ bytes: cut, outcome: 'unsupported' });
  });
});
