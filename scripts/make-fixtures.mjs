// Makes the media fixtures under tests/fixtures/ (committed; re-run only to change them):
//
//   node scripts/make-fixtures.mjs            # everything except the video
//   node scripts/make-fixtures.mjs --video    # also re-record clip-320x240.webm in headless Chromium
//   node scripts/make-fixtures.mjs camera/camera.heic …   # only those
//
// Images come from sharp (the camera fixtures' HEIC from libheif's heif-enc, their tags from ExifTool). The video is recorded by Chromium itself (canvas.captureStream + MediaRecorder,
// driven by playwright-core), because no video encoder is available to Node on this machine. The script
// checks what it wrote (orientation, EXIF, GPS, XMP) so a fixture cannot silently lose what the tests rely on.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import exifr from 'exifr';
import { ensureDebianTool } from './ensure-debian-tool.mjs';
import { encodeGridHeic, heifBoxes, ilocItems, readN, withSize, writeN } from './heif-grid.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'tests', 'fixtures');

/** What every orientation fixture's picture looks like once oriented: red top-left, green top-right, blue bottom-left. */
const MARKERS = { topLeft: [220, 30, 30], topRight: [30, 190, 40], bottomLeft: [30, 60, 220] };

const CAMERA = {
  IFD0: { Make: 'Shoebox Optics', Model: 'Fixture One' },
  IFD2: {
    DateTimeOriginal: '2023:07:14 18:30:05',
    OffsetTimeOriginal: '+02:00',
    ExposureTime: '1/250',
    FNumber: '28/10',
    ISOSpeedRatings: '200',
    FocalLength: '35/1',
    LensModel: 'Fixture 35mm F2.8',
  },
  // The Eiffel Tower: a location the tests can look for in every output.
  IFD3: {
    GPSLatitudeRef: 'N',
    GPSLatitude: '48/1 51/1 2959/100',
    GPSLongitudeRef: 'E',
    GPSLongitude: '2/1 17/1 4000/100',
  },
};

/** An asymmetric picture (as seen after orientation): a soft gradient with three coloured corner blocks. */
async function visualPicture(width, height) {
  const data = Buffer.alloc(width * height * 3);
  const bw = Math.round(width * 0.2);
  const bh = Math.round(height * 0.2);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      let px = [140 + Math.round((60 * x) / width), 140 + Math.round((60 * y) / height), 150];
      if (x < bw && y < bh) px = MARKERS.topLeft;
      else if (x >= width - bw && y < bh) px = MARKERS.topRight;
      else if (x < bw && y >= height - bh) px = MARKERS.bottomLeft;
      data[i] = px[0];
      data[i + 1] = px[1];
      data[i + 2] = px[2];
    }
  }
  return sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

/**
 * EXIF orientation says how to turn the stored pixels for display, so the stored pixels are the visual picture
 * turned the other way: 3 = 180°, 6 = display turns 90° clockwise (stored 90° anticlockwise), 8 = the reverse.
 */
const STORED_ROTATION = { 1: 0, 3: 180, 6: 270, 8: 90 };

async function orientedJpeg(orientation, width, height) {
  const visual = await visualPicture(width, height);
  const stored = await sharp(visual).rotate(STORED_ROTATION[orientation]).toBuffer();
  const jpeg = await sharp(stored)
    .jpeg({ quality: 70, mozjpeg: true })
    .withMetadata({ orientation })
    .withExifMerge(CAMERA)
    .toBuffer();
  // Check: sharp's own auto-orientation puts the red block back in the top-left.
  const { data, info } = await sharp(jpeg).autoOrient().raw().toBuffer({ resolveWithObject: true });
  if (info.width !== width || info.height !== height) throw new Error(`orientation ${orientation}: size ${info.width}x${info.height}`);
  const at = (x, y) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
  const close = (a, b) => a.every((v, i) => Math.abs(v - b[i]) < 40);
  if (!close(at(5, 5), MARKERS.topLeft) || !close(at(width - 6, 5), MARKERS.topRight) || !close(at(5, height - 6), MARKERS.bottomLeft)) {
    throw new Error(`orientation ${orientation}: corner colours are wrong`);
  }
  const tags = await exifr.parse(jpeg, { reviveValues: false, translateValues: false, gps: true });
  if (tags.Orientation !== orientation || tags.latitude === undefined || tags.Make !== CAMERA.IFD0.Make) {
    throw new Error(`orientation ${orientation}: EXIF did not survive`);
  }
  return jpeg;
}

