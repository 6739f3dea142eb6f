import { describe, expect, it } from 'vitest';
import { justifiedRows } from './justified-layout';

const opts = { width: 1000, targetHeight: 200, gap: 4 };
const rowWidth = (widths: number[], gap: number) => widths.reduce((a, b) => a + b, 0) + gap * (widths.length - 1);

describe('justifiedRows', () => {
  it('fills every full row to the exact width, keeping aspect ratios', () => {
    const aspects = [1.5, 0.75, 1, 1.33, 1.78, 0.66, 1.5, 1.5, 1, 2, 0.8, 1.2];
    const rows = justifiedRows(aspects, opts);
    expect(rows.reduce((n, r) => n + r.count, 0)).toBe(aspects.length);
    for (const row of rows.slice(0, -1)) {
      expect(rowWidth(row.widths, opts.gap)).toBe(opts.width);
      expect(row.height).toBeLessThanOrEqual(opts.targetHeight);
      row.widths.forEach((w, i) => {
        const a = aspects[row.start + i] ?? 1;
        expect(Math.abs(w / row.height - a)).toBeLessThan(0.05 * a + 2 / row.height);
      });
    }
  });

  it('does not stretch the last row', () => {
    const rows = justifiedRows([1, 1], opts);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.height).toBe(200);
    expect(rows[0]?.widths).toEqual([200, 200]);
  });

  it('keeps rows contiguous and in order', () => {
    const aspects = Array.from({ length: 500 }, (_, i) => 0.5 + ((i * 7919) % 100) / 50);
    const rows = justifiedRows(aspects, opts);
    let next = 0;
    for (const r of rows) {
      expect(r.start).toBe(next);
      next += r.count;
    }
    expect(next).toBe(500);
  });

  it('treats unknown or absurd aspect ratios sanely', () => {
    const rows = justifiedRows([Number.NaN, 0, 100, 0.001], { ...opts, width: 300 });
    for (const r of rows) for (const w of r.widths) expect(w).toBeGreaterThan(0);
    for (const r of rows) expect(rowWidth(r.widths, opts.gap)).toBeLessThanOrEqual(300);
  });

  it('gives nothing for no width or no items', () => {
    expect(justifiedRows([], opts)).toEqual([]);
    expect(justifiedRows([1], { ...opts, width: 0 })).toEqual([]);
  });
});
