/**
 * DataPort over PostgREST: reads from `album_summaries`, `items` and `activity_feed` (RLS decides what the
 * caller sees), writes through the SQL functions, which check the caller's role. The shapes of every
 * request are those of the agreed SQL API; errors follow [Note: Supabase error convention].
 */
import type { SupabaseClient } from '@supabase/supabase-js';
import { AppError, throwIfAborted, type ErrorCode } from '../../lib/app-error';
import { albumDescription, albumTitle, parseField, validateAlbumInput } from '../../lib/validation';
import type { AlbumInput, AlbumPatch, CallOptions, DataPort, Device, DeviceInput, FinalizeItemInput, FunctionsPort, ItemCountQuery, ItemQuery, ItemSort, MonthCount, Page, ReserveItemInput } from '../ports';
import type { Activity, Album, Comment, Favoriter, Invite, InviteInput, InvitePreview, Item, ItemKind, ItemSocial, Member, Role, ShareLink, ShareLinkInput } from '../entities';
import { decodeCursor, encodeCursor } from './supabase-cursor';
import { abortErrorOf, postgrestError, type PostgrestFailure } from './supabase-errors';
import type { SupabaseFetch } from './supabase-fetch';
import { SupabaseDevices } from './supabase-devices';
import { SupabaseMembers, type MemberCalls } from './supabase-members';
import { SupabaseShareLinks } from './supabase-share-links';
import { SupabaseSocial } from './supabase-social';
import { rows, toActivity, toAlbum, toItem, toMonthCount, toUnreadCount, type Row } from './supabase-rows';

/** The most rows one clear_pending_items call clears. */
const CLEAR_BATCH = 5000;

export const DEFAULT_PAGE_SIZE = 200;
// One row more than the page is fetched to learn whether another follows, and a hosted project answers at
// most 1,000 rows per request (PostgREST's max-rows): a page stops one short of that.
export const MAX_PAGE_SIZE = 999;

export interface PgResult {
  data: unknown;
  error: PostgrestFailure | null;
  status: number;
}

/** What every postgrest-js builder offers that we use. */
export interface Sendable extends PromiseLike<PgResult> {
  abortSignal(signal: AbortSignal): Sendable;
  retry(enabled: boolean): Sendable;
}

/** The column a sort orders by: `sort_taken` is the stored `coalesce(taken_at, created_at)`. */
function sortColumn(sort: ItemSort): 'sort_taken' | 'created_at' {
  return sort === 'taken' ? 'sort_taken' : 'created_at';
}

function checkSort(sort: unknown): ItemSort {
  if (sort === 'taken' || sort === 'added') return sort;
  throw new AppError('validation/invalid', 'A list is sorted by date taken or date added.', { details: { field: 'sort' } });
}

function checkUploader(id: unknown): string | undefined {
  if (id === undefined || id === null) return undefined;
  if (typeof id === 'string' && id !== '') return id;
  throw new AppError('validation/invalid', 'An uploader is named by their id.', { details: { field: 'uploaderId' } });
}

function checkKind(kind: unknown): ItemKind | undefined {
  if (kind === undefined || kind === null) return undefined;
  if (kind === 'image' || kind === 'video' || kind === 'file') return kind;
  throw new AppError('validation/invalid', 'A kind is image, video or file.', { details: { field: 'kind' } });
}

/** [start, end) of a `YYYY-MM` month in UTC, as ISO strings. */
export function monthBounds(month: string): [string, string] {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  const index = m ? Number(m[2]) - 1 : -1;
  if (!m || index < 0 || index > 11) {
    throw new AppError('validation/invalid', 'A month is written YYYY-MM.', { details: { field: 'month' } });
  }
  const start = new Date(0);
  start.setUTCFullYear(Number(m[1]), index, 1);
  const end = new Date(0);
  end.setUTCFullYear(Number(m[1]), index + 1, 1);
  return [start.toISOString(), end.toISOString()];
}

