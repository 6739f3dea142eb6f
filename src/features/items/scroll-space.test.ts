import { describe, expect, it } from 'vitest';
import { buildGridRows, type GridSection } from './grid-model';
import { monthIndexAt, monthSpans } from './scrubber-model';
import { logicalOffset, MAX_CANVAS, offsetShowing, placeAt, rebased, rowAt, rowStarts, rowWindow, scrollSpace, type ScrollSpace } from './scroll-space';

const geo = { width: 1200, targetHeight: 200, gap: 4, headerHeight: 44 };
const SCREEN = 800;

/** An album of `n` items over `months` months, none loaded: the grid as it is laid out from the counts. */
function album(n: number, months: number) {
  const sections: GridSection[] = Array.from({ length: months }, (_, i) => ({
    month: `${2026 - Math.floor(i / 12)}-${String(12 - (i % 12)).padStart(2, '0')}`,
    count: Math.floor(n / months) + (i < n % months ? 1 : 0),
    items: null,
  })).filter((s) => s.count > 0);
  const rows = buildGridRows(sections, geo);
  const starts = rowStarts(rows);
  const total = starts[starts.length - 1]!;
  return { rows, starts, total, spans: monthSpans(rows, (i) => starts[i]) };
}

/** The element's scrollTop as a browser keeps it: within the canvas. */
const withinCanvas = (space: ScrollSpace, scrollTop: number) => scrollTop >= 0 && scrollTop <= Math.max(0, space.canvas - SCREEN);

describe.each([
  [1, 1],
  [1_000, 12],
  [1_000_000, 240],
])('a grid of %i items', (n, months) => {
  const a = album(n, months);

  it('maps each month to a place on a canvas the browser can hold, and back to the same month and row', () => {
    const space = scrollSpace(a.total);
    expect(space.canvas).toBeLessThanOrEqual(MAX_CANVAS);
    if (n === 1_000_000) expect(a.total).toBeGreaterThan(16_700_000);
    else expect(space.canvas).toBe(a.total);
    for (const [i, span] of a.spans.entries()) {
      const to = Math.min(span.start, a.total - SCREEN);
      const place = placeAt(space, to, SCREEN);
      const there = scrollSpace(a.total, place.base);
      expect(there.base).toBe(place.base);
      expect(withinCanvas(there, place.scrollTop)).toBe(true);
      expect(logicalOffset(there, place.scrollTop)).toBe(Math.max(0, to));
      if (to === span.start) {
        expect(monthIndexAt(a.spans, logicalOffset(there, place.scrollTop))).toBe(i);
        expect(a.rows[rowAt(a.starts, to)]).toMatchObject({ kind: 'header', month: span.month });
      }
    }
  });

  it('scrolls pixel for pixel from top to bottom and back, the window moving under it unseen', () => {
    let space = scrollSpace(a.total);
    let scrollTop = 0;
    let moves = 0;
    const step = (by: number) => {
      const before = logicalOffset(space, scrollTop);
      scrollTop = Math.max(0, Math.min(space.canvas - SCREEN, scrollTop + by));
      const moved = rebased(space, scrollTop, SCREEN);
      if (moved) {
        // The same place of the grid before and after the window moved.
        expect(logicalOffset(scrollSpace(a.total, moved.base), moved.scrollTop)).toBe(logicalOffset(space, scrollTop));
        space = scrollSpace(a.total, moved.base);
        scrollTop = moved.scrollTop;
        moves++;
      }
      expect(withinCanvas(space, scrollTop)).toBe(true);
      return logicalOffset(space, scrollTop) - before;
    };
    const end = Math.max(0, a.total - SCREEN);
    let at = 0;
    while (at < end) {
      const moved = step(SCREEN * 2);
      expect(moved).toBe(Math.min(SCREEN * 2, end - at));
      at += moved;
    }
    expect(logicalOffset(space, scrollTop)).toBe(end);
    while (at > 0) at += step(-SCREEN * 2);
    expect(logicalOffset(space, scrollTop)).toBe(0);
    // Only a grid past the canvas moves its window: once per quarter of the canvas scrolled, each way.
    if (a.total <= MAX_CANVAS) expect(moves).toBe(0);
    else {
      expect(moves).toBeGreaterThan(0);
      expect(moves).toBeLessThanOrEqual((a.total / (MAX_CANVAS / 4)) * 2 + 2);
    }
  });

  it('draws only the rows on screen and a few either side, wherever the grid is', () => {
    for (const offset of [0, a.total / 2, Math.max(0, a.total - SCREEN)]) {
      const w = rowWindow(a.starts, offset, SCREEN, 6)!;
      expect(w.last - w.first).toBeLessThanOrEqual(SCREEN / 40 + 14);
      expect(a.starts[w.first]!).toBeLessThanOrEqual(offset);
      expect(a.starts[w.last + 1]!).toBeGreaterThanOrEqual(Math.min(a.total, offset + SCREEN));
    }
  });
});

describe('scroll space', () => {
  it('keeps the window where it is for a jump within it, and places it around a jump beyond', () => {
    const space = scrollSpace(30_000_000, 10_000_000);
    expect(placeAt(space, 14_000_000, SCREEN)).toEqual({ base: 10_000_000, scrollTop: 4_000_000 });
    const far = placeAt(space, 25_000_000, SCREEN);
    expect(far.base + far.scrollTop).toBe(25_000_000);
    expect(far.scrollTop).toBeGreaterThan(MAX_CANVAS / 4);
    expect(far.scrollTop + SCREEN).toBeLessThan((MAX_CANVAS * 3) / 4);
    // The end of the grid is at the end of the canvas: the last rows are reachable.
    expect(placeAt(space, 30_000_000, SCREEN)).toEqual({ base: 30_000_000 - MAX_CANVAS, scrollTop: MAX_CANVAS - SCREEN });
    expect(placeAt(space, 0, SCREEN)).toEqual({ base: 0, scrollTop: 0 });
  });

  it('moves the window back within a grid that shrank under it', () => {
    expect(scrollSpace(9_000_000, 5_000_000).base).toBe(1_000_000);
    expect(scrollSpace(1_000, 5_000_000)).toEqual({ total: 1_000, canvas: 1_000, base: 0 });
  });

  it('scrolls a row into view by as little as it takes', () => {
    const starts = rowStarts(Array.from({ length: 6 }, () => ({ height: 100 })));
    expect(offsetShowing(starts, 2, 0, 250)).toBe(50);
    expect(offsetShowing(starts, 0, 300, 250)).toBe(0);
    expect(offsetShowing(starts, 3, 200, 250)).toBe(200);
    expect(rowAt(starts, 599)).toBe(5);
    expect(rowAt(rowStarts([]), 0)).toBe(-1);
  });
});
