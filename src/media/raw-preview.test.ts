/**
 * The preview a raw photo's thumbnail is made from ([Note: Previews inside raw photos] in raw-preview.ts). The
 * raw files are built around committed JPEGs by scripts/make-raw-fixtures.mjs; ExifTool confirms each is the
 * format it claims to be, that the JPEG we pick is the one it extracts as the largest preview, and that the
 * orientation is the one it reads.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureExiftool } from '../../scripts/ensure-exiftool.mjs';
import { JPEGS, RAW_FIXTURES, jpeg, makeRawFixtures, type RawFixture } from '../../scripts/make-raw-fixtures.mjs';
import { readImageSize } from './image-header';
import { findRawPreview } from './raw-preview';

let dir: string;

beforeAll(() => {
  ensureExiftool();
  dir = mkdtempSync(join(tmpdir(), 'shoebox-raw-'));
  makeRawFixtures(dir);
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const blobOf = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);
const read = (file: string) => new Uint8Array(readFileSync(join(dir, file)));
const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());

/**
 * Which committed JPEG these bytes are (a role of JPEGS), else a description: a failure then reads "expected
 * 'large', received 'heavy'" rather than a diff of two images' bytes.
 */
function which(bytes: Uint8Array | undefined): string {
  if (!bytes) return 'nothing';
  const role = (Object.keys(JPEGS) as (keyof typeof JPEGS)[]).find((r) => Buffer.compare(jpeg(JPEGS[r]), bytes) === 0);
  return role ?? `${bytes.length} bytes of no committed JPEG`;
}

/** The embedded images ExifTool extracts (by `Group1:Name`), and the FileType and Orientation it reports. */
function exiftool(path: string): { fileType: string; orientation: number; images: Map<string, Uint8Array> } {
  const [found] = JSON.parse(
    execFileSync('exiftool', ['-j', '-a', '-G1', '-b', '-ee', '-PreviewImage', '-JpgFromRaw', '-ThumbnailImage', '-OtherImage', path], { encoding: 'utf8' }),
  ) as Record<string, unknown>[];
  const images = new Map<string, Uint8Array>();
  for (const [key, value] of Object.entries(found!)) {
    if (typeof value === 'string' && value.startsWith('base64:')) images.set(key, new Uint8Array(Buffer.from(value.slice(7), 'base64')));
  }
  const tag = (name: string) => execFileSync('exiftool', ['-n', '-s3', `-${name}`, path], { encoding: 'utf8' }).trim().split('\n')[0]!;
  return { fileType: tag('FileType'), orientation: Number(tag('Orientation') || 1), images };
}

const withPreview = RAW_FIXTURES.filter((f): f is RawFixture & { preview: keyof typeof JPEGS; tag: string } => f.preview !== null);

