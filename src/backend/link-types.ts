/**
 * A public link's visitor: what the `share-open` edge function answers (plain data: never a storage key, a user
 * id, an e-mail address or a location), and the visitor's backend, which has the link's own calls besides what
 * showing the album takes.
 */
import type { Album, ItemKind, ItemMetadata } from '../domain/entities';
import type { AppError } from '../lib/app-error';
import type { AlbumBackend, CallOptions, Unsubscribe } from './ports';
import type { ItemSort, MonthCount } from '../domain/queries';

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
  /** The original is stored gzip-compressed and is inflated when read; absent: as it is. */
  storedEncoding?: 'gzip';
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

/** The album's id on the visitor's side: the link has no other (the real one is never sent). */
export const SHARED_ALBUM_ID = 'shared';

/** The album as a link's visitor sees it, from what opening the link said. */
export function sharedAlbum(answer: ShareOpenAnswer): Album {
  return {
    id: SHARED_ALBUM_ID,
    ownerId: '',
    title: answer.album.title,
    description: answer.album.description,
    coverItemId: null,
    coverThumbKey: null,
    coverThumbhash: answer.album.coverThumbhash,
    itemCount: answer.album.itemCount,
    bytesTotal: 0,
    // Known only when downloads are on: originals are then withheld exactly when the album keeps locations.
    keepLocation: answer.link.allowDownload && !answer.link.originals,
    createdAt: '',
    updatedAt: '',
    role: 'viewer',
  };
}

/** A link visitor's own calls: opening the link (with its password), and hearing when it stops working. */
export interface LinkVisitPort {
  /** Opens the link; the answer says what the album is and what the link allows. */
  open(password: string | undefined, opts?: CallOptions): Promise<ShareOpenAnswer>;
  /** What opening the link said earlier in this tab, while that visit lasts; null otherwise. */
  resume(): ShareOpenAnswer | null;
  /** Called when a later call finds the link gone, or the visit lapsed and the link must be opened again. */
  onStop(cb: (error: AppError) => void): Unsubscribe;
}

/** The backend of a public link's visitor (src/backend/link): the album, read-only, and the link itself. */
export interface LinkVisitorBackend extends AlbumBackend {
  visit: LinkVisitPort;
}
