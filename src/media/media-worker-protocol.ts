import type { ImageLimits } from './image-pipeline';
import type { ProcessedMedia, SniffedType } from './media-types';

/** Messages to the media worker. Blobs are structured-cloned (the bytes are shared, not copied). */
export type MediaWorkerRequest =
  | { type: 'process'; id: number; blob: Blob; sniffed: SniffedType; limits: ImageLimits }
  | { type: 'hash'; id: number; blob: Blob }
  | { type: 'abort'; id: number };

/** Messages from the media worker. `ready` is sent once, when its modules have loaded. */
export type MediaWorkerResponse =
  | { type: 'ready' }
  | { type: 'processed'; id: number; media: ProcessedMedia }
  | { type: 'hashed'; id: number; hex: string }
  | { type: 'progress'; id: number; bytes: number }
  | { type: 'failed'; id: number; name: string; message: string };
