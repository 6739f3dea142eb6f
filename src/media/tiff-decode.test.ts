/**
 * TIFF decoding against ImageMagick: every fixture is written by ImageMagick from a real photograph
 * (scripts/make-tiff-fixtures.mjs) and decoded twice, by decodeTiff and by ImageMagick itself; the two pictures must
 * agree pixel for pixel within a small tolerance (lossless files exactly, or within one level where 16-bit samples,
 * palettes or inks are rounded to 8 bits, a few levels for JPEG). Then the page chosen, the orientation tag, the
 * size limit and broken files.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONVERT, makeTiffFixtures } from '../../scripts/make-tiff-fixtures.mjs';
import { decodeTiff, TiffTooLarge, type DecodedPixels } from './tiff-decode';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'shoebox-tiff-'));
  makeTiffFixtures(dir);
}, 120_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The decode limits of the default config (PRODUCT.md §5). */
const fits = ({ width, height }: { width: number; height: number }) =>
  width <= 30_000 && height <= 30_000 && width * height <= 100_000_000;

function bytesOf(name: string): ArrayBuffer {
  const file = readFileSync(join(dir, name));
  return file.buffer.slice(file.byteOffset, file.byteOffset + file.length) as ArrayBuffer;
}

const decode = (name: string) => decodeTiff(bytesOf(name), fits);

/** ImageMagick's decode of one page of a fixture, as 8-bit sRGB RGBA. */
function magick(name: string, page = 0): Uint8Array {
  return execFileSync(CONVERT, [`${join(dir, name)}[${page}]`, '-colorspace', 'sRGB', '-depth', '8', 'rgba:-'], {
    maxBuffer: 64 << 20,
  });
}

interface Difference {
  /** Mean absolute difference of each channel, R, G, B, A. */
  mean: number[];
  largest: number;
}

function difference(a: Uint8ClampedArray | Uint8Array, b: Uint8ClampedArray | Uint8Array): Difference {
  expect(a.length).toBe(b.length);
  const sums = [0, 0, 0, 0];
  let largest = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs((a[i] ?? 0) - (b[i] ?? 0));
    sums[i % 4]! += d;
    largest = Math.max(largest, d);
  }
  return { mean: sums.map((s) => s / (a.length / 4)), largest };
}

/** Corners, middle, and places in the last (short) strip and the right-hand (cut) tiles. */
function samplePoints({ width, height }: DecodedPixels): [number, number][] {
  return [[0, 0], [width - 1, 0], [width >> 1, height >> 1], [0, height - 1], [width - 1, height - 1], [width - 3, height - 5], [333 % width, 211 % height]];
}

/** `decoded` is ImageMagick's picture: each channel's mean error at most `mean`, sampled pixels within `pixel`. */
function expectLikeMagick(decoded: DecodedPixels, reference: Uint8Array, { mean, pixel }: { mean: number; pixel: number }) {
  expect(decoded.data.length).toBe(decoded.width * decoded.height * 4);
  const { mean: errors } = difference(decoded.data, reference);
  for (const e of errors) expect(e).toBeLessThanOrEqual(mean);
  for (const [x, y] of samplePoints(decoded)) {
    const at = (y * decoded.width + x) * 4;
    const ours = Array.from(decoded.data.subarray(at, at + 4));
    const theirs = Array.from(reference.subarray(at, at + 4));
    ours.forEach((v, c) => expect(Math.abs(v - (theirs[c] ?? 0)), `pixel ${x},${y} [${ours}] vs [${theirs}]`).toBeLessThanOrEqual(pixel));
  }
  // A picture, not a flat field that would match anything flat.
  const greys = new Set<number>();
  for (let i = 0; i < decoded.data.length; i += 4 * 97) greys.add(decoded.data[i]! + decoded.data[i + 1]! + decoded.data[i + 2]!);
  expect(greys.size).toBeGreaterThan(1);
}

const EXACT = { mean: 0, pixel: 0 };
/** 16-bit samples, palette and ink conversions: rounding may differ by one level. */
const ROUNDED = { mean: 1, pixel: 1 };
/** JPEG: geotiff's decoder upsamples chroma and rounds its IDCT differently from libjpeg. */
const JPEG = { mean: 1, pixel: 8 };