const XMP = `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmp:Rating="4"
    xmp:Label="Green">
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Harbour at dusk &amp; boats</rdf:li></rdf:Alt></dc:title>
   <dc:description><rdf:Alt><rdf:li xml:lang="x-default">Taken from the north pier.</rdf:li></rdf:Alt></dc:description>
   <dc:subject><rdf:Bag><rdf:li>harbour</rdf:li><rdf:li>boats</rdf:li><rdf:li>dusk</rdf:li></rdf:Bag></dc:subject>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;

async function xmpJpeg() {
  const jpeg = await sharp(await visualPicture(640, 480)).jpeg({ quality: 70, mozjpeg: true }).withXmp(XMP).toBuffer();
  const tags = await exifr.parse(jpeg, { tiff: false, xmp: { parse: false } });
  if (typeof tags?.xmp !== 'string' || !tags.xmp.includes('Harbour')) throw new Error('xmp fixture lost its packet');
  return jpeg;
}

async function transparentPng() {
  const width = 240;
  const height = 160;
  const data = Buffer.alloc(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      data[i] = Math.round((255 * x) / width);
      data[i + 1] = 120;
      data[i + 2] = Math.round((255 * y) / height);
      data[i + 3] = x < width / 2 ? 255 : 128;
    }
  }
  return sharp(data, { raw: { width, height, channels: 4 } }).png({ compressionLevel: 9, palette: true }).toBuffer();
}

/** A valid one-page PDF, written by hand so its bytes are known. */
function tinyPdf() {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    null,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  const stream = 'BT /F1 18 Tf 20 40 Td (Shoebox) Tj ET';
  objects[3] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
  let body = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((o, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const off of offsets) body += `${String(off).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** The other formats a browser decodes, small, each the visual picture at 96 x 64. */
async function otherFormat(format) {
  const picture = sharp(await visualPicture(96, 64));
  if (format === 'webp') return picture.webp({ quality: 70 }).toBuffer();
  if (format === 'avif') return picture.avif({ quality: 50, effort: 2 }).toBuffer();
  return picture.gif().toBuffer();
}

const SVG = `<?xml version="1.0" encoding="UTF-8"?>
<!-- A drawing: kept as a file, never rendered inline. -->
<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80">
  <rect width="120" height="80" fill="#2a6"/>
  <script>alert('never run')</script>
</svg>
`;

/**
 * A JPEG whose header is intact (SOI, tables, SOF with a sane size) but whose scan data is noise and stops
 * early: the header parser sees 640x480, the decoder fails.
 */
async function corruptJpeg() {
  const good = await sharp(await visualPicture(640, 480)).jpeg({ quality: 70 }).toBuffer();
  let sos = -1;
  for (let i = 2; i < good.length - 1; i++) {
    if (good[i] === 0xff && good[i + 1] === 0xda) {
      sos = i;
      break;
    }
  }
  if (sos < 0) throw new Error('no SOS in the corrupt-jpeg source');
  const headerEnd = sos + 2 + good.readUInt16BE(sos + 2);
  // Cut inside the first scan, and garble the Huffman tables so no decoder can make pixels of it.
  const cut = Buffer.from(good.subarray(0, headerEnd + 40));
  for (let i = 2; i < sos - 1; i++) {
    if (cut[i] === 0xff && cut[i + 1] === 0xc4) {
      const len = cut.readUInt16BE(i + 2);
      for (let j = i + 5; j < i + 2 + len; j++) cut[j] = 0xff ^ cut[j];
    }
  }
  return cut;
}

/** A PNG whose header claims 40,000 x 100 pixels (over the 30,000 px side limit); the body is not a real image. */
function hugeHeaderPng() {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type, data) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(40_000, 0);
  ihdr.writeUInt32BE(100, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** 1.5 s of 320x240 VP8 recorded by Chromium from a canvas (a moving square over a colour that changes). */
async function recordWebm() {
  const { chromium } = await import('playwright-core');
  const { chromiumArgs, chromiumPath } = await import('./chromium.mjs');
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: chromiumArgs });
  try {
    const page = await browser.newPage();
    const base64 = await page.evaluate(async () => {
      const canvas = document.createElement('canvas');
      canvas.width = 320;
      canvas.height = 240;
      const ctx = canvas.getContext('2d');
      const stream = canvas.captureStream(25);
      const rec = new MediaRecorder(stream, { mimeType: 'video/webm;codecs=vp8', videoBitsPerSecond: 150_000 });
      const chunks = [];
      rec.ondataavailable = (e) => chunks.push(e.data);
      const done = new Promise((r) => (rec.onstop = r));
      rec.start();
      const t0 = performance.now();
      await new Promise((resolve) => {
        const draw = () => {
          const t = (performance.now() - t0) / 1000;
          ctx.fillStyle = `hsl(${Math.round(t * 200)}, 70%, 45%)`;
          ctx.fillRect(0, 0, 320, 240);
          ctx.fillStyle = '#fff';
          ctx.fillRect(20 + t * 150, 90, 60, 60);
          if (t < 1.5) requestAnimationFrame(draw);
          else resolve();
        };
        draw();
      });
      rec.stop();
      await done;
      const buf = new Uint8Array(await new Blob(chunks, { type: 'video/webm' }).arrayBuffer());
      let s = '';
      for (const b of buf) s += String.fromCharCode(b);
      return btoa(s);
    });
    return Buffer.from(base64, 'base64');
  } finally {
    await browser.close();
  }
}

