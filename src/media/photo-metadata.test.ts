import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureExiftool } from '../../scripts/ensure-exiftool.mjs';
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

  it("reads a JPEG's Extended XMP, where ExifTool puts a keyword list too long for the packet, only when it is whole and its own", async () => {
    ensureExiftool();
    const dir = mkdtempSync(join(tmpdir(), 'extended-xmp-'));
    try {
      const path = join(dir, 'many-keywords.jpg');
      writeFileSync(path, fixture('orientation-1.jpg'));
      const keywords = Array.from({ length: 3000 }, (_, i) => `keyword-${String(i).padStart(5, '0')}-of-a-long-list`);
      writeFileSync(join(dir, 'args'), [...keywords.map((k) => `-XMP-dc:Subject=${k}`), '-XMP-dc:Title=Harbour at dusk', '-XMP-xmp:Rating=4'].join('\n'));
      execFileSync('exiftool', ['-q', '-overwrite_original', '-@', join(dir, 'args'), path]);
      const bytes = new Uint8Array(readFileSync(path));
      const segments = app1Segments(bytes);
      // ExifTool moved the keywords out of the packet into three Extended XMP segments.
      expect(segments.filter((s) => s.name.startsWith('http://ns.adobe.com/xmp/extension/'))).toHaveLength(3);
      expect(new TextDecoder().decode(bytes).includes('keyword-00000')).toBe(true);

      const { metadata } = await readPhotoMetadata(bytes);
      expect(metadata).toMatchObject({ title: 'Harbour at dusk', rating: 4 });
      expect(metadata.keywords).toEqual(keywords.slice(0, 200));

      // A part missing, or parts of another packet: the packet's own fields alone.
      const last = segments.at(-1)!;
      const cut = new Uint8Array([...bytes.subarray(0, last.at), ...bytes.subarray(last.end)]);
      expect((await readPhotoMetadata(cut)).metadata).toEqual(expect.not.objectContaining({ keywords: expect.anything() }));
      const foreign = bytes.slice();
      for (const s of segments.filter((x) => x.name.startsWith('http://ns.adobe.com/xmp/extension/'))) foreign.set(new TextEncoder().encode('0'.repeat(32)), s.at + 4 + 35);
      const read = (await readPhotoMetadata(foreign)).metadata;
      expect(read).toMatchObject({ title: 'Harbour at dusk' });
      expect(read.keywords).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives empty metadata for files without any, or that are not images', async () => {
    expect(await readPhotoMetadata(fixture('transparent.png'))).toEqual({ takenAt: null, metadata: {} });
    expect(await readPhotoMetadata(fixture('corrupt.jpg'))).toEqual({ takenAt: null, metadata: {} });
    expect(await readPhotoMetadata(fixture('tiny.pdf'))).toEqual({ takenAt: null, metadata: {} });
  });
});

/** A JPEG's APP1 segments before its image data: where each starts and ends, and the name its payload begins with. */
function app1Segments(bytes: Uint8Array): { at: number; end: number; name: string }[] {
  const out: { at: number; end: number; name: string }[] = [];
  let at = 2;
  while (at + 4 <= bytes.length && bytes[at + 1] !== 0xda) {
    const end = at + 2 + ((bytes[at + 2]! << 8) | bytes[at + 3]!);
    if (bytes[at + 1] === 0xe1) out.push({ at, end, name: new TextDecoder('latin1').decode(bytes.subarray(at + 4, Math.min(end, at + 44))) });
    at = end;
  }
  return out;
}
