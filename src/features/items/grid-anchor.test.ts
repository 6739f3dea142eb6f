import { describe, expect, it } from 'vitest';
import type { Item } from '../../domain/entities';
import { anchorAt, anchoredOffset } from './grid-anchor';
import { buildGridRows, type GridSection } from './grid-model';
import { monthSpans } from './scrubber-model';

function item(id: string, w: number, h: number): Item {
  return {
    id, albumId: 'a', uploaderId: 'u', kind: 'image', status: 'ready', filename: `${id}.jpg`, mime: 'image/jpeg', bytes: 1, sha256: null,
    width: w, height: h, durationMs: null, takenAt: null, originalKey: 'k', previewKey: null, thumbKey: null, thumbhash: null, metadata: {},
    createdAt: '2024-01-01T00:00:00Z', deletedAt: null,
  };
}

/** The grid as it is laid out: each row's start, each month's span, the whole height. */
function laidOut(sections: GridSection[], width = 1200) {
  const rows = buildGridRows(sections, { width, targetHeight: 200, gap: 4, headerHeight: 44 });
  const starts: number[] = [];
  let y = 0;
  for (const r of rows) {
    starts.push(y);
    y += r.height;
  }
  /** Where an item's tile starts. */
  const itemTop = (id: string) => starts[rows.findIndex((r) => r.kind === 'tiles' && r.items.some((i) => i.id === id))]!;
  return { rows, spans: monthSpans(rows, (i) => starts[i]), total: y, itemTop };
}

/** The first photo of the row holding `id`. */
function firstOfRow(grid: ReturnType<typeof laidOut>, id: string): string {
  const row = grid.rows.find((r) => r.kind === 'tiles' && r.items.some((i) => i.id === id));
  return row?.kind === 'tiles' ? row.items[0]!.id : id;
}

/** An album of `months` months of `perMonth` photos each (alternating shapes), newest first; each month loaded or not. */
function album(n: number, perMonth: number, loaded: (month: number) => boolean, extra: Record<number, number> = {}): GridSection[] {
  return Array.from({ length: n }, (_, m) => {
    const count = perMonth + (extra[m] ?? 0);
    const month = `${2030 - Math.floor(m / 12)}-${String(12 - (m % 12)).padStart(2, '0')}`;
    const items = Array.from({ length: count }, (_, i) => item(`${m}-${i}`, i % 3 ? 4000 : 3000, i % 3 ? 3000 : 4000));
    return { month, count, items: loaded(m) ? items : null };
  });
}

describe('the grid keeps what is on screen in place', () => {
  for (const [label, months, perMonth] of [['1 item', 1, 1], ['1,000 items', 10, 100], ['1,000,000 items', 120, 8334]] as const) {
    it(`when a member adds photos to a month far above, at ${label}`, () => {
      const at = months - 1;
      const before = laidOut(album(months, perMonth, (m) => m === at));
      const looking = `${at}-${Math.min(perMonth - 1, 5)}`;
      const offset = before.itemTop(looking);
      const anchor = anchorAt(before.spans, before.total, offset, { itemId: firstOfRow(before, looking), start: offset })!;
      // 500 photos more in the first month (the top of the album; with one month, the month in view).
      const after = laidOut(album(months, perMonth, (m) => m === at, { 0: 500 }));
      const to = anchoredOffset(anchor, after.spans, after.total, after.itemTop)!;
      if (months > 1) expect(after.itemTop(looking)).toBeGreaterThan(offset); // it moved down the page…
      expect(to).toBe(after.itemTop(looking)); // …and the grid follows it
    });
  }

  it('when the month at the top is loaded and its estimated height becomes its real one, the same share of it stays in view', () => {
    const before = laidOut(album(3, 400, () => false));
    const start = before.spans[1]!.start;
    const height = before.spans[2]!.start - start;
    const offset = start + height / 2;
    const anchor = anchorAt(before.spans, before.total, offset)!;
    const after = laidOut(album(3, 400, () => true));
    const newStart = after.spans[1]!.start;
    const newHeight = after.spans[2]!.start - newStart;
    expect(newHeight).not.toBe(height);
    expect(anchoredOffset(anchor, after.spans, after.total)).toBe(Math.round(newStart + newHeight / 2));
  });

  it('when the window is resized, the photo at the top stays within a row of the top', () => {
    const sections = album(6, 200, () => true);
    const wide = laidOut(sections, 1200);
    const looking = firstOfRow(wide, '3-120');
    const anchor = anchorAt(wide.spans, wide.total, wide.itemTop(looking) + 30, { itemId: looking, start: wide.itemTop(looking) })!;
    const narrow = laidOut(sections, 700);
    expect(anchoredOffset(anchor, narrow.spans, narrow.total, narrow.itemTop)).toBe(narrow.itemTop(looking) + 30);
    // Without the photo laid out, the same share of its month.
    const { item: _photo, ...monthOnly } = anchor;
    const share = anchoredOffset(monthOnly, narrow.spans, narrow.total)!;
    expect(Math.abs(share - narrow.itemTop(looking))).toBeLessThan(204 * 2);
  });

  it('lets go when the month at the top is gone', () => {
    const before = laidOut(album(2, 10, () => true));
    const anchor = anchorAt(before.spans, before.total, before.spans[1]!.start + 5)!;
    expect(anchoredOffset(anchor, before.spans.slice(0, 1), before.total)).toBeNull();
  });
});
