// Reading a photo's metadata, ExifReader against exifr, same run, same machine: 1,000 camera JPEGs (made here:
// a full camera EXIF block with a maker note, a GPS IFD and a thumbnail, half of them an XMP packet too, over a
// few 24-megapixel-like image data tails), read one after the other inside a module worker in headless Chromium:
//   (a) ours: readPhotoMetadata (src/media/photo-metadata.ts), ExifReader built as the app ships it;
//   (b) exifr 7.1.3 with the options the app used before, its tags mapped by the same photoMetadataFromTags.
// Both must give the same metadata for every photo. Target: ours no slower than exifr (median of the rounds).
// Run: node bench/exif-bench.mjs   (writes bench/results/exif.md)
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { chromiumPath } from '../scripts/chromium.mjs';
import { ensureDebianTool } from '../scripts/ensure-debian-tool.mjs';
import { exifReaderBuild } from '../scripts/vite-exifreader.mjs';
import { buildBenchPage, openBenchPage, median, photoLikePixels, writeResult } from './bench-utils.mjs';

const root = new URL('..', import.meta.url).pathname;
const COUNT = 1000;
const RUNS = Number(process.env.EXIF_BENCH_RUNS ?? 7);
const TAILS = 3;

const CAMERAS = [
  { make: 'Canon', model: 'Canon EOS R5', lens: 'RF24-70mm F2.8 L IS USM', le: true, note: 'canon' },
  { make: 'NIKON CORPORATION', model: 'NIKON Z 6_2', lens: 'NIKKOR Z 50mm f/1.8 S', le: false, note: 'nikon' },
  { make: 'SONY', model: 'ILCE-7M4', lens: 'FE 24-105mm F4 G OSS', le: true, note: 'sony' },
  { make: 'FUJIFILM', model: 'X-T5', lens: 'XF33mmF1.4 R LM WR', le: true, note: 'fuji' },
];
const OFFSETS = ['+02:00', '-05:00', '+09:00', '+05:30', '+00:00', '-03:30'];

/** A seeded generator, so every run reads the same 1,000 photos. */
function random(seed) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** A TIFF structure written IFD by IFD, each followed by the values that do not fit in its entries. */
class TiffWriter {
  constructor(le, size = 64 * 1024) {
    this.le = le;
    this.bytes = new Uint8Array(size);
    this.view = new DataView(this.bytes.buffer);
    this.bytes.set(le ? [0x49, 0x49, 0x2a, 0] : [0x4d, 0x4d, 0, 0x2a]);
    this.view.setUint32(4, 8, le);
    this.pos = 8;
  }
  encode(type, value) {
    if (type === 2) return { count: value.length + 1, data: new Uint8Array([...Buffer.from(value, 'latin1'), 0]) };
    if (type === 1 || type === 7) return { count: value.length, data: Uint8Array.from(value) };
    const values = type === 5 || type === 10 ? value.flat() : value;
    const data = new Uint8Array(values.length * (type === 3 ? 2 : 4));
    const v = new DataView(data.buffer);
    values.forEach((x, i) => (type === 3 ? v.setUint16(i * 2, x, this.le) : type === 10 ? v.setInt32(i * 4, x, this.le) : v.setUint32(i * 4, x, this.le)));
    return { count: type === 5 || type === 10 ? value.length : values.length, data };
  }
  /** Writes an IFD of `[tag, type, value]`; gives where each entry's value field is, and the next-IFD field. */
  ifd(entries) {
    entries.sort((a, b) => a[0] - b[0]);
    const at = this.pos;
    const { view, le } = this;
    view.setUint16(at, entries.length, le);
    let data = at + 2 + 12 * entries.length + 4;
    const slots = {};
    entries.forEach(([tag, type, value], i) => {
      const e = at + 2 + 12 * i;
      const { count, data: bytes } = this.encode(type, value);
      view.setUint16(e, tag, le);
      view.setUint16(e + 2, type, le);
      view.setUint32(e + 4, count, le);
      if (bytes.length <= 4) this.bytes.set(bytes, e + 8);
      else {
        data += data & 1;
        this.bytes.set(bytes, data);
        view.setUint32(e + 8, data, le);
        data += bytes.length;
      }
      slots[tag] = e + 8;
    });
    this.pos = data + (data & 1);
    return { slots, next: at + 2 + 12 * entries.length };
  }
  point(slot, to = this.pos) {
    this.view.setUint32(slot, to, this.le);
  }
  append(bytes) {
    const at = this.pos;
    this.bytes.set(bytes, at);
    this.pos += bytes.length + (bytes.length & 1);
    return at;
  }
  done() {
    return this.bytes.slice(0, this.pos);
  }
}

