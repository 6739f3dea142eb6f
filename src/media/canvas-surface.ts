import { fitWithin } from './fit-within';

/** A 2D drawing surface: an OffscreenCanvas where there is one (workers, modern browsers), else a canvas element. */
export interface Surface {
  width: number;
  height: number;
  ctx: OffscreenCanvasRenderingContext2D | CanvasRenderingContext2D;
  canvas: OffscreenCanvas | HTMLCanvasElement;
}

export function createSurface(width: number, height: number, opts: { willReadFrequently?: boolean } = {}): Surface {
  let canvas: OffscreenCanvas | HTMLCanvasElement;
  if (typeof OffscreenCanvas !== 'undefined') {
    canvas = new OffscreenCanvas(width, height);
  } else {
    canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
  }
  const ctx = canvas.getContext('2d', { alpha: true, willReadFrequently: opts.willReadFrequently ?? false }) as
    | OffscreenCanvasRenderingContext2D
    | CanvasRenderingContext2D
    | null;
  if (!ctx) throw new Error('2D canvas is not available');
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  return { width, height, ctx, canvas };
}

/**
 * A new surface holding `source` (`width` × `height` as stored) fitted within `longEdge` (never enlarged) and
 * turned the way the EXIF `orientation` (1–8) says, in one draw: a 90° turn swaps the surface's sides.
 */
export function resizeFrom(source: CanvasImageSource, width: number, height: number, longEdge: number, orientation = 1): Surface {
  const sideways = orientation >= 5 && orientation <= 8;
  const size = fitWithin(sideways ? height : width, sideways ? width : height, longEdge);
  const surface = createSurface(size.width, size.height);
  if (orientation <= 1 || orientation > 8) {
    drawScaled(surface, source);
    return surface;
  }
  // [Note: Turning a picture the way EXIF says]
  // Each orientation is a mirror and/or a quarter turn; the transform maps the stored picture, drawn at its
  // scaled size, onto the upright surface (W × H): 2 mirrors left-right, 3 turns half round, 4 mirrors top-bottom,
  // 5 mirrors along the diagonal, 6 turns a quarter clockwise, 7 mirrors along the other diagonal, 8 turns a
  // quarter anticlockwise.
  const { width: W, height: H } = size;
  const transforms: Record<number, [number, number, number, number, number, number]> = {
    2: [-1, 0, 0, 1, W, 0],
    3: [-1, 0, 0, -1, W, H],
    4: [1, 0, 0, -1, 0, H],
    5: [0, 1, 1, 0, 0, 0],
    6: [0, 1, -1, 0, W, 0],
    7: [0, -1, -1, 0, W, H],
    8: [0, -1, 1, 0, 0, H],
  };
  surface.ctx.setTransform(...transforms[orientation]!);
  surface.ctx.drawImage(source, 0, 0, sideways ? H : W, sideways ? W : H);
  surface.ctx.setTransform(1, 0, 0, 1, 0, 0);
  return surface;
}

/** Pixels a decoder made in WebAssembly or JavaScript: RGBA, 8 bits a sample, as stored (not yet turned). */
export interface DecodedPixels {
  width: number;
  height: number;
  data: Uint8ClampedArray<ArrayBuffer>;
  /** EXIF orientation of the stored picture, 1–8 (1: already upright). */
  orientation: number;
}

/** A surface holding decoded pixels as they are, for `resizeFrom` to draw from. */
export function surfaceFromPixels(pixels: DecodedPixels): Surface {
  const surface = createSurface(pixels.width, pixels.height);
  surface.ctx.putImageData(new ImageData(pixels.data, pixels.width, pixels.height), 0, 0);
  return surface;
}

/** Draws `source` scaled to fill the whole surface. */
export function drawScaled(surface: Surface, source: CanvasImageSource): void {
  surface.ctx.drawImage(source, 0, 0, surface.width, surface.height);
}

let webpEncodes: boolean | undefined;

/**
 * WebP where the browser can encode it, else JPEG. A browser that cannot encode WebP quietly returns PNG, so
 * the blob's type is checked rather than trusted; the answer is remembered. The pixels carry no metadata of
 * the original: a canvas only ever holds pixels.
 */
export async function encodeSurface(surface: Surface, quality: number): Promise<Blob> {
  if (webpEncodes !== false) {
    const webp = await toBlob(surface, 'image/webp', quality);
    if (webp.type === 'image/webp') {
      webpEncodes = true;
      return webp;
    }
    webpEncodes = false;
  }
  // JPEG has no alpha: flatten onto white first, or transparent areas would turn black.
  const flat = createSurface(surface.width, surface.height);
  flat.ctx.fillStyle = '#fff';
  flat.ctx.fillRect(0, 0, flat.width, flat.height);
  flat.ctx.drawImage(surface.canvas, 0, 0);
  return toBlob(flat, 'image/jpeg', quality);
}

function toBlob(surface: Surface, type: string, quality: number): Promise<Blob> {
  const { canvas } = surface;
  if ('convertToBlob' in canvas) return canvas.convertToBlob({ type, quality });
  return new Promise((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('canvas could not be encoded'))), type, quality),
  );
}
