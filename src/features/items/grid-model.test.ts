import { describe, expect, it } from 'vitest';
import type { Item } from '../../domain/entities';
import { rowStarts } from './scroll-space';
import { buildGridRows, lazyGridIndex, MonthRows, monthsNear, orderedItems, type GridRow, type GridSection } from './grid-model';
import { monthSpans } from './scrubber-model';

function item(id: string, width: number | null, height: number | null): Item {
  return {
    id, albumId: 'a', uploaderId: 'u', kind: width ? 'image' : 'file', status: 'ready', filename: `${id}.jpg`,
    mime: 'image/jpeg', bytes: 1, sha256: null, width, height, durationMs: null, takenAt: null,
    originalKey: 'k', previewKey: null, thumbKey: null, thumbhash: null, metadata: {}, createdAt: '2024-01-01T00:00:00Z', deletedAt: null,
  };
}

const geo = { width: 900, targetHeight: 180, gap: 4, headerHeight: 40 };

describe('buildGridRows', () => {
  it('puts a header before each month and lays out loaded months in justified rows', () => {
    const sections: GridSection[] = [
      { month: '2024-05', count: 3, items: [item('a', 4000, 3000), item('b', 3000, 4000), item('c', null, null)] },
      { month: '2024-04', count: 2, items: [item('d', 1600, 900), item('e', 1600, 900)] },
    ];
    const rows = buildGridRows(sections, geo);
    expect(rows[0]).toMatchObject({ kind: 'header', month: '2024-05', count: 3 });
    const tiles = rows.filter((r) => r.kind === 'tiles');
    expect(tiles.flatMap((r) => (r.kind === 'tiles' ? r.items.map((i) => i.id) : []))).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(rows.filter((r) => r.kind === 'header').map((r) => r.month)).toEqual(['2024-05', '2024-04']);
  });

  it('stands in for an unloaded month with one block as tall as its rows will be', () => {
    const rows = buildGridRows([{ month: '2023-01', count: 1234, items: null }], geo);
    const block = rows.find((r) => r.kind === 'placeholder');
    if (block?.kind !== 'placeholder') throw new Error('no placeholder');
    expect(block.count).toBe(1234);
    expect(block.height).toBe(Math.ceil(1234 / block.perRow) * (block.tileHeight + geo.gap));
    expect(block.perRow * block.tileWidth + (block.perRow - 1) * geo.gap).toBeCloseTo(geo.width, 5);
  });

  it('shows a month\'s first page while the rest is coming, keeping the rest\'s place below it', () => {
    const first = Array.from({ length: 120 }, (_, i) => item(`f${i}`, 4000, 3000));
    const coming = buildGridRows([{ month: '2024-05', count: 1667, items: first, partial: true }, { month: '2024-04', count: 10, items: null }], geo);
    const tiles = coming.filter((r) => r.kind === 'tiles');
    expect(tiles.flatMap((r) => (r.kind === 'tiles' ? r.items.map((i) => i.id) : []))).toHaveLength(120);
    const rest = coming.find((r) => r.kind === 'placeholder' && r.month === '2024-05');
    if (rest?.kind !== 'placeholder') throw new Error('no placeholder for the rest of the month');
    expect(rest.count).toBe(1667 - 120);
    // The next month starts about where it will once the whole month is in (as for a month not loaded at all).
    const heightOf = (rows: GridRow[]) => rows.filter((r) => r.month === '2024-05').reduce((h, r) => h + r.height, 0);
    const unloaded = buildGridRows([{ month: '2024-05', count: 1667, items: null }], geo);
    expect(Math.abs(heightOf(coming) - heightOf(unloaded)) / heightOf(unloaded)).toBeLessThan(0.05);
    // Once the month is complete, or if its count was only out of date, no empty tiles stay behind.
    const done = buildGridRows([{ month: '2024-05', count: 1667, items: first }], geo);
    expect(done.some((r) => r.kind === 'placeholder')).toBe(false);
  });

  it('keeps 100,000 unloaded items to two rows a month, so few rows are drawn', () => {
    const sections: GridSection[] = Array.from({ length: 120 }, (_, i) => ({ month: `m${i}`, count: 834, items: null }));
    const rows = buildGridRows(sections, geo);
    expect(rows).toHaveLength(240);
    expect(rows.reduce((n, r) => n + (r.kind === 'placeholder' ? r.count : 0), 0)).toBe(120 * 834);
  });

  it('reuses a loaded month\'s layout while its items and the width stay the same', () => {
    const items = [item('a', 4000, 3000), item('b', 3000, 4000)];
    const a = buildGridRows([{ month: 'x', count: 2, items }], geo);
    const b = buildGridRows([{ month: 'x', count: 2, items }], geo);
    expect(b[1]).toBe(a[1]);
    const c = buildGridRows([{ month: 'x', count: 2, items }], { ...geo, width: 500 });
    expect(c[1]).not.toBe(a[1]);
  });

  it('lists loaded items in display order', () => {
    const sections: GridSection[] = [
      { month: 'x', count: 1, items: [item('1', 1, 1)] },
      { month: 'y', count: 5, items: null },
      { month: 'z', count: 1, items: [item('2', 1, 1)] },
    ];
    expect(orderedItems(sections).map((i) => i.id)).toEqual(['1', '2']);
  });

  it('indexes loaded items by row and column for keyboard moves, in display order', () => {
    const sections: GridSection[] = [
      { month: 'x', count: 3, items: [item('a', 4000, 3000), item('b', 3000, 4000), item('c', 1600, 900)] },
      { month: 'y', count: 9, items: null },
      { month: 'z', count: 1, items: [item('d', 1000, 1000)] },
    ];
    const rows = buildGridRows(sections, geo);
    const nav = lazyGridIndex(sections, rows, geo.gap);
    expect(nav.order).toEqual(['a', 'b', 'c', 'd']);
    const a = nav.spots.get('a');
    const b = nav.spots.get('b');
    expect(a?.row).toBe(1);
    expect(b?.row).toBe(1);
    expect(b?.center).toBeGreaterThan(a?.center ?? Infinity);
    expect(rows[nav.spots.get('d')?.row ?? -1]).toMatchObject({ kind: 'tiles', month: 'z' });
  });

  it('gives a month that was laid out and then unloaded its real height back, so the page does not jump', () => {
    const items = [item('a', 4000, 3000), item('b', 3000, 4000), item('c', 1000, 4000)];
    const memory = new MonthRows();
    const loaded = buildGridRows([{ month: 'x', count: 3, items }], geo, memory);
    const real = loaded.slice(1).reduce((h, r) => h + r.height, 0);
    const unloaded = buildGridRows([{ month: 'x', count: 3, items: null }], geo, memory);
    expect(unloaded[1]).toMatchObject({ kind: 'placeholder', height: real });
    const fresh = buildGridRows([{ month: 'x', count: 3, items: null }], geo);
    expect(fresh[1]?.height).not.toBe(real);
  });

  it('makes no row again when the album is laid out again with one more month loaded', () => {
    const memory = new MonthRows();
    const months: GridSection[] = Array.from({ length: 200 }, (_, i) => ({ month: `m${String(i).padStart(3, '0')}`, count: 500, items: null }));
    const before = buildGridRows(months, geo, memory);
    const items = Array.from({ length: 500 }, (_, i) => item(`i${i}`, 4000, 3000));
    const after = buildGridRows(months.map((s, i) => (i === 100 ? { ...s, items } : s)), geo, memory);
    // Every header and placeholder of the 199 other months is the very row laid out before; only month 100's
    // tile rows are new.
    const old = new Set(before);
    const made = after.filter((r) => !old.has(r));
    expect(made.length).toBeGreaterThan(0);
    expect(made.every((r) => r.kind === 'tiles' && r.month === 'm100')).toBe(true);
    // Laid out a third time, with nothing changed, every row is one already made.
    const again = buildGridRows(months.map((s, i) => (i === 100 ? { ...s, items } : s)), geo, memory);
    expect(again.filter((r) => !after.includes(r))).toEqual([]);
    // The header of the loaded month is the one made before, too.
    expect(after.filter((r) => r.kind === 'header')).toEqual(before.filter((r) => r.kind === 'header'));
  });
});

