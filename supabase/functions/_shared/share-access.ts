/**
 * Who may see a shared album without an account: a link's token (share-open `open`) or a visit token it handed
 * out (every later call, and share-upload's). Both are looked up by their SHA-256 only, and the link is checked
 * again each time, so a link revoked, expired or whose album was deleted stops serving at once.
 * Runs as the service role: link visitors have no database role of their own ([Note: Link visitors in the
 * database] in supabase/migrations/20261125100000_share_open.sql).
 */
import { type Sql, transaction, type Tx } from './database.ts';

/** An answer of the share-* functions' error catalogue (the codes of PRODUCT.md §8, as src/lib/app-error.ts lists them), thrown to end a call. */
export class ShareError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
  }
}

export interface SharedLink {
  linkId: string;
  albumId: string;
  label: string | null;
  expiresAt: Date | null;
  allowDownload: boolean;
  allowGuestUpload: boolean;
  maxViews: number | null;
  viewCount: number;
  guestMaxFiles: number | null;
  guestMaxBytes: number | null;
  passwordHash: string | null;
  keepLocation: boolean;
  albumTitle: string;
  albumDescription: string;
  itemCount: number;
}

const TOKEN = /^[A-Za-z0-9_-]{22}$/;

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A transaction as the service role, with timestamps printed in UTC (the item cursors carry them as text). */
export function asService<T>(sql: Sql, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return transaction(sql, async (tx) => {
    await tx`set local role service_role`;
    await tx`set local timezone to 'UTC'`;
    return await fn(tx);
  });
}

interface LinkRow {
  id: string;
  album_id: string;
  label: string | null;
  expires_at: Date | null;
  allow_download: boolean;
  allow_guest_upload: boolean;
  max_views: number | null;
  view_count: number;
  guest_max_files: number | null;
  guest_max_bytes: string | null;
  password_hash: string | null;
  revoked_at: Date | null;
  keep_location: boolean;
  title: string;
  description: string;
  item_count: number;
  deleted_at: Date | null;
}

const notFound = () => new ShareError(404, 'share/not-found', 'This link does not exist.');

/** The link behind a token, valid now; else share/not-found, share/revoked or share/expired (reason expired). */
export async function linkByToken(tx: Tx, token: unknown, now: Date): Promise<SharedLink> {
  if (typeof token !== 'string' || !TOKEN.test(token)) throw notFound();
  const [row] = await tx<LinkRow[]>`${linkSelect(tx)} where l.token_hash = ${await sha256Hex(token)}`;
  return checked(row, now);
}

/** The link of a visit token that has not expired; else share/password-required (the page opens the link again). */
export async function linkByVisit(tx: Tx, visit: unknown, now: Date): Promise<SharedLink & { visitorHash: string }> {
  const again = () => new ShareError(401, 'share/password-required', 'Open the link again.');
  if (typeof visit !== 'string' || !TOKEN.test(visit)) throw again();
  const [found] = await tx<{ link_id: string; visitor_hash: string }[]>`
    select link_id, visitor_hash from public.share_visits
    where token_hash = ${await sha256Hex(visit)} and expires_at > ${now}`;
  if (!found) throw again();
  const [row] = await tx<LinkRow[]>`${linkSelect(tx)} where l.id = ${found.link_id}::uuid`;
  return { ...checked(row, now), visitorHash: found.visitor_hash };
}

function linkSelect(tx: Tx) {
  return tx`
    select l.id, l.album_id, l.label, l.expires_at, l.allow_download, l.allow_guest_upload, l.max_views, l.view_count,
           l.guest_max_files, l.guest_max_bytes::text as guest_max_bytes, l.password_hash, l.revoked_at,
           a.keep_location, a.title, a.description, a.item_count, a.deleted_at
    from public.share_links l join public.albums a on a.id = l.album_id`;
}

function checked(row: LinkRow | undefined, now: Date): SharedLink {
  if (!row || row.deleted_at !== null) throw notFound();
  if (row.revoked_at !== null) throw new ShareError(410, 'share/revoked', 'This link was revoked.');
  if (row.expires_at !== null && row.expires_at.getTime() <= now.getTime()) {
    throw new ShareError(410, 'share/expired', 'This link has expired.', { reason: 'expired' });
  }
  return {
    linkId: row.id,
    albumId: row.album_id,
    label: row.label,
    expiresAt: row.expires_at,
    allowDownload: row.allow_download,
    allowGuestUpload: row.allow_guest_upload,
    maxViews: row.max_views,
    viewCount: row.view_count,
    guestMaxFiles: row.guest_max_files,
    guestMaxBytes: row.guest_max_bytes === null ? null : Number(row.guest_max_bytes),
    passwordHash: row.password_hash,
    keepLocation: row.keep_location,
    albumTitle: row.title,
    albumDescription: row.description,
    itemCount: row.item_count,
  };
}

/** Seconds left of the link's life (Infinity for a link that never expires). */
export function remainingSeconds(link: SharedLink, now: Date): number {
  return link.expiresAt === null ? Infinity : Math.floor((link.expiresAt.getTime() - now.getTime()) / 1000);
}
