import { afterEach, describe, expect, it, vi } from 'vitest';
import exifr from 'exifr';
import { thumbHashToRGBA } from 'thumbhash';
import { DEFAULT_LIMITS, overrideLimits } from '../config';
import { resetLimits } from '../testing/limits';
import { fixture, pixels } from '../testing/media-fixtures';
import { decodeHeif, decodeWhole } from './heif-decode';
import { libheif, openHeif } from './heif-tiles';
import { createMediaClient, processMedia } from './media-client';
import type { ProcessedMedia } from './media-types';
import { sniffType } from './sniff-type';
import { processVideo } from './video-poster';

const run = async (name: string) => {
  const blob = await fixture(name);
  return processMedia(blob, await sniffType(blob));
};

/** The colours the fixtures carry in their visual corners once oriented (see scripts/make-fixtures.mjs). */
const RED = [220, 30, 30];
const GREEN = [30, 190, 40];
const BLUE = [30, 60, 220];

const near = (px: number[], rgb: number[]) => rgb.every((v, i) => Math.abs(v - px[i]!) < 35);

/** A copy shows the visual picture the right way up: red top left, green top right, blue bottom left. */
function expectCorners(out: { at: (x: number, y: number) => number[] }): void {
  expect(near(out.at(0.05, 0.05), RED)).toBe(true);
  expect(near(out.at(0.95, 0.05), GREEN)).toBe(true);
  expect(near(out.at(0.05, 0.95), BLUE)).toBe(true);
}

/** The metadata-bearing parts of a WebP (RIFF chunks and VP8X flags) or a JPEG (APPn segments). */
function metadataParts(bytes: Uint8Array): string[] {
  const found: string[] = [];
  const ascii = (from: number, n: number) => String.fromCharCode(...bytes.subarray(from, from + n));
  if (ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    for (let pos = 12; pos + 8 <= bytes.length; ) {
      const fourcc = ascii(pos, 4);
      const size = view.getUint32(pos + 4, true);
      if (fourcc === 'VP8X') {
        const flags = bytes[pos + 8]!;
        if (flags & 0x08) found.push('VP8X:exif-flag');
        if (flags & 0x04) found.push('VP8X:xmp-flag');
      } else if (!['VP8 ', 'VP8L', 'ALPH', 'ANIM', 'ANMF', 'ICCP'].includes(fourcc)) {
        found.push(fourcc);
      }
      pos += 8 + size + (size & 1);
    }
    return found;
  }
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    for (let pos = 2; pos + 4 <= bytes.length && bytes[pos] === 0xff; ) {
      const marker = bytes[pos + 1]!;
      if (marker === 0xda) break;
      const length = (bytes[pos + 2]! << 8) | bytes[pos + 3]!;
      // APP0 (JFIF) is only a header; APP1 holds EXIF and XMP, APP13 IPTC, APP2 ICC or FlashPix.
      if (marker >= 0xe1 && marker <= 0xef) found.push(`APP${marker - 0xe0}:${ascii(pos + 4, 4)}`);
      pos += 2 + length;
    }
    return found;
  }
  return ['unknown-format'];
}

const bytesOf = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
const longEdge = (w: number, h: number, edge: number) => {
  const s = Math.min(1, edge / Math.max(w, h));
  return [Math.round(w * s), Math.round(h * s)];
};

afterEach(() => {
  resetLimits();
  vi.restoreAllMocks();
});

