#!/usr/bin/env node
// TIFF files as scanners, cameras and editors write them, for the TIFF decoder's tests: each is made at test time
// by ImageMagick (Debian's package) from the committed photographs in tests/fixtures/location, so the repository
// holds no TIFF and the tests compare our decode with ImageMagick's own decode of the very same file.
//   node scripts/make-tiff-fixtures.mjs OUT_DIR   → prints the written paths, one a line
// `/usr/bin/convert` is called by its full path: another `convert` earlier on PATH may not be ImageMagick.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureDebianTool } from './ensure-debian-tool.mjs';

export const CONVERT = '/usr/bin/convert';

const sources = new URL('../tests/fixtures/location/', import.meta.url).pathname;
/** 640 × 427: an odd height, so the last strip and the bottom row of tiles are short. */
export const PHOTO = join(sources, 'rocket.jpg');
/** 240 × 160, a different picture: the second page, the reduced-resolution image, the orientation set. */
export const OTHER = join(sources, 'chelsea.png');

/** The orientations by ImageMagick's names, in the order of the TIFF Orientation tag's values 1–8. */
const ORIENTATIONS = ['TopLeft', 'TopRight', 'BottomRight', 'BottomLeft', 'LeftTop', 'RightTop', 'RightBottom', 'LeftBottom'];

/** Alpha falling from opaque at the top to transparent at the bottom, put onto the photograph. */
const withAlpha = [PHOTO, '(', '-size', '640x427', 'gradient:white-black', ')', '-alpha', 'off', '-compose', 'CopyOpacity', '-composite'];
/** Real 16-bit samples: a gamma computed at 16 bits, so a sample's low byte is not a copy of its high byte. */
const deep = ['-depth', '16', '-gamma', '1.3'];

/** Name → arguments to `convert` (the output file is added). */
const FIXTURES = {
  'rgb-none.tif': [PHOTO, '-compress', 'None'],
  'rgb-lzw.tif': [PHOTO, '-compress', 'LZW'],
  'rgb-deflate.tif': [PHOTO, '-compress', 'Zip'],
  'rgb-packbits.tif': [PHOTO, '-compress', 'RLE'],
  'rgb-jpeg.tif': [PHOTO, '-compress', 'JPEG', '-quality', '92'],
  'ycbcr-jpeg.tif': [PHOTO, '-colorspace', 'YCbCr', '-sampling-factor', '2x2', '-compress', 'JPEG', '-quality', '92'],
  'rgb-tiled.tif': [PHOTO, '-compress', 'LZW', '-define', 'tiff:tile-geometry=112x112'],
  'rgb16-lzw.tif': [PHOTO, ...deep, '-compress', 'LZW'],
  'rgb16-msb.tif': [PHOTO, ...deep, '-define', 'tiff:endian=msb', '-compress', 'Zip'],
  // Big-endian with a strip per row: the strip table lies outside the IFD.
  'msb-strips.tif': [PHOTO, '-define', 'tiff:endian=msb', '-define', 'tiff:rows-per-strip=1', '-compress', 'LZW'],
  'rgba.tif': [...withAlpha, '-compress', 'LZW'],
  'rgba-associated.tif': [...withAlpha, '-define', 'tiff:alpha=associated', '-compress', 'LZW'],
  'gray8.tif': [PHOTO, '-colorspace', 'Gray', '-compress', 'LZW'],
  'gray16.tif': [PHOTO, '-colorspace', 'Gray', ...deep, '-compress', 'Zip'],
  'gray-white-is-zero.tif': [PHOTO, '-colorspace', 'Gray', '-define', 'quantum:polarity=min-is-white', '-compress', 'LZW'],
  'bilevel.tif': [PHOTO, '-monochrome', '-depth', '1', '-define', 'quantum:polarity=min-is-white', '-compress', 'RLE'],
  'palette.tif': [PHOTO, '-colors', '64', '-type', 'Palette', '-compress', 'LZW'],
  'palette4.tif': [PHOTO, '-colors', '16', '-type', 'Palette', '-depth', '4', '-compress', 'None'],
  'cmyk.tif': [PHOTO, '-colorspace', 'CMYK', '-compress', 'LZW'],
  'planar.tif': [PHOTO, '-interlace', 'Plane', '-compress', 'LZW'],
  'float.tif': [PHOTO, '-define', 'quantum:format=floating-point', '-depth', '32', '-compress', 'Zip'],
  'bigtiff.tif': [PHOTO, '-compress', 'LZW', 'TIFF64:'],
  'two-pages.tif': [PHOTO, OTHER, '-compress', 'LZW'],
  // A reduced-resolution image before the full one, as some scanners and editors write a preview first.
  'reduced-first.tif': [OTHER, PHOTO, '-compress', 'LZW'],
  ...Object.fromEntries(ORIENTATIONS.map((name, i) => [`orientation-${i + 1}.tif`, [OTHER, '-orient', name, '-compress', 'LZW']])),
};

