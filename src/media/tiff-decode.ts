/**
 * [Note: Decoding TIFF in the worker]
 * No browser shows TIFF but Safari, and scanners, editors and some cameras write it. The media worker reads it with
 * geotiff (MIT, plain JavaScript), loaded the first time a TIFF is met. geotiff parses the IFDs and undoes the
 * compression (none, Deflate, PackBits, JPEG; LZW, the most common, is ours: tiff-lzw.ts) strip by strip or tile by
 * tile; the rest is done here, one block at a time straight into the RGBA output, so a 16-bit scan never has a
 * second full-size copy of itself in memory:
 * - the page is the first full-resolution image (a reduced-resolution preview or a transparency mask is skipped);
 * - its declared size is checked against the decode limits before anything else is read, and every strip or tile
 *   must lie inside the file (a truncated file fails at once instead of decoding into garbage);
 * - samples of 1 to 16 bits are scaled to 8 by value (a 16-bit sample is rounded, read in the file's byte order);
 * - horizontal differencing (Predictor 2) is undone here, in the file's byte order, because geotiff undoes it in the
 *   machine's, which breaks 16-bit samples of a big-endian file (its late-loaded tag values have the same fault,
 *   so a big-endian file's IFD is read whole);
 * - grey, RGB, palette, CMYK (plain ink arithmetic, no ICC profile) and YCbCr are turned into RGB; associated
 *   (premultiplied) alpha is divided out, since ImageData holds unassociated alpha;
 * - the Orientation tag is returned, not applied: the pipeline turns the picture once ([Note: One decode, oriented
 *   once] in image-pipeline.ts).
 * geotiff's worker pool is never created (no pool is passed), so it starts no worker of its own.
 */
import { fromArrayBuffer, getDecoder, type GeoTIFFImage } from 'geotiff';
import type { DecodedPixels } from './canvas-surface';
import { TooLargeToDecode } from './image-header';
import { decodeLzw } from './tiff-lzw';

export type { DecodedPixels } from './canvas-surface';

/** Thrown when the page's declared size fails `fits` (checked before any pixel is decoded). */
export class TiffTooLarge extends TooLargeToDecode {}

/** IFDs looked at before giving up on finding a full-resolution one (a loop of IFD offsets ends here too). */
const MAX_PAGES = 64;
/** More samples than any colour model plus a few extra channels: a corrupt header. */
const MAX_SAMPLES = 16;
/** A strip or tile may be larger than the picture, but not without bound (its decoder allocates it whole). */
const MAX_BLOCK_PIXELS = 4096 * 4096;

const PHOTOMETRIC = { whiteIsZero: 0, blackIsZero: 1, rgb: 2, palette: 3, separated: 5, yCbCr: 6 } as const;
const COMPRESSION_LZW = 5;
const COMPRESSION_JPEG = 7;
const EXTRA_SAMPLE_ASSOCIATED = 1;
const EXTRA_SAMPLE_UNASSOCIATED = 2;

type ColourModel = 'grey' | 'inverted-grey' | 'rgb' | 'palette' | 'cmyk' | 'ycbcr';

/** Everything the block loop needs to know about the page, read and checked once. */
interface Layout {
  width: number;
  height: number;
  samples: number;
  bits: number;
  littleEndian: boolean;
  planar: 1 | 2;
  predictor: 1 | 2;
  tiled: boolean;
  blockWidth: number;
  blockHeight: number;
  blocksAcross: number;
  blocksDown: number;
  model: ColourModel;
  /** Sample index of the alpha channel, or -1. */
  alpha: number;
  premultiplied: boolean;
  /** Palette: red, green, blue at 8 bits for each index. */
  palette: Uint8Array | null;
  /** YCbCr → RGB factors: red from Cr, blue from Cb, and the luma weights of red, green, blue. */
  yCbCr: { red: number; blue: number; lumaRed: number; lumaGreen: number; lumaBlue: number };
}

/**
 * The first page (the first full-resolution image: skip reduced-resolution IFDs, NewSubfileType bit 0) of a TIFF
 * as RGBA. Throws TiffTooLarge past `fits`, any other Error for a file it cannot read.
 */
