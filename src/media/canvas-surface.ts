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

/** A new surface holding `source` fitted within `longEdge` (never enlarged). */
export function resizeFrom(source: CanvasImageSource, width: number, height: number, longEdge: number): Surface {
  const size = fitWithin(width, height, longEdge);
  const surface = createSurface(size.width, size.height);
  drawScaled(surface, source);
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