/** Where each row starts, stacked in order, as the grid lays them out. */
const spansOf = (rows: readonly GridRow[]) => rowStarts(rows);

describe('monthsNear', () => {
  it('at the top of a big album wants only the month on screen, not the next months a few rows down', () => {
    // 100,000 items over 60 months: each unloaded month is a header and one block tens of thousands of pixels tall.
    const sections: GridSection[] = Array.from({ length: 60 }, (_, i) => ({ month: `m${String(i).padStart(2, '0')}`, count: 1667, items: null }));
    const rows = buildGridRows(sections, geo);
    expect(rows[1]!.height).toBeGreaterThan(10 * 800);
    expect([...monthsNear(rows, spansOf(rows), 0, 800)]).toEqual(['m00']);
  });

  it('wants the months within one screen above and below the one on screen, by pixels', () => {
    // Months a to e, two rows of 500 px each.
    const rows: GridRow[] = ['a', 'a', 'b', 'b', 'c', 'c', 'd', 'd', 'e', 'e'].map((month, i) => ({ kind: 'header', key: `${i}`, month, count: 0, height: 500 }));
    const spans = spansOf(rows);
    // A 500 px screen at the top of c: from 1,500 to 3,000 px is wanted; b's last row ends at 2,000, d starts at 3,000.
    expect([...monthsNear(rows, spans, 2000, 500)]).toEqual(['b', 'c']);
    expect([...monthsNear(rows, spans, 2250, 500)]).toEqual(['b', 'c', 'd']);
    expect([...monthsNear(rows, spans, 0, 500)]).toEqual(['a']);
    expect([...monthsNear(rows, spans, 4200, 500)]).toEqual(['d', 'e']);
  });
});

