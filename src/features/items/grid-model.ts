import type { Item } from '../../domain/entities';
import type { GridGeometry, GridRow, GridSection, TilesRow } from './grid-types';
import { justifiedRows } from './justified-layout';
import { dayRows, labelledRow, RowPacker, rowWidth, tilesRow } from './labelled-rows';

export type { GridGeometry, GridRow, GridSection, InlineMonth, TilesRow } from './grid-types';

/** Files and undated items have no shape of their own: show them square. */
export function itemAspect(item: Item): number {
  if (item.width && item.height && item.width > 0 && item.height > 0) return item.width / item.height;
  return 1;
}

/** A typical photo is 3:2 or 4:3; an unloaded month is laid out as if every item were this. */
const ESTIMATED_ASPECT = 1.4;

/**
 * What the grid keeps of each month between layouts, at one geometry: its header and its placeholder row (made
 * once, not at every layout) and the height its rows had when it was last laid out whole.
 *
 * [Note: A layout reuses every month's rows]
 * The rows are laid out again whenever a month's rows change, and a deferred render that a scroll interrupts
 * lays them out again from the start: about two layouts per frame while scrolling a large album. Each made a
 * header, a placeholder and a key string for every month of the album (216 months, 75 MB over one scroll of
 * 100,000 items), garbage that the collections in the middle of the scroll had to clear. Now a layout makes
 * only the array of rows; every row in it was made once.
 */
export class MonthRows {
  private geoKey = '';
  private months = new Map<string, { count: number; sectionIndex: number; header: GridRow; placeholder: GridRow; rest?: GridRow; laidHeight?: number }>();

  private geo: GridGeometry | null = null;

  /**
   * The rows small months shared at the last layout, by their months: made again only when one of their months'
   * rows changed. Only the last layout's are kept, so that a month's items go when its rows do.
   */
  private shared = new Map<string, { parts: SmallMonth[]; row: GridRow }>();
  private sharedBefore = new Map<string, { parts: SmallMonth[]; row: GridRow }>();

  /** Lays out at this geometry: one that differs from the last forgets every month's rows. */
  at(geo: GridGeometry): this {
    if (geo === this.geo) return this;
    this.geo = geo;
    const geoKey = geometryKey(geo);
    if (geoKey !== this.geoKey) {
      this.geoKey = geoKey;
      this.months.clear();
      this.shared.clear();
    }
    return this;
  }

  /** Starts a layout: the shared rows of the last one can be taken again, and only those used are kept. */
  beginLayout(): void {
    this.sharedBefore = this.shared;
    this.shared = new Map();
  }

  /** The row these small months share: the last layout's when every month's row and place is the same. */
  sharedRow(months: SmallMonth[], geo: GridGeometry): GridRow {
    const key = months.map((m) => m.section.month).join(',');
    const hit = this.sharedBefore.get(key);
    const same = hit?.parts.every((p, i) => {
      const m = months[i]!;
      return p.row === m.row && p.section.count === m.section.count && p.sectionIndex === m.sectionIndex;
    });
    const entry = hit && same ? hit : { parts: months, row: sharedRow(months, geo, key) };
    this.shared.set(key, entry);
    return entry.row;
  }

  /** The month's remembered rows at the geometry of the last `at`. */
  entry(section: GridSection, sectionIndex: number, geo: GridGeometry) {
    let e = this.months.get(section.month);
    if (!e || e.count !== section.count || e.sectionIndex !== sectionIndex) {
      // A month that was laid out whole keeps that height while its count stands: nothing on screen moves when
      // it is unloaded again.
      const laidHeight = e?.count === section.count ? e.laidHeight : undefined;
      e = {
        count: section.count,
        sectionIndex,
        header: { kind: 'header', key: `h:${section.month}`, month: section.month, count: section.count, height: geo.headerHeight },
        placeholder: placeholderRow(section, sectionIndex, geo),
        ...(laidHeight === undefined ? {} : { laidHeight }),
      };
      this.months.set(section.month, e);
    }
    return e;
  }
}

/** Where each tile of a row starts, px from its left edge. */
export function tileLefts(row: TilesRow, gap: number): number[] {
  if (row.shared) return row.shared.lefts;
  const lefts: number[] = [];
  let x = 0;
  for (const w of row.widths) {
    lefts.push(x);
    x += w + gap;
  }
  return lefts;
}