describe('processMedia: photos', () => {
  const cases = [
    { orientation: 1, visual: [2400, 1600] },
    { orientation: 3, visual: [800, 600] },
    { orientation: 6, visual: [2400, 1600] },
    { orientation: 8, visual: [800, 600] },
  ] as const;

  for (const { orientation, visual } of cases) {
    it(`orientation ${orientation}: turned exactly once, sized down (never up), red block in the top-left`, async () => {
      const media = await run(`orientation-${orientation}.jpg`);
      expect(media.kind).toBe('image');
      expect(media.notice).toBeNull();
      expect([media.width, media.height]).toEqual([...visual]);

      const preview = await pixels(media.preview!);
      expect([preview.width, preview.height]).toEqual(longEdge(visual[0], visual[1], 2048));
      const thumb = await pixels(media.thumb!);
      expect([thumb.width, thumb.height]).toEqual(longEdge(visual[0], visual[1], 480));
      for (const out of [preview, thumb]) {
        expectCorners(out);
      }
      expect(media.preview!.type).toBe('image/webp');
      expect(media.thumb!.type).toBe('image/webp');
    });
  }

  it('reads the capture date in UTC, camera and exposure, and a thumbhash under 40 bytes', async () => {
    const media = await run('orientation-6.jpg');
    expect(media.takenAt).toBe('2023-07-14T16:30:05.000Z');
    expect(media.metadata).toMatchObject({ cameraMake: 'Shoebox Optics', cameraModel: 'Fixture One', iso: 200, fNumber: 2.8 });
    const hash = Uint8Array.from(atob(media.thumbhash!), (c) => c.charCodeAt(0));
    expect(hash.length).toBeGreaterThan(5);
    expect(hash.length).toBeLessThan(40);
    const placeholder = thumbHashToRGBA(hash);
    // The placeholder keeps the landscape shape of the oriented photo.
    expect(placeholder.w).toBeGreaterThan(placeholder.h);
  });

  it('brings XMP title, description, rating, label and keywords through', async () => {
    const media = await run('xmp.jpg');
    expect(media.metadata).toEqual({
      title: 'Harbour at dusk & boats',
      description: 'Taken from the north pier.',
      rating: 4,
      label: 'Green',
      keywords: ['harbour', 'boats', 'dusk'],
    });
  });

  it('derived copies carry no EXIF, XMP or GPS, though the originals do', async () => {
    const original = await bytesOf(await fixture('orientation-6.jpg'));
    expect(metadataParts(original).some((p) => p.startsWith('APP1:Exif'))).toBe(true);
    expect(new TextDecoder('latin1').decode(original)).toContain('Shoebox Optics');
    expect((await exifr.gps(original)).latitude).toBeCloseTo(48.858, 2);
    const withXmp = await bytesOf(await fixture('xmp.jpg'));
    expect(new TextDecoder().decode(withXmp)).toContain('http://ns.adobe.com/xap/1.0/');

    for (const name of ['orientation-6.jpg', 'orientation-8.jpg', 'xmp.jpg']) {
      const media = await run(name);
      for (const blob of [media.preview!, media.thumb!]) {
        const bytes = await bytesOf(blob);
        expect(metadataParts(bytes)).toEqual([]);
        const text = new TextDecoder('latin1').decode(bytes);
        expect(text).not.toContain('Shoebox Optics');
        expect(text).not.toContain('Exif');
        expect(text).not.toContain('xap/1.0');
      }
    }
  });

  it('decodes WebP, AVIF and GIF the same way', async () => {
    for (const name of ['small.webp', 'small.avif', 'small.gif']) {
      const media = await run(name);
      expect(media).toMatchObject({ kind: 'image', width: 96, height: 64, notice: null });
      const thumb = await pixels(media.thumb!);
      expect([thumb.width, thumb.height]).toEqual([96, 64]);
      expect(near(thumb.at(0.05, 0.05), RED)).toBe(true);
    }
  });

  it('keeps transparency in the WebP copies', async () => {
    const media = await run('transparent.png');
    expect(media).toMatchObject({ kind: 'image', width: 240, height: 160, notice: null });
    const thumb = await pixels(media.thumb!);
    expect([thumb.width, thumb.height]).toEqual([240, 160]);
    expect(thumb.at(0.1, 0.5)[3]).toBe(255);
    expect(Math.abs(thumb.at(0.9, 0.5)[3]! - 128)).toBeLessThan(8);
  });
});

