/**
 * Privacy (issue 11): an original from an album that removes location holds no place, and its picture is the
 * one the camera wrote. Real photographs (JPEG, PNG, WebP, HEIC) are given a place by ExifTool
 * (scripts/make-location-fixtures.mjs), go through what the upload does to an original (findLocationPatches,
 * then withPatches over the file), and ExifTool reads the result: no GPS tag at all, in EXIF or XMP. The image
 * data is compared byte for byte: JPEG from SOS to EOI, PNG's IDAT chunks, WebP's VP8/VP8L chunk, HEIC's
 * image items (where ExifTool says they are); every other tag reads as before.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crc32, findLocationPatches, withPatches } from '../../src/media/location-patches';
import { makeLocationFixtures } from '../../scripts/make-location-fixtures.mjs';

const FIXTURES = new URL('../fixtures/', import.meta.url).pathname;
let dir: string;
let fixtures: Map<string, string>;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shoebox-location-'));
  fixtures = new Map(makeLocationFixtures(join(dir, 'in')).map((p) => [basename(p), p]));
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Tags = Record<string, unknown>;

/** Every tag ExifTool reads, by group and name (`GPS:GPSLatitude`, `XMP-exif:GPSLatitude`, `IFD0:Make` …). */
function exiftool(path: string): Tags {
  const out = execFileSync('exiftool', ['-j', '-a', '-G1', '-n', '-struct', path], { encoding: 'utf8' });
  const [tags] = JSON.parse(out) as Tags[];
  return tags!;
}

/** What ExifTool says about where a file is, not what is in it. */
const FILE_FACTS = /^(SourceFile|ExifTool:|System:|File:)/;
const isPlace = (key: string) => /gps/i.test(key);

/** Strips `path` as the upload does and writes the result beside it; answers the bytes before and after. */
async function strip(path: string): Promise<{ before: Uint8Array; after: Uint8Array; out: string; outcome: string }> {
  const before = new Uint8Array(readFileSync(path));
  const file = new Blob([before]);
  const { outcome, patches } = await findLocationPatches(file);
  const after = new Uint8Array(await withPatches(file, patches).arrayBuffer());
  const out = join(dir, `stripped-${basename(path)}`);
  writeFileSync(out, after);
  return { before, after, out, outcome };
}

