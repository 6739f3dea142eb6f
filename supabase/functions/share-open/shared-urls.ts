/**
 * What a link visitor receives of an item: its public fields and presigned GET URLs (storage-sign's presigner
 * and content-safety rules), never a storage key, a user id, an e-mail address or a location.
 * URLs live at most an hour and never past the link's own expiry. Thumbnails, previews and posters are served
 * as image/webp; originals (only where the link's `originals` allow them) as their listed type inline, or as
 * bytes to download; `download` makes any of them an attachment with the item's name.
 */
import { attachment, DERIVED_SERVED_TYPE, isInlineOriginalType, OCTET_STREAM } from '../storage-sign/content-safety.ts';
import type { Presign } from '../storage-sign/presign.ts';
import { remainingSeconds, type SharedLink } from '../_shared/share-access.ts';
import type { ItemRow } from './item-pages.ts';

export const MAX_URL_SECONDS = 3600;
export type Variant = 'original' | 'preview' | 'thumb';

export interface SharedItem {
  id: string;
  kind: string;
  filename: string;
  mime: string;
  bytes: number;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  takenAt: string | null;
  createdAt: string;
  thumbhash: string | null;
  metadata: Record<string, unknown>;
  addedBy: string | null;
  thumbUrl: string | null;
  previewUrl: string | null;
  posterUrl: string | null;
  originalUrl: string | null;
  /** The original is stored gzip-compressed: a visitor inflates it (present only then). */
  storedEncoding?: 'gzip';
}

/** Originals only where downloads are on and the album does not keep locations in them. */
export const originalsAllowed = (link: SharedLink) => link.allowDownload && !link.keepLocation;

/**
 * And of those, only the items whose location is not still in the file: an item marked `location: kept` (a video,
 * a format the remover does not cover) may hold the place it was made, which the album said not to give away.
 */
export const originalServed = (link: SharedLink, item: Pick<ItemRow, 'metadata'>) => originalsAllowed(link) && item.metadata?.location !== 'kept';

export class UrlSigner {
  readonly expiresIn: number;
  readonly expiresAt: Date;

  constructor(private presign: Presign, private link: SharedLink, private now: Date) {
    this.expiresIn = Math.max(1, Math.min(MAX_URL_SECONDS, remainingSeconds(link, now)));
    this.expiresAt = new Date(now.getTime() + this.expiresIn * 1000);
  }

  /** The URL of one variant, or null when the item has none or the link does not give originals. */
  async url(item: ItemRow, variant: Variant, download = false): Promise<string | null> {
    let key: string | null;
    let responseType: string;
    let responseDisposition: string;
    if (variant === 'original') {
      if (!originalServed(this.link, item)) return null;
      key = `albums/${this.link.albumId}/${item.id}/original`;
      const inline = isInlineOriginalType(item.mime);
      responseType = inline ? item.mime : OCTET_STREAM;
      responseDisposition = inline && !download ? 'inline' : attachment(item.filename);
    } else {
      key = variant === 'thumb' ? item.thumb_key : item.preview_key;
      responseType = DERIVED_SERVED_TYPE;
      responseDisposition = download ? attachment(`${stem(item.filename)}.webp`) : 'inline';
    }
    if (key === null) return null;
    const signed = await this.presign({ op: 'get', key }, { responseType, responseDisposition }, this.expiresIn, this.now);
    return signed.url;
  }

  async sharedItem(item: ItemRow): Promise<SharedItem> {
    const poster = item.preview_key?.endsWith('/poster.webp') ?? false;
    const [thumbUrl, previewUrl, originalUrl] = await Promise.all([this.url(item, 'thumb'), this.url(item, 'preview'), this.url(item, 'original')]);
    return {
      id: item.id,
      kind: item.kind,
      filename: item.filename,
      mime: item.mime,
      bytes: Number(item.bytes),
      width: item.width,
      height: item.height,
      durationMs: item.duration_ms === null ? null : Number(item.duration_ms),
      takenAt: item.taken_at?.toISOString() ?? null,
      createdAt: item.created_at.toISOString(),
      thumbhash: item.thumbhash,
      metadata: withoutLocation(item.metadata) as Record<string, unknown>,
      addedBy: item.guest_label !== null ? `${item.guest_label} (guest)` : item.uploader_name,
      thumbUrl,
      previewUrl: poster ? null : previewUrl,
      posterUrl: poster ? previewUrl : null,
      originalUrl,
      ...(item.stored_encoding === 'gzip' ? { storedEncoding: 'gzip' as const } : {}),
    };
  }
}

const stem = (name: string) => name.replace(/\.[^.]*$/, '') || name;

// Any key naming a place: GPS*, location, latitude/longitude/altitude, geo*, and XMP's exif:GPS*.
const LOCATION_KEY = /gps|locat|latitude|longitude|altitude|geo|city|country|sublocation|coordinates/i;

/** The item's metadata without location, at any depth: the database should hold none, and none leaves here. */
export function withoutLocation(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLocation);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([k]) => !LOCATION_KEY.test(k)).map(([k, v]) => [k, withoutLocation(v)]));
  }
  return value;
}
