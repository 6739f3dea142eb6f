/**
 * [Note: Sidecars merge into their photo]
 * Lightroom, Capture One, darktable and digiKam keep what the photographer set (title, rating, keywords, label,
 * a corrected capture time) beside a RAW in an XMP sidecar, `IMG_1.xmp` or `IMG_1.CR3.xmp`; the RAW itself is
 * never rewritten. Added together with its photo, the sidecar is no item of its own (upload/sidecars.ts pairs
 * them): its fields are read in the media worker and take the place of the photo's own, field by field, since
 * the sidecar is where the photographer's later work is. Nothing of a place is read from it, so nothing of a
 * place reaches the item. The sidecar file itself is not uploaded.
 */
import { boundItemMetadata } from '../lib/item-metadata';
import type { ProcessedMedia } from './media-types';
import type { XmpFields } from './xmp-metadata';

export function withSidecar(media: ProcessedMedia, fields: XmpFields): ProcessedMedia {
  const { takenAt, takenOffset, ...rest } = fields;
  const metadata = { ...media.metadata, ...rest };
  // A date from the sidecar brings its own offset, or none: the photo's would misplace it.
  if (takenAt !== undefined) {
    if (takenOffset === undefined) delete metadata.takenOffset;
    else metadata.takenOffset = takenOffset;
  }
  return { ...media, takenAt: takenAt ?? media.takenAt, metadata: boundItemMetadata(metadata) };
}