export async function decodeTiff(
  bytes: ArrayBuffer,
  fits: (size: { width: number; height: number }) => boolean,
): Promise<DecodedPixels> {
  const tiff = await fromArrayBuffer(bytes);
  // geotiff 3.0.5 reads a tag's values that it loads later (strip offsets of a file with many strips, say) as
  // little-endian whatever the file's byte order; loaded with their IFD, they are read in the file's order.
  if (!tiff.littleEndian) tiff.parser.eager = true;
  const image = await firstFullImage(tiff);
  const width = image.getWidth();
  const height = image.getHeight();
  if (!(width > 0 && height > 0)) throw new Error('TIFF page without a size');
  if (!fits({ width, height })) throw new TiffTooLarge(`${width} × ${height}`);

  const layout = await readLayout(image, width, height);
  const blocks = await blockPlaces(image, layout);
  for (const { offset, length } of blocks) {
    if (!(offset >= 0 && length >= 0 && offset + length <= bytes.byteLength)) throw new Error('TIFF file is truncated');
  }
  const compression = Number(image.fileDirectory.getValue('Compression') ?? 1);
  const decoder = compression === COMPRESSION_LZW ? lzwDecoder(layout) : await getDecoder(compression, {
    tileWidth: layout.blockWidth,
    tileHeight: layout.blockHeight,
    planarConfiguration: layout.planar,
    bitsPerSample: Array<number>(layout.samples).fill(layout.bits),
    // Undone here, in the file's byte order (see the note above).
    predictor: 1,
    samplesPerPixel: layout.samples,
    ...(compression === COMPRESSION_JPEG ? { JPEGTables: await image.fileDirectory.loadValue('JPEGTables') } : {}),
  });

  const out = new Uint8ClampedArray(width * height * 4);
  const file = new Uint8Array(bytes);
  const planes = layout.planar === 2 ? usedSamples(layout) : [0];
  const perPlane = layout.blocksAcross * layout.blocksDown;
  const scratch = scratchFor(layout);
  const luts = lutsFor(layout);
  for (let by = 0; by < layout.blocksDown; by++) {
    for (let bx = 0; bx < layout.blocksAcross; bx++) {
      const rows = layout.tiled ? layout.blockHeight : Math.min(layout.blockHeight, height - by * layout.blockHeight);
      for (const sample of planes) {
        if (compression === COMPRESSION_JPEG) {
          const place = blocks[sample * perPlane + by * layout.blocksAcross + bx];
          if (place) checkJpegFrame(file, place.offset, place.length, layout.blockWidth, layout.blockHeight);
        }
        const block = await image.getTileOrStrip(bx, by, sample, decoder);
        unpack(new Uint8Array(block.data), rows, layout.planar === 2 ? sample : -1, layout, luts, scratch);
      }
      toRgba(scratch, bx * layout.blockWidth, by * layout.blockHeight, rows, layout, out);
    }
  }
  const orientation = Number((await image.fileDirectory.loadValue('Orientation')) ?? 1);
  return { width, height, data: out, orientation: orientation >= 1 && orientation <= 8 ? orientation : 1 };
}

/** The first IFD that is neither a reduced-resolution image nor a transparency mask. */
async function firstFullImage(tiff: Awaited<ReturnType<typeof fromArrayBuffer>>): Promise<GeoTIFFImage> {
  for (let index = 0; index < MAX_PAGES; index++) {
    let image: GeoTIFFImage;
    try {
      image = await tiff.getImage(index);
    } catch (e) {
      // Past the last IFD: only reduced images were found (the first IFD failing is the file's own error).
      if (index === 0) throw e;
      throw new Error('TIFF holds no full-resolution image', { cause: e });
    }
    const kind = Number(image.fileDirectory.getValue('NewSubfileType') ?? 0);
    const oldKind = Number(image.fileDirectory.getValue('SubfileType') ?? 1);
    // Bit 0: reduced resolution; bit 2: transparency mask. The old SubfileType says 2 for a reduced image.
    if ((kind & 0b101) === 0 && oldKind !== 2) return image;
  }
  throw new Error(`no full-resolution image in the first ${MAX_PAGES} IFDs of the TIFF`);
}

