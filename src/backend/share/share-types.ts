/**
 * What the `share-open` edge function answers a link's visitor (the shared contract of issue 11). Plain data:
 * never a storage key, a user id, an e-mail address or a location.
 */
import type { ItemKind, ItemMetadata } from '../entities';
import type { ItemSort, MonthCount } from '../ports';

export interface SharedLink {
  label: string | null;
  expiresAt: string | null;
  allowDownload: boolean;
  allowGuestUpload: boolean;
  /** Originals are served: downloads are on and the album removes location from them. */
  originals: boolean;
  guestMaxFiles: number | null;
  guestMaxBytes: number | null;
}

export interface SharedAlbum {
  title: string;
  description: string;
  itemCount: number;
  coverThumbhash: string | null;
  coverUrl: string | null;
}

export interface ShareOpenAnswer {
  visit: string;
  visitExpiresAt: string;
  link: SharedLink;
  album: SharedAlbum;
  /** Per month, for sort `taken`. */
  months: MonthCount[];
}

export interface SharedItem {
  id: string;
  kind: ItemKind;
  filename: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  takenAt: string | null;
  createdAt: string;
  thumbhash: string | null;
  metadata: ItemMetadata;
  /** A display name, or "Ana (guest)"; null when unknown. */
  addedBy: string | null;
  thumbUrl: string | null;
  previewUrl: string | null;
  posterUrl: string | null;
  originalUrl: string | null;
}

export interface SharedItemsAnswer {
  rows: SharedItem[];
  nextCursor: string | null;
  /** When the URLs in `rows` stop working. */
  expiresAt: string;
}

export type SharedVariant = 'original' | 'preview' | 'thumb';

export interface SharedUrlsAnswer {
  urls: Record<string, string>;
  expiresAt: string;
  originals?: boolean;
}

export interface SharedItemsQuery {
  sort: ItemSort;
  month?: string;
  cursor?: string | null;
  limit?: number;
  kind?: ItemKind;
}
