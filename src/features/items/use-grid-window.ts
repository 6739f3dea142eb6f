import { useCallback, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { GridRow } from './grid-model';
import { logicalOffset, MAX_CANVAS, offsetShowing, placeAt, rebased, rowStarts, rowWindow, scrollSpace, type ScrollSpace } from './scroll-space';

/** Rows drawn beyond the viewport on either side. */
const OVERSCAN = 6;

export interface WindowRow {
  index: number;
  key: string;
  /** Logical offsets, px ([Note: A grid taller than the browser allows]). */
  start: number;
  end: number;
}

/**
 * The rows of the grid to draw and where, for a scrolling element over a space that may be taller than the
 * browser allows ([Note: A grid taller than the browser allows] in scroll-space.ts).
 *
 * [Note: The grid's own windowing]
 * Every row's height is known from the layout (nothing is measured), so the rows' starts are one array of prefix
 * sums made once per layout, and the rows on screen are found by binary search on each scroll. The grid used a
 * general virtualizer before: it kept its offset in the element's own pixels, read and clamped the element
 * directly and went on correcting towards its own scroll targets for several frames, so it could not scroll a
 * space taller than the element, and it undid the grid's own corrections ([Note: What is on screen stays put]).
 * Here a scroll the grid asks for is known at once: the offset it reports is the one it wrote, never one from
 * before it landed.
 */
export function useGridWindow(rows: readonly GridRow[], scrollerRef: RefObject<HTMLDivElement | null>, screen: number, maxCanvas = MAX_CANVAS) {
  const starts = useMemo(() => rowStarts(rows), [rows]);
  const total = starts[starts.length - 1] ?? 0;
  /** The element's scrollTop and the window's base as last drawn. */
  const [view, setView] = useState({ top: 0, base: 0 });
  const space = scrollSpace(total, view.base, maxCanvas);
  const offset = Math.max(0, Math.min(logicalOffset(space, view.top), Math.max(0, total - screen)));

  // What the scroll listener and the commands read: the space as drawn.
  const drawn = useRef<ScrollSpace>(space);
  /** A place to scroll to once the rows for it are in the DOM (a command). */
  const pending = useRef<{ base: number; scrollTop: number } | null>(null);
  // After every commit: a command's place is written with the first commit that draws its rows. The update below
  // runs only when the window had to move, and then once.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  useLayoutEffect(() => {
    drawn.current = space;
    const el = scrollerRef.current;
    if (!el) return;
    if (space.base !== view.base) {
      // The grid shrank under the window: it moves, and the grid's top stays where it was.
      pending.current = null;
      el.scrollTop = offset - space.base;
      setView((v) => ({ ...v, base: space.base, top: offset - space.base }));
      return;
    }
    const want = pending.current;
    if (want && want.base === space.base) {
      pending.current = null;
      el.scrollTop = want.scrollTop;
    }
  });

  useLayoutEffect(() => {
    const el = scrollerRef.current;
    if (!el) return;
    const onScroll = () => {
      const cur = drawn.current;
      const moved = rebased(cur, el.scrollTop, el.clientHeight);
      if (moved) {
        // Rows and scrollTop change in the same task, before the next paint: nothing on screen moves.
        drawn.current = { ...cur, base: moved.base };
        el.scrollTop = moved.scrollTop;
        flushSync(() => setView((v) => ({ ...v, top: moved.scrollTop, base: moved.base })));
        return;
      }
      const top = el.scrollTop;
      setView((v) => (v.top === top && v.base === cur.base ? v : { ...v, top, base: cur.base }));
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, [scrollerRef]);

  /** Brings the grid's top to logical `to`, drawn at once (the scroll lands with the rows for it). */
  const scrollTo = useCallback(
    (to: number) => {
      const el = scrollerRef.current;
      if (!el) return;
      const place = placeAt(drawn.current, to, el.clientHeight);
      pending.current = place;
      setView((v) => ({ ...v, top: place.scrollTop, base: place.base }));
    },
    [scrollerRef],
  );

  const items = useMemo(() => {
    const w = screen > 0 ? rowWindow(starts, offset, screen, OVERSCAN) : rowWindow(starts, 0, 1, OVERSCAN);
    const out: WindowRow[] = [];
    if (w) for (let i = w.first; i <= w.last; i++) out.push({ index: i, key: rows[i]!.key, start: starts[i]!, end: starts[i + 1]! });
    return out;
  }, [rows, starts, offset, screen]);

  /** Scrolls just enough for row `index` to be in view. */
  const showRow = useCallback((index: number) => scrollTo(offsetShowing(starts, index, offset, screen)), [scrollTo, starts, offset, screen]);

  return { items, starts, total, offset, canvas: space.canvas, base: space.base, scrollTo, showRow };
}

/**
 * The scrolling element's size, from one ResizeObserver: `width` inside its padding (what rows fill) and
 * `height` as it shows (the viewport the rows are windowed to).
 */
export function useScrollerSize(scrollerRef: RefObject<HTMLDivElement | null>) {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const el = scrollerRef.current;
    if (!el) return;
    const read = () => {
      const cs = getComputedStyle(el);
      const width = Math.floor(el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight));
      const height = el.clientHeight;
      setSize((s) => (s.width === width && s.height === height ? s : { width, height }));
    };
    const ro = new ResizeObserver(read);
    ro.observe(el);
    read();
    return () => ro.disconnect();
  }, [scrollerRef]);
  return size;
}
