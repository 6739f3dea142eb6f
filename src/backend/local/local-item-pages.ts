/**
 * Reading local items: keyset pages, per-month counts and single rows. How the indexes and counters make
 * these reads small: [Note: Local item indexes] in local-db.ts.
 */
import { unwrap } from 'idb';
import type { CallOptions, ItemsPort } from '../ports';
import type { ItemCountQuery, ItemQuery, ItemSort, MonthCount, Page } from '../../domain/queries';
import type { Item, ItemKind } from '../../domain/entities';
import { requireAlbum } from './local-album-view';
import { decodeItemCursor, encodeItemCursor, type ItemCursor } from './local-cursor';
import { MAX_PAGE_SIZE, readTransaction, type AnyTx, type LocalDataDeps } from './local-data-deps';
import { prefixRange, readDescending, type ItemRecord, type ListBucket } from './local-db';
import { guard, invalid, itemNotFound } from './local-errors';
import { checkKind, checkSort } from './local-item-input';
import { compareDesc, ITEM_KINDS, monthOf, monthRange, toItem } from './local-item-record';
import { favoriteItemIds } from './local-social';

export const DEFAULT_PAGE_SIZE = 200;

interface ParsedQuery {
  sort: ItemSort;
  lb: ListBucket;
  kinds: readonly ItemKind[];
  limit: number;
  cursor: ItemCursor | null;
  /** [start, end) ms, `empty` for a month no item can be in, or null for all. */
  month: [number, number] | 'empty' | null;
}

function parseQuery(query: ItemQuery): ParsedQuery {
  const sort = checkSort(query?.sort);
  const kind = checkKind(query.kind);
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalid('limit', `A page holds 1 to ${MAX_PAGE_SIZE} items.`);
  }
  let month: ParsedQuery['month'] = null;
  if (query.month !== undefined && query.month !== null) {
    // Every local item has a sort date (the date added, at least), so `unknown` is always empty here.
    if (query.month === 'unknown') month = 'empty';
    else {
      const range = monthRange(query.month);
      if (!range) throw invalid('month', 'A month is written YYYY-MM.');
      month = range;
    }
  }
  return {
    sort,
    lb: query.trashed ? 't' : 'a',
    kinds: kind ? [kind] : ITEM_KINDS,
    limit,
    cursor: query.cursor ? decodeItemCursor(query.cursor, sort) : null,
    month,
  };
}

/** The index range of one kind for a page: below the cursor, inside the month. Null when empty. */
function pageRange(albumId: string, q: ParsedQuery, kind: ItemKind): IDBKeyRange | null {
  if (q.month === 'empty') return null;
  const lower: IDBValidKey[] = q.month ? [albumId, q.lb, kind, q.month[0]] : [albumId, q.lb, kind];
  let upper: IDBValidKey[] = q.month ? [albumId, q.lb, kind, q.month[1]] : [albumId, q.lb, kind, []];
  if (q.cursor && (!q.month || q.cursor.time < q.month[1])) upper = [albumId, q.lb, kind, q.cursor.time, q.cursor.id];
  if (indexedDB.cmp(lower, upper) >= 0) return null;
  return IDBKeyRange.bound(lower, upper, false, true);
}

/**
 * [Note: Local filters]
 * Every item on this device was added by its one profile, so "added by" that profile is the whole album and
 * "added by" anyone else is nothing. "Favourites" are that profile's hearts: the listing reads the album's
 * hearts and their items, so its cost follows how many hearts were given, not the album's size.
 */
function uploaderExcludes(query: { uploaderId?: string | undefined }, profileId: string): boolean {
  if (query.uploaderId === undefined || query.uploaderId === null) return false;
  if (typeof query.uploaderId !== 'string' || query.uploaderId === '') throw invalid('uploaderId', 'An uploader is named by their id.');
  return query.uploaderId !== profileId;
}

/** The listed items the profile gave a heart, newest first. */
async function favoriteRecords(tx: AnyTx, albumId: string, profileId: string, lb: ListBucket, kinds: readonly ItemKind[]): Promise<ItemRecord[]> {
  const ids = await favoriteItemIds(tx, albumId, profileId);
  const records = await Promise.all(ids.map((id) => tx.objectStore('items').get([albumId, id])));
  return records.filter((r): r is ItemRecord => !!r && r.lb === lb && kinds.includes(r.kind));
}

