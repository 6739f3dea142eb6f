/**
 * An item change heard on the album's channel, written into the query cache: the item slots into its loaded
 * month in grid order, leaves the month it was in, and only the counts change for months not loaded.
 *
 * [Note: Placing an item from its event]
 * The cache holds, per view (sort × album or trash), the per-month counts and the rows of the months near the
 * viewport. An event carries the row after the change (before it, for a delete; only its id for a delete on
 * Supabase), never the row before an update, so where the item was is found in the loaded months or, when its
 * month is not loaded, inferred from what the backends send: an item is only sent once it is ready, and every
 * update of a ready item moves it between lists (finalize: into the album; trash: album → trash; restore:
 * trash → album) — unless it is an edit of its details, which a row with `editedAt` may be. An edit may change
 * its date taken, so the month it leaves is the one last heard of (or found loaded), never the one it enters;
 * an edited row in neither gives no answer, and the counts are read again.
 * Where that is not enough (a restore heard while the trash's counts are cached but its month is not loaded,
 * a bare delete of an item in no loaded month), the view's counts are read again: one request, never the
 * rows. A row the app cannot read invalidates only the month that held the item, and the counts.
 * An item found in a loaded month although its event says it just entered the list was read with that month
 * ahead of its event (the month was fetched while it finished): the view's counts and the album's header may
 * or may not include it, so both are read again.
 * An event heard again changes nothing ([Note: Applying an event once] in use-album-live.ts): where the item was
 * is taken, before any guess from the event, from what the events applied so far said of it (`ItemPlaces`).
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { ChangeOfEntity } from '../../backend/ports';
import type { ItemSort, MonthCount } from '../../domain/queries';
import type { Album, Item } from '../../domain/entities';
import { albumKeys } from '../album-keys';
import { compareItems, listOf, monthOf } from './item-order';
import { itemKeys } from '../item-keys';

type List = 'album' | 'trash';
type ItemChangeEvent = ChangeOfEntity<'item'>;

/** Of an item as last heard, what places it: its list, its months and its size. */
type HeardItem = Pick<Item, 'status' | 'deletedAt' | 'takenAt' | 'createdAt' | 'bytes'>;

/**
 * What the events applied so far said of each item (null once it is gone). Kept by whoever applies the events,
 * one per subscription.
 */
export type ItemPlaces = Map<string, HeardItem | null>;

/** What places an item, as `ItemPlaces` keeps it. */
export function heardOf(item: HeardItem): HeardItem {
  return { status: item.status, deletedAt: item.deletedAt, takenAt: item.takenAt, createdAt: item.createdAt, bytes: item.bytes };
}

interface CachedView {
  sort: ItemSort;
  list: List;
  monthsKey: QueryKey;
}

interface Found {
  key: QueryKey;
  month: string;
  rows: Item[];
  index: number;
}

/** The views of the album whose month counts are cached, read from their keys (see item-keys.ts). */
function cachedViews(qc: QueryClient, albumId: string): CachedView[] {
  const out: CachedView[] = [];
  for (const [key, data] of qc.getQueriesData<MonthCount[]>({ queryKey: [...itemKeys.album(albumId), 'months'] })) {
    const [, , , sort, trashed] = key;
    if (!data || (sort !== 'taken' && sort !== 'added')) continue;
    out.push({ sort, list: trashed === true ? 'trash' : 'album', monthsKey: key });
  }
  return out;
}

function view(v: CachedView) {
  return { sort: v.sort, trashed: v.list === 'trash' };
}

/** The loaded month of this view that holds the item, if any. */
function findLoaded(qc: QueryClient, albumId: string, v: CachedView, itemId: string): Found | null {
  const prefix = [...itemKeys.album(albumId), 'month', v.sort, v.list === 'trash'];
  for (const [key, rows] of qc.getQueriesData<Item[]>({ queryKey: prefix })) {
    if (!rows) continue;
    const index = rows.findIndex((r) => r.id === itemId);
    if (index >= 0) return { key, month: String(key[key.length - 1]), rows, index };
  }
  return null;
}

