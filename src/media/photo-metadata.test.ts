import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { photoMetadataFromTags, readPhotoMetadata } from './photo-metadata';
import { itemMetadata } from '../lib/validation';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../tests/fixtures/${name}`, import.meta.url)));

describe('readPhotoMetadata', () => {
  it('reads the capture date (in UTC, with its offset), camera, lens and exposure, and nothing about the location', async () => {
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
      // OffsetTimeOriginal +02:00: the clock read 18:30:05 where it was taken.
      takenOffset: 120,
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

  it('cuts an XMP packet of 5,000 long keywords to what the backend accepts, keeping the rest', () => {
    const li = Array.from({ length: 5000 }, (_, i) => `<rdf:li>tag ${i} ${'x'.repeat(120)}</rdf:li>`).join('');
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
      <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:subject><rdf:Bag>${li}</rdf:Bag></dc:subject></rdf:Description>
    </rdf:RDF></x:xmpmeta>`;
    const { metadata } = photoMetadataFromTags({ Make: 'Canon', xmp });
    expect(metadata.cameraMake).toBe('Canon');
    expect(metadata.keywords!.length).toBeGreaterThan(100);
    expect(metadata.keywords!.length).toBeLessThanOrEqual(200);
    expect(metadata.keywords![0]).toBe(`tag 0 ${'x'.repeat(94)}`);
    expect(itemMetadata.safeParse(metadata).success).toBe(true);
  });

  it('gives empty metadata for files without any, or that are not images', async () => {
    expect(await readPhotoMetadata(fixture('transparent.png'))).toEqual({ takenAt: null, metadata: {} });
    expect(await readPhotoMetadata(fixture('corrupt.jpg'))).toEqual({ takenAt: null, metadata: {} });
    expect(await readPhotoMetadata(fixture('tiny.pdf'))).toEqual({ takenAt: null, metadata: {} });
  });
});
