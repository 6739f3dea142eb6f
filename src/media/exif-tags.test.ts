import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import exifr from 'exifr';
import ExifReader from 'exifreader';
import { describe, expect, it, vi } from 'vitest';
import { makeRawFixtures } from '../../scripts/make-raw-fixtures.mjs';
import { readMetadataBlocks } from './metadata-blocks';
import { photoMetadataFromTags, readCameraTags, readPhotoMetadata } from './photo-metadata';

const fixtures = new URL('../../tests/fixtures/', import.meta.url);
const fixture = (name: string) => new Uint8Array(readFileSync(new URL(name, fixtures)));
const LISTED = (JSON.parse(readFileSync(new URL('../../scripts/exifreader-build.json', import.meta.url), 'utf8')) as { include: { exif: string[] } }).include.exif;
const NO_PLACE = /48\.85|2\.29|latitude|longitude|GPS/i;

/** What each camera fixture holds (scripts/make-fixtures.mjs), field by field, as the item reads it. */
const CAMERAS = [
  {
    file: 'orientation-6.jpg',
    tags: { Make: 'Shoebox Optics', Model: 'Fixture One', LensModel: 'Fixture 35mm F2.8', Orientation: 6, DateTimeOriginal: '2023:07:14 18:30:05', OffsetTimeOriginal: '+02:00', ExposureTime: 0.004, FNumber: 2.8, ISO: 200, FocalLength: 35 },
    takenAt: '2023-07-14T16:30:05.000Z',
    takenOffset: 120,
  },
  {
    file: 'orientation-3.jpg',
    tags: { Make: 'Shoebox Optics', Model: 'Fixture One', Orientation: 3, OffsetTimeOriginal: '+02:00', ExposureTime: 0.004, FNumber: 2.8, ISO: 200, FocalLength: 35 },
    takenAt: '2023-07-14T16:30:05.000Z',
    takenOffset: 120,
  },
  {
    file: 'camera/camera.heic',
    tags: { Make: 'Apple', Model: 'iPhone 15 Pro', LensModel: 'iPhone 15 Pro back triple camera 6.765mm f/1.78', Orientation: 6, DateTimeOriginal: '2024:09:20 08:15:30', SubSecTimeOriginal: '123', OffsetTimeOriginal: '-07:00', ExposureTime: 1 / 120, FNumber: 1.78, ISO: 50, FocalLength: 6.765 },
    takenAt: '2024-09-20T15:15:30.123Z',
    takenOffset: -420,
  },
  {
    file: 'camera/camera.png',
    tags: { Make: 'Shoebox Optics', Model: 'Fixture PNG', LensModel: 'Fixture 24mm F1.4', Orientation: 3, DateTimeOriginal: '2022:01:02 03:04:05', OffsetTimeOriginal: '-03:30', ExposureTime: 1 / 60, FNumber: 1.4, ISO: 800, FocalLength: 24 },
    takenAt: '2022-01-02T06:34:05.000Z',
    takenOffset: -210,
  },
  {
    file: 'camera/camera.webp',
    tags: { Make: 'Shoebox Optics', Model: 'Fixture WebP', LensModel: 'Fixture 50mm F1.8', Orientation: 8, DateTimeOriginal: '2021:12:31 23:59:59', OffsetTimeOriginal: '+09:00', ExposureTime: 0.001, FNumber: 1.8, ISO: 100, FocalLength: 50 },
    takenAt: '2021-12-31T14:59:59.000Z',
    takenOffset: 540,
  },
  {
    file: 'camera/camera.tiff',
    tags: { Make: 'Shoebox Optics', Model: 'Fixture TIFF', LensModel: 'Fixture 90mm F4', Orientation: 6, DateTimeOriginal: '2020:06:15 12:00:00', OffsetTimeOriginal: '+05:45', ExposureTime: 2, FNumber: 4, ISO: 64, FocalLength: 90 },
    takenAt: '2020-06-15T06:15:00.000Z',
    takenOffset: 345,
  },
] as const;

/** A TIFF of `size` bytes whose IFD0 (Make, Model) and Exif IFD (DateTimeOriginal) start at `at`; zeros elsewhere. */
function tiffAt(at: number, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  const view = new DataView(bytes.buffer);
  bytes.set([0x49, 0x49, 0x2a, 0]);
  view.setUint32(4, at, true);
  const entry = (e: number, tag: number, type: number, count: number, value: number) => {
    view.setUint16(e, tag, true);
    view.setUint16(e + 2, type, true);
    view.setUint32(e + 4, count, true);
    view.setUint32(e + 8, value, true);
  };
  view.setUint16(at, 3, true);
  entry(at + 2, 0x010f, 2, 4, 0x00726146); // 'Far\0', in the entry
  entry(at + 14, 0x0110, 2, 11, at + 42);
  entry(at + 26, 0x8769, 4, 1, at + 54);
  bytes.set(new TextEncoder().encode('Deep Model\0'), at + 42);
  view.setUint16(at + 54, 1, true);
  entry(at + 56, 0x9003, 2, 20, at + 72);
  bytes.set(new TextEncoder().encode('2020:01:02 03:04:05\0'), at + 72);
  return bytes;
}

/** Reads `bytes` as a Blob, counting the bytes read from it (and its slices). */
async function counting<T>(bytes: Uint8Array, read: (blob: Blob) => Promise<T>): Promise<{ result: T; bytesRead: number }> {
  let bytesRead = 0;
  const original = Blob.prototype.arrayBuffer;
  const spy = vi.spyOn(Blob.prototype, 'arrayBuffer').mockImplementation(function (this: Blob) {
    bytesRead += this.size;
    return original.call(this);
  });
  try {
    return { result: await read(new Blob([bytes as Uint8Array<ArrayBuffer>])), bytesRead };
  } finally {
    spy.mockRestore();
  }
}