describe('small months', () => {
  const one = (month: string, id: string, w = 4000, h = 3000): GridSection => ({ month, count: 1, items: [item(id, w, h)] });

  it('share a row, side by side, each labelled above its first photo', () => {
    const rows = buildGridRows([one('2024-05', 'a'), one('2024-03', 'b', 3000, 4000), one('2023-11', 'c'), { month: '2023-10', count: 40, items: null }], geo);
    const shared = rows[0]!;
    expect(shared.kind).toBe('tiles');
    if (shared.kind !== 'tiles' || !shared.shared) throw new Error('not shared');
    expect(shared.shared.labels.map((l) => l.month)).toEqual(['2024-05', '2024-03', '2023-11']);
    expect(shared.items.map((i) => i.id)).toEqual(['a', 'b', 'c']);
    // Each label starts where its month's first photo does; months are further apart than photos.
    expect(shared.shared.labels.map((l) => l.left)).toEqual(shared.shared.lefts);
    expect(shared.shared.lefts[1]! - (shared.shared.lefts[0]! + shared.widths[0]!)).toBeGreaterThan(geo.gap);
    expect(shared.height).toBe(geo.headerHeight + 180 + geo.gap);
    // The month not loaded yet keeps its heading and placeholder.
    expect(rows.slice(1).map((r) => r.kind)).toEqual(['header', 'placeholder']);
    // Keyboard moves go along the shared row in order.
    const spots = lazyGridIndex([], rows, geo.gap).spots;
    expect([...spots.values()].map((s) => [s.row, s.col])).toEqual([[0, 0], [0, 1], [0, 2]]);
    // Every month in the row counts as near when the row is.
    expect([...monthsNear(rows, spansOf(rows), 0, 100)]).toEqual(
      expect.arrayContaining(['2024-05', '2024-03', '2023-11']),
    );
  });

  it('take the next row when the width is used up, and a month alone keeps its heading', () => {
    const sections = ['2024-06', '2024-05', '2024-04', '2024-03', '2024-02'].map((m, i) => one(m, `x${i}`));
    const rows = buildGridRows(sections, geo);
    const shared = rows.filter((r) => r.kind === 'tiles' && r.shared);
    // 240 px photos, 16 px between months, 900 px: three months, then two.
    expect(shared.map((r) => (r.kind === 'tiles' ? r.shared!.labels.length : 0))).toEqual([3, 2]);
    const alone = buildGridRows([one('2024-01', 'z'), { month: '2023-12', count: 50, items: Array.from({ length: 50 }, (_, i) => item(`y${i}`, 4000, 3000)) }], geo);
    expect(alone.map((r) => r.kind).slice(0, 3)).toEqual(['header', 'tiles', 'header']);
  });

  it('share the row made at the last layout while their months stand, and a new one when one of them changes', () => {
    const memory = new MonthRows();
    const sections = ['2024-06', '2024-05', '2024-04'].map((m, i) => one(m, `x${i}`));
    const sharedOf = (rows: GridRow[]) => rows.find((r) => r.kind === 'tiles' && r.shared);
    const first = sharedOf(buildGridRows(sections, geo, memory));
    // A layout for another reason (a month elsewhere loading): the same row, so it is not drawn again.
    expect(sharedOf(buildGridRows([...sections, { month: '2023-01', count: 40, items: null }], geo, memory))).toBe(first);
    // A photo added to one of its months: made again, with the new count.
    const grown = sharedOf(buildGridRows([{ ...sections[0]!, count: 2, items: [item('x0', 4000, 3000), item('n', 4000, 3000)] }, ...sections.slice(1)], geo, memory));
    expect(grown).not.toBe(first);
    expect(grown?.kind === 'tiles' && grown.shared?.labels[0]?.count).toBe(2);
  });

  it('do not share while a month is still loading', () => {
    const rows = buildGridRows([{ ...one('2024-05', 'a'), count: 2, partial: true }, one('2024-04', 'b')], geo);
    expect(rows[0]).toMatchObject({ kind: 'header', month: '2024-05' });
    expect(rows.some((r) => r.kind === 'tiles' && r.shared)).toBe(false);
  });
});