/** A maker note as cameras write them: an IFD of settings, some of them large binary records. */
function makerNote(camera, rand) {
  const w = new TiffWriter(camera.le, 40 * 1024);
  const blob = (n) => Array.from({ length: n }, () => Math.floor(rand() * 256));
  const entries = [];
  for (let t = 1; t <= 36; t++) entries.push([t, t % 3 === 0 ? 2 : 3, t % 3 === 0 ? `${camera.note.toUpperCase()} SETTING ${t}` : [Math.floor(rand() * 65535), t]]);
  entries.push([0x40, 7, blob(2048)], [0x41, 7, blob(6144)], [0x42, 7, blob(9216)], [0x43, 4, [1, 2, 3, 4, 5, 6, 7, 8]]);
  w.ifd(entries);
  const inner = w.done();
  // Nikon's starts with its name and a TIFF header of its own; the others are the IFD alone (the header skipped).
  return camera.note === 'nikon' ? [...Buffer.from('Nikon\0\x02\x10\0\0', 'latin1'), ...inner] : [...inner.subarray(8)];
}

/** The EXIF block of photo `i`: IFD0, the Exif IFD with a maker note, the GPS IFD and IFD1 with its thumbnail. */
function exifBlock(i, thumbnail) {
  const rand = random(1000 + i);
  const camera = CAMERAS[i % CAMERAS.length];
  const w = new TiffWriter(camera.le);
  const when = new Date(Date.UTC(2024, 0, 1) + i * 3_600_000 * 7.3);
  const stamp = `${when.toISOString().slice(0, 10).replaceAll('-', ':')} ${when.toISOString().slice(11, 19)}`;
  const ifd0 = w.ifd([
    [0x010f, 2, camera.make],
    [0x0110, 2, camera.model],
    [0x0112, 3, [[1, 6, 8, 3][i % 4]]],
    [0x011a, 5, [[300, 1]]],
    [0x011b, 5, [[300, 1]]],
    [0x0128, 3, [2]],
    [0x0131, 2, `Firmware Ver.${1 + (i % 3)}.${i % 10}.0`],
    [0x0132, 2, stamp],
    [0x013b, 2, ''],
    [0x0213, 3, [2]],
    [0x8298, 2, ''],
    [0x8769, 4, [0]],
    [0x8825, 4, [0]],
  ]);
  w.point(ifd0.slots[0x8769]);
  const note = makerNote(camera, rand);
  w.ifd([
    [0x829a, 5, [[1, [30, 60, 125, 250, 500, 1000, 4000][i % 7]]]],
    [0x829d, 5, [[[14, 18, 28, 40, 56, 80, 110][i % 7], 10]]],
    [0x8822, 3, [[1, 2, 3, 4][i % 4]]],
    [0x8827, 3, [[100, 200, 400, 800, 1600, 3200, 6400][i % 7]]],
    [0x8830, 3, [2]],
    [0x9000, 7, [...Buffer.from('0232')]],
    [0x9003, 2, stamp],
    [0x9004, 2, stamp],
    [0x9010, 2, OFFSETS[i % OFFSETS.length]],
    [0x9011, 2, OFFSETS[i % OFFSETS.length]],
    [0x9012, 2, OFFSETS[i % OFFSETS.length]],
    [0x9101, 7, [1, 2, 3, 0]],
    [0x9201, 10, [[Math.round(rand() * 12000), 1000]]],
    [0x9202, 5, [[Math.round(rand() * 8000), 1000]]],
    [0x9204, 10, [[[-3, 0, 3][i % 3], 3]]],
    [0x9205, 5, [[3, 1]]],
    [0x9207, 3, [5]],
    [0x9209, 3, [16]],
    [0x920a, 5, [[[24, 35, 50, 70, 85, 105, 200][i % 7], 1]]],
    [0x927c, 7, note],
    [0x9286, 7, [...Buffer.from('ASCII\0\0\0', 'latin1'), ...Buffer.from(' '.repeat(256))]],
    [0x9290, 2, String(i % 100).padStart(2, '0')],
    [0x9291, 2, String(i % 100).padStart(2, '0')],
    [0x9292, 2, String(i % 100).padStart(2, '0')],
    [0xa000, 7, [...Buffer.from('0100')]],
    [0xa001, 3, [1]],
    [0xa002, 4, [6000]],
    [0xa003, 4, [4000]],
    [0xa20e, 5, [[6000000, 1415]]],
    [0xa20f, 5, [[4000000, 943]]],
    [0xa210, 3, [3]],
    [0xa401, 3, [0]],
    [0xa402, 3, [0]],
    [0xa403, 3, [0]],
    [0xa406, 3, [0]],
    [0xa431, 2, String(100000 + i)],
    [0xa432, 5, [[24, 1], [70, 1], [28, 10], [28, 10]]],
    [0xa434, 2, camera.lens],
    [0xa435, 2, String(900000 + i)],
  ]);
  w.point(ifd0.slots[0x8825]);
  w.ifd([
    [0x0000, 1, [2, 3, 0, 0]],
    [0x0001, 2, 'N'],
    [0x0002, 5, [[48, 1], [51, 1], [2959 + (i % 100), 100]]],
    [0x0003, 2, 'E'],
    [0x0004, 5, [[2, 1], [17, 1], [4000 + (i % 100), 100]]],
    [0x0005, 1, [0]],
    [0x0006, 5, [[35, 1]]],
    [0x0007, 5, [[10, 1], [0, 1], [0, 1]]],
    [0x001d, 2, '2024:01:01'],
  ]);
  w.point(ifd0.next);
  const ifd1 = w.ifd([
    [0x0103, 3, [6]],
    [0x011a, 5, [[72, 1]]],
    [0x011b, 5, [[72, 1]]],
    [0x0128, 3, [2]],
    [0x0201, 4, [0]],
    [0x0202, 4, [thumbnail.length]],
  ]);
  w.point(ifd1.slots[0x0201], w.append(thumbnail));
  return w.done();
}

