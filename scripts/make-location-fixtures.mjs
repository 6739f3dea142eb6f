#!/usr/bin/env node
// Photographs that carry a place, for the privacy tests: each source in tests/fixtures/location (real
// photographs without any location: JPEG, PNG, WebP, HEIC) is copied to OUT_DIR with ExifTool writing GPS
// into its EXIF block and again into its XMP packet, as a phone or a geotagging tool would.
//   node scripts/make-location-fixtures.mjs OUT_DIR   → prints the written paths, one a line
// The sources are committed; the copies with a place are made at test time, so no file in the repository
// carries a location and the test proves ExifTool itself finds the place before it finds none after.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
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

if (import.meta.url === `file://${process.argv[1]}`) {
  const outDir = process.argv[2];
  if (!outDir) throw new Error('usage: node scripts/make-location-fixtures.mjs OUT_DIR');
  for (const path of makeLocationFixtures(outDir)) console.log(path);
}
