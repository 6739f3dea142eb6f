import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useAlbumBackend } from '../../backend/backend-context';
import type { Item } from '../../domain/entities';
import type { MonthCount, SearchFilter } from '../../domain/queries';
import { isAbortError } from '../../lib/app-error';
import { monthOf as itemMonth } from '../../shared/live/item-order';
import { searchKeys } from '../../shared/search-keys';
import type { GridSection } from './grid-model';

const PAGE = 200;

/** The UTC month an item sorts in (its date taken, else added), as the album's month sections count it. */
/** Results come newest first by when they were taken (else added), filed by month as an album's grid files them. */
const monthOf = (item: Item) => itemMonth(item, 'taken');

/**
 * A search's results as the grid's month sections. Results come newest first in pages; the months of the pages
 * loaded so far are shown, each counting what has come, and the next page is asked for once the last month loaded
 * nears the viewport (the grid says which months it wants). `filter` null: no search, nothing asked.
 */
export function useSearchSections(filter: SearchFilter | null, wantedMonths: ReadonlySet<string>) {
  const { search } = useAlbumBackend();
  const results = useInfiniteQuery({
    queryKey: searchKeys.results(filter ?? {}),
    queryFn: ({ pageParam, signal }) => search!.searchItems({ ...filter, cursor: pageParam, limit: PAGE }, { signal }),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: filter !== null && search !== undefined,
    // While the next search runs (a letter typed), the last results stay instead of a blank screen.
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const { data, hasNextPage, isFetchingNextPage, fetchNextPage } = results;

  const sections = useMemo<GridSection[]>(() => {
    const out: GridSection[] = [];
    for (const page of data?.pages ?? []) {
      for (const item of page.rows) {
        const month = monthOf(item);
        const last = out[out.length - 1];
        if (last && last.month === month) {
          last.items!.push(item);
          last.count++;
        } else out.push({ month, count: 1, items: [item] });
      }
    }
    return out;
  }, [data]);

  const lastMonth = sections[sections.length - 1]?.month;
  useEffect(() => {
    if (lastMonth && wantedMonths.has(lastMonth) && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [lastMonth, wantedMonths, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const counts = useMemo<MonthCount[]>(() => sections.map((s) => ({ month: s.month, count: s.count })), [sections]);
  const months = {
    isPending: filter !== null && results.isPending,
    data: filter === null ? undefined : results.data ? counts : undefined,
    refetch: () => results.refetch(),
  };
  const error = results.error && !isAbortError(results.error) ? results.error : null;
  return { months, sections, error, searching: results.isFetching && !isFetchingNextPage, more: hasNextPage };
}