async function readLayout(image: GeoTIFFImage, width: number, height: number): Promise<Layout> {
  const ifd = image.fileDirectory;
  const samples = image.getSamplesPerPixel();
  if (!(samples >= 1 && samples <= MAX_SAMPLES)) throw new Error(`TIFF with ${samples} samples per pixel`);
  const formats = numbers(await ifd.loadValue('SampleFormat'));
  if (formats.some((f) => f === 3)) throw new Error('floating-point TIFF samples are not supported');
  if (formats.some((f) => f !== 1)) throw new Error('signed or untyped TIFF samples are not supported');
  const bitsPerSample = numbers(await ifd.loadValue('BitsPerSample'));
  const bits = bitsPerSample[0] ?? 1;
  if (bitsPerSample.some((b) => b !== bits)) throw new Error('TIFF samples of different sizes are not supported');
  if (![1, 2, 4, 8, 16].includes(bits)) throw new Error(`${bits}-bit TIFF samples are not supported`);
  const predictor = Number((await ifd.loadValue('Predictor')) ?? 1);
  if (predictor !== 1 && predictor !== 2) throw new Error(`TIFF predictor ${predictor} is not supported`);
  if (predictor === 2 && bits < 8) throw new Error('TIFF predictor with samples under 8 bits');

  const blockWidth = image.getTileWidth();
  const blockHeight = image.getTileHeight();
  if (!(blockWidth > 0 && blockHeight > 0) || blockWidth * blockHeight > Math.max(width * height, MAX_BLOCK_PIXELS)) {
    throw new Error(`TIFF strips or tiles of ${blockWidth} × ${blockHeight}`);
  }

  const photometric = Number(ifd.getValue('PhotometricInterpretation') ?? -1);
  const compression = Number(ifd.getValue('Compression') ?? 1);
  let model: ColourModel;
  let colours: number;
  let palette: Uint8Array | null = null;
  const yCbCr = { red: 1.402, blue: 1.772, lumaRed: 0.299, lumaGreen: 0.587, lumaBlue: 0.114 };
  switch (photometric) {
    case PHOTOMETRIC.whiteIsZero:
    case PHOTOMETRIC.blackIsZero:
      model = photometric === PHOTOMETRIC.whiteIsZero ? 'inverted-grey' : 'grey';
      colours = 1;
      break;
    case PHOTOMETRIC.rgb:
      model = 'rgb';
      colours = 3;
      break;
    case PHOTOMETRIC.palette: {
      model = 'palette';
      colours = 1;
      const map = numbers(await ifd.loadValue('ColorMap'));
      const entries = 2 ** bits;
      if (map.length < entries * 3) throw new Error('TIFF palette is shorter than its samples need');
      palette = new Uint8Array(entries * 3);
      for (let i = 0; i < entries; i++) {
        for (let c = 0; c < 3; c++) palette[i * 3 + c] = Math.round((map[c * entries + i] ?? 0) / 257);
      }
      break;
    }
    case PHOTOMETRIC.separated: {
      const inkSet = Number((await ifd.loadValue('InkSet')) ?? 1);
      if (inkSet !== 1) throw new Error('TIFF separated into inks other than CMYK');
      model = 'cmyk';
      colours = 4;
      break;
    }
    case PHOTOMETRIC.yCbCr: {
      // Inside a JPEG stream the chroma is upsampled by the JPEG decoder; elsewhere it would be ours to undo.
      const subsampling = numbers(await ifd.loadValue('YCbCrSubSampling'));
      const [across = 2, down = 2] = subsampling;
      if (compression !== COMPRESSION_JPEG && (across !== 1 || down !== 1)) {
        throw new Error('subsampled YCbCr TIFF without JPEG compression is not supported');
      }
      const coefficients = numbers(await ifd.loadValue('YCbCrCoefficients'));
      if (coefficients.length >= 6) {
        const ratio = (i: number) => (coefficients[i * 2] ?? 0) / (coefficients[i * 2 + 1] || 1);
        const [lumaRed, lumaGreen, lumaBlue] = [ratio(0), ratio(1), ratio(2)];
        if (lumaRed > 0 && lumaGreen > 0 && lumaBlue > 0) {
          Object.assign(yCbCr, { lumaRed, lumaGreen, lumaBlue, red: 2 - 2 * lumaRed, blue: 2 - 2 * lumaBlue });
        }
      }
      model = 'ycbcr';
      colours = 3;
      break;
    }
    default:
      throw new Error(`TIFF photometric interpretation ${photometric} is not supported`);
  }
  if (samples < colours) throw new Error(`TIFF with ${samples} samples for ${colours} colour channels`);
  if (bits !== 8 && (model === 'cmyk' || model === 'ycbcr')) throw new Error(`${bits}-bit ${model} TIFF is not supported`);

  // The first extra sample is the alpha when ExtraSamples says so; an unspecified one is left out.
  const extra = numbers(ifd.getValue('ExtraSamples'))[0];
  const hasAlpha = samples > colours && (extra === EXTRA_SAMPLE_ASSOCIATED || extra === EXTRA_SAMPLE_UNASSOCIATED);
  return {
    width,
    height,
    samples,
    bits,
    littleEndian: image.littleEndian,
    planar: image.planarConfiguration,
    predictor,
    tiled: image.isTiled,
    blockWidth,
    blockHeight,
    blocksAcross: Math.ceil(width / blockWidth),
    blocksDown: Math.ceil(height / blockHeight),
    model,
    alpha: hasAlpha ? colours : -1,
    premultiplied: hasAlpha && extra === EXTRA_SAMPLE_ASSOCIATED,
    palette,
    yCbCr,
  };
}