/**
 * [Note: Small months share a row]
 * A month of one or a few photos used to take a heading and a row of its own, most of it empty: an album of
 * scattered single photos was mostly blank space. Loaded months whose photos fit in one row short of the width
 * now share a row, side by side, each with its own label above its first photo and a wider gap between them,
 * as far as the width allows. A month still loading, or one not loaded, keeps its heading and placeholder until
 * its photos are in (the grid keeps what is on screen in place when it then shrinks into a shared row).
 */

/** A month in a shared row is at least this wide, so that its label can be read. */
const MIN_SHARED_WIDTH = 128;

interface SmallMonth {
  section: GridSection;
  sectionIndex: number;
  /** Its photos in one row, unlabelled: what it brings to a row it shares. */
  row: TilesRow;
  width: number;
  /** Its rows when it has a heading of its own: the same photos, with their days' labels when there are days. */
  rows: readonly GridRow[];
}

/** The month's one row when it is small enough to share one: loaded whole, in one row that leaves room. */
function smallMonth(section: GridSection, sectionIndex: number, laid: MonthLayout, geo: GridGeometry): SmallMonth | null {
  if (!section.items || section.partial || !laid.single) return null;
  const width = rowWidth(laid.single.widths, geo.gap);
  return width < geo.width ? { section, sectionIndex, row: laid.single, width, rows: laid.rows } : null;
}

/** The row `months` share; `key` is their months joined with commas. */
function sharedRow(months: readonly SmallMonth[], geo: GridGeometry, key: string): GridRow {
  const parts = months.map((m) => ({
    label: { month: m.section.month, count: m.section.count },
    items: m.row.items,
    widths: m.row.widths,
    rowHeight: m.row.height,
    width: m.width,
  }));
  return labelledRow(parts, geo, geo.headerHeight, MIN_SHARED_WIDTH, `s:${key}`, months[0]!.section.month, months[0]!.sectionIndex);
}

/**
 * The album as a flat list of rows for the grid's window (use-grid-window.ts): a header per month, then either real justified rows
 * (loaded months) or one placeholder block of about the right height (months not loaded yet), so the scrollbar
 * is right from the start and the row count stays small however large the album. A month's rows are laid out
 * once per width and reused until its items change ([Note: A layout reuses every month's rows]).
 */
export function buildGridRows(sections: readonly GridSection[], geo: GridGeometry, memory: MonthRows = new MonthRows()): GridRow[] {
  const rows: GridRow[] = [];
  if (geo.width <= 0) return rows;
  memory.at(geo);
  memory.beginLayout();
  // Small months wait to share a row; one left alone keeps its heading.
  const smallMonths = new RowPacker<SmallMonth>(geo, MIN_SHARED_WIDTH, (months) => {
    if (months.length > 1) {
      rows.push(memory.sharedRow(months, geo));
      return;
    }
    const only = months[0]!;
    const e = memory.entry(only.section, only.sectionIndex, geo);
    e.laidHeight = only.rows.reduce((h, r) => h + r.height, 0);
    rows.push(e.header, ...only.rows);
  });
  sections.forEach((section, sectionIndex) => {
    const laid = section.items ? monthLayout(section.items, section.month, sectionIndex, geo) : null;
    const small = laid ? smallMonth(section, sectionIndex, laid, geo) : null;
    if (small) {
      smallMonths.add(small, small.width);
      return;
    }
    smallMonths.flush();
    const m = memory.entry(section, sectionIndex, geo);
    rows.push(m.header);
    if (section.items && laid) {
      for (const r of laid.rows) rows.push(r);
      const rest = section.count - section.items.length;
      if (section.partial && rest > 0) {
        // The items still coming keep their place, so the months below do not jump up and back down.
        if (m.rest?.kind !== 'placeholder' || m.rest.count !== rest) m.rest = { ...placeholderRow({ ...section, count: rest }, sectionIndex, geo), key: `p:${section.month}:rest` };
        rows.push(m.rest);
      } else {
        // Only the height is kept, never the rows: they hold the month's items, which go when the month does.
        m.laidHeight = laid.rows.reduce((h, r) => h + r.height, 0);
      }
    } else {
      if (m.laidHeight !== undefined && m.placeholder.height !== m.laidHeight) m.placeholder = { ...m.placeholder, height: m.laidHeight };
      rows.push(m.placeholder);
    }
  });
  smallMonths.flush();
  return rows;
}

function geometryKey(geo: GridGeometry): string {
  return `${geo.width}:${geo.targetHeight}:${geo.gap}:${geo.headerHeight}:${geo.days ? `${geo.days.sort}:${geo.days.height}` : ''}`;
}

