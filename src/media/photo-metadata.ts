import type { ItemMetadata } from '../domain/entities';
import { exifDateTaken } from './exif-date';
import { readExifTags, type ExifTags } from './exif-tags';
import { boundItemMetadata } from '../lib/item-metadata';
import { readMetadataBlocks } from './metadata-blocks';
import { parseXmp } from './xmp-metadata';

export interface PhotoMetadata {
  /**
   * ISO 8601, UTC: the instant, from the capture time and its offset when the camera wrote one
   * ([Note: A capture time's offset]).
   */
  takenAt: string | null;
  metadata: ItemMetadata;
}

/**
 * [Note: A capture time's offset]
 * EXIF's DateTimeOriginal is the camera's wall clock; OffsetTimeOriginal (EXIF 2.31, written by phones and
 * recent cameras) says how far that clock was from UTC. With it, `takenAt` is the true instant and the offset is
 * kept as `metadata.takenOffset`, so the date shows as the clock read it where the photo was taken, wherever it
 * is looked at (lib/format.ts, formatTaken); without it the wall clock is kept as if it were UTC (exif-date.ts).
 * An XMP date's zone counts the same. The offset goes with the date it came from: a sidecar's date brings its own
 * offset or none (sidecar-fields.ts).
 */

/**
 * The photo's EXIF tags and XMP packet, found by offset in its container (metadata-blocks.ts). Of EXIF only IFD0
 * and the Exif IFD are read, and of them only the tags the item keeps: GPS, maker notes, thumbnails and the rest
 * are never read, so location data cannot reach the item.
 */
export async function readCameraTags(input: Blob | Uint8Array): Promise<ExifTags> {
  const blob = input instanceof Blob ? input : new Blob([input as Uint8Array<ArrayBuffer>]);
  const { exif, xmp, xmpExtended } = await readMetadataBlocks(blob);
  const tags = exif ? readExifTags(exif) : {};
  // A TIFF's packet is its tag 700 (read with the EXIF tags); every other format's is a block of its own.
  if (xmp) tags.xmp = xmp;
  if (xmpExtended) tags.xmpExtended = xmpExtended;
  return tags;
}

/** Camera metadata (EXIF) and the photographer's XMP fields; empty when there are none or they cannot be read. */
export async function readPhotoMetadata(input: Blob | Uint8Array): Promise<PhotoMetadata> {
  let tags: ExifTags;
  try {
    tags = await readCameraTags(input);
  } catch {
    tags = {};
  }
  return photoMetadataFromTags(tags as Record<string, unknown>);
}

/** Maps the EXIF tags (ExifTags: ExifTool's names) and `xmp`, the raw packet, to the item's fields. */
export function photoMetadataFromTags(tags: Record<string, unknown>): PhotoMetadata {
  const metadata: ItemMetadata = {};
  const setText = (key: 'cameraMake' | 'cameraModel' | 'lens', v: unknown) => {
    // eslint-disable-next-line no-control-regex
    const s = typeof v === 'string' ? v.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200) : '';
    if (s) metadata[key] = s;
  };
  const setNumber = (key: 'exposureTime' | 'fNumber' | 'iso' | 'focalLength', v: unknown) => {
    const n = Array.isArray(v) ? (v[0] as unknown) : v;
    if (typeof n === 'number' && Number.isFinite(n) && n > 0) metadata[key] = n;
  };
  setText('cameraMake', tags.Make);
  setText('cameraModel', tags.Model);
  setText('lens', tags.LensModel);
  setNumber('exposureTime', tags.ExposureTime);
  setNumber('fNumber', tags.FNumber);
  setNumber('iso', tags.ISO);
  setNumber('focalLength', tags.FocalLength);

  // A JPEG's Extended XMP holds what did not fit in its packet; the packet's own fields come first.
  const xmp = { ...(typeof tags.xmpExtended === 'string' ? parseXmp(tags.xmpExtended) : {}), ...(typeof tags.xmp === 'string' ? parseXmp(tags.xmp) : {}) };
  const { takenAt: xmpTakenAt, takenOffset: xmpTakenOffset, ...xmpFields } = xmp;
  Object.assign(metadata, xmpFields);

  const taken =
    exifDateTaken(tags.DateTimeOriginal, tags.OffsetTimeOriginal, tags.SubSecTimeOriginal) ??
    exifDateTaken(tags.CreateDate, tags.OffsetTimeDigitized, tags.SubSecTimeDigitized) ??
    (xmpTakenAt ? { at: xmpTakenAt, offsetMinutes: xmpTakenOffset ?? null } : null);
  const takenAt = taken?.at ?? null;
  if (taken && taken.offsetMinutes !== null) metadata.takenOffset = taken.offsetMinutes;
  // An XMP packet may carry thousands of keywords: what the backend would refuse is cut here.
  return { takenAt, metadata: boundItemMetadata(metadata) };
}