const XMP = (i) => `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 7.0-c000 1.000000, 0000/00/00-00:00:00">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:lr="http://ns.adobe.com/lightroom/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"
    xmp:Rating="${i % 6}" xmp:Label="${['Red', 'Green', 'Blue'][i % 3]}" xmp:CreatorTool="Adobe Photoshop Lightroom Classic 13.0">
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Photo ${i}</rdf:li></rdf:Alt></dc:title>
   <dc:subject><rdf:Bag>${Array.from({ length: 12 }, (_, k) => `<rdf:li>keyword ${(i + k) % 40}</rdf:li>`).join('')}</rdf:Bag></dc:subject>
   <lr:hierarchicalSubject><rdf:Bag><rdf:li>Places|Portugal|Porto</rdf:li><rdf:li>Events|Trip ${i % 9}</rdf:li></rdf:Bag></lr:hierarchicalSubject>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
${' '.repeat(2048)}
<?xpacket end="w"?>`;

const segment = (marker, body) => {
  const head = Buffer.alloc(4);
  head.writeUInt16BE(marker, 0);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([head, body]);
};

/** Photo `i`'s bytes before its image data: SOI, APP1 Exif, and for every other photo APP1 XMP. */
function head(i, thumbnail) {
  const exif = exifBlock(i, thumbnail);
  const parts = [Buffer.from([0xff, 0xd8]), segment(0xffe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exif]))];
  if (i % 2 === 0) parts.push(segment(0xffe1, Buffer.concat([Buffer.from('http://ns.adobe.com/xap/1.0/\0', 'latin1'), Buffer.from(XMP(i))])));
  return Buffer.concat(parts);
}

