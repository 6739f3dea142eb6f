import { expect, test } from 'vitest';
import type { Item } from '../../domain/entities';
import { planZip, sidecarNameOf, zipItemOf } from './zip-plan';

const base: Item = {
  id: 'i1', albumId: 'a1', uploaderId: 'u-secret', kind: 'image', status: 'ready', filename: 'IMG_1.jpg', mime: 'image/jpeg',
  bytes: 10, sha256: 'ab'.repeat(32), width: 4000, height: 3000, durationMs: null, takenAt: '2024-05-01T10:00:00Z',
  originalKey: 'albums/a1/i1/original', previewKey: 'albums/a1/i1/preview.webp', thumbKey: null, thumbhash: null,
  metadata: { cameraMake: 'Canon', cameraModel: 'EOS', iso: 200, keywords: ['sea'] }, createdAt: '2025-01-02T00:00:00Z', deletedAt: null,
};

test('entries are named safely and uniquely, dated when taken or else when added, and manifest.json keeps its name', () => {
  const items = [base, { ...base, id: 'i2', filename: 'img_1.JPG', takenAt: null }, { ...base, id: 'i3', filename: 'manifest.json' }, { ...base, id: 'i4', filename: '../../etc/CON' }];
  const plan = planZip(items.map(zipItemOf), new Date('2026-01-01T00:00:00Z'));
  expect(plan.manifest.name).toBe('manifest.json');
  expect(plan.entries.map((e) => e.name)).toEqual(['IMG_1.jpg', 'img_1 (2).JPG', 'manifest (2).json', '.._.._etc_CON']);
  expect(plan.entries.map((e) => e.lastModified.toISOString())).toEqual([
    '2024-05-01T10:00:00.000Z', '2025-01-02T00:00:00.000Z', '2024-05-01T10:00:00.000Z', '2024-05-01T10:00:00.000Z',
  ]);
  expect(plan.fileBytes).toBe(40);
});

test('the manifest lists each file as given, with its entry name and camera fields, and nothing of keys, people or places', () => {
  const located = { ...base, metadata: { ...base.metadata, gpsLatitude: 38.7, location: 'Lisbon' } as unknown as Item['metadata'] };
  // A fixed time of writing: the clock's own digits ("23:09:38.746") could read as the latitude.
  const plan = planZip([zipItemOf(located)], new Date('2026-01-01T00:00:00Z'));
  const text = new TextDecoder().decode(plan.manifest.bytes);
  const manifest = JSON.parse(text) as { count: number; items: Record<string, unknown>[] };
  expect(manifest.count).toBe(1);
  expect(manifest.items[0]).toMatchObject({
    entry: 'IMG_1.jpg', filename: 'IMG_1.jpg', kind: 'image', mime: 'image/jpeg', bytes: 10, sha256: base.sha256,
    takenAt: base.takenAt, width: 4000, height: 3000, metadata: { cameraMake: 'Canon', cameraModel: 'EOS', iso: 200, keywords: ['sea'] },
  });
  for (const secret of ['u-secret', 'albums/', 'a1', 'gps', 'Lisbon', '38.7']) expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
});

test('sidecars are named after their files; where two share a stem the second takes the whole name; an item with nothing to say has none', () => {
  const items = [
    { ...base, id: 'a', filename: 'IMG_1.JPG' },
    { ...base, id: 'b', filename: 'IMG_1.CR3' },
    { ...base, id: 'c', filename: 'IMG_1.xmp' },
    { ...base, id: 'd', filename: 'notes.txt' },
  ];
  const build = (item: { id: string }) => (item.id === 'd' ? null : new TextEncoder().encode(`<x:xmpmeta>${item.id}</x:xmpmeta>`));
  const stem = planZip(items.map(zipItemOf), new Date('2026-01-01T00:00:00Z'), { naming: 'stem', build });
  // The uploaded file named IMG_1.xmp keeps its name; the sidecars make way for it.
  expect(stem.entries.map((e) => e.name)).toEqual(['IMG_1.JPG', 'IMG_1.CR3', 'IMG_1.xmp', 'notes.txt']);
  expect(stem.sidecars.map((s) => s.name)).toEqual(['IMG_1.JPG.xmp', 'IMG_1.CR3.xmp', 'IMG_1.xmp.xmp']);
  expect(stem.sidecars.map((s) => new TextDecoder().decode(s.bytes))).toEqual(['a', 'b', 'c'].map((id) => `<x:xmpmeta>${id}</x:xmpmeta>`));
  const full = planZip(items.slice(0, 2).map(zipItemOf), new Date('2026-01-01T00:00:00Z'), { naming: 'full', build });
  expect(full.sidecars.map((s) => s.name)).toEqual(['IMG_1.JPG.xmp', 'IMG_1.CR3.xmp']);
  const pair = planZip(items.slice(0, 2).map(zipItemOf), new Date('2026-01-01T00:00:00Z'), { naming: 'stem', build });
  expect(pair.sidecars.map((s) => s.name)).toEqual(['IMG_1.xmp', 'IMG_1.CR3.xmp']);
  expect(planZip(items.map(zipItemOf)).sidecars).toEqual([]);
});

test('a sidecar is named after the whole file or its stem', () => {
  expect(sidecarNameOf('IMG_1.CR3', 'full')).toBe('IMG_1.CR3.xmp');
  expect(sidecarNameOf('IMG_1.CR3', 'stem')).toBe('IMG_1.xmp');
  expect(sidecarNameOf('.bashrc', 'stem')).toBe('.bashrc.xmp');
});
