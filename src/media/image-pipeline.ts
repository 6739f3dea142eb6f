import type { Limits } from '../config';
import { isAbortError, throwIfAborted } from '../lib/app-error';
import { encodeSurface, resizeFrom } from './canvas-surface';
import { fileResult } from './file-result';
import { isTooLargeToDecode, readImageSize } from './image-header';
import { makeThumbhash } from './make-thumbhash';
import type { ProcessedMedia, SniffedType } from './media-types';
import { readPhotoMetadata, type PhotoMetadata } from './photo-metadata';
import { HEIF_TYPES } from '../lib/image-types';

/** The limits the pipeline needs, passed in with each request (a worker has its own copy of the config module). */
export type ImageLimits = Pick<
  Limits,
  'thumbLongEdge' | 'previewLongEdge' | 'thumbQuality' | 'previewQuality' | 'maxDecodePixels' | 'maxDecodeSide'
>;

// [Note: One decode, oriented once]
// The picture is decoded exactly once, by the browser's own decoder, with `imageOrientation: 'from-image'`:
// the bitmap it returns is already turned the way EXIF says, and its width and height are those of the
// turned picture. Nothing after that looks at the EXIF orientation again (drawing a bitmap onto a canvas
// does not rotate it), so a photo is never turned twice. The preview is drawn from that bitmap, the
// thumbnail from the preview and the placeholder from the thumbnail, each a smaller step from the last.
// The copies are encoded from canvas pixels, so they hold no EXIF, XMP, GPS or anything else of the original.

/**
 * Makes the preview, thumbnail and placeholder of a decodable image and reads its metadata. Runs in the media
 * worker, or on the main thread when no worker can start. Never throws for bad content: an image it cannot
 * decode, or must not (over the decode limits, judged from its header), comes back as a file with a notice.
 */
export async function processImage(
  blob: Blob,
  sniffed: SniffedType,
  opts: { signal?: AbortSignal; limits: ImageLimits },
): Promise<ProcessedMedia> {
  const { signal, limits } = opts;
  throwIfAborted(signal);

  const heif = HEIF_TYPES.has(sniffed.mime);
  const stored = await readImageSize(blob, sniffed.mime);
  throwIfAborted(signal);
  // libheif checks the size it finds itself: a HEIF whose header this cannot read still gets its chance.
  if (!stored && !heif) return fileResult(sniffed.mime, 'image/undecodable', await readPhotoMetadata(blob));
  if (stored && isTooLargeToDecode(stored, limits)) return fileResult(sniffed.mime, 'image/too-large', await readPhotoMetadata(blob));

  // Metadata is read from the file while the pixels are decoded.
  const [photo, bitmap] = await Promise.all([readPhotoMetadata(blob), decode(blob, heif, limits)]);
  if (bitmap === 'too-large') return fileResult(sniffed.mime, 'image/too-large', photo);
  if (!bitmap) return fileResult(sniffed.mime, 'image/undecodable', photo);
  try {
    throwIfAborted(signal);
    return await derive(bitmap, sniffed, photo, limits, signal);
  } catch (e) {
    if (isAbortError(e)) throw e;
    // A decoder that accepted the file but produced nothing drawable: keep the file.
    return fileResult(sniffed.mime, 'image/undecodable', photo);
  } finally {
    bitmap.close();
  }
}

/**
 * The picture as an oriented bitmap: by the browser's own decoder when it has one (on its own threads), else
 * for HEIF by libheif ([Note: Pictures the browser cannot decode] in heif-decode.ts). Null when undecodable.
 */
async function decode(blob: Blob, heif: boolean, limits: ImageLimits): Promise<ImageBitmap | 'too-large' | null> {
  const native = await createImageBitmap(blob, { imageOrientation: 'from-image' }).catch(() => null);
  if (native || !heif) return native;
  const { decodeHeif, HeifTooLarge } = await import('./heif-decode');
  try {
    return await decodeHeif(blob, (size) => !isTooLargeToDecode(size, limits));
  } catch (e) {
    if (e instanceof HeifTooLarge) return 'too-large';
    return null;
  }
}

async function derive(
  bitmap: ImageBitmap,
  sniffed: SniffedType,
  photo: PhotoMetadata,
  limits: ImageLimits,
  signal: AbortSignal | undefined,
): Promise<ProcessedMedia> {
  const { width, height } = bitmap;
  if (!width || !height) throw new Error('empty bitmap');

  const preview = resizeFrom(bitmap, width, height, limits.previewLongEdge);
  const thumb = resizeFrom(preview.canvas, preview.width, preview.height, limits.thumbLongEdge);
  const thumbhash = makeThumbhash(thumb.canvas, thumb.width, thumb.height);
  const [previewBlob, thumbBlob] = await Promise.all([
    encodeSurface(preview, limits.previewQuality),
    encodeSurface(thumb, limits.thumbQuality),
  ]);
  throwIfAborted(signal);
  return {
    kind: 'image',
    mime: sniffed.mime,
    width,
    height,
    durationMs: null,
    takenAt: photo.takenAt,
    thumb: thumbBlob,
    preview: previewBlob,
    thumbhash,
    metadata: photo.metadata,
    notice: null,
  };
}