/** Where every strip or tile the picture needs lies in the file, in geotiff's order (planes, then rows, then columns). */
async function blockPlaces(image: GeoTIFFImage, layout: Layout): Promise<{ offset: number; length: number }[]> {
  const ifd = image.fileDirectory;
  const offsets = numbers(await ifd.loadValue(layout.tiled ? 'TileOffsets' : 'StripOffsets'));
  const lengths = numbers(await ifd.loadValue(layout.tiled ? 'TileByteCounts' : 'StripByteCounts'));
  const needed = layout.blocksAcross * layout.blocksDown * (layout.planar === 2 ? layout.samples : 1);
  if (offsets.length < needed || lengths.length < needed) throw new Error('TIFF lists fewer strips or tiles than its size needs');
  return Array.from({ length: needed }, (_, i) => ({ offset: offsets[i] ?? 0, length: lengths[i] ?? 0 }));
}

/** Our LZW decoder (tiff-lzw.ts) in the shape geotiff takes, filling at most one full strip or tile. */
function lzwDecoder(layout: Layout): { decode(buffer: ArrayBufferLike): Promise<ArrayBufferLike> } {
  const perPixel = layout.planar === 2 ? 1 : layout.samples;
  const capacity = Math.ceil((layout.blockWidth * perPixel * layout.bits) / 8) * layout.blockHeight;
  return { decode: (buffer) => Promise.resolve(decodeLzw(new Uint8Array(buffer), capacity).buffer) };
}

/** The samples a separate-planes file must decode: the colour channels and the alpha, not other extra samples. */
function usedSamples(layout: Layout): number[] {
  const colours = { grey: 1, 'inverted-grey': 1, palette: 1, rgb: 3, ycbcr: 3, cmyk: 4 }[layout.model];
  const used = Array.from({ length: colours }, (_, i) => i);
  if (layout.alpha >= 0) used.push(layout.alpha);
  return used;
}

/** One block's samples, pixel-interleaved, each already at 8 bits (a palette index stays an index). */
function scratchFor(layout: Layout): Uint8Array | Uint16Array {
  const size = layout.blockWidth * layout.blockHeight * layout.samples;
  return layout.model === 'palette' && layout.bits > 8 ? new Uint16Array(size) : new Uint8Array(size);
}

/** For each sample, a table from its stored value to the value kept: scaled to 8 bits, or the palette index. */
function lutsFor(layout: Layout): (Uint8Array | Uint16Array)[] {
  const levels = 2 ** layout.bits;
  const scaled = new Uint8Array(levels);
  for (let v = 0; v < levels; v++) scaled[v] = Math.round((v * 255) / (levels - 1));
  const index = new Uint16Array(levels);
  for (let v = 0; v < levels; v++) index[v] = v;
  return Array.from({ length: layout.samples }, (_, s) => (layout.model === 'palette' && s === 0 ? index : scaled));
}

/**
 * Copies a decoded block into `scratch` through the tables, undoing horizontal differencing. `plane` is the sample a
 * separate-planes block holds, or -1 for a block holding all samples of each pixel.
 */
function unpack(
  block: Uint8Array,
  rows: number,
  plane: number,
  layout: Layout,
  luts: (Uint8Array | Uint16Array)[],
  scratch: Uint8Array | Uint16Array,
): void {
  const { blockWidth, samples, bits, littleEndian } = layout;
  const perPixel = plane < 0 ? samples : 1;
  const first = plane < 0 ? 0 : plane;
  // geotiff widens samples under 8 bits to a byte each.
  const bytesPerSample = bits === 16 ? 2 : 1;
  if (block.length < blockWidth * rows * perPixel * bytesPerSample) throw new Error('TIFF strip or tile is shorter than declared');
  const mask = 2 ** bits - 1;
  const differenced = layout.predictor === 2;
  const previous = new Uint32Array(perPixel);
  const high = littleEndian ? 1 : 0;
  const low = 1 - high;
  for (let y = 0; y < rows; y++) {
    previous.fill(0);
    for (let x = 0; x < blockWidth; x++) {
      const pixel = y * blockWidth + x;
      for (let k = 0; k < perPixel; k++) {
        const i = pixel * perPixel + k;
        let value = bytesPerSample === 2 ? ((block[i * 2 + high] ?? 0) << 8) | (block[i * 2 + low] ?? 0) : (block[i] ?? 0);
        if (differenced) {
          value = (value + (previous[k] ?? 0)) & mask;
          previous[k] = value;
        }
        scratch[pixel * samples + first + k] = luts[first + k]?.[value] ?? 0;
      }
    }
  }
}

