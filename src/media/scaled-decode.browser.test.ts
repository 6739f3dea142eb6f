import { describe, expect, it } from 'vitest';
import { decodeJpegScaled, jpegScaleFor } from './scaled-decode';

const fixtureBytes = async (name: string) => new Uint8Array(await (await fetch(`/tests/fixtures/${name}`)).arrayBuffer());

/** The JPEG with its EXIF orientation set to `orientation`: IFD0's entry rewritten in place. */
function withOrientation(jpeg: Uint8Array, orientation: number): Uint8Array<ArrayBuffer> {
  const bytes = jpeg.slice();
  const view = new DataView(bytes.buffer);
  const exif = bytes.findIndex((_, i) => String.fromCharCode(...bytes.subarray(i, i + 6)) === 'Exif\0\0');
  if (exif < 0) throw new Error('no EXIF');
  const tiff = exif + 6;
  const little = bytes[tiff] === 0x49;
  const ifd = tiff + view.getUint32(tiff + 4, little);
  for (let i = 0; i < view.getUint16(ifd, little); i++) {
    const entry = ifd + 2 + i * 12;
    if (view.getUint16(entry, little) !== 0x0112) continue;
    view.setUint16(entry + 8, orientation, little);
    return bytes;
  }
  throw new Error('no orientation entry');
}

/** The colours at the picture's four corners (5% in), as drawn upright. */
function corners(bitmap: ImageBitmap): number[][] {
  const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
  const ctx = canvas.getContext('2d')!;
  ctx.drawImage(bitmap, 0, 0);
  return [
    [0.05, 0.05],
    [0.95, 0.05],
    [0.05, 0.95],
    [0.95, 0.95],
  ].map(([fx, fy]) => [...ctx.getImageData(Math.floor(fx! * bitmap.width), Math.floor(fy! * bitmap.height), 1, 1).data].slice(0, 3));
}

const near = (a: number[], b: number[]) => a.every((v, i) => Math.abs(v - b[i]!) < 35);

describe('jpegScaleFor', () => {
  it('asks for the smallest eighth that still covers the long edge, and for nothing when only the whole will do', () => {
    expect(jpegScaleFor({ width: 6000, height: 4000 }, 2048)).toEqual({ width: 2250, height: 1500 });
    expect(jpegScaleFor({ width: 4000, height: 6000 }, 2048)).toEqual({ width: 1500, height: 2250 });
    // libjpeg rounds a scaled side up.
    expect(jpegScaleFor({ width: 4033, height: 3025 }, 2048)).toEqual({ width: 2521, height: 1891 });
    expect(jpegScaleFor({ width: 2400, height: 1600 }, 2048)).toEqual({ width: 2100, height: 1400 });
    expect(jpegScaleFor({ width: 16384, height: 100 }, 2048)).toEqual({ width: 2048, height: 13 });
    expect(jpegScaleFor({ width: 2048, height: 1365 }, 2048)).toBeNull();
    expect(jpegScaleFor({ width: 800, height: 600 }, 2048)).toBeNull();
  });
});

describe('decodeJpegScaled', () => {
  // orientation-6.jpg is stored 1,600 × 2,400; every orientation, mirrors included, is tried on the same pixels.
  for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`orientation ${orientation}: the picture the whole decode gives, turned the same, at 7/8 of its size`, async () => {
      const blob = new Blob([withOrientation(await fixtureBytes('orientation-6.jpg'), orientation)], { type: 'image/jpeg' });
      const scaled = await decodeJpegScaled(blob, { width: 1600, height: 2400 }, 2048);
      const whole = await createImageBitmap(blob, { imageOrientation: 'from-image' });
      expect(scaled).not.toBeNull();
      const sideways = orientation >= 5;
      expect([scaled!.bitmap.width, scaled!.bitmap.height]).toEqual(sideways ? [2100, 1400] : [1400, 2100]);
      expect(scaled!.seen).toEqual({ width: whole.width, height: whole.height });
      const ours = corners(scaled!.bitmap);
      const theirs = corners(whole);
      ours.forEach((px, i) => expect(near(px, theirs[i]!), `corner ${i}: ${px.join(',')} vs ${theirs[i]!.join(',')}`).toBe(true));
      scaled!.bitmap.close();
      whole.close();
    });
  }

  it('leaves a photo no larger than the preview, and a cut JPEG, to the whole decode', async () => {
    const small = new Blob([await fixtureBytes('orientation-3.jpg')], { type: 'image/jpeg' });
    expect(await decodeJpegScaled(small, { width: 800, height: 600 }, 2048)).toBeNull();
    const bytes = await fixtureBytes('orientation-6.jpg');
    const cut = new Blob([bytes.subarray(0, bytes.length >> 1)], { type: 'image/jpeg' });
    expect(await decodeJpegScaled(cut, { width: 1600, height: 2400 }, 2048)).toBeNull();
  });
});
