/**
 * [Note: Camera RAW, shown by its own preview]
 * A camera RAW is not demosaiced here: every camera embeds a JPEG of the picture as its own screen shows it,
 * and the largest of them (raw-preview.ts) becomes the RAW's preview and thumbnail, turned by the RAW's own
 * orientation. The embedded JPEG's EXIF (some cameras write one, with an orientation of its own, or none) is
 * left out before the browser decodes it, since the browser would turn the picture by it: the RAW's
 * orientation is the one that counts, applied once when the preview is drawn. A RAW with no usable preview
 * stays a file with the image/undecodable notice.
 */
import { TooLargeToDecode, type ImageSize } from './image-header';
import { findRawPreview } from './raw-preview';

export interface RawPicture {
  bitmap: ImageBitmap;
  orientation: number;
}

/** The RAW's embedded preview, decoded as stored (not turned), with the RAW's orientation; null when it has none. */
export async function decodeRawPreview(blob: Blob, fits: (size: ImageSize) => boolean): Promise<RawPicture | null> {
  const preview = await findRawPreview(blob);
  if (!preview) return null;
  if (!fits(preview)) throw new TooLargeToDecode(`${preview.width} × ${preview.height}`);
  const bitmap = await createImageBitmap(await withoutExif(preview.jpeg), { imageOrientation: 'from-image' });
  return { bitmap, orientation: preview.orientation };
}

/** Segments read before giving up: a JPEG's metadata is a handful of segments. */
const MAX_SEGMENTS = 256;

/** The JPEG with its APP1 segments (EXIF, XMP) left out: made of slices of it, nothing copied but the header. */
export async function withoutExif(jpeg: Blob): Promise<Blob> {
  const head = new Uint8Array(await jpeg.slice(0, 256 * 1024).arrayBuffer());
  if (head[0] !== 0xff || head[1] !== 0xd8) return jpeg;
  const parts: BlobPart[] = [jpeg.slice(0, 2)];
  let at = 2;
  let kept = 2;
  for (let n = 0; n < MAX_SEGMENTS && at + 4 <= head.length && head[at] === 0xff; n++) {
    const marker = head[at + 1]!;
    // Up to the first segment that is not application data or a comment: the frame and scan follow as they are.
    if (!(marker >= 0xe0 && marker <= 0xef) && marker !== 0xfe) break;
    const length = (head[at + 2]! << 8) | head[at + 3]!;
    const end = at + 2 + length;
    if (marker === 0xe1) {
      parts.push(jpeg.slice(kept, at));
      kept = end;
    }
    at = end;
  }
  parts.push(jpeg.slice(kept));
  return new Blob(parts, { type: 'image/jpeg' });
}