async function expectNoPlace(name: string): Promise<{ before: Uint8Array; after: Uint8Array; out: string }> {
  const path = fixtures.get(name)!;
  const tagsBefore = exiftool(path);
  // The fixture really has a place, in EXIF and in XMP.
  expect(tagsBefore['GPS:GPSLatitude']).toBeCloseTo(48.858, 2);
  expect(tagsBefore['XMP-exif:GPSLatitude']).toBeCloseTo(48.858, 2);

  const { before, after, out, outcome } = await strip(path);
  expect(outcome).toBe('removed');
  expect(after.length).toBe(before.length);
  const tagsAfter = exiftool(out);
  expect(Object.keys(tagsAfter).filter(isPlace)).toEqual([]);
  expect(tagsAfter['ExifTool:Warning'] ?? null).toBeNull();
  // Everything else reads as before: camera, title, size.
  for (const [key, value] of Object.entries(tagsBefore)) {
    if (isPlace(key) || FILE_FACTS.test(key)) continue;
    expect(tagsAfter[key], key).toEqual(value);
  }
  expect(tagsAfter['IFD0:Make']).toBe('Shoebox');
  expect(tagsAfter['XMP-dc:Title']).toBe('Tour');
  // Done once is done.
  expect((await findLocationPatches(new Blob([after as Uint8Array<ArrayBuffer>]))).outcome).toBe('none');
  return { before, after, out };
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

/** PNG and WebP chunks of the given types, in order: [type, bytes of the whole chunk]. */
function chunks(bytes: Uint8Array, format: 'png' | 'webp', types: string[]): Uint8Array[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out: Uint8Array[] = [];
  let at = format === 'png' ? 8 : 12;
  while (at + 8 <= bytes.length) {
    const [length, type] = format === 'png'
      ? [view.getUint32(at), Buffer.from(bytes.subarray(at + 4, at + 8)).toString('latin1')]
      : [view.getUint32(at + 4, true), Buffer.from(bytes.subarray(at, at + 4)).toString('latin1')];
    const size = format === 'png' ? 12 + length : 8 + length + (length & 1);
    if (types.includes(type)) out.push(bytes.subarray(at, at + size));
    at += size;
  }
  return out;
}

// ExifTool starts a Perl process per file: slow when the machine is busy.
describe('originals without location', { timeout: 60_000 }, () => {
  it('JPEG: no GPS tag left, and the scan data from SOS to EOI is byte-identical', async () => {
    const { before, after } = await expectNoPlace('rocket.jpg');
    let sos = 2;
    while (!(before[sos] === 0xff && before[sos + 1] === 0xda)) sos += 2 + ((before[sos + 2]! << 8) | before[sos + 3]!);
    expect(after[sos]).toBe(0xff);
    expect(after[sos + 1]).toBe(0xda);
    expect(before.length - sos).toBeGreaterThan(100_000);
    expect(same(before.subarray(sos), after.subarray(sos))).toBe(true);
    expect([after[after.length - 2], after[after.length - 1]]).toEqual([0xff, 0xd9]);
  });

  it('PNG: no GPS tag left, the IDAT chunks are byte-identical and every chunk CRC checks', async () => {
    const { before, after } = await expectNoPlace('chelsea.png');
    const idat = (b: Uint8Array) => chunks(b, 'png', ['IDAT']);
    expect(idat(before).length).toBeGreaterThan(0);
    expect(idat(after).map((c) => Buffer.from(c).toString('hex'))).toEqual(idat(before).map((c) => Buffer.from(c).toString('hex')));
    // Each chunk's CRC checks (a reader refuses a chunk whose CRC does not).
    for (const c of chunks(after, 'png', ['IHDR', 'eXIf', 'iTXt', 'IDAT', 'IEND'])) {
      const view = new DataView(c.buffer, c.byteOffset, c.byteLength);
      expect(crc32(c.subarray(4, c.length - 4))).toBe(view.getUint32(c.length - 4));
    }
  });

  it('WebP: no GPS tag left, and the VP8 image chunk is byte-identical', async () => {
    const { before, after } = await expectNoPlace('coffee.webp');
    const image = (b: Uint8Array) => chunks(b, 'webp', ['VP8 ', 'VP8L']);
    expect(image(before)).toHaveLength(1);
    expect(same(image(before)[0]!, image(after)[0]!)).toBe(true);
  });

  it('HEIC: no GPS tag left, and the image items are byte-identical, as ExifTool locates them', async () => {
    const { before, after, out } = await expectNoPlace('astronaut.heic');
    // ExifTool's verbose listing names each item's type and where its bytes are.
    const verbose = execFileSync('exiftool', ['-v3', out], { encoding: 'utf8' });
    const types = new Map([...verbose.matchAll(/Item (\d+): Type=(\S+)/g)].map((m) => [m[1]!, m[2]!]));
    const places = [...verbose.matchAll(/Item (\d+): const_meth=\S* base=0x([0-9a-f]+) offset=0x([0-9a-f]+) len=0x([0-9a-f]+)/g)].map((m) => ({
      id: m[1]!,
      start: parseInt(m[2]!, 16) + parseInt(m[3]!, 16),
      length: parseInt(m[4]!, 16),
    }));
    const images = places.filter((p) => ['hvc1', 'grid', 'av01'].includes(types.get(p.id) ?? ''));
    expect(images.length).toBeGreaterThan(0);
    for (const p of images) expect(same(before.subarray(p.start, p.start + p.length), after.subarray(p.start, p.start + p.length))).toBe(true);
    // And nothing changed outside the Exif and XMP items.
    const metadata = places.filter((p) => ['Exif', 'mime'].includes(types.get(p.id) ?? ''));
    expect(metadata).toHaveLength(2);
    for (let i = 0; i < before.length; i++) {
      if (before[i] !== after[i] && !metadata.some((p) => i >= p.start && i < p.start + p.length)) throw new Error(`byte ${i} changed outside the metadata items`);
    }
  });

  it('HEIC as iOS 18 lays it out (a tmap picture, an altr group, gain maps shared with the photo): no GPS tag left', async () => {
    const path = join(dir, 'in', 'ios18-hdr.heic');
    copyFileSync(join(FIXTURES, 'camera/ios18-hdr.heic'), path);
    execFileSync('exiftool', [
      '-q', '-overwrite_original', '-n', '-EXIF:Make=Shoebox', '-XMP-dc:Title=Tour',
      '-EXIF:GPSLatitude=48.858222', '-EXIF:GPSLatitudeRef=N', '-EXIF:GPSLongitude=2.2945', '-EXIF:GPSLongitudeRef=E',
      '-XMP-exif:GPSLatitude=48.858222', '-XMP-exif:GPSLongitude=2.2945', path,
    ]);
    fixtures.set('ios18-hdr.heic', path);
    await expectNoPlace('ios18-hdr.heic');
  });

  it('keeps a file as it is when its location cannot be removed in place, and says so', async () => {
    // A PNG whose EXIF is held the old ImageMagick way (hex in a compressed text chunk).
    const path = join(dir, 'raw-profile.png');
    writeFileSync(path, readFileSync(fixtures.get('chelsea.png')!));
    const zlib = await import('node:zlib');
    const bytes = readFileSync(path);
    const text = Buffer.concat([Buffer.from('Raw profile type exif\0\0', 'latin1'), zlib.deflateSync(Buffer.from('\nexif\n 8\n4d4d002a\n'))]);
    const typed = Buffer.concat([Buffer.from('zTXt'), text]);
    const chunk = Buffer.concat([Buffer.alloc(4), typed, Buffer.alloc(4)]);
    chunk.writeUInt32BE(text.length, 0);
    chunk.writeUInt32BE(crc32(typed), chunk.length - 4);
    const withRaw = Buffer.concat([bytes.subarray(0, 33), chunk, bytes.subarray(33)]);
    const file = new Blob([withRaw]);
    expect(await findLocationPatches(file)).toEqual({ outcome: 'unsupported', patches: [] });
    // An Ogg video, a container not walked: it may hold a place (ffmpeg writes one into its comments).
    const ogg = Buffer.concat([Buffer.from('OggS\0\x02', 'latin1'), Buffer.alloc(200)]);
    expect((await findLocationPatches(new Blob([ogg]))).outcome).toBe('unsupported');
  });
});
