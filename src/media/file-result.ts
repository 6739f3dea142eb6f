import type { ItemNotice } from '../domain/entities';
import type { ProcessedMedia } from './media-types';
import type { PhotoMetadata } from './photo-metadata';

/**
 * A file kept as it is, with no derived copies: anything that is not a picture or a video, and pictures that
 * cannot or must not be decoded (`notice` says which, and the item's metadata repeats it for the UI).
 */
export function fileResult(mime: string, notice: ItemNotice | null = null, photo?: PhotoMetadata): ProcessedMedia {
  return {
    kind: 'file',
    mime,
    width: null,
    height: null,
    durationMs: null,
    takenAt: photo?.takenAt ?? null,
    thumb: null,
    preview: null,
    thumbhash: null,
    metadata: { ...photo?.metadata, ...(notice ? { notice } : {}) },
    notice,
  };
}