describe('processMedia: HEIF, which only Safari decodes itself', () => {
  /** The HEIC photograph of the privacy tests, and the offset of its `ispe` (image size) property's width. */
  const heic = async () => {
    const bytes = await bytesOf(await fixture('location/astronaut.heic'));
    const at = new TextDecoder('latin1').decode(bytes).indexOf('ispe') + 8;
    return { bytes, at };
  };

  it('gives a HEIC a preview, a thumbnail and a placeholder, decoded by libheif in the worker', async () => {
    const media = await run('location/astronaut.heic');
    expect(media).toMatchObject({ kind: 'image', mime: 'image/heic', width: 256, height: 256, notice: null });
    expect(media.thumbhash).toBeTruthy();
    const thumb = await pixels(media.thumb!);
    expect([thumb.width, thumb.height]).toEqual([256, 256]);
    // A photograph, not a blank square: light and dark parts across it.
    const grid = [0.1, 0.3, 0.5, 0.7, 0.9].flatMap((x) => [0.1, 0.3, 0.5, 0.7, 0.9].map((y) => thumb.at(x, y)));
    const light = grid.map(([r, g, b]) => 0.3 * r! + 0.59 * g! + 0.11 * b!);
    expect(Math.max(...light) - Math.min(...light)).toBeGreaterThan(80);
    expect(metadataParts(await bytesOf(media.preview!))).toEqual([]);
  });

  it('turns a HEIC as its irot property says, as iPhones store a photo held upright', async () => {
    // Stored 64 × 96, a quarter clockwise; irot 1 turns it a quarter back (scripts/make-fixtures.mjs).
    const media = await run('camera/rotated.heic');
    expect(media).toMatchObject({ kind: 'image', mime: 'image/heic', width: 96, height: 64, notice: null });
    for (const out of [await pixels(media.preview!), await pixels(media.thumb!)]) {
      expect([out.width, out.height]).toEqual([96, 64]);
      expectCorners(out);
    }
  });

  it('takes the primary picture of a HEIC holding several, as its SDR photo: not the first, not its HDR gain map', async () => {
    // A blue second shot first, then a white gain map auxiliary to the photo, then the photo, named primary.
    const media = await run('camera/gain-map.heic');
    expect(media).toMatchObject({ kind: 'image', mime: 'image/heic', width: 96, height: 64, notice: null });
    for (const out of [await pixels(media.preview!), await pixels(media.thumb!)]) {
      expectCorners(out);
    }
  });

  it('shows an iOS 18 adaptive-HDR HEIC (a tmap picture and gain maps shared with the photo) as its SDR photo', async () => {
    // libheif before 1.18 refused such a file outright; the tone-mapped alternative and both gain maps are not the photo.
    const media = await run('camera/ios18-hdr.heic');
    expect(media).toMatchObject({ kind: 'image', mime: 'image/heic', width: 96, height: 64, notice: null });
    for (const out of [await pixels(media.preview!), await pixels(media.thumb!)]) {
      expect([out.width, out.height]).toEqual([96, 64]);
      expectCorners(out);
    }
  });

  it("reads the capture time with its offset, camera and lens of an iOS 18 HEIC, a WebP, a PNG and a TIFF in the worker, and no place", async () => {
    const expected = {
      'camera/camera.heic': { takenAt: '2024-09-20T15:15:30.123Z', cameraModel: 'iPhone 15 Pro', fNumber: 1.78, iso: 50 },
      'camera/camera.webp': { takenAt: '2021-12-31T14:59:59.000Z', cameraModel: 'Fixture WebP', fNumber: 1.8, iso: 100 },
      'camera/camera.png': { takenAt: '2022-01-02T06:34:05.000Z', cameraModel: 'Fixture PNG', fNumber: 1.4, iso: 800 },
      'camera/camera.tiff': { takenAt: '2020-06-15T06:15:00.000Z', cameraModel: 'Fixture TIFF', fNumber: 4, iso: 64 },
    };
    for (const [name, { takenAt, ...fields }] of Object.entries(expected)) {
      const media = await run(name);
      expect(media.kind, name).toBe('image');
      expect(media.notice, name).toBeNull();
      expect(media.takenAt, name).toBe(takenAt);
      expect(media.metadata, name).toMatchObject(fields);
      expect(JSON.stringify(media.metadata), name).not.toMatch(/48\.85|2\.29|latitude|longitude|GPS/i);
    }
  });

  it("decodes a phone's grid HEIC on two threads into the pixels libheif gives whole, turned as irot says", async () => {
    const lib = await libheif();
    const turned = await bytesOf(await fixture('camera/grid-turned.heic'));
    const irot = new TextDecoder('latin1').decode(turned).indexOf('irot') + 4;
    // The turned fixture with each of the four quarter turns anticlockwise, and the unturned one.
    const cases = [0, 1, 2, 3].map((turns) => {
      const bytes = turned.slice();
      bytes[irot] = turns;
      return { name: `grid-turned.heic, irot ${turns}`, bytes, orientation: [1, 8, 3, 6][turns]! };
    });
    cases.push({ name: 'grid.heic', bytes: await bytesOf(await fixture('camera/grid.heic')), orientation: 1 });
    for (const { name, bytes, orientation } of cases) {
      // 64-pixel tiles, the edge ones cropped: more than one tile row, so the rows are split between two threads.
      const file = openHeif(lib, bytes);
      const { tiling } = file;
      file.close();
      expect(tiling.rows, name).toBeGreaterThan(1);
      const halves = await decodeHeif(new Blob([bytes]), () => true);
      const whole = await decodeWhole(lib, bytes);
      expect(halves.orientation, name).toBe(orientation);
      // The stored picture's pixel (x, y) is where the orientation puts it in libheif's turned one.
      const [W, H] = [halves.width, halves.height];
      const shown = (x: number, y: number): [number, number] =>
        orientation === 1 ? [x, y] : orientation === 3 ? [W - 1 - x, H - 1 - y] : orientation === 6 ? [H - 1 - y, x] : [y, W - 1 - x];
      expect([whole.width, whole.height], name).toEqual(orientation >= 5 ? [H, W] : [W, H]);
      let differ = 0;
      for (let y = 0; y < H; y++) {
        for (let x = 0; x < W; x++) {
          const [sx, sy] = shown(x, y);
          const a = (y * W + x) * 4;
          const b = (sy * whole.width + sx) * 4;
          for (let c = 0; c < 4; c++) if (halves.data[a + c] !== whole.data[b + c]) differ++;
        }
      }
      expect(differ, name).toBe(0);
    }
    for (const name of ['camera/grid.heic', 'camera/grid-turned.heic']) {
      const media = await run(name);
      expect(media, name).toMatchObject({ kind: 'image', mime: 'image/heic', width: 200, height: 150, notice: null });
      for (const out of [await pixels(media.preview!), await pixels(media.thumb!)]) expectCorners(out);
    }
  });

  it('keeps a grid HEIC with a cut tile as a file with the image/undecodable notice', async () => {
    const bytes = await bytesOf(await fixture('camera/grid.heic'));
    // The last tiles' data (the helper's half) cut short.
    const cut = new Blob([bytes.slice(0, bytes.length - 1500)]);
    expect(await processMedia(cut, await sniffType(cut))).toMatchObject({ kind: 'file', mime: 'image/heic', notice: 'image/undecodable', preview: null });
  });

  it('keeps a cut HEIC as a file with the image/undecodable notice', async () => {
    const { bytes } = await heic();
    const cut = new Blob([bytes.slice(0, Math.floor(bytes.length / 3))]);
    expect(await processMedia(cut, await sniffType(cut))).toMatchObject({ kind: 'file', mime: 'image/heic', notice: 'image/undecodable', preview: null });
  });

  it('refuses a HEIC that declares 100,000 × 100,000 pixels without decoding it', async () => {
    const { bytes, at } = await heic();
    const view = new DataView(bytes.buffer);
    view.setUint32(at, 100_000);
    view.setUint32(at + 4, 100_000);
    const bomb = new Blob([bytes]);
    expect(await processMedia(bomb, await sniffType(bomb))).toMatchObject({ kind: 'file', notice: 'image/too-large', preview: null });
  });
});

