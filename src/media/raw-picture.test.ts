import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withoutExif } from './raw-picture';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../tests/fixtures/${name}`, import.meta.url)));

/** The markers of a JPEG's segments up to its first scan. */
function markers(bytes: Uint8Array): number[] {
  const found: number[] = [];
  for (let at = 2; at + 4 <= bytes.length && bytes[at] === 0xff; ) {
    const marker = bytes[at + 1]!;
    found.push(marker);
    if (marker === 0xda) break;
    at += 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
  }
  return found;
}

describe('withoutExif', () => {
  it("leaves out a preview JPEG's EXIF, so its own orientation cannot turn it, and keeps the picture's bytes", async () => {
    const source = fixture('orientation-6.jpg');
    expect(markers(source)).toContain(0xe1);
    const out = new Uint8Array(await (await withoutExif(new Blob([source]))).arrayBuffer());
    expect(markers(out)).not.toContain(0xe1);
    expect(out[0]).toBe(0xff);
    expect(out[1]).toBe(0xd8);
    // Only the EXIF segment went: everything from the first segment after it to the end is the same.
    const app1 = 2;
    const app1Length = 2 + ((source[app1 + 2]! << 8) | source[app1 + 3]!);
    expect(source[app1 + 1]).toBe(0xe1);
    expect(Buffer.from(out.subarray(2)).equals(Buffer.from(source.subarray(app1 + app1Length)))).toBe(true);
  });

  it('gives a JPEG without EXIF, or something that is not a JPEG, back as it is', async () => {
    for (const bytes of [fixture('corrupt.jpg').subarray(0, 0), new Uint8Array([1, 2, 3, 4]), fixture('small.webp')]) {
      const blob = new Blob([bytes]);
      expect(await withoutExif(blob)).toBe(blob);
    }
  });
});
