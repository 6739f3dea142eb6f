/** What the app sends to make or change an entity: checked by the backend (and by lib/validation.ts first). */
import type { ItemMetadata, ItemKind } from './entities';

export interface AlbumInput {
  title: string;
  description?: string;
}

export interface AlbumPatch {
  title?: string;
  description?: string;
  coverItemId?: string | null;
  /** The owner's alone (PRODUCT.md §6); anyone else gets `album/forbidden`. */
  keepLocation?: boolean;
}

/** What the uploader knows before the bytes go up. The id is chosen by the client so a retry is idempotent. */
export interface ReserveItemInput {
  id: string;
  filename: string;
  mime: string;
  kind: ItemKind;
  bytes: number;
  /** The file's SHA-256 (hex) when already known: a share link's guest is told a file the album holds. */
  sha256?: string;
  /** The original goes up gzip-compressed, `bytes` stored (its own size stays `bytes` above). */
  stored?: { encoding: 'gzip'; bytes: number };
}

export interface FinalizeItemInput {
  sha256: string;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  takenAt: string | null;
  hasPreview: boolean;
  hasThumb: boolean;
  thumbhash: string | null;
  metadata: ItemMetadata;
}

/** A change to items' details, for one item or a selection: [Note: Edits merge into what an item holds] in lib/item-edit.ts. */
export interface ItemEdit {
  /** Set (a text) or clear (null or blank). */
  title?: string | null;
  description?: string | null;
  /** A colour label, as Lightroom writes it ("Red", "Yellow", "Green", "Blue", "Purple"); null clears. */
  label?: string | null;
  /** 1–5 stars; 0 or null clears. */
  rating?: number | null;
  /** Replaces the keywords (one item's details); otherwise `addKeywords` and `removeKeywords` merge. */
  keywords?: string[];
  addKeywords?: string[];
  removeKeywords?: string[];
  /**
   * Places in the keyword hierarchy (`Places|Portugal|Porto`) to keep with the keywords, as undoing a keyword's
   * removal brings its place back; one whose last level is not a keyword of the item after the edit is left out.
   */
  addKeywordPaths?: string[];
  /** Sets the date taken (an ISO date; null clears), or shifts each item's own date by a number of milliseconds. */
  takenAt?: string | null;
  shiftTakenAtMs?: number;
}