describe('processMedia: JPEG XL, which only Safari decodes itself', () => {
  it('gives a JPEG XL a preview and a thumbnail, decoded by libjxl in the worker and turned as its header says', async () => {
    // orientation-6.jpg recompressed by cjxl: stored 1600 × 2400, orientation 6, seen 2400 × 1600.
    const media = await run('orientation-6.jxl');
    expect(media).toMatchObject({ kind: 'image', mime: 'image/jxl', width: 2400, height: 1600, notice: null });
    expect(media.thumbhash).toBeTruthy();
    const preview = await pixels(media.preview!);
    expect([preview.width, preview.height]).toEqual(longEdge(2400, 1600, 2048));
    for (const out of [preview, await pixels(media.thumb!)]) {
      expectCorners(out);
    }
    expect(metadataParts(await bytesOf(media.preview!))).toEqual([]);
  });

  it('keeps a cut JPEG XL as a file with the image/undecodable notice', async () => {
    const bytes = await bytesOf(await fixture('orientation-6.jxl'));
    const cut = new Blob([bytes.slice(0, Math.floor(bytes.length / 2))]);
    expect(await processMedia(cut, await sniffType(cut))).toMatchObject({ kind: 'file', mime: 'image/jxl', notice: 'image/undecodable', preview: null });
  });
});