function isLoaded(qc: QueryClient, albumId: string, v: CachedView, month: string): boolean {
  return qc.getQueryData(itemKeys.month(albumId, view(v), month)) !== undefined;
}

/** Counts with `delta` added to one month (a month that reaches 0 is dropped), newest month first. */
export function bumpMonth(counts: readonly MonthCount[], month: string, delta: number): MonthCount[] {
  const out = counts.map((m) => (m.month === month ? { month, count: m.count + delta } : m)).filter((m) => m.count > 0);
  if (delta > 0 && !counts.some((m) => m.month === month)) {
    // `unknown` sorts after every date, as the backends list it.
    const at = out.findIndex((m) => m.month !== 'unknown' && (month === 'unknown' || m.month < month));
    out.splice(at < 0 ? out.length : at, 0, { month, count: delta });
  }
  return out;
}

/** The rows with the item in its place (binary search: a loaded month holds up to thousands). */
export function insertSorted(rows: readonly Item[], item: Item, sort: ItemSort): Item[] {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compareItems(rows[mid]!, item, sort) < 0) lo = mid + 1;
    else hi = mid;
  }
  return [...rows.slice(0, lo), item, ...rows.slice(lo)];
}

/**
 * Whether the item was in list `list` before this event, from the event alone (see the note): true, false, or
 * null when the event cannot say.
 */
function wasInFromEvent(ev: ItemChangeEvent, item: Item | null, list: List): boolean | null {
  if (!item) return null;
  const now = listOf(item);
  if (ev.op === 'insert') return false;
  if (ev.op === 'delete') return now === list;
  if (now === 'trash') return list === 'album';
  // Entering the album from an upload finishing; an edited row may as well have been there all along.
  if (now === 'album') return list === 'album' && !item.editedAt ? false : null;
  return false;
}

function setCount(qc: QueryClient, v: CachedView, month: string, delta: number): void {
  qc.setQueryData<MonthCount[]>(v.monthsKey, (counts) => (counts ? bumpMonth(counts, month, delta) : counts));
}

/**
 * A loaded month's count made its rows' number. Counts and rows are read at different moments, so an item can be
 * in one and not the other (counts read again just after it finished, its month read just before); an event
 * then moves both by one, and the count stays off by one for good. A month whose rows are all loaded (not being
 * read) holds every item of it the events have placed, so its rows are the truth for its count.
 */
function settleCount(qc: QueryClient, v: CachedView, month: string): void {
  const [items, albumId, , sort, trashed, filter] = v.monthsKey;
  const state = qc.getQueryState<Item[]>([items, albumId, 'month', sort, trashed, filter, month]);
  if (!state?.data || state.status !== 'success' || state.fetchStatus !== 'idle') return;
  // Counts about to be read again say it themselves (and writing them now would cancel that).
  if (qc.getQueryState(v.monthsKey)?.isInvalidated) return;
  const n = state.data.length;
  qc.setQueryData<MonthCount[]>(v.monthsKey, (counts) => {
    if (!counts) return counts;
    const now = counts.find((m) => m.month === month)?.count ?? 0;
    return now === n ? counts : bumpMonth(counts, month, n - now);
  });
}

