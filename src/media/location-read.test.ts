import { describe, expect, it, vi } from 'vitest';
import { blobReader, readExactly } from './location-read';

/** A blob of `size` bytes (byte i is i mod 251) whose slices are counted. */
function countedBlob(size: number) {
  const bytes = Uint8Array.from({ length: size }, (_, i) => i % 251);
  const blob = new Blob([bytes]);
  const slice = vi.spyOn(blob, 'slice');
  return { bytes, blob, slice };
}

describe('blobReader', () => {
  it('serves a walk of small reads near the start from one read of the blob', async () => {
    const { bytes, blob, slice } = countedBlob(200_000);
    const read = blobReader(blob);
    // A JPEG walk: a segment header, the segment, the next header…
    for (const [offset, length] of [[2, 4], [6, 18], [24, 4], [28, 30_000], [30_028, 4]] as const) {
      expect(await read(offset, length)).toEqual(bytes.slice(offset, offset + length));
    }
    expect(slice).toHaveBeenCalledTimes(1);
    // Past the window: one more read, from there on.
    expect(await readExactly(read, 70_000, 8)).toEqual(bytes.slice(70_000, 70_008));
    expect(await read(70_100, 16)).toEqual(bytes.slice(70_100, 70_116));
    expect(slice).toHaveBeenCalledTimes(2);
  });

  it('gives what there is at the end of the file, and a large block in one read of its own', async () => {
    const { bytes, blob, slice } = countedBlob(100_000);
    const read = blobReader(blob);
    expect(await read(99_990, 4)).toEqual(bytes.slice(99_990, 99_994));
    // Past the end nothing is cached: each such read asks the blob again (what a cut file does, once).
    expect(await read(99_996, 16)).toEqual(bytes.slice(99_996));
    await expect(readExactly(read, 99_996, 16)).rejects.toThrow('past the end');
    expect(slice).toHaveBeenCalledTimes(3);
    const big = await read(1_000, 80_000);
    expect(big).toEqual(bytes.slice(1_000, 81_000));
    expect(slice).toHaveBeenCalledTimes(4);
    // The large block did not replace the read-ahead window.
    expect(await read(99_997, 2)).toEqual(bytes.slice(99_997, 99_999));
    expect(slice).toHaveBeenCalledTimes(4);
  });

  it('hands out copies: a walker that blanks what it read does not change later reads', async () => {
    const { bytes, blob } = countedBlob(1_000);
    const read = blobReader(blob);
    (await read(10, 20)).fill(0);
    expect(await read(10, 20)).toEqual(bytes.slice(10, 30));
  });
});
