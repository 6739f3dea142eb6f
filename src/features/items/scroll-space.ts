/**
 * [Note: A grid taller than the browser allows]
 * Browsers cap an element's height: about 16.7M px in Chromium at a high device pixel ratio, 17.9M in Firefox.
 * Past that the rest of a taller grid cannot be scrolled to at all: a million photos are about 34M px of rows.
 * The grid's rows are laid out in their own space, as tall as they are ("logical" offsets), and the page scrolls
 * a canvas of at most MAX_CANVAS px that stands for a window of that space: `base` is the logical offset of the
 * canvas's top, so a row at logical `start` is drawn at `start - base`, and the grid is at `base + scrollTop`.
 *
 * Scrolling moves one pixel for one pixel, as on any page. When the viewport comes within a quarter of the
 * canvas of its top or bottom, and there is more of the grid beyond, the window moves: `base` and `scrollTop`
 * change together by the same amount, so nothing on screen moves (the rows are drawn anew in the same frame).
 * A jump (the date scrubber, a key) places the window around where it lands. A grid within MAX_CANVAS never
 * moves its window (`base` stays 0) and scrolls exactly as before. The scrubber stands in for the scrollbar
 * beside any grid this tall (the native one is hidden there), so the window never shows as a scrollbar.
 */

/** The canvas's height at most, px: well within every browser's limit, with room for rounding. */
export const MAX_CANVAS = 8_000_000;

export interface ScrollSpace {
  /** The grid's height, px. */
  total: number;
  /** The canvas's height, px: the grid's, or MAX_CANVAS. */
  canvas: number;
  /** The logical offset of the canvas's top. */
  base: number;
}

export interface ScrollPlace {
  base: number;
  /** What the scrolling element's scrollTop is then. */
  scrollTop: number;
}

/** The space of a grid `total` px high, keeping `base` where it can. */
export function scrollSpace(total: number, base = 0, maxCanvas = MAX_CANVAS): ScrollSpace {
  const canvas = Math.max(0, Math.min(total, maxCanvas));
  return { total, canvas, base: clamp(Math.round(base), 0, Math.max(0, total - canvas)) };
}

/** How far the grid is scrolled when the element's scrollTop is `scrollTop`. */
export function logicalOffset(space: ScrollSpace, scrollTop: number): number {
  return space.base + scrollTop;
}

/**
 * Where the canvas and scrollTop go for the grid's top to be at logical `offset`: the window stays where it is
 * while the viewport is well inside it, else it is placed around `offset`.
 */
export function placeAt(space: ScrollSpace, offset: number, viewport: number): ScrollPlace {
  const to = clamp(offset, 0, Math.max(0, space.total - viewport));
  if (inWindow(space, to, viewport)) return { base: space.base, scrollTop: to - space.base };
  const base = clamp(Math.round(to + viewport / 2 - space.canvas / 2), 0, Math.max(0, space.total - space.canvas));
  return { base, scrollTop: to - base };
}

/**
 * The window moved when a scroll brought the viewport near the canvas's edge with more grid beyond; null when it
 * stays. Nothing on screen moves: the logical offset is the same before and after.
 */
export function rebased(space: ScrollSpace, scrollTop: number, viewport: number): ScrollPlace | null {
  const offset = logicalOffset(space, scrollTop);
  if (inWindow(space, offset, viewport)) return null;
  const place = placeAt(space, offset, viewport);
  return place.base === space.base ? null : place;
}

/** Whether the viewport at `offset` is well inside the window, or against an edge of the grid itself. */
function inWindow(space: ScrollSpace, offset: number, viewport: number): boolean {
  const top = offset - space.base;
  if (top < 0 || top + viewport > space.canvas) return false;
  const margin = space.canvas / 4;
  const roomAbove = space.base === 0 || top >= margin;
  const roomBelow = space.base + space.canvas >= space.total || top + viewport <= space.canvas - margin;
  return roomAbove && roomBelow;
}

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/** Each row's start, px, and the grid's total as the last entry: rows are laid out once per layout. */
export function rowStarts(rows: ArrayLike<{ readonly height: number }>): Float64Array {
  const starts = new Float64Array(rows.length + 1);
  for (let i = 0; i < rows.length; i++) starts[i + 1] = starts[i]! + rows[i]!.height;
  return starts;
}

/** The index of the row at logical offset `y` (the last row when past the end; -1 when there are none). */
export function rowAt(starts: Float64Array, y: number): number {
  const n = starts.length - 1;
  if (n <= 0) return -1;
  let lo = 0;
  let hi = n - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The rows to draw for a viewport at `offset`, `screen` high: those on screen and `overscan` more either side. */
export function rowWindow(starts: Float64Array, offset: number, screen: number, overscan: number): { first: number; last: number } | null {
  const n = starts.length - 1;
  if (n <= 0) return null;
  const first = Math.max(0, rowAt(starts, offset) - overscan);
  const last = Math.min(n - 1, rowAt(starts, Math.max(offset, offset + screen - 1)) + overscan);
  return { first, last };
}

/**
 * Where a scroll that brings row `index` into view takes the grid's top: unchanged when the row is in view,
 * else the row at the top (when it is above) or at the bottom (when it is below).
 */
export function offsetShowing(starts: Float64Array, index: number, offset: number, screen: number): number {
  const start = starts[index] ?? 0;
  const end = starts[index + 1] ?? start;
  if (start < offset) return start;
  if (end > offset + screen) return Math.min(start, end - screen);
  return offset;
}
