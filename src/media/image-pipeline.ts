import type { Limits } from '../config';
import { isAbortError, throwIfAborted } from '../lib/app-error';
import { encodeSurface, resizeFrom, surfaceFromPixels, type DecodedPixels, type Surface } from './canvas-surface';
import { fileResult } from './file-result';
import { isAnimatedWebp, isTooLargeToDecode, readImageSize, TooLargeToDecode, type ImageSize } from './image-header';
import { makeThumbhash } from './make-thumbhash';
import { decodeJpegScaled } from './scaled-decode';
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
// turned picture; a JPEG larger than its preview is decoded at the preview's scale where the browser can, turned
// the same way ([Note: Decoding a JPEG at the scale of its preview] in scaled-decode.ts), and the item keeps the
// original's size. Nothing after that looks at the EXIF orientation again (drawing a bitmap onto a canvas
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
  const [read, drew, animation] = await Promise.allSettled([
    readPhotoMetadata(blob),
    drawCopies(blob, sniffed.mime, stored, limits, signal),
    sniffed.mime === 'image/webp' ? isAnimatedWebp(blob) : false,
  ]);
  if (drew.status === 'rejected') throw drew.reason;
  const drawn = drew.value;
  const fail = (reason: unknown): never => {
    // The copies drawn go at once, not when the collector comes to them: a worker holds one picture at a time.
    if (drawn && drawn !== 'too-large') release(drawn);
    throw reason;
  };
  const photo = read.status === 'fulfilled' ? read.value : fail(read.reason);
  const animated = animation.status === 'fulfilled' ? animation.value : fail(animation.reason);
  // The viewer plays an animated WebP as it is; the preview and thumbnail hold its first frame.
  if (animated) photo.metadata.animated = true;
  if (drawn === 'too-large') return fileResult(sniffed.mime, 'image/too-large', photo);
  if (!drawn) return fileResult(sniffed.mime, 'image/undecodable', photo);
  try {
    throwIfAborted(signal);
    return await encodeCopies(drawn, sniffed, photo, limits, signal);
  } catch (e) {
    if (isAbortError(e)) throw e;
    // Copies that could not be encoded: keep the file.
    return fileResult(sniffed.mime, 'image/undecodable', photo);
  } finally {
    release(drawn);
  }
}

/** Gives back the memory of the copies' canvases at once. */
function release(drawn: { preview: { canvas: { width: number } }; thumb: { canvas: { width: number } } }): void {
  drawn.preview.canvas.width = 0;
  drawn.thumb.canvas.width = 0;
}

// [Note: One full-size picture at a time]
// A 24 MP photo decodes to 96 MB of pixels (a HEIC or a PNG still does; a JPEG now decodes at its preview's
// scale), and the upload queue hands over several files at once: each decoded at once, a worker held three of them
// and the tab passed 800 MB. So a worker (one per core: [Note: A worker per core]) holds one decoded picture at a
// time, and lets it go as soon as its preview and thumbnail are drawn; their encoding runs outside that turn, so
// the next picture's decode can start meanwhile. (Two turns a worker were 10% faster over 40 photos, at 27 MB
// more; a second worker, on a second core, is what makes a batch faster.)
let turns: Promise<void> = Promise.resolve();

/** Waits for this worker's turn to hold a full-size picture; the returned function ends the turn. */
function fullSizeTurn(): Promise<() => void> {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  const begins = turns.then(() => end);
  turns = turns.then(() => ended);
  return begins;
}

/** The copies drawn from a picture, and the size of the picture as seen (turned). */
interface DrawnCopies {
  preview: Surface;
  thumb: Surface;
  width: number;
  height: number;
}

/**
 * Decodes the picture in this worker's full-size turn and draws its preview and thumbnail: null when it cannot
 * be decoded or drawn, 'too-large' when a decoder finds it past the limits.
 */
async function drawCopies(
  blob: Blob,
  mime: string,
  stored: ImageSize | null,
  limits: ImageLimits,
  signal: AbortSignal | undefined,
): Promise<DrawnCopies | 'too-large' | null> {
  const endTurn = await fullSizeTurn();
  let picture: Picture | 'too-large' | null = null;
  try {
    throwIfAborted(signal);
    picture = await decode(blob, mime, stored, limits);
    if (!picture || picture === 'too-large') return picture;
    if (!picture.width || !picture.height) return null;
    const preview = resizeFrom(picture.source, picture.width, picture.height, limits.previewLongEdge, picture.orientation);
    // Drawing the thumbnail from the preview also finishes drawing the preview, before the picture goes.
    const thumb = resizeFrom(preview.canvas, preview.width, preview.height, limits.thumbLongEdge);
    return { preview, thumb, ...seenSize(picture) };
  } catch (e) {
    if (isAbortError(e)) throw e;
    // A decoder that accepted the file but produced nothing drawable: keep the file.
    return null;
  } finally {
    if (picture && picture !== 'too-large') picture.close();
    endTurn();
  }
}

/** A decoded picture ready to draw: `width` × `height` as stored, to be turned by `orientation` when drawn. */
interface Picture {
  source: CanvasImageSource;
  width: number;
  height: number;
  orientation: number;
  /** The original's size as seen, when the picture was decoded at a smaller scale. */
  seen?: ImageSize;
  close(): void;
}

/** The original's size as it is seen: turned, as the preview is. */
function seenSize(picture: Picture): ImageSize {
  if (picture.seen) return picture.seen;
  const sideways = picture.orientation >= 5 && picture.orientation <= 8;
  return sideways ? { width: picture.height, height: picture.width } : { width: picture.width, height: picture.height };
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
async function decode(blob: Blob, mime: string, stored: ImageSize | null, limits: ImageLimits): Promise<Picture | 'too-large' | null> {
  if (mime === 'image/jpeg' && stored) {
    const scaled = await decodeJpegScaled(blob, stored, limits.previewLongEdge);
    if (scaled) return { ...fromBitmap(scaled.bitmap), seen: scaled.seen };
  }
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

async function encodeCopies(
  drawn: DrawnCopies,
  sniffed: SniffedType,
  photo: PhotoMetadata,
  limits: ImageLimits,
  signal: AbortSignal | undefined,
): Promise<ProcessedMedia> {
  const { preview, thumb, width, height } = drawn;
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
