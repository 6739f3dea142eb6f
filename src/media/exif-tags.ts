import ExifReader from 'exifreader';

/**
 * The EXIF tags the app reads, by their ExifTool names (as photoMetadataFromTags takes them): strings as they are
 * written, rationals as numbers. Nothing of a place is among them, and none can be: the reader is built without
 * the GPS tags ([Note: The EXIF reader's build] in scripts/vite-exifreader.mjs), so it never follows the pointer
 * to the GPS IFD, and only the names below are copied out of what it returns.
 */
export interface ExifTags {
  Make?: string;
  Model?: string;
  LensModel?: string;
  Orientation?: number;
  DateTimeOriginal?: string;
  OffsetTimeOriginal?: string;
  SubSecTimeOriginal?: string;
  /** EXIF's DateTimeDigitized. */
  CreateDate?: string;
  OffsetTimeDigitized?: string;
  SubSecTimeDigitized?: string;
  ExposureTime?: number;
  FNumber?: number;
  /** EXIF's ISOSpeedRatings (PhotographicSensitivity), its first value. */
  ISO?: number;
  FocalLength?: number;
  /** A TIFF's XMP packet (tag 700), as text. */
  xmp?: string;
  /** A JPEG's Extended XMP, put back together (metadata-blocks.ts). */
  xmpExtended?: string;
}

type Tag = { value?: unknown } | undefined;

/** The tags of an EXIF block (a TIFF structure); none when it cannot be read. */
export function readExifTags(tiff: Uint8Array): ExifTags {
  let raw: Record<string, Tag>;
  try {
    // The reader takes a buffer of its own: the block is often a view into a larger read.
    const buffer = tiff.byteOffset === 0 && tiff.byteLength === tiff.buffer.byteLength ? tiff.buffer : tiff.slice().buffer;
    raw = ExifReader.load(buffer as ArrayBuffer, { includeUnknown: false }) as unknown as Record<string, Tag>;
  } catch {
    return {};
  }
  const out: ExifTags = {};
  const text = (key: keyof ExifTags, tag: Tag) => {
    const v = tag?.value;
    const s = Array.isArray(v) ? v[0] : v;
    if (typeof s === 'string') (out as Record<string, unknown>)[key] = s;
  };
  const number = (key: keyof ExifTags, tag: Tag, read: (v: unknown) => number | undefined) => {
    const n = read(tag?.value);
    if (n !== undefined) (out as Record<string, unknown>)[key] = n;
  };
  text('Make', raw.Make);
  text('Model', raw.Model);
  text('LensModel', raw.LensModel);
  number('Orientation', raw.Orientation, integer);
  text('DateTimeOriginal', raw.DateTimeOriginal);
  text('OffsetTimeOriginal', raw.OffsetTimeOriginal);
  text('SubSecTimeOriginal', raw.SubSecTimeOriginal);
  text('CreateDate', raw.DateTimeDigitized);
  text('OffsetTimeDigitized', raw.OffsetTimeDigitized);
  text('SubSecTimeDigitized', raw.SubSecTimeDigitized);
  number('ExposureTime', raw.ExposureTime, rational);
  number('FNumber', raw.FNumber, rational);
  number('ISO', raw.ISOSpeedRatings, integer);
  number('FocalLength', raw.FocalLength, rational);
  const notes = raw.ApplicationNotes?.value;
  if (Array.isArray(notes) && notes.length > 0) out.xmp = new TextDecoder().decode(Uint8Array.from(notes as number[]));
  return out;
}

/** A SHORT or LONG: a number, or the first of several. */
function integer(v: unknown): number | undefined {
  const n = Array.isArray(v) ? (v[0] as unknown) : v;
  return typeof n === 'number' ? n : undefined;
}

/** A RATIONAL, `[numerator, denominator]` (the first of several), as a number. */
function rational(v: unknown): number | undefined {
  const r = Array.isArray(v) && Array.isArray(v[0]) ? (v[0] as unknown[]) : v;
  if (!Array.isArray(r) || typeof r[0] !== 'number' || typeof r[1] !== 'number' || r[1] === 0) return undefined;
  return r[0] / r[1];
}