/** The app's former reader: exifr with its options, as photoMetadataFromTags took them. */
const EXIFR = { tiff: true, exif: true, gps: false, interop: false, ifd1: false, makerNote: false, userComment: false, icc: false, iptc: false, jfif: false, ihdr: false, xmp: { parse: false }, reviveValues: false, translateValues: false, mergeOutput: true };
const readWithExifr = async (bytes: Uint8Array) => (await exifr.parse(bytes, EXIFR).catch(() => undefined)) as Record<string, unknown> | undefined;

describe('EXIF of every format', () => {
  for (const { file, tags, takenAt, takenOffset } of CAMERAS) {
    it(`reads the time with its offset, camera, lens, exposure, aperture, focal length, ISO and orientation of ${file}`, async () => {
      const read = await readCameraTags(fixture(file));
      for (const [name, value] of Object.entries(tags)) {
        if (typeof value === 'number') expect(read[name as keyof typeof read], name).toBeCloseTo(value, 9);
        else expect(read[name as keyof typeof read], name).toBe(value);
      }
      const { takenAt: instant, metadata } = await readPhotoMetadata(new Blob([fixture(file)]));
      expect(instant).toBe(takenAt);
      expect(metadata).toMatchObject({ cameraMake: tags.Make, cameraModel: tags.Model, iso: tags.ISO, focalLength: tags.FocalLength, takenOffset });
      // The position ExifTool wrote into every one of them reaches neither the tags nor the item.
      expect(JSON.stringify(read)).not.toMatch(NO_PLACE);
      expect(JSON.stringify(metadata)).not.toMatch(NO_PLACE);
    });
  }

  it('reads the iOS 18 HEIC whose longer ftyp box exifr refuses', async () => {
    const heic = fixture('camera/camera.heic');
    expect(new DataView(heic.buffer).getUint32(0)).toBeGreaterThan(50);
    await expect(exifr.parse(heic, { tiff: true, exif: true })).rejects.toThrow(/Unknown file format/);
    expect(await readPhotoMetadata(heic)).toMatchObject({ takenAt: '2024-09-20T15:15:30.123Z', metadata: { cameraModel: 'iPhone 15 Pro' } });
  });

  it('reads a TIFF XMP packet (tag 700) with its EXIF', async () => {
    expect((await readPhotoMetadata(fixture('camera/camera.tiff'))).metadata.title).toBe('Fixture TIFF title');
  });

  it("reads a large TIFF's IFDs from its first MiB when they are there, and from the whole file when they are at its end", async () => {
    const MiB = 1024 * 1024;
    const tags = { Make: 'Far', Model: 'Deep Model', DateTimeOriginal: '2020:01:02 03:04:05' };
    const first = await counting(tiffAt(8, 3 * MiB), readCameraTags);
    expect(first.result).toMatchObject(tags);
    expect(first.bytesRead).toBeLessThanOrEqual(MiB + 128 * 1024);
    const last = await counting(tiffAt(3 * MiB - 100, 3 * MiB), readCameraTags);
    expect(last.result).toMatchObject(tags);
    expect(last.bytesRead).toBeGreaterThan(3 * MiB);
  });

  it('gives what exifr gave for the camera raws, and reads those exifr could not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-raw-exif-'));
    try {
      for (const path of makeRawFixtures(dir)) {
        const bytes = new Uint8Array(readFileSync(path));
        const before = await readWithExifr(bytes);
        const now = await readPhotoMetadata(bytes);
        if (before?.Make || before?.Model) expect(now, path).toEqual(photoMetadataFromTags(before));
        else expect(now, path).toMatchObject(photoMetadataFromTags(before ?? {}));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is built without GPS: the reader finds no GPS tag, not even the pointer to them', async () => {
    for (const { file } of CAMERAS) {
      const { exif } = await readMetadataBlocks(new Blob([fixture(file)]));
      expect(exif, file).not.toBeNull();
      const all = ExifReader.load(exif!.slice().buffer, { includeUnknown: true, expanded: true }) as unknown as Record<string, Record<string, unknown>>;
      expect(all.gps, file).toBeUndefined();
      expect(JSON.stringify(Object.keys(all.exif ?? {})), file).not.toMatch(/GPS/);
      // As the app reads it, nothing but the tags package.json lists (and the pointer to the Exif IFD).
      const shipped = ExifReader.load(exif!.slice().buffer, { includeUnknown: false }) as unknown as Record<string, unknown>;
      for (const name of Object.keys(shipped)) expect([...LISTED, 'Exif IFD Pointer', 'FileType'], file).toContain(name);
    }
  });

  it('gives what exifr gave for every fixture exifr can read', async () => {
    const names = [...readdirSync(fixtures).filter((n) => /\.(jpg|png|webp|avif|gif|jxl|pdf)$/.test(n)), 'camera/camera.png', 'camera/camera.tiff'];
    for (const name of names) {
      const bytes = fixture(name);
      const before = await readWithExifr(bytes);
      // exifr read a PNG's XMP only as plain text, and WebP or HEIF XMP not at all: those came from xmp-packet.ts before too.
      const expected = photoMetadataFromTags(before ?? {});
      const now = await readPhotoMetadata(bytes);
      if (!before?.xmp) delete (now.metadata as Record<string, unknown>).title;
      expect(now, name).toEqual(expected);
    }
  });
});
