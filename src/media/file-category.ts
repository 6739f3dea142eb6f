/** What kind of thing a file is, for choosing its icon when it has no picture of its own. */
export type FileCategory =
  | 'image'
  | 'raw-photo'
  | 'vector'
  | 'video'
  | 'audio'
  | 'pdf'
  | 'document'
  | 'spreadsheet'
  | 'presentation'
  | 'archive'
  | 'web-page'
  | 'text'
  | 'other';

const EXACT: Record<string, FileCategory> = {
  'application/pdf': 'pdf',
  'image/svg+xml': 'vector',
  'application/postscript': 'vector',
  'text/html': 'web-page',
  'application/xhtml+xml': 'web-page',
  'application/rtf': 'document',
  'application/msword': 'document',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'document',
  'application/vnd.oasis.opendocument.text': 'document',
  'application/epub+zip': 'document',
  'application/vnd.ms-excel': 'spreadsheet',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'spreadsheet',
  'application/vnd.oasis.opendocument.spreadsheet': 'spreadsheet',
  'text/csv': 'spreadsheet',
  'application/vnd.ms-powerpoint': 'presentation',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'presentation',
  'application/vnd.oasis.opendocument.presentation': 'presentation',
  'application/zip': 'archive',
  'application/gzip': 'archive',
  'application/x-tar': 'archive',
  'application/x-7z-compressed': 'archive',
  'application/vnd.rar': 'archive',
  'application/x-rar-compressed': 'archive',
  'application/x-bzip2': 'archive',
  'application/x-xz': 'archive',
  'application/zstd': 'archive',
  'application/json': 'text',
  'application/xml': 'text',
};

/** Photos the browser cannot show: HEIC/HEIF, TIFF, camera RAW, Photoshop and friends. */
const RAW_PHOTO = /^image\/(heic|heif|heic-sequence|heif-sequence|tiff|x-adobe-dng|x-canon-|x-nikon-|x-sony-|x-fujifilm-|x-olympus-|x-panasonic-|vnd\.adobe\.photoshop|jxl|jp2|jpx)/;

/** The icon family of a sniffed mime type (never of a file name). */
export function fileCategory(mime: string): FileCategory {
  const m = mime.toLowerCase().split(';')[0]!.trim();
  const exact = EXACT[m];
  if (exact) return exact;
  if (RAW_PHOTO.test(m)) return 'raw-photo';
  if (m.startsWith('image/')) return 'image';
  if (m.startsWith('video/')) return 'video';
  if (m.startsWith('audio/')) return 'audio';
  if (m.startsWith('text/')) return 'text';
  return 'other';
}
