import { memo, useCallback, useDeferredValue, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { Item } from '../../domain/entities';
import type { TileSocial } from '../../shared/social-keys';
import { formatDay, formatMonth, formatNumber } from '../../lib/format';
import type { ItemSort } from '../../domain/queries';
import { dayOf } from '../../shared/live/item-order';
import { buildGridRows, lazyGridIndex, MonthRows, monthsNear, tileLefts, type GridRow, type GridSection } from './grid-model';
import { DateScrubber } from './date-scrubber';
import { anchorAt, anchoredOffset, type GridAnchor } from './grid-anchor';
import { monthSpans, type MonthSpan } from './scrubber-model';
import { ItemTile } from './item-tile';
import { Icon } from '../../ui/icon';
import { rowAt } from './scroll-space';
import { useGridWindow, useScrollerSize } from './use-grid-window';
import { allSelected, selectAll, selectRange, toggle, toggleAll, type Selection } from './selection';

const GAP = 4;
const HEADER = 44;
/** A day's label above its first photos ([Note: Days flow together]). */
const DAY_LABEL = 30;
/** The date scrubber shows beside a grid at least this many screens high. */
const SCRUB_SCREENS = 3;

export const AlbumGrid = memo(function AlbumGrid({ sections: latestSections, social: latestSocial, selection, onSelectionChange, onOpen, onWantedMonths, onDeleteKey, label, sort = 'taken' }: {
  sections: GridSection[];
  /** The order the sections are in: a day's label is the day of the time it orders by. */
  sort?: ItemSort;
  /** Each loaded tile's comment and heart counts, by item id (none in a shared album). */
  social?: TileSocial | undefined;
  selection: Selection;
  onSelectionChange: (s: Selection) => void;
  onOpen: (item: Item) => void;
  onWantedMonths: (months: ReadonlySet<string>) => void;
  onDeleteKey: () => void;
  label: string;
}) {
  /*
   * [Note: Months laid out in an interruptible render]
   * A month's rows arrive in a query notification, and an update from a store is rendered at once, in one task:
   * laying the new rows out, rendering their tiles and a major garbage collection that falls in the middle held
   * the thread past 50 ms now and then while scrolling. Deferred, the new rows are rendered in slices that yield
   * to the browser between them; the rows on screen meanwhile are the ones already laid out.
   */
  const sections = useDeferredValue(latestSections);
  const social = useDeferredValue(latestSocial);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const { width, height: screen } = useScrollerSize(scrollerRef);
  const [focusedId, setFocusedId] = useState<string | null>(null);
  const focusPending = useRef(false);

  const geo = useMemo(
    () => ({ width: Math.max(0, width), targetHeight: width < 600 ? 120 : 200, gap: GAP, headerHeight: HEADER, days: { sort, height: DAY_LABEL } }),
    [width, sort],
  );
  const [monthRows] = useState(() => new MonthRows());
  const rows = useMemo(() => buildGridRows(sections, geo, monthRows), [sections, geo, monthRows]);
  const nav = useMemo(() => lazyGridIndex(sections, rows, GAP), [sections, rows]);

  // [Note: The grid's own windowing] in use-grid-window.ts.
  const win = useGridWindow(rows, scrollerRef, screen);
  const { items: virtualRows, starts, offset, total, scrollTo: scrollGridTo } = win;

  // Load the months on screen and one screen either side; months far away stay as counts.
  const wantedKey = useMemo(() => {
    const months = screen > 0 ? monthsNear(rows, starts, offset, screen) : new Set<string>();
    if (months.size === 0 && sections[0]) months.add(sections[0].month);
    return [...months].sort().join('\n');
  }, [rows, starts, offset, screen, sections]);
  useEffect(() => onWantedMonths(new Set(wantedKey ? wantedKey.split('\n') : [])), [wantedKey, onWantedMonths]);

  // The months' places for the scrubber: recomputed with the layout, not on every scroll frame.
  const spans = useMemo(() => monthSpans(rows, (i) => starts[i]), [rows, starts]);
  const scrubbed = screen > 0 && total > screen * SCRUB_SCREENS && spans.length > 0;

  // [Note: What is on screen stays put] in grid-anchor.ts: what is at the top is noted at every render, and found
  // again when the rows change.
  const anchor = useRef<GridAnchor | null>(null);
  const laidSpans = useRef(spans);
  const laidTotal = useRef(total);
  laidTotal.current = total;
  // A jump notes where it goes at once: rows changing before the scroll lands keep that place, not the one left.
  const onJump = useCallback(
    (to: GridAnchor) => {
      const at = anchoredOffset(to, laidSpans.current, laidTotal.current);
      if (at === null) return;
      anchor.current = to;
      scrollGridTo(at);
    },
    [scrollGridTo],
  );
  const topRow = virtualRows.find((v) => v.end > offset);
  const topTiles = topRow ? rows[topRow.index] : undefined;
  const top = topRow && topTiles?.kind === 'tiles' && topTiles.items[0] ? { itemId: topTiles.items[0].id, start: topRow.start } : null;
  useLayoutEffect(() => {
    const before = anchor.current;
    const relaid = laidSpans.current !== spans;
    laidSpans.current = spans;
    if (relaid && before && offset > 0) {
      const to = anchoredOffset(before, spans, total, (id) => rowOfItem(rows, starts, spans, before.month, id));
      if (to !== null && Math.abs(to - offset) >= 1) {
        // The anchor stays as it was until the scroll lands: rows changing again meanwhile are corrected from it.
        scrollGridTo(to);
        return;
      }
    }
    anchor.current = anchorAt(spans, total, offset, top);
  });

  const move = (id: string, to: string | undefined, extend: boolean) => {
    if (!to) return;
    focusPending.current = true;
    setFocusedId(to);
    const spot = nav.spots.get(to);
    if (spot) {
      // Where the keys lead is noted when the scroll lands.
      anchor.current = null;
      win.showRow(spot.row);
    }
    if (extend) onSelectionChange(selectRange(selection.anchor ? selection : toggle(selection, id), nav.order, to));
  };

  useEffect(() => {
    if (!focusPending.current || !focusedId) return;
    const el = scrollerRef.current?.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(focusedId)}"]`);
    if (el) {
      el.focus({ preventScroll: true });
      focusPending.current = false;
    }
  });

  const nearestInRow = (rowIndex: number, step: 1 | -1, center: number): string | undefined => {
    for (let r = rowIndex + step; r >= 0 && r < rows.length; r += step) {
      const row = rows[r];
      if (row?.kind !== 'tiles') {
        if (row?.kind === 'placeholder') return undefined;
        continue;
      }
      let best: string | undefined;
      let bestD = Infinity;
      const lefts = tileLefts(row, GAP);
      row.items.forEach((it, col) => {
        const d = Math.abs((lefts[col] ?? 0) + (row.widths[col] ?? 0) / 2 - center);
        if (d < bestD) {
          bestD = d;
          best = it.id;
        }
      });
      return best;
    }
    return undefined;
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const { order, items: ordered, spots } = nav;
    const id = focusedId ?? order[0];
    if (!id) return;
    const idx = order.indexOf(id);
    const spot = spots.get(id);
    const mod = e.metaKey || e.ctrlKey;
    switch (e.key) {
      case 'ArrowRight':
        move(id, order[idx + 1], e.shiftKey);
        break;
      case 'ArrowLeft':
        move(id, order[idx - 1], e.shiftKey);
        break;
      case 'ArrowDown':
        if (spot) move(id, nearestInRow(spot.row, 1, spot.center), e.shiftKey);
        break;
      case 'ArrowUp':
        if (spot) move(id, nearestInRow(spot.row, -1, spot.center), e.shiftKey);
        break;
      case 'Home':
        move(id, order[0], e.shiftKey);
        break;
      case 'End':
        move(id, order[order.length - 1], e.shiftKey);
        break;
      case ' ':
        onSelectionChange(toggle(selection, id));
        break;
      case 'Enter': {
        const item = ordered[idx];
        if (item) onOpen(item);
        break;
      }
      case 'a':
        if (!mod) return;
        onSelectionChange(selectAll(order));
        break;
      case 'Escape':
        if (selection.ids.size === 0) return;
        onSelectionChange({ ids: new Set(), anchor: null });
        break;
      case 'Delete':
      case 'Backspace':
        if (selection.ids.size === 0) return;
        onDeleteKey();
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const selecting = selection.ids.size > 0;
  // Tiles get callbacks that never change, so scrolling re-renders only the rows that move in.
  const latest = useRef({ selection, nav, selecting, onSelectionChange, onOpen });
  useLayoutEffect(() => {
    latest.current = { selection, nav, selecting, onSelectionChange, onOpen };
  });
  const onTileClick = useCallback((item: Item, e: MouseEvent) => {
    const l = latest.current;
    setFocusedId(item.id);
    if (e.shiftKey) l.onSelectionChange(selectRange(l.selection, l.nav.order, item.id));
    else if (e.metaKey || e.ctrlKey || l.selecting) l.onSelectionChange(toggle(l.selection, item.id));
    else l.onOpen(item);
  }, []);
  const onCheck = useCallback((item: Item) => latest.current.onSelectionChange(toggle(latest.current.selection, item.id)), []);
  // A day's photos, by its label's month and day: found once per layout, when a label is drawn or clicked.
  const dayItems = useMemo(() => {
    const found = new Map<string, string[]>();
    return (month: string, day: number): string[] => {
      const key = `${month}:${day}`;
      let ids = found.get(key);
      if (!ids) {
        const items = sections.find((s) => s.month === month)?.items ?? [];
        ids = items.filter((item) => dayOf(item, sort) === day).map((item) => item.id);
        found.set(key, ids);
      }
      return ids;
    };
  }, [sections, sort]);
  const dayItemsRef = useRef(dayItems);
  useLayoutEffect(() => {
    dayItemsRef.current = dayItems;
  });
  const onDayCheck = useCallback((month: string, day: number) => {
    latest.current.onSelectionChange(toggleAll(latest.current.selection, dayItemsRef.current(month, day)));
  }, []);
  // One tile is in the tab order: the focused one, else the first loaded one.
  const tabStop = focusedId && nav.spots.has(focusedId) ? focusedId : firstItemId(rows);

  return (
    <div className="grid-frame">
      <div ref={scrollerRef} className={`grid-scroller${scrubbed ? ' grid-scroller--scrubbed' : ''}`} data-testid="grid-scroller">
        <div
          className={`grid-canvas${selecting ? ' grid--selecting' : ''}`}
          role="grid"
          aria-label={label}
          aria-multiselectable="true"
          aria-rowcount={rows.length}
          style={{ height: win.canvas }}
          onKeyDown={onKeyDown}
          // Whatever put focus on a tile (Tab, a click, the viewer closing), the arrow keys carry on from there.
          onFocus={(e) => {
            const id = (e.target as HTMLElement).dataset.itemId;
            if (id && id !== focusedId) setFocusedId(id);
          }}
        >
          {virtualRows.map((v) => {
            const row = rows[v.index];
            if (!row) return null;
            return (
              <Row
                key={v.key}
                row={row}
                top={v.start - win.base}
                rowIndex={v.index}
                social={social}
                selection={selection}
                tabStop={tabStop}
                onTileClick={onTileClick}
                onCheck={onCheck}
                dayItems={dayItems}
                onDayCheck={onDayCheck}
              />
            );
          })}
        </div>
      </div>
      {scrubbed && <DateScrubber spans={spans} total={total} offset={offset} onJump={onJump} />}
    </div>
  );
});

/** Where the row holding item `id` starts, looked for among the rows of its month only. */
function rowOfItem(rows: readonly GridRow[], starts: Float64Array, spans: readonly MonthSpan[], month: string, id: string): number | undefined {
  const m = spans.findIndex((s) => s.month === month);
  if (m < 0) return undefined;
  const end = spans.slice(m + 1).find((s) => s.start > spans[m]!.start)?.start ?? Infinity;
  const first = rowAt(starts, spans[m]!.start);
  for (let r = first; r >= 0 && r < rows.length && starts[r]! < end; r++) {
    const row = rows[r]!;
    if (row.kind === 'tiles' && row.items.some((it) => it.id === id)) return starts[r];
  }
  return undefined;
}

function firstItemId(rows: readonly GridRow[]): string | undefined {
  for (const r of rows) if (r.kind === 'tiles') return r.items[0]?.id;
  return undefined;
}

const Row = memo(function Row({ row, top, rowIndex, social, selection, tabStop, onTileClick, onCheck, dayItems, onDayCheck }: {
  row: GridRow;
  top: number;
  rowIndex: number;
  social: TileSocial | undefined;
  selection: Selection;
  tabStop: string | undefined;
  onTileClick: (item: Item, e: MouseEvent) => void;
  onCheck: (item: Item) => void;
  /** The photos of a day, by its label's month and day, and selecting or unselecting them all. */
  dayItems: (month: string, day: number) => string[];
  onDayCheck: (month: string, day: number) => void;
}) {
  if (row.kind === 'header') {
    return (
      <div className="grid-month" role="row" aria-rowindex={rowIndex + 1} style={{ top, height: row.height }}>
        <div role="columnheader">
          {formatMonth(row.month)} <span className="muted">· {formatNumber(row.count)}</span>
        </div>
      </div>
    );
  }
  if (row.kind === 'placeholder') {
    // One element for a whole unloaded month: empty tiles drawn by the background, not thousands of nodes.
    const gradient = `linear-gradient(to right, var(--surface-2) ${row.tileWidth}px, transparent ${row.tileWidth}px), linear-gradient(to bottom, transparent ${row.tileHeight}px, var(--bg) ${row.tileHeight}px)`;
    return (
      <div className="grid-row" role="row" aria-rowindex={rowIndex + 1} style={{ top, height: row.height }}>
        <div
          role="gridcell"
          aria-busy="true"
          aria-label={`Loading ${formatNumber(row.count)} items`}
          className="grid-placeholder"
          style={{ backgroundImage: gradient, backgroundSize: `${row.tileWidth + GAP}px ${row.tileHeight + GAP}px` }}
        />
      </div>
    );
  }
  const lefts = tileLefts(row, GAP);
  const shared = row.shared;
  return (
    <div className="grid-row" role="row" aria-rowindex={rowIndex + 1} style={{ top, height: row.height - GAP }}>
      {shared?.labels.map((l) =>
        l.day === undefined ? (
          <div key={l.month} className="grid-month grid-month--inline" role="columnheader" style={{ left: l.left, width: l.width, height: shared.headerHeight }}>
            {formatMonth(l.month)} <span className="muted">· {formatNumber(l.count)}</span>
          </div>
        ) : (
          <div key={l.day} className="grid-day" role="columnheader" style={{ left: l.left, width: l.width, height: shared.headerHeight }}>
            <span className="grid-day__name">{formatDay(l.day)}</span>
            <DayCheck month={l.month} day={l.day} selected={allSelected(selection, dayItems(l.month, l.day))} onCheck={onDayCheck} />
          </div>
        ),
      )}
      {row.items.map((item, i) => (
        <ItemTile
          key={item.id}
          item={item}
          left={lefts[i] ?? 0}
          width={row.widths[i] ?? 0}
          {...(shared ? { top: shared.headerHeight, height: row.height - GAP - shared.headerHeight } : {})}
          social={social?.[item.id]}
          selected={selection.ids.has(item.id)}
          tabbable={tabStop === item.id}
          onClick={onTileClick}
          onCheck={onCheck}
        />
      ))}
    </div>
  );
});

/**
 * The round check after a day's label, as Google Photos has: selects every photo of the day, or, when all are,
 * none. A button for the pointer and for assistive technology, out of the tab order like the tiles' own checks.
 */
function DayCheck({ month, day, selected, onCheck }: { month: string; day: number; selected: boolean; onCheck: (month: string, day: number) => void }) {
  return (
    <button
      type="button"
      className="grid-day__check"
      tabIndex={-1}
      aria-pressed={selected}
      aria-label={`Select all of ${formatDay(day)}`}
      onClick={() => onCheck(month, day)}
    >
      {selected && <Icon name="check" size={12} />}
    </button>
  );
}