/** Writes one item event into the cache; see [Note: Placing an item from its event]. */
export function applyItemChange(qc: QueryClient, ev: ItemChangeEvent, places: ItemPlaces): void {
  const albumId = ev.albumId;
  const item = ev.row;
  const malformed = !item && ev.op !== 'delete';
  const known = places.get(ev.id);
  // The list the events applied so far put it in (undefined: none heard of it).
  const knownList = known === undefined ? undefined : known && listOf(known);
  // A delete on Supabase carries only the id: its month and size are those last heard.
  const subject = item ?? known ?? null;
  // Where it was before this event: as last heard; else the row itself, unless an edit may have moved its date.
  // (Items in the trash are never edited: a row there moved lists, not dates.)
  const prior = known ?? (ev.op === 'update' && item?.editedAt && listOf(item) === 'album' ? null : subject);
  const wasIn = (list: List) => (knownList === undefined ? wasInFromEvent(ev, item, list) : knownList === list);
  let albumDelta: { count: number; bytes: number } | null = null;
  let recount = false;

  for (const v of cachedViews(qc, albumId)) {
    const found = findLoaded(qc, albumId, v, ev.id);
    if (found && item && wasIn(v.list) === false) {
      // The month was read after the item entered it, ahead of this event: whether the counts were read before or
      // after that is unknown, so they (and the header's, for the album) are read again rather than guessed.
      void qc.invalidateQueries({ queryKey: v.monthsKey, exact: true });
      if (v.list === 'album') recount = true;
    }
    if (malformed) {
      // What the row says cannot be trusted: the month that held it, and the counts, are read again.
      if (found) void qc.invalidateQueries({ queryKey: found.key, exact: true });
      void qc.invalidateQueries({ queryKey: v.monthsKey, exact: true });
      continue;
    }
    const target = item && ev.op !== 'delete' && listOf(item) === v.list ? monthOf(item, v.sort) : null;
    let was: boolean | null;
    let fromMonth: string | null = null;
    if (found) {
      was = true;
      fromMonth = found.month;
    } else if (prior && isLoaded(qc, albumId, v, monthOf(prior, v.sort))) {
      was = false; // its month is loaded and does not hold it
    } else {
      was = wasIn(v.list);
      if (was && prior) fromMonth = monthOf(prior, v.sort);
      else if (was) was = null; // in the list, but in which month is not known
    }
    if (was === null) {
      void qc.invalidateQueries({ queryKey: v.monthsKey, exact: true });
    } else if (was && fromMonth) {
      if (found) qc.setQueryData<Item[]>(found.key, (rows) => rows?.filter((r) => r.id !== ev.id));
      if (fromMonth !== target) setCount(qc, v, fromMonth, -1);
    }
    if (target && item) {
      const key = itemKeys.month(albumId, view(v), target);
      qc.setQueryData<Item[]>(key, (rows) => (rows ? insertSorted(rows.filter((r) => r.id !== item.id), item, v.sort) : rows));
      if (!(was && fromMonth === target) && was !== null) setCount(qc, v, target, +1);
    }
    for (const month of new Set([fromMonth, target])) if (month) settleCount(qc, v, month);
    if (v.list === 'album' && subject && was !== null && (was && fromMonth !== null) !== !!target) {
      albumDelta = target ? { count: 1, bytes: subject.bytes } : { count: -1, bytes: -subject.bytes };
    }
  }

  const detailKey = itemKeys.detail(albumId, ev.id);
  if (ev.op === 'delete') qc.removeQueries({ queryKey: detailKey, exact: true });
  else if (item) qc.setQueryData<Item>(detailKey, (old) => (old ? item : old));
  else void qc.invalidateQueries({ queryKey: detailKey, exact: true });

  // The header's count and size follow the album list; the album row's own event, when one comes, has the last word.
  if (!albumDelta && item && ev.op !== 'delete' && cachedViews(qc, albumId).every((v) => v.list !== 'album')) {
    const was = wasIn('album');
    const is = listOf(item) === 'album';
    if (was !== null && was !== is) albumDelta = is ? { count: 1, bytes: item.bytes } : { count: -1, bytes: -item.bytes };
  }
  if (albumDelta) {
    const d = albumDelta;
    qc.setQueryData<Album>(albumKeys.detail(albumId), (a) =>
      a ? { ...a, itemCount: Math.max(0, a.itemCount + d.count), bytesTotal: Math.max(0, a.bytesTotal + d.bytes) } : a,
    );
  }
  if (recount) void qc.invalidateQueries({ queryKey: albumKeys.detail(albumId), exact: true });
  if (ev.op === 'delete') places.set(ev.id, null);
  else if (item) places.set(ev.id, heardOf(item));
  else places.delete(ev.id); // a row it could not read: nothing is known of it any more
  // Other screens (the albums list, activity) read again when they are next shown, not now.
  void qc.invalidateQueries({ queryKey: albumKeys.list(), refetchType: 'none' });
  void qc.invalidateQueries({ queryKey: albumKeys.activity(), refetchType: 'none' });
}
