import { describe, expect, it } from 'vitest';
import type { ProcessedMedia } from './media-types';
import { withSidecar } from './sidecar-fields';

const photo: ProcessedMedia = {
  kind: 'image',
  mime: 'image/jpeg',
  width: 4032,
  height: 3024,
  durationMs: null,
  // The camera's 18:30:05 at +02:00.
  takenAt: '2023-07-14T16:30:05.000Z',
  thumb: null,
  preview: null,
  thumbhash: null,
  metadata: { cameraModel: 'Fixture One', rating: 1, takenOffset: 120 },
  notice: null,
};

describe('withSidecar', () => {
  it("takes the sidecar's fields over the photo's, field by field", () => {
    const merged = withSidecar(photo, { rating: 4, keywords: ['tram'] });
    expect(merged.metadata).toEqual({ cameraModel: 'Fixture One', rating: 4, keywords: ['tram'], takenOffset: 120 });
    expect(merged.takenAt).toBe(photo.takenAt);
  });

  it("gives a corrected date its own offset, or none, never the photo's", () => {
    const east = withSidecar(photo, { takenAt: '2023-07-14T12:45:05.000Z', takenOffset: 345 });
    expect([east.takenAt, east.metadata.takenOffset]).toEqual(['2023-07-14T12:45:05.000Z', 345]);
    const unzoned = withSidecar(photo, { takenAt: '2023-07-14T18:30:05.000Z' });
    expect(unzoned.takenAt).toBe('2023-07-14T18:30:05.000Z');
    expect(unzoned.metadata).not.toHaveProperty('takenOffset');
  });
});
