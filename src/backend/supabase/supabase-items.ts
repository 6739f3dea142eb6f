/** Reading items over PostgREST: pages of `items` by keyset cursor, month counts from `count_items_by_month`. */
import { AppError, throwIfAborted } from '../../lib/app-error';
import type { CallOptions, ItemsPort } from '../ports';
import type { ItemCountQuery, ItemQuery, ItemSort, MonthCount, Page } from '../../domain/queries';
import type { Item, ItemKind } from '../../domain/entities';
import type { PostgrestCalls, Sendable } from './supabase-calls';
import { decodeCursor, encodeCursor } from './supabase-cursor';
import { rows, toItem, toMonthCount } from './supabase-rows';

export const DEFAULT_PAGE_SIZE = 200;
// One row more than the page is fetched to learn whether another follows, and a hosted project answers at
// most 1,000 rows per request (PostgREST's max-rows): a page stops one short of that.
export const MAX_PAGE_SIZE = 999;

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

export class SupabaseItems implements ItemsPort {
  constructor(private readonly calls: PostgrestCalls) {}

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
    let q = this.calls.client.from(query.favoritesOnly ? 'my_favorite_items' : 'items').select('*').eq('album_id', albumId).eq('status', 'ready');
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
    const fetched = rows(await this.calls.send(request as unknown as Sendable, opts.signal, 'album/not-found'));
    if (fetched.length === 0 && !cursor) await this.calls.requireAlbum(albumId, opts.signal);
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
    const data = await this.calls.send(
      this.calls.rpc('count_items_by_month', args),
      opts.signal,
      'album/not-found',
    );
    return rows(data).map(toMonthCount);
  }

  async getItem(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Item> {
    const query = this.calls.client.from('items').select('*').eq('album_id', albumId).eq('id', itemId).single();
    try {
      return await this.calls.one(query as unknown as Sendable, opts.signal, 'item/not-found', toItem);
    } catch (e) {
      // An item of an album the caller cannot see is first of all an album they cannot see.
      if (e instanceof AppError && e.code === 'item/not-found') await this.calls.requireAlbum(albumId, opts.signal);
      throw e;
    }
  }
}