describe('processMedia: bombs in the formats the worker decodes itself', () => {
  /** A bare JPEG XL codestream whose size header says `side` × `side`, and nothing decodable after it. */
  function jxlDeclaring(side: number): Uint8Array {
    const bits: number[] = [];
    const put = (value: number, count: number) => {
      for (let i = 0; i < count; i++) bits.push((value >> i) & 1);
    };
    put(0, 1); // not a multiple of 8
    put(2, 2); // height: 18 bits follow
    put(side - 1, 18);
    put(0, 3); // no aspect ratio: the width follows
    put(2, 2);
    put(side - 1, 18);
    const bytes = new Uint8Array(2 + Math.ceil(bits.length / 8) + 64);
    bytes.set([0xff, 0x0a]);
    bits.forEach((b, i) => (bytes[2 + (i >> 3)]! |= b << (i & 7)));
    return bytes;
  }

  /** An uncompressed RGB TIFF whose first IFD says `side` × `side` in one strip, and a few bytes of pixels. */
  function tiffDeclaring(side: number): Uint8Array {
    const entries: [tag: number, type: number, value: number][] = [
      [256, 4, side], [257, 4, side], [258, 3, 8], [259, 3, 1], [262, 3, 2], [273, 4, 200], [277, 3, 3], [278, 4, side], [279, 4, 0xffffffff],
    ];
    const bytes = new Uint8Array(256);
    const view = new DataView(bytes.buffer);
    bytes.set([0x49, 0x49, 42, 0]);
    view.setUint32(4, 8, true);
    view.setUint16(8, entries.length, true);
    entries.forEach(([tag, type, value], i) => {
      const at = 10 + i * 12;
      view.setUint16(at, tag, true);
      view.setUint16(at + 2, type, true);
      view.setUint32(at + 4, 1, true);
      if (type === 3) view.setUint16(at + 8, value, true);
      else view.setUint32(at + 8, value, true);
    });
    return bytes;
  }

  it('refuses a JPEG XL and a TIFF that declare 100,000 × 100,000 pixels within a second, without decoding them', async () => {
    for (const [bytes, mime] of [[jxlDeclaring(100_000), 'image/jxl'], [tiffDeclaring(100_000), 'image/tiff']] as const) {
      const bomb = new Blob([bytes as Uint8Array<ArrayBuffer>]);
      const t0 = performance.now();
      expect(await processMedia(bomb, await sniffType(bomb)), mime).toMatchObject({ kind: 'file', mime, notice: 'image/too-large', preview: null });
      expect(performance.now() - t0, mime).toBeLessThan(1000);
    }
    // The same headers at a size within the limits are read as such: the refusal above is the size's.
    const small = new Blob([jxlDeclaring(100) as Uint8Array<ArrayBuffer>]);
    expect(await processMedia(small, await sniffType(small))).toMatchObject({ kind: 'file', mime: 'image/jxl', notice: 'image/undecodable' });
  });
});