export function makeTiffFixtures(outDir) {
  ensureDebianTool(CONVERT, ['-version'], 'imagemagick');
  mkdirSync(outDir, { recursive: true });
  const written = [];
  for (const [name, args] of Object.entries(FIXTURES)) {
    const out = join(outDir, name);
    // `TIFF64:` is an output format prefix, not an argument.
    const target = args.at(-1) === 'TIFF64:' ? `TIFF64:${out}` : out;
    const r = spawnSync(CONVERT, [...(args.at(-1) === 'TIFF64:' ? args.slice(0, -1) : args), target], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`convert could not write ${name}: ${r.stderr}`);
    written.push(out);
  }

  const reduced = join(outDir, 'reduced-first.tif');
  writeFileSync(reduced, withFirstIfdEntry(readFileSync(reduced), 254, 4, 1));

  const lzw = readFileSync(join(outDir, 'rgb-lzw.tif'));
  const truncated = join(outDir, 'truncated.tif');
  writeFileSync(truncated, lzw.subarray(0, Math.floor(lzw.length * 0.6)));
  const huge = join(outDir, 'huge.tif');
  writeFileSync(huge, withFirstIfdEntry(withFirstIfdEntry(lzw, 256, 4, 100_000), 257, 4, 100_000));
  written.push(truncated, huge);
  return written;
}

/**
 * The sideways orientation fixture (tests/fixtures/orientation-6.jpg: stored 1600 × 2400, seen 2400 × 1600, red
 * top-left once upright) as an LZW TIFF whose Orientation tag says 6, as a scanner or an editor writes it.
 * Written to OUT_DIR as `sideways.tif`; returns its path.
 */
export function makeSidewaysTiff(outDir) {
  ensureDebianTool(CONVERT, ['-version'], 'imagemagick');
  mkdirSync(outDir, { recursive: true });
  const out = join(outDir, 'sideways.tif');
  const source = new URL('../tests/fixtures/orientation-6.jpg', import.meta.url).pathname;
  // Its EXIF (a camera, a date, a place) comes with it, as ImageMagick copies it; the place is removed on upload.
  const r = spawnSync(CONVERT, [source, '-compress', 'LZW', out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`convert could not write sideways.tif: ${r.stderr}`);
  return out;
}

/**
 * A copy of a classic TIFF whose first IFD's entry `tag` holds the single value `value` of field type `type`
 * (3 SHORT, 4 LONG), written into the entry itself; the tag must be there already.
 */
function withFirstIfdEntry(file, tag, type, value) {
  const out = Buffer.from(file);
  const le = out.toString('latin1', 0, 2) === 'II';
  const u16 = (at) => (le ? out.readUInt16LE(at) : out.readUInt16BE(at));
  const u32 = (at) => (le ? out.readUInt32LE(at) : out.readUInt32BE(at));
  if (u16(2) !== 42) throw new Error('not a classic TIFF');
  const ifd = u32(4);
  for (let i = 0, at = ifd + 2; i < u16(ifd); i++, at += 12) {
    if (u16(at) !== tag) continue;
    if (le) {
      out.writeUInt16LE(type, at + 2);
      out.writeUInt32LE(1, at + 4);
      out.writeUInt32LE(value, at + 8);
    } else {
      out.writeUInt16BE(type, at + 2);
      out.writeUInt32BE(1, at + 4);
      // A SHORT sits in the first two bytes of the value field.
      if (type === 3) out.writeUInt32BE(value * 0x10000, at + 8);
      else out.writeUInt32BE(value, at + 8);
    }
    return out;
  }
  throw new Error(`tag ${tag} is not in the first IFD`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = process.argv[2];
  if (!outDir) throw new Error('usage: node scripts/make-tiff-fixtures.mjs OUT_DIR');
  for (const path of makeTiffFixtures(outDir)) console.log(path);
}
