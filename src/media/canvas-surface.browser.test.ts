import { describe, expect, it } from 'vitest';
import { resizeFrom, surfaceFromPixels } from './canvas-surface';

/**
 * A stored picture 60 × 20 with a red block at its first pixel and a green one at the end of its first row, as a
 * camera writes it before saying (EXIF orientation) how it must be turned to be seen upright.
 */
function storedPicture() {
  const width = 60;
  const height = 20;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  const paint = (x0: number, rgb: number[]) => {
    for (let y = 0; y < 6; y++) for (let x = x0; x < x0 + 6; x++) data.set([...rgb, 255], (y * width + x) * 4);
  };
  paint(0, [255, 0, 0]);
  paint(width - 6, [0, 255, 0]);
  return surfaceFromPixels({ width, height, data, orientation: 1 });
}

type Corner = 'TL' | 'TR' | 'BL' | 'BR';
/**
 * Where the stored first pixel and the end of the first row are seen, by the EXIF definition of each orientation
 * ("the 0th row is the visual top/bottom/left/right, the 0th column the visual left/right/top/bottom").
 */
const SEEN: Record<number, { first: Corner; rowEnd: Corner }> = {
  1: { first: 'TL', rowEnd: 'TR' },
  2: { first: 'TR', rowEnd: 'TL' },
  3: { first: 'BR', rowEnd: 'BL' },
  4: { first: 'BL', rowEnd: 'BR' },
  5: { first: 'TL', rowEnd: 'BL' },
  6: { first: 'TR', rowEnd: 'BR' },
  7: { first: 'BR', rowEnd: 'TR' },
  8: { first: 'BL', rowEnd: 'TL' },
};

describe('resizeFrom turns the picture the way its EXIF orientation says', () => {
  for (const orientation of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`orientation ${orientation}`, () => {
      const stored = storedPicture();
      const out = resizeFrom(stored.canvas, 60, 20, 30, orientation);
      const sideways = orientation >= 5;
      expect([out.width, out.height]).toEqual(sideways ? [10, 30] : [30, 10]);
      const data = out.ctx.getImageData(0, 0, out.width, out.height).data;
      const at = (corner: Corner) => {
        const x = corner.endsWith('L') ? 0 : out.width - 1;
        const y = corner.startsWith('T') ? 0 : out.height - 1;
        const i = (y * out.width + x) * 4;
        return [data[i]!, data[i + 1]!, data[i + 2]!];
      };
      const colour = ([r, g, b]: number[]) => (r! > 200 && g! < 80 && b! < 80 ? 'red' : g! > 200 && r! < 80 && b! < 80 ? 'green' : 'other');
      const seen = SEEN[orientation]!;
      expect(colour(at(seen.first))).toBe('red');
      expect(colour(at(seen.rowEnd))).toBe('green');
      const others = (['TL', 'TR', 'BL', 'BR'] as const).filter((c) => c !== seen.first && c !== seen.rowEnd);
      for (const c of others) expect(colour(at(c))).toBe('other');
    });
  }
});
