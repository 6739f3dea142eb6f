import type { Item } from '../../backend/ports';
import { justifiedRows } from './justified-layout';

/** One month of an album: its count is known first; its items arrive when it nears the viewport. */
export interface GridSection {
  month: string;
  count: number;
  items: Item[] | null;
}

export type GridRow =
  | { kind: 'header'; key: string; month: string; count: number; height: number }
  | { kind: 'tiles'; key: string; month: string; sectionIndex: number; items: Item[]; widths: number[]; height: number }
  | { kind: 'placeholder'; key: string; month: string; sectionIndex: number; widths: number[]; height: number };

export interface GridGeometry {
  width: number;
  targetHeight: number;
  gap: number;
  headerHeight: number;
}

/** Files and undated items have no shape of their own: show them square. */
export function itemAspect(item: Item): number {
  if (item.width && item.height && item.width > 0 && item.height > 0) return item.width / item.height;
  return 1;
}

/** A typical photo is 3:2 or 4:3; an unloaded month is laid out as if every item were this. */
const ESTIMATED_ASPECT = 1.4;

/**
 * The album as a flat list of rows for the virtualizer: a header per month, then either real justified rows
 * (loaded months) or placeholder rows of about the right height (months not loaded yet), so the scrollbar is
 * right from the start and a month's rows replace its placeholders without a jump far away.
 */
export function buildGridRows(sections: readonly GridSection[], geo: GridGeometry): GridRow[] {
  const rows: GridRow[] = [];
  if (geo.width <= 0) return rows;
  sections.forEach((section, sectionIndex) => {
    rows.push({ kind: 'header', key: `h:${section.month}`, month: section.month, count: section.count, height: geo.headerHeight });
    if (section.items) {
      const items = section.items;
      const layout = justifiedRows(items.map(itemAspect), { width: geo.width, targetHeight: geo.targetHeight, gap: geo.gap });
      layout.forEach((r, i) => {
        rows.push({
          kind: 'tiles',
          key: `t:${section.month}:${i}`,
          month: section.month,
          sectionIndex,
          items: items.slice(r.start, r.start + r.count),
          widths: r.widths,
          height: r.height + geo.gap,
        });
      });
    } else {
      const perRow = Math.max(1, Math.round((geo.width + geo.gap) / (geo.targetHeight * 0.85 * ESTIMATED_ASPECT + geo.gap)));
      const rowCount = Math.ceil(section.count / perRow);
      const tileWidth = (geo.width - geo.gap * (perRow - 1)) / perRow;
      const height = Math.round(tileWidth / ESTIMATED_ASPECT);
      for (let i = 0; i < rowCount; i++) {
        const n = i === rowCount - 1 ? section.count - perRow * i : perRow;
        rows.push({
          kind: 'placeholder',
          key: `p:${section.month}:${i}`,
          month: section.month,
          sectionIndex,
          widths: Array.from({ length: n }, () => tileWidth),
          height: height + geo.gap,
        });
      }
    }
  });
  return rows;
}

/** The items of loaded sections, in display order (what the viewer steps through and selection ranges span). */
export function orderedItems(sections: readonly GridSection[]): Item[] {
  const out: Item[] = [];
  for (const s of sections) if (s.items) out.push(...s.items);
  return out;
}
