import { describe, expect, it } from 'vitest';
import { buildGridRows, type GridSection } from './grid-model';
import { monthIndexAt, monthIndexForKey, monthSpans, offsetAt, scrubMarks, trackAt, type MonthSpan } from './scrubber-model';

const geo = { width: 1200, targetHeight: 200, gap: 4, headerHeight: 44 };

/** An album's months as counts only (nothing loaded), newest first, and their spans as the grid lays them out. */
function album(counts: Record<string, number>) {
  const sections: GridSection[] = Object.entries(counts).map(([month, count]) => ({ month, count, items: null }));
  const rows = buildGridRows(sections, geo);
  const starts: number[] = [];
  let y = 0;
  for (const r of rows) {
    starts.push(y);
    y += r.height;
  }
  return { rows, spans: monthSpans(rows, (i) => starts[i]), total: y };
}

describe('the date scrubber', () => {
  it('places each month by its height in the grid, from the counts alone: a big month takes more of the track', () => {
    const { spans, total } = album({ '2024-03': 5000, '2024-02': 5, '2024-01': 5, '2023-12': 5000 });
    expect(spans.map((s) => s.month)).toEqual(['2024-03', '2024-02', '2024-01', '2023-12']);
    const { labels, dots } = scrubMarks(spans, total, 600);
    expect(dots[0]).toBe(0);
    // March 2024 (5,000 photos) holds about half the track; February and January are squeezed together below it.
    expect(dots[1]).toBeGreaterThan(280);
    expect(dots[1]).toBeLessThan(320);
    expect(dots).toHaveLength(2); // January falls within a few pixels of February, December too: left out
    // 2023 starts with December, below the squeezed months: its label is written there.
    expect(labels.map((l) => l.text)).toEqual(['2024', '2023']);
    expect(Math.abs(labels[1]!.y - dots[1]!)).toBeLessThan(4);
  });

  it('writes each year once, at its first month, and leaves out a year that would overlap the one above', () => {
    const counts: Record<string, number> = {};
    for (let y = 2024; y >= 2015; y--) for (let m = 12; m >= 1; m--) counts[`${y}-${String(m).padStart(2, '0')}`] = y === 2016 ? 1 : 300;
    counts.unknown = 20;
    const { spans, total } = album(counts);
    const { labels } = scrubMarks(spans, total, 800);
    expect(labels[0]).toEqual({ text: '2024', y: 0 });
    // 2016 holds 12 photos: its label would sit on top of 2015's, which is left out, not 2016's.
    expect(labels.map((l) => l.text)).toEqual(['2024', '2023', '2022', '2021', '2020', '2019', '2018', '2017', '2016', 'No date']);
    for (let i = 1; i < labels.length; i++) expect(labels[i]!.y - labels[i - 1]!.y).toBeGreaterThanOrEqual(18);
  });

  it('maps the track to the grid and back, at 1, 1,000 and 1,000,000 items', () => {
    for (const n of [1, 1000, 1_000_000]) {
      const counts: Record<string, number> = {};
      const months = Math.min(n, 120);
      for (let i = 0; i < months; i++) counts[`${2030 - Math.floor(i / 12)}-${String(12 - (i % 12)).padStart(2, '0')}`] = Math.floor(n / months) + (i < n % months ? 1 : 0);
      const { spans, total } = album(counts);
      const track = 700;
      const viewport = 800;
      expect(offsetAt(0, track, total, viewport)).toBe(0);
      expect(offsetAt(track, track, total, viewport)).toBe(Math.max(0, Math.round(total - viewport)));
      // Every month's dot leads to that month's heading (within a pixel's rounding), and the month read there is it.
      for (const [i, span] of spans.entries()) {
        const offset = offsetAt(trackAt(span.start, track, total), track, total, viewport);
        if (span.start <= total - viewport) {
          expect(Math.abs(offset - span.start)).toBeLessThanOrEqual(1);
          expect(monthIndexAt(spans, offset)).toBe(i);
        }
      }
    }
  });

  it('gives each of the months sharing a row its place, at the row', () => {
    const one = (month: string, id: string) => ({ month, count: 1, items: [{ id, width: 400, height: 300 } as never] });
    const rows = buildGridRows([one('2024-05', 'a'), one('2024-03', 'b'), { month: '2023-01', count: 300, items: null }], geo);
    expect(monthSpans(rows, (i) => i * 1000)).toEqual([
      { month: '2024-05', start: 0 },
      { month: '2024-03', start: 0 },
      { month: '2023-01', start: 1000 },
    ]);
  });

  it('steps a month with the arrow keys and a year with Page Up and Page Down', () => {
    const spans: MonthSpan[] = ['2024-03', '2024-01', '2023-12', '2023-06', '2022-02', 'unknown'].map((month, i) => ({ month, start: i * 100 }));
    expect(monthIndexForKey(spans, 0, 'ArrowDown')).toBe(1);
    expect(monthIndexForKey(spans, 0, 'ArrowUp')).toBe(0);
    expect(monthIndexForKey(spans, 5, 'ArrowDown')).toBe(5);
    expect(monthIndexForKey(spans, 0, 'PageDown')).toBe(2);
    expect(monthIndexForKey(spans, 2, 'PageDown')).toBe(4);
    expect(monthIndexForKey(spans, 4, 'PageDown')).toBe(5);
    expect(monthIndexForKey(spans, 3, 'PageUp')).toBe(2);
    expect(monthIndexForKey(spans, 2, 'PageUp')).toBe(0);
    expect(monthIndexForKey(spans, 3, 'End')).toBe(5);
    expect(monthIndexForKey(spans, 3, 'Home')).toBe(0);
    expect(monthIndexForKey(spans, 3, 'a')).toBeNull();
    expect(monthIndexAt(spans, 250)).toBe(2);
    expect(monthIndexAt([], 0)).toBe(-1);
  });
});
