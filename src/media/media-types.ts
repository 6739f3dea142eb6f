import type { ItemKind, ItemMetadata, ItemNotice } from '../domain/entities';

/** What the type sniffer decides from a file's first bytes (never from its name). */
export interface SniffedType {
  mime: string;
  kind: ItemKind;
  /** An image format the browser's own decoders can open (JPEG, PNG, WebP, GIF, AVIF, BMP…). */
  decodable: boolean;
}

/** What the media pipeline makes of one file. Derived blobs carry no metadata at all (no EXIF, no GPS). */
export interface ProcessedMedia {
  kind: ItemKind;
  mime: string;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  /** ISO 8601, UTC. */
  takenAt: string | null;
  /** 480 px long edge (WebP, JPEG where WebP cannot be encoded). */
  thumb: Blob | null;
  /** 2,048 px long edge; for a video, its poster frame. */
  preview: Blob | null;
  /** base64 thumbhash, < 40 bytes decoded. */
  thumbhash: string | null;
  metadata: ItemMetadata;
  notice: ItemNotice | null;
  /**
   * The MD5 (base64) of the preview and the thumbnail, taken in the media worker as they are made: their single
   * PUTs' `Content-MD5`, so they are not read again on the page to be hashed. Absent where nobody took them.
   */
  derivedMd5?: { preview: string | null; thumb: string | null };
}

export interface ProcessOptions {
  signal?: AbortSignal;
  /** The text of an XMP sidecar added with the file: its fields take the place of the file's own. */
  sidecar?: string;
}
