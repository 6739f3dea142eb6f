import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, type RefObject } from 'react';
import type { GridRow } from './grid-model';

/**
 * The grid's virtualizer over its rows.
 *
 * [Note: The rows' positions are laid out once per layout]
 * The virtualizer recomputes every row's position whenever its `count` or `getItemKey` changes, and it renders
 * the grid on every scroll frame. A `getItemKey` made in render was a new function each frame: the positions of
 * all rows (17,000 for 100,000 items) were computed again sixty times a second while scrolling, with an array of
 * their keys allocated each time, which fed the collections that now and then held the thread past 50 ms. The
 * callbacks now change only with the rows, so the positions are computed once per layout.
 */
export function useGridVirtualizer(rows: readonly GridRow[], scrollerRef: RefObject<HTMLDivElement | null>) {
  const getItemKey = useCallback((i: number) => rows[i]?.key ?? i, [rows]);
  const estimateSize = useCallback((i: number) => rows[i]?.height ?? 100, [rows]);
  const getScrollElement = useCallback(() => scrollerRef.current, [scrollerRef]);
  return useVirtualizer({
    count: rows.length,
    getScrollElement,
    estimateSize,
    getItemKey,
    overscan: 6,
    // Rows are rendered in a task of React's own after a scroll event, not inside it: the browser's scroll work
    // and React's then come as two tasks, each well under a frame, where one held the thread past 50 ms.
    useFlushSync: false,
  });
}