/** A camera-like picture's JPEG after its SOI and any APP0 (JFIF): the image data tails the photos share. */
async function tail(k) {
  const width = 6000;
  const height = 4000;
  const jpeg = await sharp(photoLikePixels(width, height, 777 + k), { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
  let at = 2;
  while (jpeg[at] === 0xff && jpeg[at + 1] === 0xe0) at += 2 + jpeg.readUInt16BE(at + 2);
  return jpeg.subarray(at);
}

async function buildPage(outDir) {
  const exifreaderBuild = join(root, 'scripts', 'exifreader-build.json');
  await buildBenchPage('exif-page', outDir, {
    plugins: [exifReaderBuild(exifreaderBuild)],
    worker: { format: 'es', plugins: () => [exifReaderBuild(exifreaderBuild)] },
  });
}

const started = Date.now();
const work = await mkdtemp(join(tmpdir(), 'shoebox-exif-bench-'));
let browser;
let server;
try {
  const thumbnail = await sharp(photoLikePixels(160, 120), { raw: { width: 160, height: 120, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
  const tails = await Promise.all(Array.from({ length: TAILS }, (_, k) => tail(k)));
  const heads = Array.from({ length: COUNT }, (_, i) => head(i, thumbnail));
  let offset = 0;
  const index = heads.map((h, i) => {
    const entry = { offset, length: h.length, tail: i % TAILS };
    offset += h.length;
    return entry;
  });

  // ExifTool, the reference, reads the camera, the time and the maker note of a sample of them.
  ensureDebianTool('exiftool', ['-ver'], 'libimage-exiftool-perl');
  for (const i of [0, 1, 2, 3]) {
    const file = join(work, `sample-${i}.jpg`);
    await writeFile(file, Buffer.concat([heads[i], tails[i % TAILS]]));
    const r = spawnSync('exiftool', ['-j', '-n', '-Model', '-DateTimeOriginal', '-MakerNote*', '-ThumbnailLength', '-GPSLatitude', file], { encoding: 'utf8' });
    const [tags] = JSON.parse(r.stdout || '[{}]');
    if (tags.Model !== CAMERAS[i % CAMERAS.length].model || !tags.DateTimeOriginal || !tags.ThumbnailLength || tags.GPSLatitude === undefined) {
      throw new Error(`sample ${i}: ExifTool does not read the EXIF written: ${r.stdout} ${r.stderr}`);
    }
  }

  const pageDir = join(work, 'page');
  await buildPage(pageDir);
  const extra = { '/heads.bin': Buffer.concat(heads), '/heads.json': Buffer.from(JSON.stringify(index)) };
  tails.forEach((t, k) => (extra[`/tail-${k}.bin`] = t));
  let page;
  let origin;
  ({ server, browser, page, origin } = await openBenchPage(pageDir, extra));
  const count = await page.evaluate(([o, n, t]) => window.exifBenchSetup(o, n, t), [origin, COUNT, TAILS]);
  if (count !== COUNT) throw new Error(`the worker holds ${count} photos`);

  // Interleaved rounds, the order swapped each round, so load on the machine falls on both alike. Round 0 is a
  // warm-up (module loading, JIT) and is not counted.
  const times = { exifreader: [], exifr: [] };
  const digests = {};
  for (let round = 0; round <= RUNS; round++) {
    const order = round % 2 ? ['exifr', 'exifreader'] : ['exifreader', 'exifr'];
    for (const c of order) {
      const r = await page.evaluate((name) => window.exifBenchRun(name), c);
      if (round > 0) times[c].push(r.ms);
      digests[c] = r.digest;
    }
  }
  const ours = JSON.parse(digests.exifreader);
  const theirs = JSON.parse(digests.exifr);
  const differing = ours.filter((m, i) => JSON.stringify(m) !== JSON.stringify(theirs[i])).length;
  const withCamera = ours.filter((m) => m.metadata.cameraModel && m.takenAt).length;
  const m = { ours: median(times.exifreader), exifr: median(times.exifr) };
  const ratio = m.ours / m.exifr;
  const headKiB = heads.reduce((s, h) => s + h.length, 0) / COUNT / 1024;
  const row = (name, how, ms, all) => [name, how, `${ms.toFixed(0)} ms`, `${((ms / COUNT) * 1000).toFixed(0)} µs`, all.map((x) => x.toFixed(0)).join(', '), (ms / m.exifr).toFixed(2)];
  writeResult(
    'exif',
    `Photo metadata: ${COUNT.toLocaleString('en')} camera JPEGs read in a worker`,
    ['reader', 'how', 'median, all photos', 'per photo', `rounds (ms, after 1 warm-up)`, 'time ÷ exifr'],
    [
      row('ours: ExifReader 4.46.0', 'readPhotoMetadata: JPEG segments from one 64 KiB read (further ones 64 KiB at a time), EXIF block to ExifReader (TIFF + 15 tags build), XMP by fast-xml-parser', m.ours, times.exifreader),
      row('exifr 7.1.3', "exifr.parse(blob) with the app's former options (IFD0 + Exif IFD, raw XMP), same mapping and XMP parsing", m.exifr, times.exifr),
    ],
    [
      `Input: ${COUNT} JPEGs in memory as Blobs, ${CAMERAS.length} camera makes, each its own EXIF (IFD0, Exif IFD with a ${'~'}18 KiB maker note and a user comment, GPS IFD, IFD1 with a ${(thumbnail.length / 1024).toFixed(1)} KiB thumbnail; little- and big-endian) and every other one an XMP packet (Lightroom-like, 12 keywords); ${headKiB.toFixed(1)} KiB of metadata each on average, before one of ${TAILS} 6000×4000 image data tails (${(tails[0].length / 1024 / 1024).toFixed(1)} MiB).`,
      `Both gave the same metadata for ${COUNT - differing} of ${COUNT} photos (${withCamera} with camera and capture time).`,
      `Timings taken inside the module worker (performance.now) in headless Chromium (${chromiumPath()}), all ${COUNT} photos one after another per run; interleaved rounds, order swapped each round; medians of ${RUNS} rounds.`,
      `ours ÷ exifr: ${ratio.toFixed(2)} (target ≤ 1.00) — ${ratio <= 1 && differing === 0 ? 'met' : 'NOT met'}.`,
      `Machine: ${cpus().length} cores. Whole benchmark: ${((Date.now() - started) / 1000).toFixed(0)} s.`,
    ],
  );
  // `npm run bench` counts a benchmark whose target is not met as failed.
  if (ratio > 1 || differing > 0) process.exitCode = 1;
} finally {
  await browser?.close();
  server?.close();
  await rm(work, { recursive: true, force: true });
}
