/** The sidecars a download carries, read back by ExifTool as desktop tools would read them. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureExiftool } from '../../../scripts/ensure-exiftool.mjs';
import { parseXmp } from '../../media/xmp-metadata';
import { buildXmpSidecar } from './xmp-sidecar';
import { sidecarNameOf as sidecarName } from './zip-plan';

let dir: string;
beforeAll(() => {
  ensureExiftool();
  dir = mkdtempSync(join(tmpdir(), 'sidecar-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const readBack = (bytes: Uint8Array, name: string) => {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return (JSON.parse(execFileSync('exiftool', ['-j', '-struct', '-XMP:all', path], { encoding: 'utf8' })) as Record<string, unknown>[])[0]!;
};

const metadata = {
  title: 'Tram 28 <at> dusk & "rain"',
  description: 'Alfama,\nlooking down',
  rating: 4,
  label: 'Red',
  keywords: ['tram', 'Lisbon', '007'],
  keywordPaths: ['Places|Portugal|Lisbon'],
  creator: 'Ana Lima, Rui Sá',
  rights: 'CC BY 4.0',
  cameraMake: 'Canon',
  location: 'removed' as const,
};

describe('buildXmpSidecar', () => {
  it('is read back by ExifTool field by field: title, description, rating, label, keywords, hierarchy, creator, rights, date', () => {
    const bytes = buildXmpSidecar({ metadata, takenAt: '2024-05-01T10:30:00.000Z' })!;
    const tags = readBack(bytes, 'IMG_1.JPG.xmp');
    expect(tags).toMatchObject({
      Title: metadata.title,
      Description: metadata.description,
      Rating: 4,
      Label: 'Red',
      Subject: ['tram', 'Lisbon', '007'],
      HierarchicalSubject: ['Places|Portugal|Lisbon'],
      Creator: ['Ana Lima, Rui Sá'],
      Rights: 'CC BY 4.0',
      DateCreated: '2024:05:01 10:30:00Z',
    });
    // Nothing of a place, ever.
    expect(Object.keys(tags).filter((k) => /GPS|Location|City|Country|State|Sublocation/i.test(k))).toEqual([]);
    // And Shoebox reads its own sidecar back the same.
    expect(parseXmp(new TextDecoder().decode(bytes))).toEqual({
      title: metadata.title,
      description: metadata.description,
      rating: 4,
      label: 'Red',
      keywords: metadata.keywords,
      keywordPaths: metadata.keywordPaths,
      creator: metadata.creator,
      rights: metadata.rights,
      takenAt: '2024-05-01T10:30:00.000Z',
    });
  });

  it('writes the date taken as the clock read it where it was taken, with its offset, when that is known', () => {
    const bytes = buildXmpSidecar({ metadata: { rating: 2, takenOffset: 345 }, takenAt: '2023-12-31T16:15:00.000Z' })!;
    expect(readBack(bytes, 'IMG_2.JPG.xmp').DateCreated).toBe('2023:12:31 22:00:00+05:45');
    expect(parseXmp(new TextDecoder().decode(bytes))).toMatchObject({ takenAt: '2023-12-31T16:15:00.000Z', takenOffset: 345 });
    const west = buildXmpSidecar({ metadata: { takenOffset: -300 }, takenAt: '2024-01-01T03:00:00.500Z' })!;
    expect(readBack(west, 'IMG_3.JPG.xmp').DateCreated).toBe('2023:12:31 22:00:00.500-05:00');
  });

  it('is not made for an item with nothing a sidecar would say', () => {
    expect(buildXmpSidecar({ metadata: { cameraMake: 'Canon', iso: 100, location: 'removed' }, takenAt: null })).toBeNull();
  });

  it('is named after the whole file or its stem', () => {
    expect(sidecarName('IMG_1.CR3', 'full')).toBe('IMG_1.CR3.xmp');
    expect(sidecarName('IMG_1.CR3', 'stem')).toBe('IMG_1.xmp');
    expect(sidecarName('.bashrc', 'stem')).toBe('.bashrc.xmp');
  });
});
