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
  tags ??= {};
  if (typeof tags.xmp !== 'string') {
    // WebP, HEIF/AVIF and compressed PNG packets ([Note: XMP packets exifr does not find] in xmp-packet.ts).
    const blob = input instanceof Blob ? input : new Blob([input as Uint8Array<ArrayBuffer>]);
    // Loaded only for such files; offline before it was ever fetched, the photo goes up without its XMP.
    const packet = (await mayHoldOtherXmp(blob)) ? await import('./xmp-packet').then((m) => m.readXmpPacket(blob)).catch(() => null) : null;
    if (packet) tags.xmp = packet;
  }
  return photoMetadataFromTags(tags);
}

/** A WebP, a PNG or an ISO base media file (HEIF, AVIF) by its first bytes: the reader is loaded for those only. */
async function mayHoldOtherXmp(blob: Blob): Promise<boolean> {
  const head = new Uint8Array(await blob.slice(0, 12).arrayBuffer());
  const text = String.fromCharCode(...head);
  return (text.startsWith('RIFF') && text.slice(8, 12) === 'WEBP') || text.slice(1, 4) === 'PNG' || text.slice(4, 8) === 'ftyp';
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