describe('decodeTiff', () => {
  it.each([
    ['rgb-none.tif', EXACT],
    ['rgb-lzw.tif', EXACT],
    ['rgb-deflate.tif', EXACT],
    ['rgb-packbits.tif', EXACT],
    ['rgb-jpeg.tif', JPEG],
    ['ycbcr-jpeg.tif', JPEG],
    ['rgb-tiled.tif', EXACT],
    ['planar.tif', EXACT],
    ['bigtiff.tif', EXACT],
    ['msb-strips.tif', EXACT],
    ['rgb16-lzw.tif', ROUNDED],
    ['rgb16-msb.tif', ROUNDED],
    ['gray8.tif', EXACT],
    ['gray16.tif', ROUNDED],
    ['gray-white-is-zero.tif', EXACT],
    ['bilevel.tif', EXACT],
    ['palette.tif', ROUNDED],
    ['palette4.tif', ROUNDED],
    ['cmyk.tif', ROUNDED],
    ['rgba.tif', EXACT],
    ['rgba-associated.tif', ROUNDED],
  ])('%s decodes to the picture ImageMagick sees', async (name, tolerance) => {
    const decoded = await decode(name);
    expect([decoded.width, decoded.height]).toEqual([640, 427]);
    expectLikeMagick(decoded, magick(name), tolerance);
  });

  it('scales 16-bit samples by value, in either byte order', async () => {
    const little = await decode('rgb16-lzw.tif');
    const big = await decode('rgb16-msb.tif');
    expect(difference(little.data, big.data).largest).toBe(0);
    // The 8-bit file of the same photograph without the gamma is a different picture: the gamma really is there.
    const plain = await decode('rgb-lzw.tif');
    expect(difference(little.data, plain.data).mean[0]).toBeGreaterThan(5);
  });

  it('keeps alpha, and divides associated alpha out of the colours', async () => {
    const straight = await decode('rgba.tif');
    const associated = await decode('rgba-associated.tif');
    const alphaAt = (p: DecodedPixels, y: number) => p.data[(y * p.width + 100) * 4 + 3];
    expect(alphaAt(straight, 0)).toBe(255);
    expect(alphaAt(straight, 213)).toBeGreaterThan(100);
    expect(alphaAt(straight, 213)).toBeLessThan(155);
    expect(alphaAt(straight, 426)).toBe(0);
    // Where the picture is at least half opaque, both files show the same colours.
    let worst = 0;
    for (let i = 0; i < straight.data.length; i += 4) {
      if (straight.data[i + 3]! < 128) continue;
      for (let c = 0; c < 3; c++) worst = Math.max(worst, Math.abs(straight.data[i + c]! - associated.data[i + c]!));
    }
    expect(worst).toBeLessThanOrEqual(2);
  });

  it('decodes the first page of a multi-page file', async () => {
    const decoded = await decode('two-pages.tif');
    expect([decoded.width, decoded.height]).toEqual([640, 427]);
    expectLikeMagick(decoded, magick('two-pages.tif', 0), EXACT);
  });

  it('skips a reduced-resolution image before the full one', async () => {
    const decoded = await decode('reduced-first.tif');
    expect([decoded.width, decoded.height]).toEqual([640, 427]);
    expectLikeMagick(decoded, magick('reduced-first.tif', 1), EXACT);
  });

  it('reads the Orientation tag and leaves the pixels as stored', async () => {
    const upright = await decode('orientation-1.tif');
    for (let orientation = 1; orientation <= 8; orientation++) {
      const decoded = await decode(`orientation-${orientation}.tif`);
      expect(decoded.orientation).toBe(orientation);
      expect([decoded.width, decoded.height]).toEqual([240, 160]);
      expect(difference(decoded.data, upright.data).largest).toBe(0);
    }
    expectLikeMagick(upright, magick('orientation-1.tif'), EXACT);
  });

  it('refuses a page past the limits from its header, at once and without allocating it', async () => {
    const bytes = bytesOf('huge.tif');
    const asked: { width: number; height: number }[] = [];
    const before = process.memoryUsage().arrayBuffers;
    const started = performance.now();
    const outcome = await decodeTiff(bytes, (size) => (asked.push(size), fits(size))).catch((e: unknown) => e);
    const took = performance.now() - started;
    expect(outcome).toBeInstanceOf(TiffTooLarge);
    expect(took).toBeLessThan(100);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 << 20);
    expect(asked).toEqual([{ width: 100_000, height: 100_000 }]);
  });

  it('asks `fits` about the page it decodes', async () => {
    await expect(decodeTiff(bytesOf('rgb-lzw.tif'), ({ width, height }) => width * height < 640 * 427)).rejects.toBeInstanceOf(TiffTooLarge);
  });

  it('throws for a truncated file', { timeout: 5_000 }, async () => {
    const outcome = await decode('truncated.tif').catch((e: unknown) => e);
    expect(outcome).toBeInstanceOf(Error);
    expect(outcome).not.toBeInstanceOf(TiffTooLarge);
  });

  it('throws when the strips are cut off but the IFD is whole', { timeout: 5_000 }, async () => {
    const pixels = new Uint8Array(64 * 48 * 3).map((_, i) => (i * 7) % 251);
    const whole = plainRgbTiff(64, 48, pixels);
    const decoded = await decodeTiff(whole.slice().buffer, fits);
    expect(Array.from(decoded.data.subarray(0, 8))).toEqual([pixels[0], pixels[1], pixels[2], 255, pixels[3], pixels[4], pixels[5], 255]);
    expect(decoded.data.at(-2)).toBe(pixels.at(-1));
    await expect(decodeTiff(whole.slice(0, whole.length - 1000).buffer, fits)).rejects.toThrow(/truncated/);
  });

  it('refuses floating-point samples with a clear error', async () => {
    await expect(decode('float.tif')).rejects.toThrow(/floating-point/);
  });
});

/** An uncompressed RGB TIFF with its IFD first and its one strip last, as some writers lay it out. */
function plainRgbTiff(width: number, height: number, rgb: Uint8Array): Uint8Array {
  const entries: [tag: number, type: number, count: number, value: number][] = [
    [256, 4, 1, width],
    [257, 4, 1, height],
    [258, 3, 3, 0], // offset filled in below
    [259, 3, 1, 1],
    [262, 3, 1, 2],
    [273, 4, 1, 0], // offset filled in below
    [277, 3, 1, 3],
    [278, 4, 1, height],
    [279, 4, 1, rgb.length],
  ];
  const ifdEnd = 8 + 2 + entries.length * 12 + 4;
  const bitsAt = ifdEnd;
  const dataAt = bitsAt + 6;
  entries[2]![3] = bitsAt;
  entries[5]![3] = dataAt;
  const out = Buffer.alloc(dataAt + rgb.length);
  out.write('II', 0, 'latin1');
  out.writeUInt16LE(42, 2);
  out.writeUInt32LE(8, 4);
  out.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, count, value], i) => {
    const at = 10 + i * 12;
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(type, at + 2);
    out.writeUInt32LE(count, at + 4);
    out.writeUInt32LE(value, at + 8);
  });
  for (let i = 0; i < 3; i++) out.writeUInt16LE(8, bitsAt + i * 2);
  out.set(rgb, dataAt);
  return new Uint8Array(out);
}
