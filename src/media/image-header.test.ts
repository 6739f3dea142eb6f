import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../config';
import sharp from 'sharp';
import { isAnimatedWebp, isTooLargeToDecode, readImageSize } from './image-header';

const fixture = (name: string) => new Blob([readFileSync(new URL(`../../tests/fixtures/${name}`, import.meta.url))]);

/** A JPEG's segment headers with `before` bytes of APP segments in front of the frame header. */
function jpegHeader(width: number, height: number, before: number): Uint8Array {
  const parts: number[] = [0xff, 0xd8];
  let left = before;
  while (left > 0) {
    const n = Math.min(left, 65_533);
    parts.push(0xff, 0xe2, (n + 2) >> 8, (n + 2) & 0xff, ...new Array<number>(n).fill(0x41));
    left -= n;
  }
  parts.push(0xff, 0xff); // a fill byte before the marker is allowed
  parts.push(0xff, 0xc2, 0, 17, 8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, ...new Array<number>(9).fill(0));
  return new Uint8Array(parts);
}

describe('readImageSize', () => {
  it('reads the stored size of a JPEG (before orientation)', async () => {
    expect(await readImageSize(fixture('orientation-1.jpg'), 'image/jpeg')).toEqual({ width: 2400, height: 1600 });
    expect(await readImageSize(fixture('orientation-6.jpg'), 'image/jpeg')).toEqual({ width: 1600, height: 2400 });
  });

  it('finds the frame header of a JPEG behind hundreds of KB of metadata segments', async () => {
    const blob = new Blob([jpegHeader(31_000, 2_000, 300_000) as BlobPart]);
    expect(await readImageSize(blob, 'image/jpeg')).toEqual({ width: 31_000, height: 2_000 });
  });

  it('reads the size a PNG header claims without decoding it', async () => {
    expect(await readImageSize(fixture('huge-header.png'), 'image/png')).toEqual({ width: 40_000, height: 100 });
    expect(await readImageSize(fixture('transparent.png'), 'image/png')).toEqual({ width: 240, height: 160 });
  });

  it('reads WebP, AVIF and GIF headers', async () => {
    expect(await readImageSize(fixture('small.webp'), 'image/webp')).toEqual({ width: 96, height: 64 });
    expect(await readImageSize(fixture('small.avif'), 'image/avif')).toEqual({ width: 96, height: 64 });
    expect(await readImageSize(fixture('small.gif'), 'image/gif')).toEqual({ width: 96, height: 64 });
  });

  it('gives null for a header it cannot read', async () => {
    expect(await readImageSize(new Blob([new Uint8Array([0xff, 0xd8, 0x00, 0x01])]), 'image/jpeg')).toBeNull();
    expect(await readImageSize(new Blob([new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 4, 0, 0])]), 'image/jpeg')).toBeNull();
    expect(await readImageSize(new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])]), 'image/png')).toBeNull();
  });

  it('still reads the header of a JPEG whose scan data is corrupt', async () => {
    expect(await readImageSize(fixture('corrupt.jpg'), 'image/jpeg')).toEqual({ width: 640, height: 480 });
  });
});

describe('isTooLargeToDecode', () => {
  it('refuses a side over 30,000 px or more than 100 megapixels, and nothing smaller', () => {
    expect(isTooLargeToDecode({ width: 40_000, height: 100 }, DEFAULT_LIMITS)).toBe(true);
    expect(isTooLargeToDecode({ width: 100, height: 30_001 }, DEFAULT_LIMITS)).toBe(true);
    expect(isTooLargeToDecode({ width: 12_000, height: 9_000 }, DEFAULT_LIMITS)).toBe(true);
    expect(isTooLargeToDecode({ width: 30_000, height: 3_000 }, DEFAULT_LIMITS)).toBe(false);
    expect(isTooLargeToDecode({ width: 10_000, height: 10_000 }, DEFAULT_LIMITS)).toBe(false);
    expect(isTooLargeToDecode({ width: 6_000, height: 4_000 }, DEFAULT_LIMITS)).toBe(false);
  });
});

describe('isAnimatedWebp', () => {
  const frame = (r: number) => sharp({ create: { width: 40, height: 20, channels: 3, background: { r, g: 40, b: 90 } } }).png().toBuffer();

  it('tells an animated WebP from a still one, lossy, lossless or with alpha', async () => {
    const frames = await Promise.all([frame(200), frame(20)]);
    const moving = await sharp(frames, { join: { animated: true } }).webp({ delay: [100, 100], loop: 0 }).toBuffer();
    expect(await isAnimatedWebp(new Blob([moving]))).toBe(true);
    for (const still of [
      await sharp(frames[0]).webp().toBuffer(),
      await sharp(frames[0]).webp({ lossless: true }).toBuffer(),
      await sharp(frames[0]).ensureAlpha(0.5).webp().toBuffer(),
    ]) {
      expect(await isAnimatedWebp(new Blob([still]))).toBe(false);
    }
    expect(await isAnimatedWebp(fixture('small.webp'))).toBe(false);
    expect(await isAnimatedWebp(fixture('small.gif'))).toBe(false);
    expect(await isAnimatedWebp(new Blob([moving.subarray(0, 16)]))).toBe(false);
  });
});