/**
 * A fixture JPEG's picture encoded as JPEG XL by libjxl's cjxl (Debian: libjxl-tools), from its pixels: the
 * codestream's header carries the EXIF orientation, which the decoder applies, and no EXIF is kept (a JPEG
 * recompressed losslessly would keep its EXIF brotli-compressed, which the place remover cannot blank).
 */
async function jpegXl(jpegName) {
  ensureDebianTool('cjxl', ['--version'], 'libjxl-tools');
  const dir = await mkdtemp(join(tmpdir(), 'shoebox-jxl-'));
  try {
    const r = spawnSync('cjxl', [join(out, jpegName), join(dir, 'out.jxl'), '--lossless_jpeg=0', '-d', '1', '--container=0'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cjxl failed: ${r.stderr}`);
    return await readFile(join(dir, 'out.jxl'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The camera fixtures (tests/fixtures/camera/): the same photograph as PNG, WebP, TIFF and HEIC, each with its
 * own camera, lens, exposure, capture time and offset written by ExifTool, the Eiffel Tower's position (which
 * the metadata reader must never read), and, in the TIFF, an XMP title (its tag 700).
 */
const CAMERA_FORMATS = {
  'camera.png': { Make: 'Shoebox Optics', Model: 'Fixture PNG', LensModel: 'Fixture 24mm F1.4', DateTimeOriginal: '2022:01:02 03:04:05', OffsetTimeOriginal: '-03:30', ExposureTime: '1/60', FNumber: '1.4', ISO: '800', FocalLength: '24', Orientation: 3 },
  'camera.webp': { Make: 'Shoebox Optics', Model: 'Fixture WebP', LensModel: 'Fixture 50mm F1.8', DateTimeOriginal: '2021:12:31 23:59:59', OffsetTimeOriginal: '+09:00', ExposureTime: '1/1000', FNumber: '1.8', ISO: '100', FocalLength: '50', Orientation: 8 },
  'camera.tiff': { Make: 'Shoebox Optics', Model: 'Fixture TIFF', LensModel: 'Fixture 90mm F4', DateTimeOriginal: '2020:06:15 12:00:00', OffsetTimeOriginal: '+05:45', ExposureTime: '2', FNumber: '4', ISO: '64', FocalLength: '90', Orientation: 6 },
  'camera.heic': { Make: 'Apple', Model: 'iPhone 15 Pro', LensModel: 'iPhone 15 Pro back triple camera 6.765mm f/1.78', DateTimeOriginal: '2024:09:20 08:15:30', SubSecTimeOriginal: '123', OffsetTimeOriginal: '-07:00', ExposureTime: '1/120', FNumber: '1.78', ISO: '50', FocalLength: '6.765', Orientation: 6 },
};

/** ExifTool's arguments for `tags` and the Eiffel Tower's position. */
function exiftoolArgs(tags) {
  const args = ['-q', '-overwrite_original', '-n'];
  for (const [name, value] of Object.entries(tags)) args.push(`-EXIF:${name}=${value}`);
  args.push('-EXIF:GPSLatitude=48.858222', '-EXIF:GPSLatitudeRef=N', '-EXIF:GPSLongitude=2.2945', '-EXIF:GPSLongitudeRef=E');
  return args;
}

/**
 * The `ftyp` an iPhone on iOS 18 writes on an adaptive-HDR photo: 52 bytes, nine compatible brands among them
 * `tmap`. exifr 7.1.3 takes any `ftyp` over 50 bytes for something other than HEIF and reads nothing.
 */
const IOS18_BRANDS = ['mif1', 'MiHE', 'MiPr', 'miaf', 'MiHB', 'heic', 'tmap', 'hevc', 'unif'];

/** `heic` with its `ftyp` replaced by iOS 18's, the `iloc` file offsets moved by as much as the box grew. */
function withIos18Ftyp(heic) {
  const ftypSize = heic.readUInt32BE(0);
  const ftyp = Buffer.alloc(16 + 4 * IOS18_BRANDS.length);
  ftyp.writeUInt32BE(ftyp.length, 0);
  ftyp.write('ftypheic', 4, 'latin1');
  IOS18_BRANDS.forEach((b, i) => ftyp.write(b, 16 + 4 * i, 'latin1'));
  const rest = Buffer.from(heic.subarray(ftypSize));
  shiftIloc(rest, ftyp.length - ftypSize);
  return Buffer.concat([ftyp, rest]);
}

/** Moves every file offset in the first `iloc` box of `bytes` by `shift`, in place: data after it moved. */
function shiftIloc(bytes, shift) {
  const iloc = bytes.indexOf('iloc') - 4;
  if (iloc < 0) throw new Error('HEIF fixture: no iloc');
  const { offsetSize, baseSize, items } = ilocItems(bytes, iloc);
  const move = (n, at) => writeN(bytes, n, at, readN(bytes, n, at) + shift);
  for (const { method, baseAt, extents } of items) {
    if (method !== 0) continue;
    if (baseSize) move(baseSize, baseAt);
    else for (const { offsetAt } of extents) move(offsetSize, offsetAt);
  }
}

/**
 * The `ipma` at `ipmaStart` of `bytes` (version 0, 1-byte indexes) with associations added: `add` maps an item to
 * the property indexes (with the essential bit, 0x80, as wanted) it gains; items not in it yet get an entry.
 */
function ipmaWith(bytes, ipmaStart, add) {
  if (bytes[ipmaStart + 8] !== 0 || bytes.readUIntBE(ipmaStart + 9, 3) & 1) throw new Error('HEIF fixture: an ipma this does not rewrite');
  const count = bytes.readUInt32BE(ipmaStart + 12);
  const entries = [];
  const seen = new Set();
  const entry = (item, associations) => {
    const head = Buffer.alloc(3);
    head.writeUInt16BE(item);
    head[2] = associations.length;
    entries.push(head, associations);
  };
  let at = ipmaStart + 16;
  for (let i = 0; i < count; i++) {
    const item = bytes.readUInt16BE(at);
    const n = bytes[at + 2];
    seen.add(item);
    entry(item, Buffer.concat([bytes.subarray(at + 3, at + 3 + n), Buffer.from(add.get(item) ?? [])]));
    at += 3 + n;
  }
  const added = [...add].filter(([item]) => !seen.has(item));
  for (const [item, associations] of added) entry(item, Buffer.from(associations));
  const countField = Buffer.alloc(4);
  countField.writeUInt32BE(count + added.length);
  return withSize('ipma', Buffer.concat([bytes.subarray(ipmaStart + 8, ipmaStart + 12), countField, ...entries]));
}

/**
 * `heic` with an `irot` property (turn `angle` × 90° anticlockwise to display) given to its primary image, as
 * iPhones turn a photo held upright: the property appended to `ipco`, associated (essential) in `ipma`, the
 * boxes that hold them grown, and the `iloc` offsets of the data after them moved. heif-enc 1.15 writes none.
 */
function withRotation(heic, angle) {
  const top = heifBoxes(heic, 0, heic.length);
  const [, metaStart, metaEnd] = top.find(([t]) => t === 'meta');
  const children = heifBoxes(heic, metaStart + 12, metaEnd);
  const [, pitmStart] = children.find(([t]) => t === 'pitm');
  if (heic[pitmStart + 8] !== 0) throw new Error('HEIF fixture: pitm version');
  const primary = heic.readUInt16BE(pitmStart + 12);
  const rebuilt = children.map(([type, start, end]) => {
    if (type !== 'iprp') return heic.subarray(start, end);
    const inner = heifBoxes(heic, start + 8, end);
    const [, ipcoStart, ipcoEnd] = inner.find(([t]) => t === 'ipco');
    const index = heifBoxes(heic, ipcoStart + 8, ipcoEnd).length + 1;
    const ipco = withSize('ipco', Buffer.concat([heic.subarray(ipcoStart + 8, ipcoEnd), withSize('irot', Buffer.from([angle & 3]))]));
    const [, ipmaStart] = inner.find(([t]) => t === 'ipma');
    if (index > 127) throw new Error('HEIF fixture: too many properties');
    const ipma = ipmaWith(heic, ipmaStart, new Map([[primary, [0x80 | index]]]));
    return withSize('iprp', Buffer.concat(inner.map(([t, s, e]) => (t === 'ipco' ? ipco : t === 'ipma' ? ipma : heic.subarray(s, e)))));
  });
  const meta = withSize('meta', Buffer.concat([heic.subarray(metaStart + 8, metaStart + 12), ...rebuilt]));
  shiftIloc(meta, meta.length - (metaEnd - metaStart));
  return Buffer.concat([heic.subarray(0, metaStart), meta, heic.subarray(metaEnd)]);
}

/**
 * A HEIC held upright, as an iPhone stores one: the picture kept turned a quarter clockwise (64 × 96), with
 * `irot` 1 (a quarter anticlockwise) so a reader that applies it shows the visual picture, 96 × 64, its marker
 * corners where every orientation fixture has them.
 */
async function rotatedHeic() {
  ensureDebianTool('heif-enc', ['--version'], 'libheif-examples');
  const dir = await mkdtemp(join(tmpdir(), 'shoebox-irot-'));
  try {
    await sharp(await visualPicture(96, 64)).rotate(90).png().toFile(join(dir, 'stored.png'));
    const r = spawnSync('heif-enc', ['-q', '90', '-o', join(dir, 'stored.heic'), join(dir, 'stored.png')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`heif-enc failed: ${r.stderr}`);
    const bytes = withRotation(await readFile(join(dir, 'stored.heic')), 1);
    await writeFile(join(dir, 'rotated.heic'), bytes);
    // libheif reads it and applies the turn: heif-convert writes the picture 96 wide.
    const c = spawnSync('heif-convert', [join(dir, 'rotated.heic'), join(dir, 'out.png')], { encoding: 'utf8' });
    if (c.status !== 0) throw new Error(`heif-convert failed: ${c.stderr}`);
    const { width, height } = await sharp(join(dir, 'out.png')).metadata();
    if (width !== 96 || height !== 64) throw new Error(`rotated.heic decodes as ${width} × ${height}, not 96 × 64`);
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A HEIC laid out as phones write one, a grid of tiles (scripts/heif-grid.mjs), small: 200 × 150 in 64-pixel tiles,
 * the right and bottom ones cropped. `turned`: stored a quarter clockwise (150 × 200) with `irot` 1, as an
 * iPhone held upright stores it, so the turned grid's partial tiles come first. Either way it shows 200 × 150
 * with the orientation fixtures' marker corners.
 */
async function gridHeic(turned) {
  ensureDebianTool('heif-enc', ['--version'], 'libheif-examples');
  const visual = await visualPicture(200, 150);
  const stored = turned ? await sharp(visual).rotate(90).png().toBuffer() : visual;
  const grid = await encodeGridHeic(stored, { tile: 64, quality: 90 });
  return turned ? withRotation(grid, 1) : grid;
}

/** The auxiliary type of the HDR gain map iPhones (iOS 14 to 17) store beside the photo. */
const APPLE_GAIN_MAP = 'urn:com:apple:photo:2020:aux:hdrgainmap';

/**
 * `heic`, made by heif-enc from three pictures (items 1, 2 and 3), turned into what a camera writes beside one photo:
 * item `primary` the photo (`pitm`), item `gainMap` its HDR gain map (hidden, an `auxC` of Apple's gain-map type,
 * an `auxl` reference to the photo), the other a second top-level picture (as a burst keeps). The boxes that hold
 * them grow and the `iloc` offsets of the data after them move.
 */
function withGainMap(heic, primary, gainMap) {
  const top = heifBoxes(heic, 0, heic.length);
  const [, metaStart, metaEnd] = top.find(([t]) => t === 'meta');
  const children = heifBoxes(heic, metaStart + 12, metaEnd);
  if (children.some(([t]) => t === 'iref')) throw new Error('HEIF fixture: an iref this does not extend');
  const out = Buffer.from(heic);
  const [, pitmStart] = children.find(([t]) => t === 'pitm');
  if (out[pitmStart + 8] !== 0) throw new Error('HEIF fixture: pitm version');
  out.writeUInt16BE(primary, pitmStart + 12);
  const [, iinfStart, iinfEnd] = children.find(([t]) => t === 'iinf');
  const entriesAt = iinfStart + 12 + (out[iinfStart + 8] === 0 ? 2 : 4);
  const infe = heifBoxes(out, entriesAt, iinfEnd).find(([, s]) => out[s + 8] >= 2 && out.readUInt16BE(s + 12) === gainMap);
  if (!infe) throw new Error('HEIF fixture: no infe for the gain map');
  out[infe[1] + 11] |= 1; // flags: hidden
  const auxC = withSize('auxC', Buffer.concat([Buffer.alloc(4), Buffer.from(`${APPLE_GAIN_MAP}\0`, 'latin1')]));
  const ref = Buffer.alloc(6);
  ref.writeUInt16BE(gainMap, 0);
  ref.writeUInt16BE(1, 2);
  ref.writeUInt16BE(primary, 4);
  const iref = withSize('iref', Buffer.concat([Buffer.alloc(4), withSize('auxl', ref)]));
  const rebuilt = children.flatMap(([type, start, end]) => {
    if (type === 'iinf') return [out.subarray(start, end), iref];
    if (type !== 'iprp') return [out.subarray(start, end)];
    const inner = heifBoxes(out, start + 8, end);
    const [, ipcoStart, ipcoEnd] = inner.find(([t]) => t === 'ipco');
    const index = heifBoxes(out, ipcoStart + 8, ipcoEnd).length + 1;
    const ipco = withSize('ipco', Buffer.concat([out.subarray(ipcoStart + 8, ipcoEnd), auxC]));
    const [, ipmaStart] = inner.find(([t]) => t === 'ipma');
    if (index > 127) throw new Error('HEIF fixture: too many properties');
    const ipma = ipmaWith(out, ipmaStart, new Map([[gainMap, [0x80 | index]]]));
    return [withSize('iprp', Buffer.concat(inner.map(([t, s, e]) => (t === 'ipco' ? ipco : t === 'ipma' ? ipma : out.subarray(s, e)))))];
  });
  const meta = withSize('meta', Buffer.concat([out.subarray(metaStart + 8, metaStart + 12), ...rebuilt]));
  shiftIloc(meta, meta.length - (metaEnd - metaStart));
  return Buffer.concat([out.subarray(0, metaStart), meta, out.subarray(metaEnd)]);
}

/**
 * A HEIC of three pictures as a phone keeps them: a flat blue picture first (a second shot, top-level), a flat
 * white HDR gain map (hidden, auxiliary to the photo), and the photo last, named primary: the visual picture,
 * 96 × 64. Shown in SDR, the file is the photo alone: not the first picture, not brightened by its gain map.
 */
async function gainMapHeic() {
  ensureDebianTool('heif-enc', ['--version'], 'libheif-examples');
  const dir = await mkdtemp(join(tmpdir(), 'shoebox-gainmap-'));
  try {
    const flat = (width, height, background) => sharp({ create: { width, height, channels: 3, background } }).png();
    await flat(96, 64, { r: 20, g: 40, b: 220 }).toFile(join(dir, '1.png'));
    await flat(96, 64, { r: 255, g: 255, b: 255 }).toFile(join(dir, '2.png'));
    await sharp(await visualPicture(96, 64)).png().toFile(join(dir, '3.png'));
    const r = spawnSync('heif-enc', ['-q', '90', '-o', join(dir, 'three.heic'), join(dir, '1.png'), join(dir, '2.png'), join(dir, '3.png')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`heif-enc failed: ${r.stderr}`);
    const bytes = withGainMap(await readFile(join(dir, 'three.heic')), 3, 2);
    await writeFile(join(dir, 'gain-map.heic'), bytes);
    // libheif reads it: two top-level pictures, the photo primary; the gain map, hidden, is none of them.
    const info = spawnSync('heif-info', [join(dir, 'gain-map.heic')], { encoding: 'utf8' });
    if (!/image: 96x64 \(id=3\), primary/.test(info.stdout) || !/\(id=1\)/.test(info.stdout) || /\(id=2\)/.test(info.stdout)) {
      throw new Error(`gain-map.heic is not read as made: ${info.stdout}${info.stderr}`);
    }
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The parts of a `meta` box this rewrites: its children, with `pitm`'s primary item, and `iloc`'s field sizes.
 */
function metaParts(heic) {
  const [, metaStart, metaEnd] = heifBoxes(heic, 0, heic.length).find(([t]) => t === 'meta');
  const children = heifBoxes(heic, metaStart + 12, metaEnd);
  if (children.some(([t]) => t === 'iref' || t === 'grpl')) throw new Error('HEIF fixture: an iref or grpl this does not extend');
  return { metaStart, metaEnd, children };
}

const fullBox = (type, version, body) => withSize(type, Buffer.concat([Buffer.from([version, 0, 0, 0]), body]));
const u16 = (...values) => Buffer.from(values.flatMap((v) => [v >> 8, v & 255]));
const u32 = (...values) => Buffer.concat(values.map((v) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(v >>> 0);
  return b;
}));

/** `iloc` with one more item, its one extent at `offset` (a file offset), `length` bytes long. */
function ilocWithItem(iloc, item, offset, length) {
  const version = iloc[8];
  const offsetSize = iloc[12] >> 4, lengthSize = iloc[12] & 15, baseSize = iloc[13] >> 4, indexSize = version ? iloc[13] & 15 : 0;
  if (version > 1 || lengthSize !== 4 || ![0, 4].includes(baseSize) || (offsetSize !== 4 && !baseSize)) throw new Error('HEIF fixture: an iloc this does not extend');
  const count = iloc.readUInt16BE(14);
  const n = (size, v) => (size === 0 ? Buffer.alloc(0) : u32(v));
  const entry = Buffer.concat([
    u16(item), version ? u16(0) : Buffer.alloc(0), u16(0), n(baseSize, baseSize ? offset : 0), u16(1),
    Buffer.alloc(indexSize), n(offsetSize, baseSize ? 0 : offset), u32(length),
  ]);
  const out = Buffer.concat([iloc, entry]);
  out.writeUInt32BE(out.length, 0);
  out.writeUInt16BE(count + 1, 14);
  return out;
}

/** ISO 21496-1 gain map metadata (version 0, one channel): headroom 0 for the base, 1 (2×) for the HDR rendition. */
function gainMapMetadata() {
  return Buffer.concat([
    Buffer.from([0]), u16(0, 0), Buffer.from([0x40]),
    u32(0, 1, 1, 1), // base and alternate HDR headroom
    u32(0, 1, 1, 1, 1, 1, 1, 64, 1, 64), // gain map min, max, gamma, base and alternate offsets
  ]);
}

/**
 * `heic`, made by heif-enc from three pictures (items 1, 2 and 3, item 1 primary), turned into the layout of an
 * iPhone photo on iOS 18 with adaptive HDR: item 4 a `tmap` derived picture (ISO 21496-1) made from the photo and
 * item 2, its gain map (hidden), the two pictures alternatives in an `altr` group, the tone-mapped one first; item 3
 * Apple's own HDR gain map (hidden, `auxC`), auxiliary to both the photo and the `tmap` at once, which libheif
 * before 1.18 refused ("Too many auxiliary image references"). The `tmap`'s metadata goes in an `mdat` of its own
 * at the end; the `ftyp` is iOS 18's.
 */
function withToneMap(heic) {
  const { metaStart, metaEnd, children } = metaParts(heic);
  const [, pitmStart] = children.find(([t]) => t === 'pitm');
  if (heic[pitmStart + 8] !== 0 || heic.readUInt16BE(pitmStart + 12) !== 1) throw new Error('HEIF fixture: item 1 is not primary');
  const out = Buffer.from(heic);
  const metadata = gainMapMetadata();
  const rebuilt = children.flatMap(([type, start, end]) => {
    if (type === 'iinf') {
      const version = out[start + 8];
      const entriesAt = start + 12 + (version === 0 ? 2 : 4);
      const infes = heifBoxes(out, entriesAt, end).map(([, s, e]) => {
        const infe = Buffer.from(out.subarray(s, e));
        if (infe[8] >= 2 && [2, 3].includes(infe.readUInt16BE(12))) infe[11] |= 1; // hidden
        return infe;
      });
      const tmap = fullBox('infe', 2, Buffer.concat([u16(4, 0), Buffer.from('tmap\0', 'latin1')]));
      const count = version === 0 ? u16(infes.length + 1) : u32(infes.length + 1);
      const iref = fullBox('iref', 0, Buffer.concat([withSize('dimg', u16(4, 2, 1, 2)), withSize('auxl', u16(3, 2, 1, 4))]));
      return [fullBox('iinf', version, Buffer.concat([count, ...infes, tmap])), iref];
    }
    if (type === 'iloc') return [ilocWithItem(out.subarray(start, end), 4, heic.length + 8, metadata.length)];
    if (type !== 'iprp') return [out.subarray(start, end)];
    const inner = heifBoxes(out, start + 8, end);
    const [, ipcoStart, ipcoEnd] = inner.find(([t]) => t === 'ipco');
    const first = heifBoxes(out, ipcoStart + 8, ipcoEnd).length + 1;
    const auxC = withSize('auxC', Buffer.concat([Buffer.alloc(4), Buffer.from(`${APPLE_GAIN_MAP}\0`, 'latin1')]));
    const ispe = fullBox('ispe', 0, u32(96, 64));
    const ipco = withSize('ipco', Buffer.concat([out.subarray(ipcoStart + 8, ipcoEnd), auxC, ispe]));
    const [, ipmaStart] = inner.find(([t]) => t === 'ipma');
    if (first + 1 > 127) throw new Error('HEIF fixture: too many properties');
    const ipma = ipmaWith(out, ipmaStart, new Map([[3, [0x80 | first]], [4, [first + 1]]]));
    return [withSize('iprp', Buffer.concat(inner.map(([t, s, e]) => (t === 'ipco' ? ipco : t === 'ipma' ? ipma : out.subarray(s, e)))))];
  });
  const grpl = withSize('grpl', fullBox('altr', 0, u32(1000, 2, 4, 1)));
  const meta = withSize('meta', Buffer.concat([out.subarray(metaStart + 8, metaStart + 12), ...rebuilt, grpl]));
  shiftIloc(meta, meta.length - (metaEnd - metaStart));
  return withIos18Ftyp(Buffer.concat([out.subarray(0, metaStart), meta, out.subarray(metaEnd), withSize('mdat', metadata)]));
}

/**
 * An iPhone photo as iOS 18 stores one with adaptive HDR (see withToneMap): the photo the visual picture, 96 × 64;
 * its ISO gain map mid-grey, Apple's white. Shown in SDR, the file is the photo alone, not brightened.
 */
async function toneMapHeic() {
  ensureDebianTool('heif-enc', ['--version'], 'libheif-examples');
  const dir = await mkdtemp(join(tmpdir(), 'shoebox-tmap-'));
  try {
    const flat = (width, height, background) => sharp({ create: { width, height, channels: 3, background } }).png();
    await sharp(await visualPicture(96, 64)).png().toFile(join(dir, '1.png'));
    await flat(96, 64, { r: 128, g: 128, b: 128 }).toFile(join(dir, '2.png'));
    await flat(96, 64, { r: 255, g: 255, b: 255 }).toFile(join(dir, '3.png'));
    const r = spawnSync('heif-enc', ['-q', '90', '-o', join(dir, 'three.heic'), join(dir, '1.png'), join(dir, '2.png'), join(dir, '3.png')], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`heif-enc failed: ${r.stderr}`);
    const bytes = withToneMap(await readFile(join(dir, 'three.heic')));
    await writeFile(join(dir, 'ios18-hdr.heic'), bytes);
    // libheif before 1.18 refuses it as it refused iOS 18's photos; a later one shows the photo, item 1.
    const info = spawnSync('heif-info', [join(dir, 'ios18-hdr.heic')], { encoding: 'utf8' });
    const said = `${info.stdout}${info.stderr}`;
    if (!/Too many auxiliary image references/.test(said) && !/image: 96x64 \(id=1\), primary/.test(said)) throw new Error(`ios18-hdr.heic is not read as made: ${said}`);
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A camera fixture: the visual picture in `name`'s format, tagged by ExifTool, checked by ExifTool and exifr. */
async function cameraFixture(name) {
  ensureDebianTool('exiftool', ['-ver'], 'libimage-exiftool-perl');
  const tags = CAMERA_FORMATS[name];
  const dir = await mkdtemp(join(tmpdir(), 'shoebox-camera-'));
  try {
    const file = join(dir, name);
    const picture = sharp(await visualPicture(96, 64));
    if (name.endsWith('.png')) await picture.png().toFile(file);
    else if (name.endsWith('.webp')) await picture.webp({ quality: 70 }).toFile(file);
    else if (name.endsWith('.tiff')) await picture.tiff({ compression: 'lzw' }).toFile(file);
    else {
      ensureDebianTool('heif-enc', ['--version'], 'libheif-examples');
      await picture.png().toFile(join(dir, 'in.png'));
      const r = spawnSync('heif-enc', ['-q', '60', '-o', file, join(dir, 'in.png')], { encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`heif-enc failed: ${r.stderr}`);
    }
    const args = exiftoolArgs(tags);
    if (name.endsWith('.tiff')) args.push('-XMP-dc:Title=Fixture TIFF title');
    const r = spawnSync('exiftool', [...args, file], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`exiftool failed on ${name}: ${r.stderr}`);
    let bytes = await readFile(file);
    if (name.endsWith('.heic')) {
      bytes = withIos18Ftyp(bytes);
      await writeFile(file, bytes);
      // The point of this fixture: exifr no longer sees a HEIF file in it.
      const read = await exifr.parse(bytes, { tiff: true, exif: true }).catch(() => undefined);
      if (read?.Model) throw new Error('camera.heic: exifr reads it, so it is not the iOS 18 case');
    }
    // ExifTool still reads every tag, the position included, and libheif or libvips still decodes the picture.
    const check = spawnSync('exiftool', ['-j', '-n', '-EXIF:all', file], { encoding: 'utf8' });
    const [read] = JSON.parse(check.stdout);
    if (read.Model !== tags.Model || read.GPSLatitude === undefined || read.OffsetTimeOriginal !== tags.OffsetTimeOriginal) {
      throw new Error(`${name}: ExifTool does not read back what was written`);
    }
    if (name.endsWith('.heic')) {
      const info = spawnSync('heif-info', [file], { encoding: 'utf8' });
      if (info.status !== 0) throw new Error(`camera.heic: libheif cannot read it: ${info.stderr}`);
    } else {
      await sharp(bytes).raw().toBuffer();
    }
    return bytes;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await mkdir(join(out, 'camera'), { recursive: true });
const files = {
  'orientation-1.jpg': () => orientedJpeg(1, 2400, 1600),
  'orientation-3.jpg': () => orientedJpeg(3, 800, 600),
  'orientation-6.jpg': () => orientedJpeg(6, 2400, 1600),
  'orientation-8.jpg': () => orientedJpeg(8, 800, 600),
  'orientation-6.jxl': () => jpegXl('orientation-6.jpg'),
  'xmp.jpg': xmpJpeg,
  'transparent.png': transparentPng,
  'small.webp': () => otherFormat('webp'),
  'small.avif': () => otherFormat('avif'),
  'small.gif': () => otherFormat('gif'),
  'tiny.pdf': tinyPdf,
  'drawing.svg': () => Buffer.from(SVG, 'utf8'),
  'corrupt.jpg': corruptJpeg,
  'huge-header.png': hugeHeaderPng,
  ...Object.fromEntries(Object.keys(CAMERA_FORMATS).map((name) => [`camera/${name}`, () => cameraFixture(name)])),
  'camera/rotated.heic': rotatedHeic,
  'camera/grid.heic': () => gridHeic(false),
  'camera/grid-turned.heic': () => gridHeic(true),
  'camera/gain-map.heic': gainMapHeic,
  'camera/ios18-hdr.heic': toneMapHeic,
};
if (process.argv.includes('--video')) files['clip-320x240.webm'] = recordWebm;

// Names given (`node scripts/make-fixtures.mjs camera/camera.heic`) make only those.
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const [name, make] of Object.entries(files)) {
  if (only.length > 0 && !only.includes(name)) continue;
  const bytes = await make();
  await writeFile(join(out, name), bytes);
  console.log(`${name.padEnd(22)} ${(bytes.length / 1024).toFixed(1).padStart(7)} KiB`);
}
if (!process.argv.includes('--video')) {
  await readFile(join(out, 'clip-320x240.webm')).catch(() => {
    console.warn('clip-320x240.webm is missing: run with --video to record it');
  });
}