function favoritesPage(records: ItemRecord[], q: ParsedQuery): Page<Item> {
  const time = (r: ItemRecord) => (q.sort === 'taken' ? r.st : r.sa);
  const month = q.month;
  if (month === 'empty') return { rows: [], nextCursor: null };
  const cursor = q.cursor;
  const kept = records
    .filter((r) => !month || (time(r) >= month[0] && time(r) < month[1]))
    .filter((r) => !cursor || compareDesc(time(r), r.id, cursor.time, cursor.id) > 0)
    .sort((a, b) => compareDesc(time(a), a.id, time(b), b.id));
  const rows = kept.slice(0, q.limit);
  const last = rows[rows.length - 1];
  const nextCursor = kept.length > q.limit && last ? encodeItemCursor({ sort: q.sort, time: time(last), id: last.id }) : null;
  return { rows: rows.map(toItem), nextCursor };
}

/** Reading items on IndexedDB. */
export function localItems(deps: LocalDataDeps): ItemsPort {
  return {
    listItems(albumId: string, query: ItemQuery, opts: CallOptions = {}): Promise<Page<Item>> {
      return guard(opts.signal, async () => {
        const q = parseQuery(query);
        const profile = await deps.profile();
        return readTransaction(deps, opts.signal, async (tx) => {
          await requireAlbum(tx, albumId);
          // [Note: Local filters]
          if (uploaderExcludes(query, profile.id)) return { rows: [], nextCursor: null };
          if (query.favoritesOnly) return favoritesPage(await favoriteRecords(tx, albumId, profile.id, q.lb, q.kinds), q);
          const index = unwrap(tx).objectStore('items').index(q.sort);
          const pages = await Promise.all(
            q.kinds.map((kind) => {
              const range = pageRange(albumId, q, kind);
              return range ? readDescending<ItemRecord>(index, range, q.limit + 1) : Promise.resolve([]);
            }),
          );
          const time = (r: ItemRecord) => (q.sort === 'taken' ? r.st : r.sa);
          const merged = pages.flat().map((r) => r.value);
          if (pages.length > 1) merged.sort((a, b) => compareDesc(time(a), a.id, time(b), b.id));
          const rows = merged.slice(0, q.limit);
          const last = rows[rows.length - 1];
          const nextCursor = merged.length > q.limit && last ? encodeItemCursor({ sort: q.sort, time: time(last), id: last.id }) : null;
          return { rows: rows.map(toItem), nextCursor };
        });
      });
    },
    countItemsByMonth(albumId: string, query: ItemCountQuery, opts: CallOptions = {}): Promise<MonthCount[]> {
      return guard(opts.signal, async () => {
        const sort = checkSort(query?.sort);
        const kind = checkKind(query.kind);
        const lb: ListBucket = query.trashed ? 't' : 'a';
        const profile = await deps.profile();
        return readTransaction(deps, opts.signal, async (tx) => {
          await requireAlbum(tx, albumId);
          // [Note: Local filters]
          if (uploaderExcludes(query, profile.id)) return [];
          if (query.favoritesOnly) {
            const byMonth = new Map<string, number>();
            for (const r of await favoriteRecords(tx, albumId, profile.id, lb, kind ? [kind] : ITEM_KINDS)) {
              const month = monthOf(sort === 'taken' ? r.st : r.sa);
              byMonth.set(month, (byMonth.get(month) ?? 0) + 1);
            }
            return [...byMonth].map(([month, count]) => ({ month, count })).sort((a, b) => (a.month < b.month ? 1 : a.month > b.month ? -1 : 0));
          }
          const rows = await tx.objectStore('counts').getAll(prefixRange(albumId, lb, sort));
          const byMonth = new Map<string, number>();
          for (const r of rows) {
            if (kind && r.kind !== kind) continue;
            byMonth.set(r.month, (byMonth.get(r.month) ?? 0) + r.n);
          }
          return [...byMonth]
            .map(([month, count]) => ({ month, count }))
            .sort((a, b) => (a.month < b.month ? 1 : a.month > b.month ? -1 : 0));
        });
      });
    },
    getItem(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Item> {
      return readTransaction(deps, opts.signal, async (tx) => {
        await requireAlbum(tx, albumId);
        const record = typeof itemId === 'string' ? await tx.objectStore('items').get([albumId, itemId]) : undefined;
        if (!record) throw itemNotFound();
        return toItem(record);
      });
    },
  };
}
