/**
 * [Note: The date scrubber]
 * Beside a long grid, a track stands for the whole album from top to bottom: each month sits on it where its
 * heading sits in the grid, in proportion to the grid's height (so a month of 5,000 photos takes more of the track
 * than a month of 5), with its year written at the year's first month. Pointing at the track shows the month there;
 * a click or a drag brings the grid to it; the arrow keys step a month, Page Up/Down a year. Only the months'
 * places are read, which the grid knows from the per-month counts before any item is loaded: a jump to a month
 * far off loads that month alone (use-album-sections.ts). On a phone the photos keep the whole width: the track lies
 * over their right edge and shows only while the grid moves, a finger is on it or it has the keyboard's focus, as
 * the scrollbar it stands in for does there.
 */
import type { GridRow } from './grid-model';

/** Where a month's heading starts in the grid, in pixels from its top. */
export interface MonthSpan {
  month: string;
  start: number;
}

export interface ScrubLabel {
  /** The year, or "No date". */
  text: string;
  y: number;
}

export interface ScrubMarks {
  /** A year at its first month, those that would overlap the one above left out. */
  labels: ScrubLabel[];
  /** A dot per month, those closer than a few pixels to the one above left out. */
  dots: number[];
}

/** Labels closer than this (px) to the one above are left out; dots closer than DOT_GAP. */
const LABEL_GAP = 18;
const DOT_GAP = 4;

/** Each month's heading and where it starts, from the grid's rows and their laid-out starts. */
export function monthSpans(rows: readonly GridRow[], startOf: (index: number) => number | undefined): MonthSpan[] {
  const spans: MonthSpan[] = [];
  rows.forEach((row, i) => {
    const shared = row.kind === 'tiles' ? row.shared : undefined;
    if (row.kind !== 'header' && !shared) return;
    const start = startOf(i);
    if (start === undefined) return;
    // Months sharing a row start together, in their order along it. A day's label is not a month's start: its
    // month's heading came before it ([Note: Days flow together]).
    if (shared) {
      for (const l of shared.labels) if (l.day === undefined || spans[spans.length - 1]?.month !== l.month) spans.push({ month: l.month, start });
    } else spans.push({ month: row.month, start });
  });
  return spans;
}

const yearOf = (month: string) => (month === 'unknown' ? 'No date' : month.slice(0, 4));

/** The track's year labels and month dots for a grid `total` px high shown on a track `track` px high. */
export function scrubMarks(spans: readonly MonthSpan[], total: number, track: number): ScrubMarks {
  const labels: ScrubLabel[] = [];
  const dots: number[] = [];
  if (total <= 0 || track <= 0) return { labels, dots };
  let year = '';
  for (const span of spans) {
    const y = (span.start / total) * track;
    const last = dots[dots.length - 1];
    if (last === undefined || y - last >= DOT_GAP) dots.push(y);
    const text = yearOf(span.month);
    if (text === year) continue;
    year = text;
    const above = labels[labels.length - 1];
    if (!above || y - above.y >= LABEL_GAP) labels.push({ text, y });
  }
  return { labels, dots };
}

/** The grid's scroll offset for a point `y` px down the track: the content there at the top, within the scroll range. */
export function offsetAt(y: number, track: number, total: number, viewport: number): number {
  if (track <= 0) return 0;
  const wanted = (Math.min(Math.max(y, 0), track) / track) * total;
  return Math.round(Math.min(Math.max(wanted, 0), Math.max(0, total - viewport)));
}

/** Where on the track the grid scrolled to `offset` stands. */
export function trackAt(offset: number, track: number, total: number): number {
  return total <= 0 ? 0 : (Math.min(Math.max(offset, 0), total) / total) * track;
}

/** The index of the month shown at `offset` (the last whose heading starts at or above it); -1 with none. */
export function monthIndexAt(spans: readonly MonthSpan[], offset: number): number {
  let lo = 0;
  let hi = spans.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (spans[mid]!.start <= offset + 0.5) lo = mid + 1;
    else hi = mid;
  }
  return spans.length === 0 ? -1 : Math.max(0, lo - 1);
}

/** The key a scrubber answers, as the month index it leads to; null for any other key. */
export function monthIndexForKey(spans: readonly MonthSpan[], current: number, key: string): number | null {
  const last = spans.length - 1;
  if (last < 0) return null;
  const year = (i: number) => yearOf(spans[i]!.month);
  switch (key) {
    case 'ArrowDown':
    case 'ArrowRight':
      return Math.min(last, current + 1);
    case 'ArrowUp':
    case 'ArrowLeft':
      return Math.max(0, current - 1);
    case 'Home':
      return 0;
    case 'End':
      return last;
    case 'PageDown': {
      // The first month of the next year down (or the last month).
      let i = current;
      while (i < last && year(i) === year(current)) i++;
      return i;
    }
    case 'PageUp': {
      // The first month of this year, or of the year above when already there.
      let i = Math.max(0, current);
      if (i > 0 && year(i - 1) !== year(i)) i--;
      while (i > 0 && year(i - 1) === year(i)) i--;
      return i;
    }
    default:
      return null;
  }
}
