import type { Limits } from '../config';
import { isAbortError, throwIfAborted } from '../lib/app-error';
import { encodeSurface, resizeFrom, surfaceFromPixels, type DecodedPixels } from './canvas-surface';
import { fileResult } from './file-result';
import { isAnimatedWebp, isTooLargeToDecode, readImageSize, TooLargeToDecode, type ImageSize } from './image-header';
import { makeThumbhash } from './make-thumbhash';
import type { ProcessedMedia, SniffedType } from './media-types';
import { readPhotoMetadata, type PhotoMetadata } from './photo-metadata';
import { HEIF_TYPES, RAW_TYPES, WORKER_DECODED_IMAGES } from '../lib/image-types';

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

  // A decoder the worker loads checks the size it finds itself: a file whose header this cannot read still gets its chance.
  const own = WORKER_DECODED_IMAGES.has(sniffed.mime);
  // A raw's header gives the sensor's size or a thumbnail's; what is decoded is its embedded preview, checked then.
  const stored = RAW_TYPES.has(sniffed.mime) ? null : await readImageSize(blob, sniffed.mime);
  throwIfAborted(signal);
  if (!stored && !own) return fileResult(sniffed.mime, 'image/undecodable', await readPhotoMetadata(blob));
  if (stored && isTooLargeToDecode(stored, limits)) return fileResult(sniffed.mime, 'image/too-large', await readPhotoMetadata(blob));

  // Metadata is read from the file while the pixels are decoded.
  const [photo, picture, animated] = await Promise.all([
    readPhotoMetadata(blob),
    decode(blob, sniffed.mime, limits),
    sniffed.mime === 'image/webp' ? isAnimatedWebp(blob) : false,
  ]);
  // The viewer plays an animated WebP as it is; the preview and thumbnail hold its first frame.
  if (animated) photo.metadata.animated = true;
  if (picture === 'too-large') return fileResult(sniffed.mime, 'image/too-large', photo);
  if (!picture) return fileResult(sniffed.mime, 'image/undecodable', photo);
  try {
    throwIfAborted(signal);
    return await derive(picture, sniffed, photo, limits, signal);
  } catch (e) {
    if (isAbortError(e)) throw e;
    // A decoder that accepted the file but produced nothing drawable: keep the file.
    return fileResult(sniffed.mime, 'image/undecodable', photo);
  } finally {
    picture.close();
  }
}

/** A decoded picture ready to draw: `width` × `height` as stored, to be turned by `orientation` when drawn. */
interface Picture {
  source: CanvasImageSource;
  width: number;
  height: number;
  orientation: number;
  close(): void;
}

function fromBitmap(bitmap: ImageBitmap, orientation = 1): Picture {
  return { source: bitmap, width: bitmap.width, height: bitmap.height, orientation, close: () => bitmap.close() };
}

function fromPixels(pixels: DecodedPixels): Picture {
  const surface = surfaceFromPixels(pixels);
  return {
    source: surface.canvas,
    width: pixels.width,
    height: pixels.height,
    orientation: pixels.orientation,
    // A 12 MP canvas holds 48 MB: let it go now rather than when the worker's heap is next collected.
    close: () => {
      surface.canvas.width = 0;
      surface.canvas.height = 0;
    },
  };
}

/**
 * The picture, decoded: by the browser's own decoder when it has one (on its own threads, turned `from-image`),
 * else by the decoder the worker loads for the format ([Note: Pictures the browser cannot decode] in
 * heif-decode.ts). Null when undecodable; 'too-large' when a decoder finds a size past the limits.
 */
async function decode(blob: Blob, mime: string, limits: ImageLimits): Promise<Picture | 'too-large' | null> {
  const native = await createImageBitmap(blob, { imageOrientation: 'from-image' }).catch(() => null);
  if (native) return fromBitmap(native);
  const fits = (size: ImageSize) => !isTooLargeToDecode(size, limits);
  try {
    if (HEIF_TYPES.has(mime)) {
      const { decodeHeif } = await import('./heif-decode');
      return fromPixels(await decodeHeif(blob, fits));
    }
    if (mime === 'image/jxl') {
      const { decodeJxl } = await import('./jxl-decode');
      return fromPixels(await decodeJxl(blob));
    }
    // A NEF or an ARW is a TIFF by its header: a raw's embedded preview is looked for first.
    if (mime === 'image/tiff' || RAW_TYPES.has(mime)) {
      const { decodeRawPreview } = await import('./raw-picture');
      const raw = await decodeRawPreview(blob, fits);
      if (raw) return fromBitmap(raw.bitmap, raw.orientation);
      if (mime !== 'image/tiff') return null;
      const { decodeTiff } = await import('./tiff-decode');
      return fromPixels(await decodeTiff(await blob.arrayBuffer(), fits));
    }
  } catch (e) {
    return e instanceof TooLargeToDecode ? 'too-large' : null;
  }
  return null;
}

async function derive(
  picture: Picture,
  sniffed: SniffedType,
  photo: PhotoMetadata,
  limits: ImageLimits,
  signal: AbortSignal | undefined,
): Promise<ProcessedMedia> {
  if (!picture.width || !picture.height) throw new Error('empty picture');
  const preview = resizeFrom(picture.source, picture.width, picture.height, limits.previewLongEdge, picture.orientation);
  // The original's size as it is seen: turned, as the preview is.
  const sideways = picture.orientation >= 5 && picture.orientation <= 8;
  const width = sideways ? picture.height : picture.width;
  const height = sideways ? picture.width : picture.height;
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