/** A value inside PostgREST's `or=(…)` grammar: quoted, since timestamps hold `.`, `:` and `+`. */
function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export class SupabaseData implements DataPort {
  private readonly members: SupabaseMembers;
  private readonly social: SupabaseSocial;
  private readonly shareLinks: SupabaseShareLinks;
  private readonly devices: SupabaseDevices;

  constructor(
    private readonly client: SupabaseClient,
    private readonly http: SupabaseFetch,
    functions: FunctionsPort,
  ) {
    const calls: MemberCalls = {
      client,
      send: (query, signal, notFound) => this.send(query, signal, notFound),
      rpc: (fn, args) => this.rpc(fn, args),
      requireAlbum: (albumId, signal) => this.requireAlbum(albumId, signal),
    };
    this.members = new SupabaseMembers(calls);
    this.social = new SupabaseSocial(calls);
    this.shareLinks = new SupabaseShareLinks(calls, functions);
    this.devices = new SupabaseDevices(calls);
  }

  /**
   * Sends one request: refuses an already aborted signal, lets the caller's own cancellation out as an
   * AbortError, and turns every other failure into an AppError. No retries here: callers retry retryable
   * AppErrors with their own backoff, and two layers of retries would multiply the wait.
   */
  private async send(query: Sendable, signal: AbortSignal | undefined, notFound?: ErrorCode): Promise<unknown> {
    throwIfAborted(signal);
    const prepared = signal ? query.abortSignal(signal).retry(false) : query.retry(false);
    const { data, error, status } = await prepared;
    if (signal?.aborted) throw abortErrorOf(signal);
    if (error) {
      const retryAfterMs = status === 429 || status === 503 ? this.http.retryAfterMs() : undefined;
      throw postgrestError(error, status, { ...(notFound ? { notFound } : {}), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
    }
    return data;
  }

  private rpc(fn: string, args: Record<string, unknown>): Sendable {
    return this.client.rpc(fn, args) as unknown as Sendable;
  }

  private async one<T>(query: Sendable, signal: AbortSignal | undefined, notFound: ErrorCode, map: (row: Row) => T): Promise<T> {
    const [row] = rows(await this.send(query, signal, notFound));
    if (!row) throw postgrestError({ code: 'PGRST116', message: 'No rows returned' }, 406, { notFound });
    return map(row);
  }

  // --- Albums -------------------------------------------------------------------------------------------

  async listAlbums(opts: CallOptions = {}): Promise<Album[]> {
    const query = this.client
      .from('album_summaries')
      .select('*')
      .is('deleted_at', null)
      .order('updated_at', { ascending: false })
      .order('id', { ascending: false });
    return rows(await this.send(query as unknown as Sendable, opts.signal)).map(toAlbum);
  }

  async getAlbum(albumId: string, opts: CallOptions = {}): Promise<Album> {
    const query = this.client.from('album_summaries').select('*').eq('id', albumId).is('deleted_at', null).single();
    return this.one(query as unknown as Sendable, opts.signal, 'album/not-found', toAlbum);
  }

  async createAlbum(input: AlbumInput, opts: CallOptions = {}): Promise<Album> {
    throwIfAborted(opts.signal);
    const { title, description } = validateAlbumInput(input);
    return this.one(this.rpc('create_album', { p_title: title, p_description: description }), opts.signal, 'album/not-found', toAlbum);
  }

  async updateAlbum(albumId: string, patch: AlbumPatch, opts: CallOptions = {}): Promise<Album> {
    throwIfAborted(opts.signal);
    const p_patch: Record<string, unknown> = {};
    if (patch.title !== undefined) p_patch.title = parseField(albumTitle, patch.title, 'title');
    if (patch.description !== undefined) p_patch.description = parseField(albumDescription, patch.description, 'description');
    if (patch.coverItemId !== undefined) {
      if (patch.coverItemId !== null && typeof patch.coverItemId !== 'string') {
        throw new AppError('validation/invalid', 'The cover must be a photo or video of this album.', { details: { field: 'coverItemId', rule: 'invalid' } });
      }
      p_patch.cover_item_id = patch.coverItemId;
    }
    if (patch.keepLocation !== undefined) {
      if (typeof patch.keepLocation !== 'boolean') {
        throw new AppError('validation/invalid', 'Keeping location is on or off.', { details: { field: 'keepLocation', rule: 'invalid' } });
      }
      p_patch.keep_location = patch.keepLocation;
    }
    return this.one(this.rpc('update_album', { p_album_id: albumId, p_patch }), opts.signal, 'album/not-found', toAlbum);
  }

  async deleteAlbum(albumId: string, opts: CallOptions = {}): Promise<void> {
    await this.send(this.rpc('delete_album', { p_album_id: albumId }), opts.signal, 'album/not-found');
  }

  /** `album/not-found` unless the caller can see the album; asked only when a read came back empty. */
  private async requireAlbum(albumId: string, signal: AbortSignal | undefined): Promise<void> {
    const query = this.client.from('album_summaries').select('id').eq('id', albumId).is('deleted_at', null);
    if (rows(await this.send(query as unknown as Sendable, signal, 'album/not-found')).length === 0) {
      throw postgrestError({ code: 'PGRST116', message: 'No rows returned' }, 406, { notFound: 'album/not-found' });
    }
  }

  // --- Items --------------------------------------------------------------------------------------------

  async listItems(albumId: string, query: ItemQuery, opts: CallOptions = {}): Promise<Page<Item>> {
    throwIfAborted(opts.signal);
    const sort = checkSort(query?.sort);
    const kind = checkKind(query.kind);
    const limit = query.limit ?? DEFAULT_PAGE_SIZE;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new AppError('validation/invalid', `A page holds 1 to ${MAX_PAGE_SIZE} items.`, { details: { field: 'limit' } });
    }
    const cursor = query.cursor ? decodeCursor(query.cursor) : null;
    const column = sortColumn(sort);
    let month: [string, string] | 'unknown' | null = null;
    if (query.month !== undefined && query.month !== null) month = query.month === 'unknown' ? 'unknown' : monthBounds(query.month);

    const uploaderId = checkUploader(query.uploaderId);
    // [Note: Favourites filter] in supabase/migrations/20261124100000_social_reads.sql.
    let q = this.client.from(query.favoritesOnly ? 'my_favorite_items' : 'items').select('*').eq('album_id', albumId).eq('status', 'ready');
    if (uploaderId) q = q.eq('uploader_id', uploaderId);
    q = query.trashed ? q.not('deleted_at', 'is', null) : q.is('deleted_at', null);
    if (kind) q = q.eq('kind', kind);
    // Every item has a sort date (the date added, at least), so `unknown` matches nothing.
    if (month === 'unknown') q = q.is(column, null);
    else if (month) q = q.gte(column, month[0]).lt(column, month[1]);
    if (cursor) {
      const t = quoted(cursor.t);
      const id = quoted(cursor.id);
      q = q.or(`${column}.lt.${t},and(${column}.eq.${t},id.lt.${id})`);
    }
    // One row more than asked tells whether another page follows, without counting.
    const request = q.order(column, { ascending: false }).order('id', { ascending: false }).limit(limit + 1);
    const fetched = rows(await this.send(request as unknown as Sendable, opts.signal, 'album/not-found'));
    if (fetched.length === 0 && !cursor) await this.requireAlbum(albumId, opts.signal);
    const page = fetched.slice(0, limit);
    const last = page[page.length - 1];
    const nextCursor = fetched.length > limit && last ? encodeCursor({ t: String(last[column]), id: String(last.id) }) : null;
    return { rows: page.map(toItem), nextCursor };
  }

  async countItemsByMonth(albumId: string, query: ItemCountQuery, opts: CallOptions = {}): Promise<MonthCount[]> {
    throwIfAborted(opts.signal);
    const sort = checkSort(query?.sort);
    const kind = checkKind(query.kind);
    const uploaderId = checkUploader(query.uploaderId);
    const args = {
      p_album_id: albumId,
      p_sort: sort,
      p_trashed: query.trashed ?? false,
      p_kind: kind ?? null,
      // Sent only when asked for, so the request without filters stays what it was.
      ...(query.favoritesOnly === true ? { p_favorites_only: true } : {}),
      ...(uploaderId ? { p_uploader_id: uploaderId } : {}),
    };
    const data = await this.send(
      this.rpc('count_items_by_month', args),
      opts.signal,
      'album/not-found',
    );
    return rows(data).map(toMonthCount);
  }

  async getItem(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Item> {
    const query = this.client.from('items').select('*').eq('album_id', albumId).eq('id', itemId).single();
    try {
      return await this.one(query as unknown as Sendable, opts.signal, 'item/not-found', toItem);
    } catch (e) {
      // An item of an album the caller cannot see is first of all an album they cannot see.
      if (e instanceof AppError && e.code === 'item/not-found') await this.requireAlbum(albumId, opts.signal);
      throw e;
    }
  }

  async reserveItems(albumId: string, inputs: ReserveItemInput[], opts: CallOptions = {}): Promise<Item[]> {
    const p_items = inputs.map((i) => ({ id: i.id, filename: i.filename, mime: i.mime, kind: i.kind, bytes: i.bytes }));
    const reserved = rows(await this.send(this.rpc('reserve_items', { p_album_id: albumId, p_items }), opts.signal, 'album/not-found')).map(toItem);
    // Returned in the order asked, whatever order the function gives them back in.
    const byId = new Map(reserved.map((item) => [item.id, item]));
    return inputs.map((i) => byId.get(i.id)).filter((item): item is Item => item !== undefined);
  }

  async finalizeItem(albumId: string, itemId: string, input: FinalizeItemInput, opts: CallOptions = {}): Promise<Item> {
    const p_input = {
      sha256: input.sha256,
      width: input.width,
      height: input.height,
      duration_ms: input.durationMs,
      taken_at: input.takenAt,
      has_preview: input.hasPreview,
      has_thumb: input.hasThumb,
      thumbhash: input.thumbhash,
      metadata: input.metadata,
    };
    return this.one(this.rpc('finalize_item', { p_album_id: albumId, p_item_id: itemId, p_input }), opts.signal, 'item/not-found', toItem);
  }

  async failItem(albumId: string, itemId: string, opts: CallOptions = {}): Promise<void> {
    await this.send(this.rpc('fail_item', { p_album_id: albumId, p_item_id: itemId }), opts.signal, 'item/not-found');
  }

  async trashItems(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<void> {
    await this.send(this.rpc('trash_items', { p_album_id: albumId, p_item_ids: itemIds }), opts.signal, 'item/not-found');
  }

  async restoreItems(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<void> {
    await this.send(this.rpc('restore_items', { p_album_id: albumId, p_item_ids: itemIds }), opts.signal, 'item/not-found');
  }

  async countPendingItems(albumId: string, opts: CallOptions = {}): Promise<number> {
    return Number(await this.send(this.rpc('count_pending_items', { p_album_id: albumId }), opts.signal, 'album/not-found'));
  }

  async clearPendingItems(albumId: string, opts: CallOptions = {}): Promise<number> {
    // A call clears at most CLEAR_BATCH rows, each well within the statement timeout ([Note: Guests cannot block
    // an album] in the migrations); called again until one clears fewer.
    let cleared = 0;
    for (;;) {
      const n = Number(await this.send(this.rpc('clear_pending_items', { p_album_id: albumId }), opts.signal, 'album/not-found'));
      cleared += n;
      if (n < CLEAR_BATCH) return cleared;
    }
  }

  // --- Activity -----------------------------------------------------------------------------------------

  async listActivity(limit: number, opts: CallOptions = {}): Promise<Activity[]> {
    throwIfAborted(opts.signal);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
      throw new AppError('validation/invalid', `Activity is read 1 to ${MAX_PAGE_SIZE} rows at a time.`, { details: { field: 'limit' } });
    }
    const query = this.client
      .from('activity_feed')
      .select('*')
      .order('created_at', { ascending: false })
      .order('id', { ascending: false })
      .limit(limit);
    return rows(await this.send(query as unknown as Sendable, opts.signal)).map(toActivity);
  }

  async unreadCounts(opts: CallOptions = {}): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const row of rows(await this.send(this.rpc('unread_counts', {}), opts.signal))) {
      const { albumId, unread } = toUnreadCount(row);
      if (unread > 0) counts[albumId] = unread;
    }
    return counts;
  }

  async markAlbumSeen(albumId: string, opts: CallOptions = {}): Promise<void> {
    await this.send(this.rpc('mark_album_seen', { p_album_id: albumId }), opts.signal, 'album/not-found');
  }

  // --- Members and invitations (supabase-members.ts) ----------------------------------------------------

  listMembers(albumId: string, opts: CallOptions = {}): Promise<Member[]> {
    return this.members.listMembers(albumId, opts);
  }

  setMemberRole(albumId: string, userId: string, role: Role, opts: CallOptions = {}): Promise<void> {
    return this.members.setMemberRole(albumId, userId, role, opts);
  }

  removeMember(albumId: string, userId: string, opts: CallOptions = {}): Promise<void> {
    return this.members.removeMember(albumId, userId, opts);
  }

  transferOwnership(albumId: string, userId: string, opts: CallOptions = {}): Promise<void> {
    return this.members.transferOwnership(albumId, userId, opts);
  }

  leaveAlbum(albumId: string, choice: { keepItems: boolean }, opts: CallOptions = {}): Promise<void> {
    return this.members.leaveAlbum(albumId, choice, opts);
  }

  createInvite(albumId: string, input: InviteInput, opts: CallOptions = {}): Promise<{ invite: Invite; token: string }> {
    return this.members.createInvite(albumId, input, opts);
  }

  listInvites(albumId: string, opts: CallOptions = {}): Promise<Invite[]> {
    return this.members.listInvites(albumId, opts);
  }

  revokeInvite(inviteId: string, opts: CallOptions = {}): Promise<void> {
    return this.members.revokeInvite(inviteId, opts);
  }

  invitePreview(token: string, opts: CallOptions = {}): Promise<InvitePreview> {
    return this.members.invitePreview(token, opts);
  }

  acceptInvite(token: string, opts: CallOptions = {}): Promise<string> {
    return this.members.acceptInvite(token, opts);
  }

  // --- Comments and favourites (supabase-social.ts) -----------------------------------------------------

  listComments(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Comment[]> {
    return this.social.listComments(albumId, itemId, opts);
  }

  addComment(albumId: string, itemId: string, body: string, opts: CallOptions = {}): Promise<Comment> {
    return this.social.addComment(albumId, itemId, body, opts);
  }

  editComment(albumId: string, commentId: string, body: string, opts: CallOptions = {}): Promise<Comment> {
    return this.social.editComment(albumId, commentId, body, opts);
  }

  deleteComment(albumId: string, commentId: string, opts: CallOptions = {}): Promise<void> {
    return this.social.deleteComment(albumId, commentId, opts);
  }

  setFavorite(albumId: string, itemId: string, on: boolean, opts: CallOptions = {}): Promise<void> {
    return this.social.setFavorite(albumId, itemId, on, opts);
  }

  listFavoriters(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Favoriter[]> {
    return this.social.listFavoriters(albumId, itemId, opts);
  }

  itemSocial(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<ItemSocial[]> {
    return this.social.itemSocial(albumId, itemIds, opts);
  }

  // --- Share links (supabase-share-links.ts) -------------------------------------------------------------

  listShareLinks(albumId: string, opts: CallOptions = {}): Promise<ShareLink[]> {
    return this.shareLinks.list(albumId, opts);
  }

  createShareLink(albumId: string, input: ShareLinkInput, opts: CallOptions = {}): Promise<{ link: ShareLink; token: string }> {
    return this.shareLinks.create(albumId, input, opts);
  }

  revokeShareLink(linkId: string, opts: CallOptions = {}): Promise<void> {
    return this.shareLinks.revoke(linkId, opts);
  }

  // --- Devices ------------------------------------------------------------------------------------------

  listDevices(opts: CallOptions = {}): Promise<Device[]> {
    return this.devices.list(opts);
  }

  touchDevice(input: DeviceInput, opts: CallOptions = {}): Promise<void> {
    return this.devices.touch(input, opts);
  }

  signOutDevice(deviceId: string, opts: CallOptions = {}): Promise<void> {
    return this.devices.signOut(deviceId, opts);
  }

  signOutOtherDevices(opts: CallOptions = {}): Promise<void> {
    return this.devices.signOutOthers(opts);
  }
}
