/**
 * The shapes the album grid lays out: month sections in, rows out (grid-model.ts, labelled-rows.ts), drawn by
 * album-grid.tsx.
 */
import type { Item } from '../../domain/entities';
import type { ItemSort } from '../../domain/queries';

/** One month of an album: its count is known first; its items arrive when it nears the viewport. */
export interface GridSection {
  month: string;
  count: number;
  items: Item[] | null;
  /** Its first pages only, the rest still coming ([Note: A month shows from its first page]). */
  partial?: boolean;
}

/**
 * A label within a row, above the first of its tiles: a month's, when several small months share the row
 * ([Note: Small months share a row]), or a day's, above the first row of each day of a month ([Note: Days flow
 * together]).
 */
export interface InlineMonth {
  month: string;
  /** The day (days since 1970-01-01, UTC) of a day's label; absent for a month's. */
  day?: number;
  count: number;
  left: number;
  width: number;
}

export type GridRow =
  | { kind: 'header'; key: string; month: string; count: number; height: number }
  | {
      kind: 'tiles';
      key: string;
      month: string;
      sectionIndex: number;
      items: Item[];
      widths: number[];
      height: number;
      /**
       * Several small months side by side ([Note: Small months share a row]): each one's label, and where each
       * tile starts (a wider gap between months). Absent for a row of one month.
       */
      shared?: { labels: InlineMonth[]; lefts: number[]; headerHeight: number };
    }
  /** A whole month not loaded yet: one row of about the height its items will take, drawn as empty tiles. */
  | { kind: 'placeholder'; key: string; month: string; sectionIndex: number; count: number; perRow: number; tileWidth: number; tileHeight: number; height: number };

export type TilesRow = Extract<GridRow, { kind: 'tiles' }>;

export interface GridGeometry {
  width: number;
  targetHeight: number;
  gap: number;
  headerHeight: number;
  /**
   * Days within months, each labelled, small ones sharing rows ([Note: Days flow together]): by the order's time
   * (`sort`), with labels `height` px high. Absent: months only.
   */
  days?: { sort: ItemSort; height: number };
}