describe('days', () => {
  const days = { ...geo, days: { sort: 'taken' as const, height: 30 } };
  /** `n` 4:3 photos taken on `date` (YYYY-MM-DD), ids `${prefix}0`… */
  const on = (date: string, n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => ({ ...item(`${prefix}${i}`, 4000, 3000), takenAt: `${date}T${String(20 - i).padStart(2, '0')}:00:00Z` }));
  const labelsOf = (rows: GridRow[]) => rows.flatMap((r) => (r.kind === 'tiles' && r.shared ? r.shared.labels.map((l) => l.day) : []));
  const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

  it('label each day of a month, and small days share a row with their neighbours', () => {
    // 240 px photos in 900 px: a day of 12 fills rows of its own; days of 1 and 2 fit side by side.
    const items = [...on('2024-05-20', 1, 'a'), ...on('2024-05-18', 2, 'b'), ...on('2024-05-11', 12, 'c'), ...on('2024-05-02', 1, 'd')];
    const rows = buildGridRows([{ month: '2024-05', count: items.length, items }, { month: '2024-04', count: 40, items: null }], days);
    expect(rows.map((r) => r.kind)).toEqual(['header', 'tiles', 'tiles', 'tiles', 'tiles', 'tiles', 'header', 'placeholder']);
    const [, shared, big, , , last] = rows;
    if (shared?.kind !== 'tiles' || big?.kind !== 'tiles' || last?.kind !== 'tiles') throw new Error('not tiles');
    // The 20th and the 18th share the first row, each labelled above its first photo, further apart than photos.
    expect(shared.shared?.labels.map((l) => l.day)).toEqual([dayNumber('2024-05-20'), dayNumber('2024-05-18')]);
    expect(shared.items.map((i) => i.id)).toEqual(['a0', 'b0', 'b1']);
    expect(shared.shared!.labels.map((l) => l.left)).toEqual(shared.shared!.lefts.slice(0, 2));
    expect(shared.shared!.lefts[1]! - shared.widths[0]!).toBeGreaterThan(geo.gap);
    expect(shared.height).toBe(30 + 180 + geo.gap);
    // The 11th starts a row of its own under its label; its next rows have none; the 2nd after it.
    expect(big.shared?.labels).toEqual([{ month: '2024-05', day: dayNumber('2024-05-11'), count: 12, left: 0, width: geo.width }]);
    expect(big.items[0]?.id).toBe('c0');
    expect(labelsOf(rows)).toEqual(['2024-05-20', '2024-05-18', '2024-05-11', '2024-05-02'].map(dayNumber));
    expect(last.items.map((i) => i.id)).toEqual(['d0']);
    // Every photo once, in order; every row's key its own.
    expect(orderedItems([{ month: '2024-05', count: 0, items }]).map((i) => i.id)).toEqual(rows.flatMap((r) => (r.kind === 'tiles' ? r.items.map((i) => i.id) : [])));
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
  });

  it('are not months: the scrubber and the months wanted see each month once', () => {
    const items = [...on('2024-05-20', 1, 'a'), ...on('2024-05-11', 12, 'c')];
    const rows = buildGridRows([{ month: '2024-05', count: items.length, items }, { month: '2024-04', count: 3, items: null }], days);
    const starts = spansOf(rows);
    expect(monthSpans(rows, (i) => starts[i]).map((s) => s.month)).toEqual(['2024-05', '2024-04']);
    expect([...monthsNear(rows, starts, 0, 100)]).toEqual(['2024-05']);
  });

  it('follow the order the album is in: by date added, days are the days photos were added', () => {
    const items = on('2024-05-20', 3, 'a').map((it, i) => ({ ...it, createdAt: `2024-06-0${i + 1}T10:00:00Z` }));
    const rows = buildGridRows([{ month: '2024-06', count: 3, items }], { ...geo, days: { sort: 'added', height: 30 } });
    expect(labelsOf(rows)).toEqual(['2024-06-01', '2024-06-02', '2024-06-03'].map(dayNumber));
  });

  it('leave a small month in the row it shares with other months, under its month', () => {
    const rows = buildGridRows([{ month: '2024-05', count: 2, items: [...on('2024-05-20', 1, 'a'), ...on('2024-05-03', 1, 'b')] }, { month: '2024-03', count: 1, items: on('2024-03-01', 1, 'c') }], days);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.kind === 'tiles' && rows[0].shared?.labels.map((l) => [l.month, l.day])).toEqual([['2024-05', undefined], ['2024-03', undefined]]);
  });
});
