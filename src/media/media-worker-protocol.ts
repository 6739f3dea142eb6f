import type { ImageLimits } from './image-pipeline';
import type { ProcessedMedia, SniffedType } from './media-types';
import type { FileDigests } from './file-digests';
import type { XmpFields } from './xmp-metadata';

/** Messages to the media worker. Blobs are structured-cloned (the bytes are shared, not copied). */
export type MediaWorkerRequest =
  | { type: 'process'; id: number; blob: Blob; sniffed: SniffedType; limits: ImageLimits }
  /** The file's SHA-256, and its MD5 when `md5` is set (one read for both). */
  | { type: 'hash'; id: number; blob: Blob; md5: boolean }
  /** The fields of an XMP sidecar added with a file (IMG_1.xmp, IMG_1.CR3.xmp). */
  | { type: 'sidecar'; id: number; text: string }
  /** A text file gzip-compressed ([Note: Text files are stored gzip-compressed]). */
  | { type: 'gzip'; id: number; blob: Blob }
  | { type: 'abort'; id: number };

/** Messages from the media worker. `ready` is sent once, when its modules have loaded. */
export type MediaWorkerResponse =
  | { type: 'ready' }
  | { type: 'processed'; id: number; media: ProcessedMedia }
  | { type: 'hashed'; id: number; digests: FileDigests }
  | { type: 'sidecar-read'; id: number; fields: XmpFields }
  | { type: 'gzipped'; id: number; blob: Blob | null }
  | { type: 'progress'; id: number; bytes: number }
  | { type: 'failed'; id: number; name: string; message: string };
