import { describe, expect, it } from 'vitest';
import type { Item } from '../../backend/ports';
import { buildGridRows, orderedItems, type GridSection } from './grid-model';

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

  it('stands in for unloaded months with placeholders holding exactly their count', () => {
    const rows = buildGridRows([{ month: '2023-01', count: 1234, items: null }], geo);
    const placeholders = rows.filter((r) => r.kind === 'placeholder');
    expect(placeholders.reduce((n, r) => n + r.widths.length, 0)).toBe(1234);
    for (const r of placeholders) expect(r.height).toBeGreaterThan(50);
  });

  it('lays out 100,000 items as rows without materialising tiles for unloaded months', () => {
    const sections: GridSection[] = Array.from({ length: 120 }, (_, i) => ({ month: `m${i}`, count: 834, items: null }));
    const rows = buildGridRows(sections, geo);
    expect(rows.length).toBeGreaterThan(10_000);
    expect(rows.filter((r) => r.kind === 'placeholder').reduce((n, r) => n + r.widths.length, 0)).toBe(120 * 834);
  });

  it('lists loaded items in display order', () => {
    const sections: GridSection[] = [
      { month: 'x', count: 1, items: [item('1', 1, 1)] },
      { month: 'y', count: 5, items: null },
      { month: 'z', count: 1, items: [item('2', 1, 1)] },
    ];
    expect(orderedItems(sections).map((i) => i.id)).toEqual(['1', '2']);
  });
});
