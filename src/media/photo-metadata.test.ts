import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readPhotoMetadata } from './photo-metadata';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../tests/fixtures/${name}`, import.meta.url)));

describe('readPhotoMetadata', () => {
  it('reads the capture date (in UTC), camera, lens and exposure, and nothing about the location', async () => {
    const { takenAt, metadata } = await readPhotoMetadata(fixture('orientation-6.jpg'));
    expect(takenAt).toBe('2023-07-14T16:30:05.000Z');
    expect(metadata).toEqual({
      cameraMake: 'Shoebox Optics',
      cameraModel: 'Fixture One',
      lens: 'Fixture 35mm F2.8',
      exposureTime: 0.004,
      fNumber: 2.8,
      iso: 200,
      focalLength: 35,
    });
    expect(JSON.stringify(metadata)).not.toMatch(/48\.85|latitude|GPS/i);
  });

  it('reads XMP title, description, rating, label and keywords', async () => {
    const { takenAt, metadata } = await readPhotoMetadata(fixture('xmp.jpg'));
    expect(takenAt).toBeNull();
    expect(metadata).toEqual({
      title: 'Harbour at dusk & boats',
      description: 'Taken from the north pier.',
      rating: 4,
      label: 'Green',
      keywords: ['harbour', 'boats', 'dusk'],
    });
  });

  it('gives empty metadata for files without any, or that are not images', async () => {
    expect(await readPhotoMetadata(fixture('transparent.png'))).toEqual({ takenAt: null, metadata: {} });
    expect(await readPhotoMetadata(fixture('corrupt.jpg'))).toEqual({ takenAt: null, metadata: {} });
    expect(await readPhotoMetadata(fixture('tiny.pdf'))).toEqual({ takenAt: null, metadata: {} });
  });
});
