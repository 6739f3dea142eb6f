/**
 * Justified rows: photos keep their own aspect ratios and every full row fills the width exactly, the way
 * Google Photos and Flickr lay out albums. Greedy and linear: a row takes photos until, scaled to fill the
 * width, it would be no taller than the target height. The last row keeps the target height (not stretched).
 * Written here rather than taken from a package because the virtualized grid needs rows (not absolute boxes for
 * the whole album) and must lay out one month at a time.
 */
export interface LayoutOptions {
  width: number;
  targetHeight: number;
  gap: number;
  /** A lone panorama would make a very short row; a lone tall photo a very high one. Clamp to these. */
  minAspect?: number;
  maxAspect?: number;
}

export interface LayoutRow {
  /** Index of the first item of this row in the input. */
  start: number;
  count: number;
  height: number;
  /** Width of each item of the row, in order. */
  widths: number[];
}

export function justifiedRows(aspects: readonly number[], opts: LayoutOptions): LayoutRow[] {
  const { width, targetHeight, gap } = opts;
  const minA = opts.minAspect ?? 0.4;
  const maxA = opts.maxAspect ?? 4;
  const rows: LayoutRow[] = [];
  if (width <= 0 || aspects.length === 0) return rows;
  let start = 0;
  let sum = 0;
  for (let i = 0; i < aspects.length; i++) {
    sum += clampAspect(aspects[i], minA, maxA);
    const count = i - start + 1;
    const rowHeight = (width - gap * (count - 1)) / sum;
    if (rowHeight <= targetHeight) {
      rows.push(makeRow(aspects, start, count, rowHeight, width, gap, minA, maxA, true));
      start = i + 1;
      sum = 0;
    }
  }
  if (start < aspects.length) {
    rows.push(makeRow(aspects, start, aspects.length - start, targetHeight, width, gap, minA, maxA, false));
  }
  return rows;
}

function clampAspect(a: number | undefined, minA: number, maxA: number): number {
  if (a === undefined || !Number.isFinite(a) || a <= 0) return 1;
  return Math.min(maxA, Math.max(minA, a));
}

function makeRow(
  aspects: readonly number[], start: number, count: number, height: number,
  width: number, gap: number, minA: number, maxA: number, fill: boolean,
): LayoutRow {
  const h = Math.max(1, Math.round(height));
  const widths: number[] = [];
  for (let i = 0; i < count; i++) widths.push(Math.max(1, Math.round(clampAspect(aspects[start + i], minA, maxA) * height)));
  if (fill) {
    // Rounding leaves a pixel or two: give them to the last photo so the row ends flush with the edge.
    const used = widths.reduce((a, b) => a + b, 0) + gap * (count - 1);
    widths[count - 1] = Math.max(1, (widths[count - 1] ?? 1) + (width - used));
  } else {
    // An unfilled last row never overflows either.
    let used = widths.reduce((a, b) => a + b, 0) + gap * (count - 1);
    for (let i = count - 1; used > width && i >= 0; i--) {
      const cut = Math.min(used - width, (widths[i] ?? 1) - 1);
      widths[i] = (widths[i] ?? 1) - cut;
      used -= cut;
    }
  }
  return { start, count, height: h, widths };
}
