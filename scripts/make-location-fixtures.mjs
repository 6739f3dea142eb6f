#!/usr/bin/env node
// Photographs that carry a place, for the privacy tests: each source in tests/fixtures/location (real
// photographs without any location: JPEG, PNG, WebP, HEIC) is copied to OUT_DIR with ExifTool writing GPS
// into its EXIF block and again into its XMP packet, as a phone or a geotagging tool would.
//   node scripts/make-location-fixtures.mjs OUT_DIR   → prints the written paths, one a line
// The sources are committed; the copies with a place are made at test time, so no file in the repository
// carries a location and the test proves ExifTool itself finds the place before it finds none after.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { ensureExiftool } from './ensure-exiftool.mjs';

/** Near the Eiffel Tower, 35 m up; also a camera name, which must survive. */
export const PLACE = { latitude: 48.858222, longitude: 2.2945, altitude: 35 };

const sources = new URL('../tests/fixtures/location/', import.meta.url).pathname;

export function makeLocationFixtures(outDir) {
  ensureExiftool();
  mkdirSync(outDir, { recursive: true });
  const written = [];
  for (const name of readdirSync(sources).sort()) {
    const out = join(outDir, name);
    // Written in place on a copy: ExifTool 12.57 refuses `-o` for RIFF (WebP) files.
    copyFileSync(join(sources, name), out);
    const tags = [
      `-EXIF:GPSLatitude=${PLACE.latitude}`, '-EXIF:GPSLatitudeRef=N',
      `-EXIF:GPSLongitude=${PLACE.longitude}`, '-EXIF:GPSLongitudeRef=E',
      `-EXIF:GPSAltitude=${PLACE.altitude}`, '-EXIF:GPSAltitudeRef=0',
      '-EXIF:GPSDateStamp=2024:05:01', '-EXIF:GPSTimeStamp=10:00:00',
      `-XMP-exif:GPSLatitude=${PLACE.latitude} N`, `-XMP-exif:GPSLongitude=${PLACE.longitude} E`,
      `-XMP-exif:GPSAltitude=${PLACE.altitude}`,
      '-EXIF:Make=Shoebox', '-EXIF:Model=Privacy Test', '-XMP-dc:Title=Tour',
    ];
    const r = spawnSync('exiftool', ['-q', '-q', '-overwrite_original', ...tags, out], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`exiftool could not write ${name}: ${r.stderr}`);
    written.push(out);
  }
  return written;
}

/**
 * A photograph whose place cannot be blanked in place: the PNG source with its GPS position in an XMP packet
 * kept compressed (an iTXt chunk with its compression flag set), as some editors write it. Written to OUT_DIR
 * as `compressed-place.png`; returns its path.
 */
export function makeCompressedPlacePng(outDir) {
  mkdirSync(outDir, { recursive: true });
  const source = readFileSync(join(sources, 'chelsea.png'));
  const packet =
    '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
    '<rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/"' +
    ` exif:GPSLatitude="48,51.4933N" exif:GPSLongitude="2,17.67E"/></rdf:RDF></x:xmpmeta>`;
  // Keyword, NUL, compression flag 1, method 0 (zlib), empty language tag and translated keyword.
  const data = Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\x01\x00\0\0', 'latin1'), deflateSync(Buffer.from(packet))]);
  const type = Buffer.from('iTXt', 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  // After the signature and the IHDR chunk (8 + 4 + 4 + 13 + 4 bytes).
  const at = 33;
  const out = join(outDir, 'compressed-place.png');
  writeFileSync(out, Buffer.concat([source.subarray(0, at), length, type, data, crc, source.subarray(at)]));
  return out;
}

/** CRC-32 as PNG chunks use it (ISO 3309); Node 20's zlib does not offer one. */
function crc32(bytes) {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = process.argv[2];
  if (!outDir) throw new Error('usage: node scripts/make-location-fixtures.mjs OUT_DIR');
  for (const path of makeLocationFixtures(outDir)) console.log(path);
}