/** A loaded month laid out: its rows, and its photos in one unlabelled row when they fit in one. */
interface MonthLayout {
  rows: GridRow[];
  single: TilesRow | null;
}

const layoutCache = new WeakMap<Item[], { geoKey: string; sectionIndex: number; layout: MonthLayout }>();

function monthLayout(items: Item[], month: string, sectionIndex: number, geo: GridGeometry): MonthLayout {
  const geoKey = geometryKey(geo);
  const hit = layoutCache.get(items);
  if (hit && hit.geoKey === geoKey && hit.sectionIndex === sectionIndex) return hit.layout;
  const aspects = items.map(itemAspect);
  const plain = justifiedRows(aspects, { width: geo.width, targetHeight: geo.targetHeight, gap: geo.gap });
  const at = { month, sectionIndex, gap: geo.gap };
  const single = plain.length === 1 && rowWidth(plain[0]!.widths, geo.gap) < geo.width ? tilesRow(items, plain[0]!, 0, 0, at) : null;
  const rows = geo.days && month !== 'unknown' ? dayRows(items, aspects, at, geo, geo.days) : plain.map((r, i) => tilesRow(items, r, 0, i, at));
  const layout = { rows, single };
  layoutCache.set(items, { geoKey, sectionIndex, layout });
  return layout;
}

function placeholderRow(section: GridSection, sectionIndex: number, geo: GridGeometry): GridRow {
  const perRow = Math.max(1, Math.round((geo.width + geo.gap) / (geo.targetHeight * 0.85 * ESTIMATED_ASPECT + geo.gap)));
  const tileWidth = (geo.width - geo.gap * (perRow - 1)) / perRow;
  const tileHeight = Math.round(tileWidth / ESTIMATED_ASPECT);
  const rowCount = Math.ceil(section.count / perRow);
  return {
    kind: 'placeholder',
    key: `p:${section.month}`,
    month: section.month,
    sectionIndex,
    count: section.count,
    perRow,
    tileWidth,
    tileHeight,
    height: rowCount * (tileHeight + geo.gap),
  };
}

/** The items of loaded sections, in display order (what the viewer steps through and selection ranges span). */
export function orderedItems(sections: readonly GridSection[]): Item[] {
  const out: Item[] = [];
  for (const s of sections) if (s.items) out.push(...s.items);
  return out;
}

/** Where each loaded item sits, for keyboard moves between rows. */
export interface Spot {
  row: number;
  col: number;
  center: number;
}

/**
 * The loaded items in order, their ids and their places in the rows — built only when first asked for
 * (selection and keyboard moves), not on every layout: a scroll that loads a month should not walk every
 * loaded item again.
 */
export interface GridIndex {
  readonly items: Item[];
  readonly order: string[];
  readonly spots: Map<string, Spot>;
}

export function lazyGridIndex(sections: readonly GridSection[], rows: readonly GridRow[], gap: number): GridIndex {
  let items: Item[] | undefined;
  let order: string[] | undefined;
  let spots: Map<string, Spot> | undefined;
  return {
    get items() {
      return (items ??= orderedItems(sections));
    },
    get order() {
      return (order ??= this.items.map((i) => i.id));
    },
    get spots() {
      if (!spots) {
        const m = new Map<string, Spot>();
        rows.forEach((r, rowIndex) => {
          if (r.kind !== 'tiles') return;
          const lefts = tileLefts(r, gap);
          r.items.forEach((it, col) => {
            m.set(it.id, { row: rowIndex, col, center: (lefts[col] ?? 0) + (r.widths[col] ?? 0) / 2 });
          });
        });
        spots = m;
      }
      return spots;
    },
  };
}

/**
 * The months to load: those with a row on screen or within one screen above or below it, measured in pixels.
 * Counting rows instead would be wrong: a month not loaded yet is one placeholder row as tall as all its items
 * (tens of thousands of pixels in a big album), so a few rows either side can reach months far off screen, and
 * all of them would load before the first month shows.
 */
export function monthsNear(rows: readonly GridRow[], starts: Float64Array, offset: number, screen: number): Set<string> {
  const months = new Set<string>();
  const from = offset - screen;
  const to = offset + 2 * screen;
  const n = Math.min(rows.length, starts.length - 1);
  // Starts are in order: find the first row that ends below `from`, then walk until one starts past `to`.
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (starts[mid + 1]! <= from) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < n && starts[i]! < to; i++) {
    const row = rows[i]!;
    if (row.kind === 'tiles' && row.shared) for (const l of row.shared.labels) months.add(l.month);
    else months.add(row.month);
  }
  return months;
}
