import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureDebianTool } from '../../scripts/ensure-debian-tool.mjs';
import { makeRawFixtures } from '../../scripts/make-raw-fixtures.mjs';
import { crc32, findLocationPatches, withPatches } from './location-patches';
import { findRawPreview } from './raw-preview';

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../../tests/fixtures/${name}`, import.meta.url)));
const blob = (bytes: Uint8Array) => new Blob([bytes as Uint8Array<ArrayBuffer>]);

/**
 * A file of `size` bytes whose first bytes are `head` and the rest zeros, which counts the bytes read from it:
 * a 4 GiB original without holding 4 GiB.
 */
function hugeFile(head: Uint8Array, size: number): { file: Blob; bytesRead: () => number } {
  let read = 0;
  const file = {
    size,
    type: 'image/jpeg',
    slice(start = 0, end = size) {
      const from = Math.min(start, size);
      const to = Math.min(end, size);
      read += to - from;
      const out = new Uint8Array(to - from);
      if (from < head.length) out.set(head.subarray(from, Math.min(to, head.length)));
      return { arrayBuffer: async () => out.buffer, size: out.length } as unknown as Blob;
    },
  } as unknown as Blob;
  return { file, bytesRead: () => read };
}

/**
 * A 1 × 1 grey TIFF, little-endian, uncompressed: the smallest ExifTool writes metadata into. `extra` adds IFD0
 * entries of type UNDEFINED after the others (their tags above 279), their values after the IFD.
 */
function tiff(extra: [tag: number, value: Uint8Array][] = []): Uint8Array {
  // Width, height, bits, compression, photometric, strip offset, samples, rows per strip, strip bytes.
  const entries: [number, number, number][] = [[256, 3, 1], [257, 3, 1], [258, 3, 8], [259, 3, 1], [262, 3, 1], [273, 4, 0], [277, 3, 1], [278, 3, 1], [279, 4, 1]];
  const count = entries.length + extra.length;
  const values = 8 + 2 + count * 12 + 4;
  const out = Buffer.alloc(values + extra.reduce((n, [, v]) => n + v.length + (v.length & 1), 0) + 1);
  out.write('II*\0', 0, 'latin1');
  out.writeUInt32LE(8, 4);
  out.writeUInt16LE(count, 8);
  entries.forEach(([tag, type, value], i) => {
    const at = 10 + i * 12;
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(type, at + 2);
    out.writeUInt32LE(1, at + 4);
    const v = tag === 273 ? out.length - 1 : value;
    if (type === 3) out.writeUInt16LE(v, at + 8);
    else out.writeUInt32LE(v, at + 8);
  });
  let free = values;
  extra.forEach(([tag, value], i) => {
    const at = 10 + (entries.length + i) * 12;
    out.writeUInt16LE(tag, at);
    out.writeUInt16LE(7, at + 2);
    out.writeUInt32LE(value.length, at + 4);
    out.writeUInt32LE(free, at + 8);
    out.set(value, free);
    free += value.length + (value.length & 1);
  });
  out[out.length - 1] = 0x80;
  return new Uint8Array(out);
}

/** A JPEG XL container (signature, file type, a codestream box) into which ExifTool writes Exif and xml boxes. */
function jxlContainer(): Uint8Array {
  const box = (type: string, body: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, 8 + body.length]), Buffer.from(type, 'latin1'), body]);
  const signature = Buffer.from('0000000c4a584c200d0a870a', 'hex');
  return new Uint8Array(Buffer.concat([signature, box('ftyp', Buffer.from('jxl \0\0\0\0jxl ', 'latin1')), box('jxlc', Buffer.from([0xff, 0x0a]))]));
}

/** IIM datasets of the application record (2), each [dataset, value]. */
const iim = (...datasets: [number, string][]) =>
  new Uint8Array(Buffer.concat(datasets.map(([n, v]) => Buffer.concat([Buffer.from([0x1c, 2, n, 0, v.length]), Buffer.from(v, 'latin1')]))));

/** Photoshop image resource blocks ([id, data]) as a TIFF's tag 34377 holds them. */
const resources = (...blocks: [number, Uint8Array][]) =>
  new Uint8Array(Buffer.concat(blocks.map(([id, data]) => {
    const head = Buffer.alloc(12);
    head.write('8BIM', 0, 'latin1');
    head.writeUInt16BE(id, 4);
    head.writeUInt32BE(data.length, 8);
    return Buffer.concat([head, data, Buffer.alloc(data.length & 1)]);
  })));

/** A PNG made of `chunks` ([type, data]) after the signature, each with its CRC. */
function png(chunks: [string, Uint8Array][]): Uint8Array {
  const parts: Buffer[] = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])];
  for (const [type, data] of chunks) {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(typed));
    parts.push(length, typed, crc);
  }
  return new Uint8Array(Buffer.concat(parts));
}

describe('findLocationPatches', () => {
  it('reads only the metadata of a large file: a 4 GiB JPEG costs a read-ahead or two, and nothing is copied', async () => {
    const camera = fixture('orientation-1.jpg');
    // The camera JPEG's segments up to its scan, then a scan that goes on for 4 GiB.
    let sos = 2;
    while (!(camera[sos] === 0xff && camera[sos + 1] === 0xda)) sos += 2 + ((camera[sos + 2]! << 8) | camera[sos + 3]!);
    const { file, bytesRead } = hugeFile(camera.subarray(0, sos + 4), 4 * 1024 ** 3);
    const found = await findLocationPatches(file);
    expect(found.outcome).toBe('removed');
    // The segments are read through the reader's 64 KiB read-ahead (blobReader).
    expect(bytesRead()).toBeLessThanOrEqual(sos + 2 * 64 * 1024);
    expect(found.patches.reduce((n, p) => n + p.bytes.length, 0)).toBeLessThan(1024);
  });

  it('builds the original to upload from slices and patches: the same bytes as patching a copy', async () => {
    const camera = fixture('orientation-1.jpg');
    const { patches } = await findLocationPatches(blob(camera));
    expect(patches.length).toBeGreaterThan(0);
    const patched = new Uint8Array(await withPatches(blob(camera), patches).arrayBuffer());
    const copy = camera.slice();
    for (const p of patches) copy.set(p.bytes, p.offset);
    expect(Buffer.from(patched).equals(Buffer.from(copy))).toBe(true);
    expect(withPatches(blob(camera), [])).toBeInstanceOf(Blob);
    expect(() => withPatches(blob(camera), [{ offset: camera.length - 1, bytes: new Uint8Array(2) }])).toThrow(RangeError);
  });

  it('answers none for photos without a place, in every format it edits', async () => {
    for (const name of ['xmp.jpg', 'transparent.png', 'small.webp', 'small.avif']) {
      expect(await findLocationPatches(blob(fixture(name))), name).toEqual({ outcome: 'none', patches: [] });
    }
  });

  it('answers unsupported for what it cannot edit: other formats, videos, cut or inconsistent files', async () => {
    for (const name of ['tiny.pdf', 'small.gif', 'drawing.svg']) {
      expect((await findLocationPatches(blob(fixture(name)))).outcome, name).toBe('unsupported');
    }
    expect((await findLocationPatches(blob(fixture('orientation-1.jpg').subarray(0, 40)))).outcome).toBe('unsupported');
    // An MP4 whose movie box runs past the end of the file.
    const mp4 = new Uint8Array([0, 0, 0, 20, ...Buffer.from('ftypisom'), 0, 0, 2, 0, ...Buffer.from('mp41'), 0, 0, 1, 0, ...Buffer.from('moov')]);
    expect((await findLocationPatches(blob(mp4))).outcome).toBe('unsupported');
    // A PNG chunk that claims more bytes than the file has.
    const cut = png([['IHDR', new Uint8Array(13)]]);
    new DataView(cut.buffer).setUint32(8, 1_000_000);
    expect((await findLocationPatches(blob(cut))).outcome).toBe('unsupported');
  });

  it('keeps as it is a PNG whose XMP is compressed, since it cannot be blanked in place', async () => {
    const zlib = await import('node:zlib');
    const packet = zlib.deflateSync(Buffer.from('<x:xmpmeta><rdf:Description exif:GPSLatitude="48,51N"/></x:xmpmeta>'));
    const itxt = new Uint8Array(Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\x01\x00\0\0', 'latin1'), packet]));
    const file = png([['IHDR', new Uint8Array(13)], ['iTXt', itxt], ['IEND', new Uint8Array(0)]]);
    expect(await findLocationPatches(blob(file))).toEqual({ outcome: 'unsupported', patches: [] });
  });

  it('takes every place ExifTool writes out of a JPEG, PNG, WebP, TIFF and JPEG XL: EXIF GPS, XMP GPS, city, state, country, IPTC locations', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-places-'));
    const places = ['Lisbon', 'Lisboa', 'Alfama', 'Porto', 'Portugal', 'PRT', '38 deg', '9 deg'];
    // IPTC-IIM, which ExifTool writes into a JPEG's APP13 and a TIFF's tag 33723 (into a PNG too, in a way
    // that cannot be edited in place: see the test below), with a digest in the JPEG.
    const iimPlaces = [
      '-IPTC:City=Lisbon', '-IPTC:Sub-location=Alfama', '-IPTC:Province-State=Lisboa', '-IPTC:Country-PrimaryLocationName=Portugal',
      '-IPTC:Country-PrimaryLocationCode=PRT', '-IPTC:ContentLocationName=Porto', '-IPTC:Keywords=tram', '-IPTC:Keywords=river', '-IPTC:Caption-Abstract=Harbour tour',
    ];
    try {
      const files: [string, Uint8Array, string[]][] = [
        ['xmp.jpg', fixture('xmp.jpg'), [...iimPlaces, '-Photoshop:IPTCDigest=new']],
        ['transparent.png', fixture('transparent.png'), []],
        ['small.webp', fixture('small.webp'), []],
        ['gray.tif', tiff(), iimPlaces],
        ['tiny.jxl', jxlContainer(), []],
      ];
      for (const [name, bytes, more] of files) {
        const path = join(dir, name);
        writeFileSync(path, bytes);
        execFileSync('exiftool', [
          '-q', '-overwrite_original',
          '-GPSLatitude=38.7139', '-GPSLatitudeRef=N', '-GPSLongitude=9.1394', '-GPSLongitudeRef=W',
          '-XMP-exif:GPSLatitude=38.7139', '-XMP-exif:GPSLongitude=-9.1394', '-XMP-exif:GPSAltitude=35',
          '-XMP-photoshop:City=Lisbon', '-XMP-photoshop:State=Lisboa', '-XMP-photoshop:Country=Portugal',
          '-XMP-iptcCore:Location=Alfama', '-XMP-iptcCore:CountryCode=PT',
          '-XMP-iptcExt:LocationCreatedCity=Lisbon', '-XMP-iptcExt:LocationCreatedSublocation=Alfama', '-XMP-iptcExt:LocationShownCity=Porto',
          '-XMP-xmpDM:ShotLocation=Alfama', '-XMP-dc:Title=Tour', '-XMP-xmp:Rating=4',
          ...more,
          path,
        ]);
        const placed = new Uint8Array(readFileSync(path));
        const [before] = JSON.parse(execFileSync('exiftool', ['-j', '-a', '-G1', path], { encoding: 'utf8' })) as Record<string, unknown>[];
        if (more.length > 0) expect(before, name).toMatchObject({ 'IPTC:City': 'Lisbon', 'IPTC:ContentLocationName': 'Porto' });
        const { outcome, patches } = await findLocationPatches(blob(placed));
        expect(outcome, name).toBe('removed');
        const stripped = new Uint8Array(await withPatches(blob(placed), patches).arrayBuffer());
        expect(stripped.length, name).toBe(placed.length);
        writeFileSync(path, stripped);
        const [tags] = JSON.parse(execFileSync('exiftool', ['-j', '-a', '-G1', path], { encoding: 'utf8' })) as Record<string, unknown>[];
        // An IIM dataset cannot be taken out in place: it stays, its value spaces (location-iptc.ts).
        const blankDataset = (k: string, v: unknown) => k.startsWith('IPTC:') && /^ +$/.test(String(v));
        const placeTags = Object.entries(tags!).filter(([k, v]) => (/GPS|City|State|Country|Location/i.test(k) && !blankDataset(k, v)) || places.some((p) => String(v).includes(p)));
        expect(placeTags, name).toEqual([]);
        // What is not a place stays.
        expect(tags, name).toMatchObject({ 'XMP-dc:Title': 'Tour', 'XMP-xmp:Rating': 4 });
        if (more.length > 0) expect(tags, name).toMatchObject({ 'IPTC:Keywords': ['tram', 'river'], 'IPTC:Caption-Abstract': 'Harbour tour' });
        // The JPEG's IPTC digest was set again: ExifTool finds it current, so nothing says the XMP is out of sync.
        if (name === 'xmp.jpg') expect(tags).toMatchObject({ 'Photoshop:IPTCDigest': tags!['File:CurrentIPTCDigest'], 'File:CurrentIPTCDigest': expect.stringMatching(/^[0-9a-f]{32}$/) });
        expect(tags, name).not.toHaveProperty('ExifTool:Warning');
        expect((await findLocationPatches(blob(stripped))).outcome, name).toBe('none');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("retires a JPEG XL's Brotli-compressed EXIF, as cjxl keeps a JPEG's, and the picture still decodes", async () => {
    ensureDebianTool('cjxl', ['--version'], 'libjxl-tools');
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-jxl-brob-'));
    try {
      const jpeg = join(dir, 'placed.jpg');
      writeFileSync(jpeg, fixture('orientation-1.jpg'));
      execFileSync('exiftool', ['-q', '-overwrite_original', '-GPSLatitude=38.7139', '-GPSLatitudeRef=N', '-GPSLongitude=9.1394', '-GPSLongitudeRef=W', jpeg]);
      // Lossless JPEG recompression: the JPEG's EXIF goes into a `brob` box.
      const path = join(dir, 'placed.jxl');
      execFileSync('cjxl', [jpeg, path, '--quiet'], { stdio: 'ignore' });
      const placed = new Uint8Array(readFileSync(path));
      // ExifTool reads no `brob` box without a Brotli module: the place is shown by inflating the box here.
      const at = Buffer.from(placed).indexOf(Buffer.from('brobExif', 'latin1'));
      expect(at).toBeGreaterThan(0);
      const length = new DataView(placed.buffer, placed.byteOffset).getUint32(at - 4);
      const { brotliDecompressSync } = await import('node:zlib');
      const exif = brotliDecompressSync(placed.subarray(at + 8, at - 4 + length));
      writeFileSync(join(dir, 'box.exif'), exif.subarray(4 + exif.readUInt32BE(0)));
      const [boxTags] = JSON.parse(execFileSync('exiftool', ['-j', '-a', '-G1', join(dir, 'box.exif')], { encoding: 'utf8' })) as Record<string, unknown>[];
      expect(Object.keys(boxTags!).filter((k) => /gps/i.test(k)).length).toBeGreaterThanOrEqual(4);

      const { outcome, patches } = await findLocationPatches(blob(placed));
      expect(outcome).toBe('removed');
      const stripped = new Uint8Array(await withPatches(blob(placed), patches).arrayBuffer());
      expect(stripped.length).toBe(placed.length);
      writeFileSync(path, stripped);
      // No coordinate is left anywhere in the bytes, compressed or not, and the picture decodes as before.
      expect(Buffer.from(stripped).includes(Buffer.from('brob', 'latin1'))).toBe(false);
      execFileSync('djxl', [path, join(dir, 'out.png'), '--quiet'], { stdio: 'ignore' });
      expect(readFileSync(join(dir, 'out.png')).subarray(1, 4).toString('latin1')).toBe('PNG');
      expect((await findLocationPatches(blob(stripped))).outcome).toBe('none');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it("takes the place out of an Olympus ORF and a Panasonic RW2, the RW2 JPEG's own EXIF too, and their previews stay", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-raw-places-'));
    try {
      makeRawFixtures(dir);
      for (const name of ['olympus.orf', 'olympus-be.orf', 'panasonic.rw2']) {
        const path = join(dir, name);
        execFileSync('exiftool', ['-q', '-overwrite_original', '-GPSLatitude=38.7139', '-GPSLatitudeRef=N', '-GPSLongitude=9.1394', '-GPSLongitudeRef=W', path]);
        const gps = () => Object.keys((JSON.parse(execFileSync('exiftool', ['-j', '-a', '-G1', path], { encoding: 'utf8' })) as Record<string, unknown>[])[0]!).filter((k) => /gps/i.test(k));
        // ExifTool writes the RW2's place twice: in IFD0 and in the EXIF of the JPEG inside it.
        expect(gps().length, name).toBeGreaterThanOrEqual(name.endsWith('.rw2') ? 8 : 4);
        const placed = new Uint8Array(readFileSync(path));
        const { outcome, patches } = await findLocationPatches(blob(placed));
        expect(outcome, name).toBe('removed');
        const stripped = await withPatches(blob(placed), patches);
        writeFileSync(path, new Uint8Array(await stripped.arrayBuffer()));
        expect(gps(), name).toEqual([]);
        const preview = await findRawPreview(stripped);
        expect(preview && [preview.width, preview.height], name).toEqual(name === 'olympus.orf' ? [2400, 1600] : [1600, 2400]);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('blanks the IPTC-IIM of a TIFF wherever it is kept: tag 33723, or a resource of tag 34377, with the digest beside it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-tiff-iptc-'));
    try {
      const datasets = iim([25, 'tram'], [90, 'Lisbon'], [95, 'Lisboa'], [101, 'Portugal'], [120, 'Harbour tour']);
      const digest = new Uint8Array(createHash('md5').update(datasets).digest());
      const blanked = iim([25, 'tram'], [90, '      '], [95, '      '], [101, '        '], [120, 'Harbour tour']);
      const layouts: [string, Uint8Array][] = [
        ['iim-tag.tif', tiff([[33723, datasets], [34377, resources([0x0425, digest])]])],
        ['photoshop-tag.tif', tiff([[34377, resources([0x03ed, new Uint8Array(16)], [0x0404, datasets], [0x0425, digest])]])],
      ];
      for (const [name, placed] of layouts) {
        const path = join(dir, name);
        writeFileSync(path, placed);
        // ExifTool names the IIM of tag 34377 IPTC2: a second place for it.
        const read = () => {
          const [tags] = JSON.parse(execFileSync('exiftool', ['-j', '-a', '-G1', path], { encoding: 'utf8' })) as Record<string, unknown>[];
          return Object.fromEntries(Object.entries(tags!).map(([k, v]) => [k.replace(/^IPTC\d:/, 'IPTC:'), v]));
        };
        expect(read(), name).toMatchObject({ 'IPTC:City': 'Lisbon', 'IPTC:Province-State': 'Lisboa', 'IPTC:Country-PrimaryLocationName': 'Portugal' });
        const { outcome, patches } = await findLocationPatches(blob(placed));
        expect(outcome, name).toBe('removed');
        const stripped = new Uint8Array(await withPatches(blob(placed), patches).arrayBuffer());
        expect(stripped.length, name).toBe(placed.length);
        writeFileSync(path, stripped);
        const tags = read();
        expect(Object.values(tags).filter((v) => /Lisbon|Lisboa|Portugal/.test(String(v))), name).toEqual([]);
        expect(tags, name).toMatchObject({ 'IPTC:City': '      ', 'IPTC:Keywords': 'tram', 'IPTC:Caption-Abstract': 'Harbour tour' });
        // The digest is that of the IIM as it now is.
        expect(tags['Photoshop:IPTCDigest'], name).toBe(createHash('md5').update(blanked).digest('hex'));
        expect(tags, name).not.toHaveProperty('ExifTool:Warning');
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('keeps as it is a PNG into which ExifTool wrote IPTC, which it stores compressed and cannot be blanked in place', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-png-iptc-'));
    try {
      const path = join(dir, 'placed.png');
      writeFileSync(path, fixture('transparent.png'));
      // ExifTool warns that this is not standard IPTC; -q -q keeps the warning out of the test's output.
      execFileSync('exiftool', ['-q', '-q', '-overwrite_original', '-IPTC:City=Lisbon', path]);
      expect(execFileSync('exiftool', ['-s3', '-IPTC:City', path], { encoding: 'utf8' }).trim()).toBe('Lisbon');
      expect(await findLocationPatches(blob(new Uint8Array(readFileSync(path))))).toEqual({ outcome: 'unsupported', patches: [] });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('blanks an XMP packet kept in a PNG tEXt chunk, with its CRC made again; one kept compressed (zTXt) is unsupported', async () => {
    const packet =
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      '<rdf:Description rdf:about="" xmlns:e="http://ns.adobe.com/exif/1.0/" e:GPSLatitude="38,42.834N" e:GPSLongitude="9,8.364W"/>' +
      '</rdf:RDF></x:xmpmeta>';
    const text = new Uint8Array(Buffer.from(`XML:com.adobe.xmp\0${packet}`, 'latin1'));
    const file = png([['IHDR', new Uint8Array(13)], ['tEXt', text], ['IEND', new Uint8Array(0)]]);
    const { outcome, patches } = await findLocationPatches(blob(file));
    expect(outcome).toBe('removed');
    const out = Buffer.from(await withPatches(blob(file), patches).arrayBuffer());
    expect(out.toString('latin1')).not.toMatch(/GPS|38,42|9,8/);
    // The chunk's CRC is that of what it now holds.
    const start = out.indexOf('tEXt');
    const end = start + 4 + text.length;
    expect(out.readUInt32BE(end)).toBe(crc32(out.subarray(start, end)));

    const zlib = await import('node:zlib');
    const ztxt = new Uint8Array(Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0', 'latin1'), zlib.deflateSync(Buffer.from(packet))]));
    const compressed = png([['IHDR', new Uint8Array(13)], ['zTXt', ztxt], ['IEND', new Uint8Array(0)]]);
    expect(await findLocationPatches(blob(compressed))).toEqual({ outcome: 'unsupported', patches: [] });
  });

  it('blanks an AVIF (HEIF) Exif item that ExifTool gave a place, and the result reads without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'shoebox-avif-'));
    try {
      const path = join(dir, 'placed.avif');
      writeFileSync(path, fixture('small.avif'));
      execFileSync('exiftool', ['-q', '-overwrite_original', '-GPSLatitude=48.858', '-GPSLatitudeRef=N', '-GPSLongitude=2.294', '-GPSLongitudeRef=E', path]);
      const placed = new Uint8Array(readFileSync(path));
      const { outcome, patches } = await findLocationPatches(blob(placed));
      expect(outcome).toBe('removed');
      writeFileSync(path, new Uint8Array(await withPatches(blob(placed), patches).arrayBuffer()));
      expect(execFileSync('exiftool', ['-s', '-gps:all', path], { encoding: 'utf8' }).trim()).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
