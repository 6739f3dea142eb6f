/**
 * [Note: What is on screen stays put]
 * The grid's rows change under the person looking at them: a month near the viewport loads and its real rows
 * replace a placeholder of estimated height, a member adds photos to a month far above, the window is resized.
 * The browser keeps the scroll offset in pixels, so each of these moved what was on screen. The grid now notes,
 * at every render, what is at the top of the viewport: the first photo of the row there and how far into that row,
 * and the month there and how far into it. After rows change it scrolls so that the same photo is at the top
 * again, or, when it is not laid out (a month not loaded yet), the same share of the same month. A month that grew
 * or shrank above no longer moves what is in view; one that was an estimate and is now laid out keeps the same
 * share of it in view. The browser's own scroll anchoring is off for the grid (`overflow-anchor`): it
 * would correct the same change a second time.
 */
import { monthIndexAt, type MonthSpan } from './scrubber-model';

export interface GridAnchor {
  month: string;
  /** How far the viewport's top is into the month, px, and the month's height then. */
  within: number;
  height: number;
  /** The first photo of the row at the top, and how far the viewport's top is into that row, px. */
  item?: { id: string; within: number };
}

const heightOf = (spans: readonly MonthSpan[], i: number, total: number) => (spans[i + 1]?.start ?? total) - spans[i]!.start;

/**
 * What is at the top of a grid scrolled to `offset`: its month and how far into it, and `top`, the row of photos
 * there (its first photo and where the row starts), when there is one.
 */
export function anchorAt(spans: readonly MonthSpan[], total: number, offset: number, top?: { itemId: string; start: number } | null): GridAnchor | null {
  const i = monthIndexAt(spans, offset);
  if (i < 0) return null;
  const span = spans[i]!;
  return {
    month: span.month,
    within: Math.max(0, offset - span.start),
    height: heightOf(spans, i, total),
    ...(top ? { item: { id: top.itemId, within: Math.max(0, offset - top.start) } } : {}),
  };
}

/**
 * The offset that puts `anchor` at the top of the grid laid out anew as `spans`: at its photo, where `rowStart`
 * finds the row it is now in, else at the same share of its month; null when that month is gone.
 */
export function anchoredOffset(anchor: GridAnchor, spans: readonly MonthSpan[], total: number, rowStart?: (itemId: string) => number | undefined): number | null {
  const row = anchor.item && rowStart?.(anchor.item.id);
  if (anchor.item && row !== undefined) return Math.round(row + anchor.item.within);
  const i = spans.findIndex((s) => s.month === anchor.month);
  if (i < 0) return null;
  const height = heightOf(spans, i, total);
  const within = anchor.height > 0 && height !== anchor.height ? (anchor.within / anchor.height) * height : anchor.within;
  return Math.round(spans[i]!.start + within);
}