describe('processMedia: files kept as files', () => {
  it('keeps a corrupt JPEG as a file with the image/undecodable notice', async () => {
    const media = await run('corrupt.jpg');
    expect(media).toMatchObject({ kind: 'file', mime: 'image/jpeg', notice: 'image/undecodable', preview: null, thumb: null, thumbhash: null });
    expect(media.metadata.notice).toBe('image/undecodable');
  });

  it('refuses an image whose header is over the limits without decoding it', async () => {
    // The main-thread client, so the browser's decoder can be watched from here.
    const client = createMediaClient({ createWorker: () => { throw new Error('no workers here'); } });
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const decode = vi.spyOn(globalThis, 'createImageBitmap');
    const blob = await fixture('huge-header.png');
    const media = await client.processMedia(blob, await sniffType(blob));
    expect(media).toMatchObject({ kind: 'file', mime: 'image/png', notice: 'image/too-large', preview: null, thumb: null });
    expect(decode).not.toHaveBeenCalled();
    // The same client decodes a picture within the limits: the spy sees real decodes.
    const photo = await fixture('orientation-3.jpg');
    expect((await client.processMedia(photo, await sniffType(photo))).kind).toBe('image');
    expect(decode).toHaveBeenCalled();
    client.dispose();
  });

  it('applies the configured limits inside the worker too', async () => {
    overrideLimits({ maxDecodePixels: 1_000_000 });
    expect((await run('orientation-1.jpg')).notice).toBe('image/too-large');
    resetLimits();
    expect((await run('orientation-1.jpg')).notice).toBeNull();
  });

  it('keeps SVG and PDF as plain files with no derived copies', async () => {
    for (const [name, mime] of [['drawing.svg', 'image/svg+xml'], ['tiny.pdf', 'application/pdf']] as const) {
      const media = await run(name);
      expect(media).toEqual({
        kind: 'file',
        mime,
        width: null,
        height: null,
        durationMs: null,
        takenAt: null,
        thumb: null,
        preview: null,
        thumbhash: null,
        metadata: {},
        notice: null,
      } satisfies ProcessedMedia);
    }
  });
});

describe('processMedia: videos', () => {
  it('gives a poster frame, the duration and the frame size', async () => {
    const media = await run('clip-320x240.webm');
    expect(media).toMatchObject({ kind: 'video', mime: 'video/webm', width: 320, height: 240, notice: null });
    expect(media.durationMs).toBeGreaterThan(1200);
    expect(media.durationMs).toBeLessThan(1900);
    const poster = await pixels(media.preview!);
    expect([poster.width, poster.height]).toEqual([320, 240]);
    // The poster is a real frame: the white square of the clip is somewhere on it, over a coloured background.
    const samples = Array.from({ length: 40 }, (_, i) => poster.at(i / 40, 0.5));
    expect(samples.some((p) => p[0]! > 230 && p[1]! > 230 && p[2]! > 230)).toBe(true);
    expect(samples.some((p) => Math.max(p[0]!, p[1]!, p[2]!) - Math.min(p[0]!, p[1]!, p[2]!) > 60)).toBe(true);
    expect(media.thumb).not.toBeNull();
    expect(media.thumbhash).not.toBeNull();
  });

  it('gives up on a video that does not answer in time, keeping it as a video', async () => {
    const blob = await fixture('clip-320x240.webm');
    const media = await processVideo(blob, await sniffType(blob), { limits: DEFAULT_LIMITS, timeoutMs: 1 });
    expect(media).toMatchObject({ kind: 'video', mime: 'video/webm', preview: null, thumb: null });
  });

  it('keeps a video the browser cannot play as a video without a poster, quickly', async () => {
    const broken = new Blob([(await fixture('clip-320x240.webm')).slice(0, 200), new Uint8Array(5000).fill(7)]);
    const started = performance.now();
    const media = await processMedia(broken, { mime: 'video/webm', kind: 'video', decodable: false });
    expect(media).toMatchObject({ kind: 'video', preview: null, thumb: null, thumbhash: null });
    expect(performance.now() - started).toBeLessThan(16_000);
  });
});
