/**
 * Share links over PostgREST and the share-links edge function. Owners and editors read a link's columns
 * (the grants name them: never the token's or the password's hash) and revoke it with an update that RLS
 * admits only for them; a link is made by the function, which hashes the password (PBKDF2, in Deno) and
 * answers with the token once.
 */
import * as z from 'zod/mini';
import { AppError, throwIfAborted } from '../../lib/app-error';
import { checkShareLinkInput } from '../../lib/share-link-rules';
import type { CallOptions, FunctionsPort, ShareLinksPort } from '../ports';
import type { ShareLink, ShareLinkInput } from '../../domain/entities';
import type { PostgrestCalls, Sendable } from './supabase-calls';
import { iso, isoOrNull, parseRow, rows, text, timestamp, toNumber, toNumberOrNull, whole } from './supabase-rows';

/** The columns granted to owners and editors (20261121100800_hidden_link_secrets.sql and 20261125090000_*). */
export const SHARE_LINK_COLUMNS =
  'id,album_id,label,has_password,expires_at,allow_download,allow_guest_upload,max_views,view_count,guest_max_files,guest_max_bytes,last_opened_at,created_by,created_at,revoked_at';

const SHARE_LINK_ROW = z.object({
  id: text,
  album_id: text,
  label: z.nullable(text),
  has_password: z.boolean(),
  expires_at: z.nullable(timestamp),
  allow_download: z.boolean(),
  allow_guest_upload: z.boolean(),
  max_views: z.nullable(whole),
  view_count: whole,
  guest_max_files: z.nullable(whole),
  guest_max_bytes: z.nullable(whole),
  last_opened_at: z.nullable(timestamp),
  created_by: z.nullable(text),
  created_at: timestamp,
  revoked_at: z.nullable(timestamp),
});

/**
 * A row of `share_links`. How many items guests added is not among its columns (guests' tables are closed to
 * clients): `list` fills it in from `share_link_guest_counts`, the share-links function's answer carries it.
 */
export function toShareLink(row: unknown): ShareLink {
  const r = parseRow(SHARE_LINK_ROW, row, 'a share link');
  return {
    id: r.id,
    albumId: r.album_id,
    label: r.label,
    hasPassword: r.has_password,
    expiresAt: isoOrNull(r.expires_at),
    allowDownload: r.allow_download,
    allowGuestUpload: r.allow_guest_upload,
    maxViews: toNumberOrNull(r.max_views),
    viewCount: toNumber(r.view_count),
    guestMaxFiles: toNumberOrNull(r.guest_max_files),
    guestMaxBytes: toNumberOrNull(r.guest_max_bytes),
    lastOpenedAt: isoOrNull(r.last_opened_at),
    createdBy: r.created_by,
    createdAt: iso(r.created_at),
    revokedAt: isoOrNull(r.revoked_at),
    guestItemCount: null,
  };
}

/** The share-links function's `ShareLinkRow` (supabase/functions/share-links/share-link-row.ts), already camelCase. */
const FUNCTION_LINK = z.object({
  id: text,
  albumId: text,
  label: z.nullable(text),
  hasPassword: z.boolean(),
  expiresAt: z.nullable(timestamp),
  allowDownload: z.boolean(),
  allowGuestUpload: z.boolean(),
  maxViews: z.nullable(whole),
  viewCount: whole,
  guestMaxFiles: z.nullable(whole),
  guestMaxBytes: z.nullable(whole),
  lastOpenedAt: z.nullable(timestamp),
  createdBy: z.nullable(text),
  createdAt: timestamp,
  revokedAt: z.nullable(timestamp),
  guestItemCount: z.optional(z.nullable(whole)),
});
const GUEST_COUNT_ROW = z.object({ link_id: text, guest_item_count: whole });

const CREATED = z.object({ link: FUNCTION_LINK, token: z.string().check(z.minLength(16)) });