describe('findRawPreview', () => {
  it.each(withPreview)('$file ($fileType): the largest JPEG ExifTool extracts, turned as the raw says', async (fixture) => {
    const path = join(dir, fixture.file);
    const expected = jpeg(JPEGS[fixture.preview]);
    const tool = exiftool(path);
    expect(tool.fileType).toBe(fixture.fileType);
    // ExifTool finds the picture where the format keeps its preview, and the smaller ones beside it.
    expect(which(tool.images.get(fixture.tag))).toBe(fixture.preview);
    for (const [tag, role] of Object.entries(fixture.others)) expect(which(tool.images.get(tag))).toBe(role);

    const preview = await findRawPreview(blobOf(read(fixture.file)));
    expect(preview).not.toBeNull();
    expect(which(await bytesOf(preview!.jpeg))).toBe(which(tool.images.get(fixture.tag)));
    expect({ width: preview!.width, height: preview!.height }).toEqual(await readImageSize(blobOf(expected), 'image/jpeg'));
    expect(preview!.orientation).toBe(tool.orientation);
    expect(preview!.orientation).toBe(fixture.orientation);
  });

  it('never takes the lossless JPEG that holds the sensor data of a CR2 or DNG, though it declares more pixels', async () => {
    for (const file of ['canon.cr2', 'le.dng', 'be.dng']) {
      const preview = await findRawPreview(blobOf(read(file)));
      expect(preview!.width * preview!.height).toBe(2400 * 1600);
    }
  });

  it('takes the JPEG with the most pixels, not the most bytes', async () => {
    // In sony.arw the thumbnail (640×427) is seven times the preview's (2400×1600) length.
    expect(jpeg(JPEGS.heavy).length).toBeGreaterThan(jpeg(JPEGS.large).length * 5);
    const preview = await findRawPreview(blobOf(read('sony.arw')));
    expect(which(await bytesOf(preview!.jpeg))).toBe('large');
  });

  it('uses the raw’s orientation, not the one in the embedded JPEG', async () => {
    // orientation-1.jpg (its EXIF says 1) is the preview of a DNG turned to 6 and of a CR2 turned to 8.
    expect((await findRawPreview(blobOf(read('le.dng'))))!.orientation).toBe(6);
    expect((await findRawPreview(blobOf(read('canon.cr2'))))!.orientation).toBe(8);
  });

  it('answers null for a raw without any JPEG', async () => {
    const tool = exiftool(join(dir, 'no-preview.nef'));
    expect(tool.fileType).toBe('NEF');
    expect(tool.images.size).toBe(0);
    expect(await findRawPreview(blobOf(read('no-preview.nef')))).toBeNull();
  });

  it('answers null for a TIFF that is not a raw, though it holds a JPEG thumbnail', async () => {
    const tool = exiftool(join(dir, 'scan.tif'));
    expect(tool.fileType).toBe('TIFF');
    expect(which(tool.images.get('IFD1:ThumbnailImage'))).toBe('small');
    expect(await findRawPreview(blobOf(read('scan.tif')))).toBeNull();
  });

  it('answers null for a JPEG and for files too short to be anything', async () => {
    expect(await findRawPreview(blobOf(jpeg(JPEGS.large)))).toBeNull();
    expect(await findRawPreview(blobOf(new Uint8Array(0)))).toBeNull();
    expect(await findRawPreview(blobOf(new TextEncoder().encode('II*\0')))).toBeNull();
  });

  it('keeps the thumbnail when the preview’s offset points past the end', async () => {
    // ExifTool cannot read that preview either.
    const tool = exiftool(join(dir, 'past-end.arw'));
    expect(tool.images.has('IFD0:PreviewImage')).toBe(false);
    const preview = await findRawPreview(blobOf(read('past-end.arw')));
    expect(which(await bytesOf(preview!.jpeg))).toBe('heavy');
  });

  it('answers null for a raw cut short before its first JPEG ends', async () => {
    const cr2 = read('canon.cr2');
    // Inside IFD0, then inside the preview, which comes first among the images.
    expect(await findRawPreview(blobOf(cr2.subarray(0, 20)))).toBeNull();
    const previewAt = Buffer.from(cr2).indexOf(Buffer.from(jpeg(JPEGS.large)));
    expect(previewAt).toBeGreaterThan(0);
    expect(await findRawPreview(blobOf(cr2.subarray(0, previewAt + 1000)))).toBeNull();
  });

  it('still finds a CR3’s preview when its media data is cut short, through the full-size JPEG', async () => {
    const cr3 = read('canon.cr3');
    const fullAt = Buffer.from(cr3).indexOf(Buffer.from(jpeg(JPEGS.large)));
    expect(fullAt).toBeGreaterThan(0);
    const preview = await findRawPreview(blobOf(cr3.subarray(0, fullAt + 1000)));
    expect(which(await bytesOf(preview!.jpeg))).toBe('medium');
  });

  it('never throws, whatever prefix of a raw it is given or whatever bytes are damaged', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (const { file } of RAW_FIXTURES) {
      const bytes = read(file);
      for (let i = 1; i <= 24; i++) {
        const prefix = bytes.subarray(0, Math.floor((bytes.length * i) / 25));
        const found = await findRawPreview(blobOf(prefix));
        if (found) expect(found.jpeg.size).toBeLessThanOrEqual(prefix.length);
        const damaged = bytes.slice();
        // The structures are in the first kilobytes: damage them, never the JPEGs' scans.
        for (let k = 0; k < 8; k++) damaged[Math.floor(random() * Math.min(2048, damaged.length))] = Math.floor(random() * 256);
        await expect(findRawPreview(blobOf(damaged))).resolves.toSatisfy((r) => r === null || r.jpeg.size > 0);
      }
    }
  });

  it('reads a few kilobytes of a 30 MB raw, not the raw', async () => {
    const big = mkdtempSync(join(tmpdir(), 'shoebox-raw-big-'));
    try {
      makeRawFixtures(big, { rawBytes: 30 * 1024 * 1024 });
      for (const file of ['canon.cr2', 'canon.cr3', 'le.dng', 'nikon.nef', 'fuji.raf', 'olympus.orf', 'panasonic.rw2']) {
        const bytes = new Uint8Array(readFileSync(join(big, file)));
        expect(bytes.length).toBeGreaterThan(30 * 1024 * 1024);
        const { blob, reads } = counting(blobOf(bytes));
        const preview = await findRawPreview(blob);
        expect(reads.bytes).toBeLessThan(256 * 1024);
        const fixture = RAW_FIXTURES.find((f) => f.file === file)!;
        expect(which(await bytesOf(preview!.jpeg))).toBe(fixture.preview);
      }
    } finally {
      rmSync(big, { recursive: true, force: true });
    }
  }, 60_000);
});

/** A blob that counts the bytes read out of it through its slices. */
function counting(blob: Blob): { blob: Blob; reads: { bytes: number } } {
  const reads = { bytes: 0 };
  const sliced = (part: Blob): Blob =>
    ({
      size: part.size,
      type: part.type,
      slice: (start?: number, end?: number) => sliced(part.slice(start, end)),
      arrayBuffer: async () => {
        reads.bytes += part.size;
        return part.arrayBuffer();
      },
    }) as Blob;
  return { blob: sliced(blob), reads };
}
