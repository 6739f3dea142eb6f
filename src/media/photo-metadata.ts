import exifr from 'exifr';
import type { ItemMetadata } from '../domain/entities';
import { exifDateToIso } from './exif-date';
import { boundItemMetadata } from '../lib/item-metadata';
import { parseXmp } from './xmp-metadata';

export interface PhotoMetadata {
  /** ISO 8601, UTC. */
  takenAt: string | null;
  metadata: ItemMetadata;
}

/**
 * Only the IFD0 and EXIF blocks and the raw XMP packet are read. GPS, maker notes, thumbnails and the rest are
 * never asked for: location data must not reach the item.
 */
const EXIFR_OPTIONS = {
  tiff: true,
  exif: true,
  gps: false,
  interop: false,
  ifd1: false,
  makerNote: false,
  userComment: false,
  icc: false,
  iptc: false,
  jfif: false,
  ihdr: false,
  xmp: { parse: false },
  // Raw strings: exifr would otherwise turn dates into Dates in the device's own time zone.
  reviveValues: false,
  translateValues: false,
  mergeOutput: true,
};

/** Camera metadata (EXIF) and the photographer's XMP fields; empty when there are none or they cannot be read. */
export async function readPhotoMetadata(input: Blob | Uint8Array): Promise<PhotoMetadata> {
  let tags: Record<string, unknown> | undefined;
  try {
    tags = (await exifr.parse(input as Blob, EXIFR_OPTIONS)) as Record<string, unknown> | undefined;
  } catch {
    tags = undefined;
  }
  return photoMetadataFromTags(tags ?? {});
}

/** Maps exifr's output (IFD0 + EXIF tags and `xmp` as the raw packet) to the item's fields. */
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

  const xmp = typeof tags.xmp === 'string' ? parseXmp(tags.xmp) : {};
  const { takenAt: xmpTakenAt, ...xmpFields } = xmp;
  Object.assign(metadata, xmpFields);

  const takenAt =
    exifDateToIso(tags.DateTimeOriginal, tags.OffsetTimeOriginal, tags.SubSecTimeOriginal) ??
    exifDateToIso(tags.CreateDate, tags.OffsetTimeDigitized, tags.SubSecTimeDigitized) ??
    xmpTakenAt ??
    null;
  // An XMP packet may carry thousands of keywords: what the backend would refuse is cut here.
  return { takenAt, metadata: boundItemMetadata(metadata) };
}