/** Turns the block in `scratch` into RGBA at (`left`, `top`) of `out`, leaving out what lies past the picture's edge. */
function toRgba(scratch: Uint8Array | Uint16Array, left: number, top: number, rows: number, layout: Layout, out: Uint8ClampedArray): void {
  const { width, height, blockWidth, samples, model, alpha, premultiplied, palette } = layout;
  const { red: fromCr, blue: fromCb, lumaRed, lumaGreen, lumaBlue } = layout.yCbCr;
  const across = Math.min(blockWidth, width - left);
  const down = Math.min(rows, height - top);
  for (let y = 0; y < down; y++) {
    for (let x = 0; x < across; x++) {
      const s = (y * blockWidth + x) * samples;
      const o = ((top + y) * width + left + x) * 4;
      const a = alpha >= 0 ? (scratch[s + alpha] ?? 0) : 255;
      let r: number;
      let g: number;
      let b: number;
      const v0 = scratch[s] ?? 0;
      switch (model) {
        case 'grey':
          r = g = b = v0;
          break;
        case 'inverted-grey':
          r = g = b = 255 - v0;
          break;
        case 'rgb':
          r = v0;
          g = scratch[s + 1] ?? 0;
          b = scratch[s + 2] ?? 0;
          break;
        case 'palette':
          r = palette?.[v0 * 3] ?? 0;
          g = palette?.[v0 * 3 + 1] ?? 0;
          b = palette?.[v0 * 3 + 2] ?? 0;
          break;
        case 'cmyk': {
          const white = 255 - (scratch[s + 3] ?? 0);
          r = ((255 - v0) * white) / 255;
          g = ((255 - (scratch[s + 1] ?? 0)) * white) / 255;
          b = ((255 - (scratch[s + 2] ?? 0)) * white) / 255;
          break;
        }
        case 'ycbcr': {
          const cb = (scratch[s + 1] ?? 128) - 128;
          const cr = (scratch[s + 2] ?? 128) - 128;
          r = v0 + fromCr * cr;
          b = v0 + fromCb * cb;
          g = (v0 - lumaRed * r - lumaBlue * b) / lumaGreen;
          break;
        }
      }
      if (premultiplied) {
        const scale = a ? 255 / a : 0;
        r *= scale;
        g *= scale;
        b *= scale;
      }
      // Uint8ClampedArray rounds and clamps what it is given.
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = b;
      out[o + 3] = a;
    }
  }
}

/**
 * Refuses a JPEG strip or tile whose frame is larger than the block it fills: geotiff's JPEG decoder allocates the
 * frame its header declares, so a small file could otherwise claim gigabytes past the size checked above.
 */
function checkJpegFrame(file: Uint8Array, offset: number, length: number, maxWidth: number, maxHeight: number): void {
  const end = offset + length;
  if (length === 0) return;
  if (file[offset] !== 0xff || file[offset + 1] !== 0xd8) throw new Error('TIFF JPEG block without a JPEG stream');
  let at = offset + 2;
  while (at + 4 <= end) {
    if (file[at] !== 0xff) throw new Error('TIFF JPEG block is corrupt');
    const marker = file[at + 1] ?? 0;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    const segment = ((file[at + 2] ?? 0) << 8) | (file[at + 3] ?? 0);
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame) {
      const height = ((file[at + 5] ?? 0) << 8) | (file[at + 6] ?? 0);
      const width = ((file[at + 7] ?? 0) << 8) | (file[at + 8] ?? 0);
      if (width > maxWidth || height > maxHeight) throw new Error(`TIFF JPEG block of ${width} × ${height} in a ${maxWidth} × ${maxHeight} block`);
      return;
    }
    if (marker === 0xda || marker === 0xd9 || segment < 2) break;
    at += 2 + segment;
  }
  throw new Error('TIFF JPEG block without a frame header');
}

/** A tag's value as plain numbers: [] when absent, one element for a single value. */
function numbers(value: unknown): number[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'number' || typeof value === 'bigint') return [Number(value)];
  if (Array.isArray(value) || ArrayBuffer.isView(value)) return Array.from(value as ArrayLike<number>, Number);
  return [];
}
