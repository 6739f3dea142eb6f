/**
 * Location in ISO base media files that are not HEIF: MP4 and MOV videos, and Canon's CR3 raw photos (see
 * [Note: Location in a video] in location-movie.ts). ExifTool writes the places and reads back that none is left.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findLocationPatches, withPatches } from './location-patches';

const blob = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);

/** An ISO base media box of `type` holding `content` (strings as Latin-1). */
const box = (type: string, ...content: (Uint8Array | string)[]) => {
  const body = Buffer.concat(content.map((c) => (typeof c === 'string' ? Buffer.from(c, 'latin1') : c)));
  const size = Buffer.alloc(4);
  size.writeUInt32BE(8 + body.length);
  return new Uint8Array(Buffer.concat([size, Buffer.from(type, 'latin1'), body]));
};

/** The smallest MP4 ExifTool writes metadata into: a file type, a movie header, and a little media data. */
function movie(): Uint8Array {
  return new Uint8Array(Buffer.concat([box('ftyp', 'isom', new Uint8Array([0, 0, 2, 0]), 'isommp41'), box('moov', movieHeader()), box('mdat', new Uint8Array(16))]));
}

/**
 * A TIFF structure, little-endian, of one IFD: `entries` ([tag, type, count, value bytes]) in tag order. Values
 * over four bytes follow the IFD, their offsets counted from `base` bytes before the header.
 */
function tiffIfd(entries: [tag: number, type: number, count: number, value: Uint8Array][], padding = 0, base = 0): Uint8Array {
  const values = 8 + 2 + entries.length * 12 + 4;
  const out = Buffer.alloc(values + entries.reduce((n, [, , , v]) => n + (v.length > 4 ? v.length : 0), 0) + padding);
  out.write('II*\0', 0, 'latin1');
  out.writeUInt32LE(8, 4);
  out.writeUInt16LE(entries.length, 8);
  let free = values;
  entries.forEach(([tag, type, count, value], i) => {
    const at = 10 + i * 12;
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(type, at + 2);
    out.writeUInt32LE(count, at + 4);
    if (value.length <= 4) out.set(value, at + 8);
    else {
      out.writeUInt32LE(base + free, at + 8);
      out.set(value, free);
      free += value.length;
    }
  });
  return new Uint8Array(out);
}

const CANON_UUID = Buffer.from('85c0b687820f11e08111f4ce462b6a48', 'hex');

/**
 * A Canon CR3 as a camera without a GPS fix writes it, cut down to what ExifTool reads and writes: the file type
 * `crx `, a movie box holding the Canon uuid box (the compressor version, IFD0 in `CMT1`, and in `CMT4` a GPS
 * IFD with only its version, followed by the zeros the camera reserves for a position), and media data.
 */
function cr3(canonBoxes?: Uint8Array[]): Uint8Array {
  const ascii = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
  const cmt1 = tiffIfd([[0x10f, 2, 6, ascii('Canon\0')], [0x110, 2, 14, ascii('Canon EOS R6\0\0')]]);
  const cmt4 = tiffIfd([[0, 1, 4, new Uint8Array([2, 3, 0, 0])]], 512);
  const canon = box('uuid', CANON_UUID, ...(canonBoxes ?? [box('CNCV', 'CanonCR3_001/00.10.00/00.00.00'), box('CMT1', cmt1), box('CMT4', cmt4)]));
  const ftyp = box('ftyp', 'crx ', new Uint8Array([0, 0, 0, 1]), 'crx isom');
  return new Uint8Array(Buffer.concat([ftyp, box('moov', canon, movieHeader()), box('mdat', new Uint8Array(64).fill(0xa5))]));
}

/** An `mvhd` box: version and flags, times, time scale 1000, rate and volume 1.0, identity matrix, next track. */
function movieHeader(): Uint8Array {
  const u32 = (...values: number[]) => Buffer.concat(values.map((v) => { const b = Buffer.alloc(4); b.writeUInt32BE(v >>> 0); return b; }));
  return box('mvhd', u32(0, 0, 0, 1000, 0, 0x10000), new Uint8Array([1, 0]), new Uint8Array(10), u32(0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000), new Uint8Array(24), u32(2));
}


