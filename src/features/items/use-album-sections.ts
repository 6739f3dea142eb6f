import { experimental_streamedQuery as streamedQuery, useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useAlbumBackend } from '../../backend/backend-context';
import type { ItemsPort } from '../../backend/ports';
import type { ItemQuery } from '../../domain/queries';
import type { Item } from '../../domain/entities';
import { isAbortError } from '../../lib/app-error';
import type { GridSection } from './grid-model';
import { itemKeys } from '../../shared/item-keys';

export type AlbumView = Pick<ItemQuery, 'sort' | 'trashed' | 'favoritesOnly' | 'uploaderId'>;

const PAGE = 500;
/** A month's first page is small (a screen or two of tiles), so the first screen of a large month shows before the rest of it has come. */
const FIRST_PAGE = 60;
/**
 * How many items of months no longer near the viewport stay loaded (most recent first). Bounded by items, not
 * months: what is kept is heap the garbage collector walks on every major collection, in the middle of a scroll.
 */
const KEEP_ITEMS = 1500;

/**
 * [Note: A month shows from its first page]
 * Every item of one month, page by page (keyset cursors), each page shown as it arrives: a month of a few
 * thousand photos would otherwise show nothing until its last page is in (measured on a 100,000-item album over
 * a share link: four pages one after another, 1.5 s, before the first thumbnail). While a month is still
 * coming, the grid lays out what has arrived and keeps a placeholder for the rest. A refetch (a reconnection,
 * a change) keeps the rows on screen and replaces them once the new ones are all in.
 */
async function* monthPages(items: Pick<ItemsPort, 'listItems'>, albumId: string, view: AlbumView, month: string, signal: AbortSignal): AsyncGenerator<Item[]> {
  let cursor: string | null = null;
  let limit = FIRST_PAGE;
  do {
    const page = await items.listItems(albumId, { ...view, month, cursor, limit }, { signal });
    yield page.rows;
    cursor = page.nextCursor;
    limit = PAGE;
  } while (cursor);
}

/** A page added to the rows so far; a row a live change put in meanwhile is not added twice. */
function appendPage(rows: Item[], page: Item[]): Item[] {
  if (rows.length === 0) return page;
  const have = new Set(rows.map((r) => r.id));
  return rows.concat(page.filter((r) => !have.has(r.id)));
}

/**
 * One month's rows as a query. Made here, outside the hook, on purpose: [Note: Query functions made outside
 * render].
 */
function monthQuery(items: Pick<ItemsPort, 'listItems'>, albumId: string, view: AlbumView, month: string) {
  return {
    queryKey: itemKeys.month(albumId, view, month),
    queryFn: streamedQuery<Item[], Item[]>({
      streamFn: ({ signal }) => monthPages(items, albumId, view, month, signal),
      refetchMode: 'replace',
      reducer: appendPage,
      initialValue: [],
    }),
    staleTime: 60_000,
    // A month that scrolled away is dropped soon (those kept near are still observed: KEEP_ITEMS): the grid loads
    // it again in a few milliseconds, and what is kept is heap every major collection walks.
    gcTime: 5_000,
    // Rows are replaced whole; comparing hundreds of rows deeply on every load is work and garbage for nothing.
    structuralSharing: false,
  };
}

/**
 * The album as month sections: the per-month counts first, then the rows of only the months the grid asks
 * for (those near the viewport) — so a huge album never means all its rows in memory. `enabled` false: nothing is
 * asked (and no months are shown).
 */
export function useAlbumSections(albumId: string, view: AlbumView, wantedMonths: ReadonlySet<string>, enabled = true) {
  const { items } = useAlbumBackend();
  const months = useQuery({
    queryKey: itemKeys.months(albumId, view),
    queryFn: ({ signal }) => items.countItemsByMonth(albumId, view, { signal }),
    // Off while the album shows a search's results instead (use-search-sections.ts).
    enabled,
  });
  // Months stay loaded for a while after they scroll away: dropping a month at once would turn its rows back
  // into placeholders of another height, move what is on screen, and ask for other months — a loop.
  const [sticky, setSticky] = useState<string[]>([]);
  useEffect(() => {
    const counts = new Map((months.data ?? []).map((m) => [m.month, m.count]));
    setSticky((prev) => {
      const next = [...wantedMonths];
      let kept = 0;
      for (const m of prev) {
        if (wantedMonths.has(m)) continue;
        kept += counts.get(m) ?? 0;
        if (kept > KEEP_ITEMS) break;
        next.push(m);
      }
      return next.length === prev.length && next.every((m, i) => m === prev[i]) ? prev : next;
    });
  }, [wantedMonths, months.data]);
  const wanted = useMemo(() => {
    const keep = new Set(sticky);
    return (months.data ?? []).filter((m) => keep.has(m.month));
  }, [months.data, sticky]);
  const loaded = useQueries({ queries: wanted.map((m) => monthQuery(items, albumId, view, m.month)) });
  const byMonth = new Map<string, Item[]>();
  /** Months whose first pages are shown while the rest are still coming. */
  const partial = new Set<string>();
  wanted.forEach((m, i) => {
    const q = loaded[i];
    const rows = q?.data;
    if (!rows) return;
    byMonth.set(m.month, rows);
    if (q.fetchStatus === 'fetching' && rows.length < m.count) partial.add(m.month);
  });
  const key = [...byMonth.entries()].map(([m, rows]) => `${m}:${rows.length}:${rows[0]?.id ?? ''}:${partial.has(m) ? 'p' : ''}`).join('|');
  const sections: GridSection[] = useMemo(
    () =>
      (months.data ?? [])
        .filter((m) => m.count > 0)
        .map((m) => ({ month: m.month, count: m.count, items: byMonth.get(m.month) ?? null, ...(partial.has(m.month) ? { partial: true } : {}) })),
    // byMonth is rebuilt every render; `key` says when its content changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [months.data, key, loaded.map((q) => q.dataUpdatedAt).join(',')],
  );
  // A cancellation (the month scrolled away mid-load) is not an error to show.
  const monthError = loaded.find((q) => q.error && !isAbortError(q.error))?.error ?? null;
  const countsError = months.error && !isAbortError(months.error) ? months.error : null;
  return { months, sections, error: countsError ?? monthError };
}
