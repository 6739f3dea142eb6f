/** A share link as owners and editors see it (the app reads it in src/backend/supabase/supabase-share-links.ts): never its token or password hash. */
import type { Tx } from '../_shared/database.ts';

export interface ShareLinkRow {
  id: string;
  albumId: string;
  label: string | null;
  hasPassword: boolean;
  expiresAt: string | null;
  allowDownload: boolean;
  allowGuestUpload: boolean;
  maxViews: number | null;
  viewCount: number;
  guestMaxFiles: number | null;
  guestMaxBytes: number | null;
  lastOpenedAt: string | null;
  createdBy: string | null;
  createdAt: string;
  revokedAt: string | null;
  guestItemCount: number;
}

interface Row {
  id: string;
  album_id: string;
  label: string | null;
  has_password: boolean;
  expires_at: Date | null;
  allow_download: boolean;
  allow_guest_upload: boolean;
  max_views: number | null;
  view_count: number;
  guest_max_files: number | null;
  guest_max_bytes: string | null;
  last_opened_at: Date | null;
  created_by: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * The link's row. Guest uploads are credited by name on the album's items (items.guest_label), not yet to one
 * link, so a link's count of guest items is what the guest-upload side records once it exists.
 */
export async function readShareLink(tx: Tx, linkId: string): Promise<ShareLinkRow | null> {
  const [r] = await tx<Row[]>`
    select id, album_id, label, has_password, expires_at, allow_download, allow_guest_upload, max_views, view_count,
           guest_max_files, guest_max_bytes::text as guest_max_bytes, last_opened_at, created_by, created_at, revoked_at
    from public.share_links where id = ${linkId}::uuid`;
  if (!r) return null;
  return {
    id: r.id,
    albumId: r.album_id,
    label: r.label,
    hasPassword: r.has_password,
    expiresAt: iso(r.expires_at),
    allowDownload: r.allow_download,
    allowGuestUpload: r.allow_guest_upload,
    maxViews: r.max_views,
    viewCount: r.view_count,
    guestMaxFiles: r.guest_max_files,
    guestMaxBytes: r.guest_max_bytes === null ? null : Number(r.guest_max_bytes),
    lastOpenedAt: iso(r.last_opened_at),
    createdBy: r.created_by,
    createdAt: r.created_at.toISOString(),
    revokedAt: iso(r.revoked_at),
    guestItemCount: 0,
  };
}
