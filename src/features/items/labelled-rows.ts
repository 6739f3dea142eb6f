/**
 * Rows whose photos carry labels above them: several small months side by side ([Note: Small months share a
 * row] in grid-model.ts), and a month's days ([Note: Days flow together]). Both pack their parts into rows the
 * same way (`RowPacker`) and draw them the same way (`labelledRow`).
 */
import type { Item } from '../../domain/entities';
import { dayOf } from '../../shared/live/item-order';
import type { GridGeometry, GridRow, InlineMonth, TilesRow } from './grid-types';
import { justifiedRows, type LayoutRow } from './justified-layout';

/** Between two labelled parts of a row the gap is this many times the gap between photos. */
const MONTH_GAP_FACTOR = 4;
/** A day's part of a row is at least this wide: its weekday and the check that selects the day beside it. */
const MIN_DAY_WIDTH = 156;

export const rowWidth = (widths: readonly number[], gap: number) => widths.reduce((a, b) => a + b, 0) + gap * (widths.length - 1);

/** What one label brings to a row it shares: its photos, laid out in one row of their own. */
export interface LabelledPart {
  label: Omit<InlineMonth, 'left' | 'width'>;
  items: readonly Item[];
  widths: readonly number[];
  rowHeight: number;
  width: number;
}

/**
 * Packs parts narrower than a row into rows, in order: a part joins the row being filled while it fits (at
 * least `minWidth`, after the wider gap), else that row is handed to `emit` and the part starts the next.
 */
export class RowPacker<T> {
  private pending: T[] = [];
  private taken = 0;

  constructor(
    private readonly geo: GridGeometry,
    private readonly minWidth: number,
    private readonly emit: (parts: T[]) => void,
  ) {}

  add(part: T, width: number): void {
    const span = Math.max(width, this.minWidth);
    const needed = this.taken + this.geo.gap * MONTH_GAP_FACTOR + span;
    if (this.pending.length > 0 && needed > this.geo.width) this.flush();
    this.taken = this.pending.length === 0 ? span : needed;
    this.pending.push(part);
  }

  /** Hands over the row being filled, if any. */
  flush(): void {
    if (this.pending.length > 0) this.emit(this.pending);
    this.pending = [];
    this.taken = 0;
  }
}

/**
 * One row of several parts side by side (small months, or a month's small days), each with its label above its
 * first photo and a wider gap between them. `labelHeight` px of labels, then the photos. Each part is at least
 * `minWidth` wide; the last one's label may use the rest of the row.
 */
export function labelledRow(parts: readonly LabelledPart[], geo: GridGeometry, labelHeight: number, minWidth: number, key: string, month: string, sectionIndex: number): TilesRow {
  const labels: InlineMonth[] = [];
  const lefts: number[] = [];
  const items: Item[] = [];
  const widths: number[] = [];
  let x = 0;
  parts.forEach((p, n) => {
    const span = Math.max(p.width, minWidth);
    labels.push({ ...p.label, left: x, width: n === parts.length - 1 ? Math.max(span, geo.width - x) : span });
    let left = x;
    p.items.forEach((item, i) => {
      const w = p.widths[i] ?? 0;
      items.push(item);
      widths.push(w);
      lefts.push(left);
      left += w + geo.gap;
    });
    x += span + geo.gap * MONTH_GAP_FACTOR;
  });
  return {
    kind: 'tiles',
    key,
    month,
    sectionIndex,
    items,
    widths,
    height: labelHeight + Math.max(...parts.map((p) => p.rowHeight)),
    shared: { labels, lefts, headerHeight: labelHeight },
  };
}

/** The month a row is in, its place among the sections, and the gap under each row. */
export interface RowPlace {
  month: string;
  sectionIndex: number;
  gap: number;
}

/** Laid-out row `r` of `items` from index `from` on, as the `index`th row of its month. */
export function tilesRow(items: readonly Item[], r: LayoutRow, from: number, index: number, at: RowPlace): TilesRow {
  return {
    kind: 'tiles',
    key: `t:${at.month}:${index}`,
    month: at.month,
    sectionIndex: at.sectionIndex,
    items: items.slice(from + r.start, from + r.start + r.count),
    widths: r.widths,
    height: r.height + at.gap,
  };
}

/**
 * [Note: Days flow together]
 * Within a month, each day's photos start with the day's label, as in Google Photos and Immich. A day whose
 * photos fill less than one row shares its row with the small days next to it, each labelled above its first
 * photo (as small months do, [Note: Small months share a row]); a larger day starts a row of its own, the day's
 * label above it. Days are UTC days of the time the album is ordered by, as its months are: a photo whose
 * file gave its clock's offset sits under the UTC day, which near midnight is not the day its clock showed.
 */
export function dayRows(items: readonly Item[], aspects: readonly number[], at: RowPlace, geo: GridGeometry, days: NonNullable<GridGeometry['days']>): GridRow[] {
  const rows: GridRow[] = [];
  const opts = { width: geo.width, targetHeight: geo.targetHeight, gap: geo.gap };
  const smallDays = new RowPacker<LabelledPart>(geo, MIN_DAY_WIDTH, (parts) =>
    rows.push(labelledRow(parts, geo, days.height, MIN_DAY_WIDTH, `t:${at.month}:${rows.length}`, at.month, at.sectionIndex)),
  );
  let start = 0;
  while (start < items.length) {
    const day = dayOf(items[start]!, days.sort);
    let end = start + 1;
    while (end < items.length && dayOf(items[end]!, days.sort) === day) end++;
    const laid = justifiedRows(aspects.slice(start, end), opts);
    const width = laid.length === 1 ? rowWidth(laid[0]!.widths, geo.gap) : Number.POSITIVE_INFINITY;
    const label = { month: at.month, day, count: end - start };
    if (width < geo.width) {
      const row = laid[0]!;
      smallDays.add({ label, items: items.slice(start, end), widths: row.widths, rowHeight: row.height + geo.gap, width }, width);
    } else {
      smallDays.flush();
      laid.forEach((r, i) => {
        const row = tilesRow(items, r, start, rows.length, at);
        rows.push(i > 0 ? row : labelledRow([{ label, items: row.items, widths: row.widths, rowHeight: row.height, width: geo.width }], geo, days.height, MIN_DAY_WIDTH, row.key, at.month, at.sectionIndex));
      });
    }
    start = end;
  }
  smallDays.flush();
  return rows;
}
