import { rgbaToThumbHash } from 'thumbhash';
import { toBase64 } from '../lib/base64';
import { createSurface, drawScaled } from './canvas-surface';
import { fitWithin } from './fit-within';

/** ThumbHash works on at most 100 x 100 pixels. */
const THUMBHASH_EDGE = 100;

/** A placeholder (base64 ThumbHash, about 25 bytes) rendered from an already small copy of the picture. */
export function makeThumbhash(source: CanvasImageSource, width: number, height: number): string {
  const size = fitWithin(width, height, THUMBHASH_EDGE);
  const surface = createSurface(size.width, size.height, { willReadFrequently: true });
  drawScaled(surface, source);
  const { data } = surface.ctx.getImageData(0, 0, size.width, size.height);
  return toBase64(rgbaToThumbHash(size.width, size.height, data));
}
