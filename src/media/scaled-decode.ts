import type { ImageSize } from './image-header';

// [Note: Decoding a JPEG at the scale of its preview]
// A JPEG decoder can give the picture at n/8 of its size for much less than the whole (it skips most of each
// block's inverse DCT): a 24 MP photo comes out at 2,250 × 1,500 in well under half the time of a full decode,
// and as 13.5 MB of pixels instead of 96 MB. The preview needs no more than that. Chromium's WebCodecs
// ImageDecoder does it when asked for a smaller size: it picks the largest n/8 scale whose pixel count is within
// desiredWidth × desiredHeight, and gives the frame with the EXIF turn as its rotation (and mirror), which
// createImageBitmap applies when it copies the frame out (drawing the frame itself would apply it too, but a
// frame drawn onto a canvas was held in memory past close()). So the pipeline asks for exactly the size of the smallest scale that still covers the
// preview's long edge, and uses it only where frames carry their rotation (else the EXIF turn would be lost) and
// the size given is large enough; anything else is decoded whole, as before.

/** The size a JPEG decoder gives at `n`/8 scale (libjpeg rounds up). */
function atEighths(size: ImageSize, n: number): ImageSize {
  return { width: Math.ceil((size.width * n) / 8), height: Math.ceil((size.height * n) / 8) };
}

/** The smallest n/8 scale of `stored` whose long edge is at least `longEdge`; null when only the whole will do. */
export function jpegScaleFor(stored: ImageSize, longEdge: number): ImageSize | null {
  const n = Math.ceil((8 * longEdge) / Math.max(stored.width, stored.height));
  return n >= 1 && n < 8 ? atEighths(stored, n) : null;
}

type TurnedFrame = VideoFrame & { readonly rotation?: number };

/** Whether this browser's ImageDecoder gives frames that carry their EXIF turn. */
function framesCarryTurns(): boolean {
  return typeof ImageDecoder !== 'undefined' && typeof VideoFrame !== 'undefined' && 'rotation' in VideoFrame.prototype;
}

export interface ScaledPicture {
  /** Upright (turned as EXIF says). */
  bitmap: ImageBitmap;
  /** The original's size as seen (turned), for the item. */
  seen: ImageSize;
}

/**
 * The JPEG decoded at the smallest scale that covers `longEdge`, or null when this browser cannot, the photo is
 * small enough to decode whole, or the decoder gave anything else (the caller then decodes it whole). The frame
 * is copied into a bitmap and let go at once: a frame drawn onto a canvas is held past its close() (30 photos
 * grew the tab by 350 MB), a bitmap is not.
 */
export async function decodeJpegScaled(blob: Blob, stored: ImageSize, longEdge: number): Promise<ScaledPicture | null> {
  const want = jpegScaleFor(stored, longEdge);
  if (!want || !framesCarryTurns()) return null;
  const decoder = new ImageDecoder({ data: blob.stream(), type: 'image/jpeg', desiredWidth: want.width, desiredHeight: want.height });
  let frame: TurnedFrame | null = null;
  try {
    frame = (await decoder.decode()).image as TurnedFrame;
    // A decoder that chose a smaller scale would make a smaller preview: it is not used. (One that ignored the
    // size asked for has decoded the whole, which does.)
    if (Math.max(frame.displayWidth, frame.displayHeight) < Math.max(want.width, want.height)) return null;
    const sideways = ((frame.rotation ?? 0) / 90) % 2 === 1;
    return { bitmap: await createImageBitmap(frame), seen: sideways ? { width: stored.height, height: stored.width } : stored };
  } catch {
    return null;
  } finally {
    frame?.close();
    decoder.close();
  }
}
