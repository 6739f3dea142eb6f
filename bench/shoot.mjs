// A camera's shoot for the import benchmarks (bench/import-bench.mjs, bench/import-s3.bench.ts): 24 MP JPEGs made
// with sharp, a few distinct pictures, each file with a JPEG comment of its own so that no two are the same bytes.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { photoLikePixels } from './bench-utils.mjs';

export const WIDTH = 6000;
export const HEIGHT = 4000;
/** Distinct pictures; each file is one of them with a comment of its own, so that no two files are the same bytes. */
export const PICTURES = 4;

async function picture(seed) {
  return sharp(photoLikePixels(WIDTH, HEIGHT, seed), { raw: { width: WIDTH, height: HEIGHT, channels: 3 } })
    .jpeg({ quality: 90 })
    .withExif({ IFD0: { Make: 'Shoebox Optics', Model: 'Bench 24' }, IFD2: { DateTimeOriginal: `2024:05:0${1 + (seed % 9)} 10:00:00` } })
    .toBuffer();
}

/** The shoot: `n` files in `dir`, `IMG_0001.JPG`…, each a picture with its own JPEG comment (COM) after SOI. */
export async function writeShoot(dir, n) {
  mkdirSync(dir, { recursive: true });
  const pictures = [];
  for (let i = 0; i < PICTURES; i++) pictures.push(await picture(1000 + i));
  let bytes = 0;
  for (let i = 0; i < n; i++) {
    const jpeg = pictures[i % PICTURES];
    const note = Buffer.from(`Shoebox import bench, photo ${i + 1}`);
    const com = Buffer.alloc(4);
    com.writeUInt16BE(0xfffe, 0);
    com.writeUInt16BE(note.length + 2, 2);
    const file = Buffer.concat([jpeg.subarray(0, 2), com, note, jpeg.subarray(2)]);
    writeFileSync(join(dir, `IMG_${String(i + 1).padStart(4, '0')}.JPG`), file);
    bytes += file.length;
  }
  return { paths: readdirSync(dir).sort().map((f) => join(dir, f)), bytes };
}