export function toCreatedShareLink(answer: unknown): { link: ShareLink; token: string } {
  const { link: l, token } = parseRow(CREATED, answer, 'a share link');
  return {
    link: {
      id: l.id,
      albumId: l.albumId,
      label: l.label,
      hasPassword: l.hasPassword,
      expiresAt: isoOrNull(l.expiresAt),
      allowDownload: l.allowDownload,
      allowGuestUpload: l.allowGuestUpload,
      maxViews: toNumberOrNull(l.maxViews),
      viewCount: toNumber(l.viewCount),
      guestMaxFiles: toNumberOrNull(l.guestMaxFiles),
      guestMaxBytes: toNumberOrNull(l.guestMaxBytes),
      lastOpenedAt: isoOrNull(l.lastOpenedAt),
      createdBy: l.createdBy,
      createdAt: iso(l.createdAt),
      revokedAt: isoOrNull(l.revokedAt),
      guestItemCount: toNumberOrNull(l.guestItemCount ?? null),
    },
    token,
  };
}

export class SupabaseShareLinks implements ShareLinksPort {
  constructor(
    private readonly calls: PostgrestCalls,
    private readonly functions: FunctionsPort,
  ) {}

  async listShareLinks(albumId: string, opts: CallOptions = {}): Promise<ShareLink[]> {
    throwIfAborted(opts.signal);
    const query = this.calls.client
      .from('share_links')
      .select(SHARE_LINK_COLUMNS)
      .eq('album_id', albumId)
      .order('created_at', { ascending: false })
      .order('id', { ascending: false });
    const links = rows(await this.calls.send(query as unknown as Sendable, opts.signal, 'album/not-found')).map(toShareLink);
    // RLS shows a contributor or a viewer no link, and a non-member nothing at all: only the latter is an error.
    if (links.length === 0) {
      await this.calls.requireAlbum(albumId, opts.signal);
      return links;
    }
    // Links are listed only to owners and editors, the callers the counts are for.
    const counted = rows(await this.calls.send(this.calls.rpc('share_link_guest_counts', { p_album_id: albumId }), opts.signal, 'album/not-found'));
    const added = new Map(counted.map((row) => parseRow(GUEST_COUNT_ROW, row, 'a share link\'s guest count')).map((c) => [c.link_id, toNumber(c.guest_item_count)]));
    return links.map((link) => ({ ...link, guestItemCount: added.get(link.id) ?? 0 }));
  }

  async createShareLink(albumId: string, input: ShareLinkInput, opts: CallOptions = {}): Promise<{ link: ShareLink; token: string }> {
    throwIfAborted(opts.signal);
    const checked = checkShareLinkInput(input);
    const body = {
      op: 'create',
      albumId,
      label: checked.label ?? null,
      ...(checked.password === undefined ? {} : { password: checked.password }),
      // Left out, the function gives 30 days; null is "never", sent only when chosen.
      ...(checked.expiresAt === undefined ? {} : { expiresAt: checked.expiresAt }),
      allowDownload: checked.allowDownload,
      allowGuestUpload: checked.allowGuestUpload,
      maxViews: checked.maxViews ?? null,
      guestMaxFiles: checked.allowGuestUpload ? (checked.guestMaxFiles ?? null) : null,
      guestMaxBytes: checked.allowGuestUpload ? (checked.guestMaxBytes ?? null) : null,
    };
    return toCreatedShareLink(await this.functions.invoke('share-links', body, opts));
  }

  async revokeShareLink(linkId: string, opts: CallOptions = {}): Promise<void> {
    throwIfAborted(opts.signal);
    const { client, send } = this.calls;
    // Only a link still on is stamped, so revoking twice keeps the first time. The update asks for no row
    // back; reading the link after it says whether the caller may see (and so manage) it.
    const update = client.from('share_links').update({ revoked_at: new Date().toISOString() }).eq('id', linkId).is('revoked_at', null);
    await send(update as unknown as Sendable, opts.signal, 'album/not-found');
    const seen = client.from('share_links').select('id,revoked_at').eq('id', linkId);
    if (rows(await send(seen as unknown as Sendable, opts.signal, 'album/not-found')).some((r) => r.revoked_at !== null)) return;
    // RLS hides the link (not the caller's to manage, or no such link): the server's answer for an unknown id.
    throw new AppError('album/not-found', 'No share link with this id is visible to the caller.', { retryable: false });
  }
}