describe('findLocationPatches in movies and CR3 files', () => {
  it('takes the GPS position out of a Canon CR3: the GPS IFD in the movie box, and the XMP', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-cr3-'));
    try {
      const path = join(dir, 'raw.cr3');
      // As the camera wrote it: a GPS IFD with only its version names no place.
      expect(await findLocationPatches(blob(cr3()))).toEqual({ outcome: 'none', patches: [] });
      writeFileSync(path, cr3());
      execFileSync('exiftool', [
        '-q', '-overwrite_original',
        '-GPSLatitude=38.7139', '-GPSLatitudeRef=N', '-GPSLongitude=9.1394', '-GPSLongitudeRef=W', '-GPSAltitude=35',
        '-XMP-exif:GPSLatitude=38.7139', '-XMP-photoshop:City=Lisbon', '-XMP-dc:Title=Tour',
        path,
      ]);
      const read = () => (JSON.parse(execFileSync('exiftool', ['-j', '-a', '-G1', path], { encoding: 'utf8' })) as Record<string, unknown>[])[0]!;
      expect(read()).toMatchObject({ 'File:FileType': 'CR3', 'GPS:GPSLatitude': expect.stringMatching(/^38 deg/), 'GPS:GPSLongitudeRef': 'West' });
      const placed = new Uint8Array(readFileSync(path));
      const { outcome, patches } = await findLocationPatches(blob(placed));
      expect(outcome).toBe('removed');
      const stripped = new Uint8Array(await withPatches(blob(placed), patches).arrayBuffer());
      expect(stripped.length).toBe(placed.length);
      writeFileSync(path, stripped);
      const tags = read();
      const placeTags = Object.entries(tags).filter(([k, v]) => /GPS|City/i.test(k) || /Lisbon|38 deg|9 deg/.test(String(v)));
      expect(placeTags).toEqual([]);
      expect(tags).toMatchObject({ 'File:FileType': 'CR3', 'IFD0:Make': 'Canon', 'IFD0:Model': 'Canon EOS R6', 'XMP-dc:Title': 'Tour' });
      expect(tags).not.toHaveProperty('ExifTool:Warning');
      // The media data is as it was.
      const mdat = Buffer.from(placed).lastIndexOf('mdat');
      expect(Buffer.from(stripped.subarray(mdat)).equals(Buffer.from(placed.subarray(mdat)))).toBe(true);
      expect((await findLocationPatches(blob(stripped))).outcome).toBe('none');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('answers unsupported for a Canon CR3 whose Canon box it cannot follow: a box it does not know, a CMT4 that is no TIFF', async () => {
    const gps = tiffIfd([[0, 1, 4, new Uint8Array([2, 3, 0, 0])], [1, 2, 2, new Uint8Array([0x4e, 0])], [2, 5, 3, new Uint8Array(24).fill(7)]]);
    const unknown = cr3([box('CMT4', gps), box('CMT9', gps)]);
    expect(await findLocationPatches(blob(unknown))).toEqual({ outcome: 'unsupported', patches: [] });
    const notTiff = gps.slice();
    notTiff.set([0x58, 0x58], 0);
    expect(await findLocationPatches(blob(cr3([box('CMT4', notTiff)])))).toEqual({ outcome: 'unsupported', patches: [] });
    // A GPS value that points past the end of its box.
    const pastEnd = gps.slice();
    new DataView(pastEnd.buffer).setUint32(10 + 2 * 12 + 8, 4096, true);
    expect(await findLocationPatches(blob(cr3([box('CMT4', pastEnd)])))).toEqual({ outcome: 'unsupported', patches: [] });
  });

  it('blanks a GPS IFD that the IFD0 of a CR3 (CMT1) points to, as ExifTool would read it there', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-cr3-ifd0-'));
    try {
      const make = new Uint8Array(Buffer.from('Canon\0', 'latin1'));
      const le32 = (...values: number[]) => new Uint8Array(Buffer.concat(values.map((v) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); return b; })));
      // IFD0 (Make, GPSInfo) and right after it the GPS IFD, its header dropped, its offsets from IFD0's header.
      const size = tiffIfd([[0x10f, 2, 6, make], [0x8825, 4, 1, le32(0)]]).length;
      const gps = tiffIfd([[1, 2, 2, new Uint8Array([0x4e, 0])], [2, 5, 3, le32(38, 1, 42, 1, 5004, 100)]], 0, size - 8).subarray(8);
      const cmt1 = new Uint8Array([...tiffIfd([[0x10f, 2, 6, make], [0x8825, 4, 1, le32(size)]]), ...gps]);
      const placed = cr3([box('CNCV', 'CanonCR3_001/00.10.00/00.00.00'), box('CMT1', cmt1)]);
      const path = join(dir, 'raw.cr3');
      writeFileSync(path, placed);
      expect(execFileSync('exiftool', ['-s3', '-GPSLatitude', path], { encoding: 'utf8' })).toMatch(/^38 deg 42/);
      const { outcome, patches } = await findLocationPatches(blob(placed));
      expect(outcome).toBe('removed');
      writeFileSync(path, new Uint8Array(await withPatches(blob(placed), patches).arrayBuffer()));
      expect(execFileSync('exiftool', ['-s', '-gps:all', '-Make', path], { encoding: 'utf8' }).trim()).toBe('Make                            : Canon');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('takes the place out of a video: user data, QuickTime keys and XMP, the movie otherwise as it was', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-movie-'));
    try {
      const path = join(dir, 'clip.mp4');
      writeFileSync(path, movie());
      execFileSync('exiftool', [
        '-q', '-overwrite_original',
        '-UserData:GPSCoordinates=38.7139, -9.1394, 35', '-Keys:GPSCoordinates=38.7139, -9.1394', '-Keys:LocationName=Alfama',
        '-XMP-photoshop:City=Lisbon', '-XMP-exif:GPSLatitude=38.7139', '-XMP-dc:Title=Tour', '-Keys:Title=Tour',
        path,
      ]);
      const placed = new Uint8Array(readFileSync(path));
      const { outcome, patches } = await findLocationPatches(blob(placed));
      expect(outcome).toBe('removed');
      const stripped = new Uint8Array(await withPatches(blob(placed), patches).arrayBuffer());
      expect(stripped.length).toBe(placed.length);
      writeFileSync(path, stripped);
      const [tags] = JSON.parse(execFileSync('exiftool', ['-j', '-a', '-G1', path], { encoding: 'utf8' })) as Record<string, unknown>[];
      const placeTags = Object.entries(tags!).filter(([k, v]) => /GPS|City|Location/i.test(k) || /Lisbon|Alfama|38 deg|38\.71/.test(String(v)));
      expect(placeTags).toEqual([]);
      expect(tags).toMatchObject({ 'XMP-dc:Title': 'Tour', 'Keys:Title': 'Tour', 'QuickTime:TimeScale': 1000 });
      expect(tags).not.toHaveProperty('ExifTool:Warning');
      expect(Buffer.from(stripped).includes('38.7139')).toBe(false);
      expect((await findLocationPatches(blob(stripped))).outcome).toBe('none');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
