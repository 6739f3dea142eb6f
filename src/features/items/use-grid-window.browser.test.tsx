/**
 * The grid's window in real Chromium ([Note: A grid taller than the browser allows], [Note: The grid's own
 * windowing]): a grid far taller than an element may be scrolls pixel for pixel through every move of the window,
 * and the last month of a 1,000,000-item album is reached from the date scrubber.
 */
import { useCallback, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { Item } from '../../domain/entities';
import { formatMonth } from '../../lib/format';
import { UrlBatcher } from '../../shared/files/url-batcher';
import { UrlBatcherContext } from '../../shared/files/use-url';
import { AlbumGrid } from './album-grid';
import type { GridRow, GridSection } from './grid-model';
import { MAX_CANVAS } from './scroll-space';
import { useGridWindow, useScrollerSize } from './use-grid-window';
import '../../ui/styles.css';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
beforeAll(() => page.viewport(1280, 800));
afterEach(() => flushSync(() => root.render(null)));

const ROW = 100;
const rowsOf = (n: number): GridRow[] => Array.from({ length: n }, (_, i) => ({ kind: 'header', key: `r${i}`, month: '2024-01', count: 1, height: ROW }));

function Rows({ rows, maxCanvas, onStarts }: { rows: GridRow[]; maxCanvas: number; onStarts?: (s: Float64Array) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const win = useGridWindow(rows, ref, useScrollerSize(ref).height, maxCanvas);
  onStarts?.(win.starts);
  return (
    <div ref={ref} data-testid="rows" style={{ height: 400, overflow: 'auto', overflowAnchor: 'none', position: 'relative' }}>
      <div style={{ height: win.canvas, position: 'relative' }}>
        {win.items.map((v) => (
          <div key={v.key} data-index={v.index} style={{ position: 'absolute', top: v.start - win.base, height: ROW, left: 0, right: 0 }} />
        ))}
      </div>
    </div>
  );
}

/** How far down the rows the viewport's top is, read from the row drawn there: its index and how far into it. */
function shownOffset(el: HTMLElement): number {
  const top = el.getBoundingClientRect().top;
  for (const row of el.querySelectorAll<HTMLElement>('[data-index]')) {
    const r = row.getBoundingClientRect();
    if (r.top <= top && r.bottom > top) return Number(row.dataset.index) * ROW + (top - r.top);
  }
  throw new Error('no row drawn at the top of the viewport');
}

const scrolled = (el: HTMLElement) => new Promise<void>((resolve) => el.addEventListener('scroll', () => setTimeout(resolve, 0), { once: true }));

test('rows taller than the canvas scroll pixel for pixel, down and up, through every move of the window', async () => {
  // 1,000,000 px of rows on a canvas of 20,000: the window moves every 5,000 px or so.
  flushSync(() => root.render(<Rows rows={rowsOf(10_000)} maxCanvas={20_000} />));
  const el = document.querySelector<HTMLElement>('[data-testid="rows"]')!;
  expect(el.scrollHeight).toBe(20_000);
  let expected = 0;
  let windowMoves = 0;
  const step = async (by: number) => {
    const before = el.scrollTop;
    const done = scrolled(el);
    el.scrollTop += by;
    await done;
    if (Math.abs(el.scrollTop - (before + by)) > 1) windowMoves++;
    expected += by;
    expect(shownOffset(el)).toBeCloseTo(expected, 0);
  };
  for (let i = 0; i < 120; i++) await step(350);
  for (let i = 0; i < 60; i++) await step(-350);
  expect(windowMoves).toBeGreaterThan(6);
  expect(el.scrollHeight).toBe(20_000);
});

test('the rows are laid out once per layout, not again on every render a scroll causes', async () => {
  const laid = new Set<Float64Array>();
  const rows = rowsOf(17_000);
  flushSync(() => root.render(<Rows rows={rows} maxCanvas={MAX_CANVAS} onStarts={(s) => laid.add(s)} />));
  const el = document.querySelector<HTMLElement>('[data-testid="rows"]')!;
  for (let i = 0; i < 10; i++) {
    const done = scrolled(el);
    el.scrollTop += 500;
    await done;
  }
  expect(laid.size).toBe(1);
  flushSync(() => root.render(<Rows rows={rowsOf(17_001)} maxCanvas={MAX_CANVAS} onStarts={(s) => laid.add(s)} />));
  expect(laid.size).toBe(2);
});

/** 1,000,000 items over twenty years, every month's count known and none loaded. */
function millionSections(): GridSection[] {
  return Array.from({ length: 240 }, (_, i) => ({ month: `${2026 - Math.floor(i / 12)}-${String(12 - (i % 12)).padStart(2, '0')}`, count: i < 160 ? 4167 : 4166, items: null }));
}

/** The album's grid in a column `height` px tall, as the album screen lays it out. */
function MillionGrid({ sections, height = 800, onWantedMonths = () => {} }: { sections: GridSection[]; height?: number; onWantedMonths?: (m: ReadonlySet<string>) => void }) {
  return (
    <div style={{ height, display: 'flex', flexDirection: 'column' }}>
      <AlbumGrid sections={sections} selection={{ ids: new Set(), anchor: null }} onSelectionChange={() => {}} onOpen={() => {}} onWantedMonths={onWantedMonths} onDeleteKey={() => {}} label="A million" />
    </div>
  );
}

test('the last month of a 1,000,000-item album is reached from the date scrubber, and the first again', async () => {
  const sections = millionSections();
  expect(sections.reduce((n, s) => n + s.count, 0)).toBe(1_000_000);
  flushSync(() => root.render(<MillionGrid sections={sections} />));
  const scroller = document.querySelector<HTMLElement>('[data-testid="grid-scroller"]')!;
  const scrubber = page.getByRole('slider', { name: 'Jump to a date' });
  await expect.element(scrubber).toBeVisible();
  // Far taller than Chromium lets an element be, drawn on a canvas it does allow.
  expect(scroller.scrollHeight).toBeLessThanOrEqual(MAX_CANVAS + 100);

  const headingInView = (month: string) => {
    const view = scroller.getBoundingClientRect();
    return [...scroller.querySelectorAll<HTMLElement>('.grid-month')].some((h) => h.textContent?.startsWith(formatMonth(month)) && h.getBoundingClientRect().top >= view.top - 1 && h.getBoundingClientRect().bottom <= view.bottom);
  };
  const last = sections[sections.length - 1]!.month;
  await userEvent.click(scrubber);
  await userEvent.keyboard('{End}');
  await expect.poll(() => headingInView(last)).toBe(true);
  await expect.element(scrubber).toHaveAttribute('aria-valuetext', formatMonth(last));
  // And the grid's very end is there to scroll to: the last month's placeholder runs to the bottom.
  scroller.scrollTop = scroller.scrollHeight;
  const lastBottom = () => [...scroller.querySelectorAll('[aria-label^="Loading"]')].at(-1)?.getBoundingClientRect().bottom ?? 0;
  await expect.poll(lastBottom).toBeGreaterThan(scroller.getBoundingClientRect().bottom - 40);
  await expect.poll(lastBottom).toBeLessThanOrEqual(scroller.getBoundingClientRect().bottom);

  await userEvent.keyboard('{Home}');
  await expect.poll(() => headingInView(sections[0]!.month)).toBe(true);
  // A month in the middle, on the way.
  await userEvent.keyboard('{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}');
  await expect.poll(() => headingInView('2016-12')).toBe(true);
});

/** A month's items as the grid is given them: photos of a few shapes, without thumbnails. */
function itemsOf(month: string, count: number): Item[] {
  return Array.from({ length: count }, (_, i) => ({
    id: `${month}:${i}`, albumId: 'a', uploaderId: 'u', kind: 'image', status: 'ready', filename: `${i}.jpg`, mime: 'image/jpeg', bytes: 1,
    sha256: null, width: i % 3 ? 4000 : 3000, height: i % 3 ? 3000 : 4000, durationMs: null, takenAt: null, originalKey: 'k', previewKey: null,
    thumbKey: null, thumbhash: null, metadata: {}, createdAt: `${month}-01T00:00:00Z`, deletedAt: null,
  }));
}

/** The album screen's part in this: the months near the viewport are loaded when the grid asks for them. */
function LiveAlbum({ counts }: { counts: readonly { month: string; count: number }[] }) {
  const [wanted, setWanted] = useState<ReadonlySet<string>>(new Set());
  const [loaded] = useState(() => new Map<string, Item[]>());
  const sections: GridSection[] = counts.map(({ month, count }) => {
    if (!wanted.has(month)) return { month, count, items: null };
    let items = loaded.get(month);
    if (items?.length !== count) loaded.set(month, (items = itemsOf(month, count)));
    return { month, count, items };
  });
  const onWantedMonths = useCallback((m: ReadonlySet<string>) => setWanted(m), []);
  const [batcher] = useState(() => new UrlBatcher({ urls: () => Promise.resolve(new Map()) }));
  return (
    <UrlBatcherContext.Provider value={batcher}>
      <MillionGrid sections={sections} onWantedMonths={onWantedMonths} />
    </UrlBatcherContext.Provider>
  );
}

test('photos added to, and taken from, months far above do not move the photos in view of a 1,000,000-item album', async () => {
  let counts = millionSections().map(({ month, count }) => ({ month, count }));
  flushSync(() => root.render(<LiveAlbum counts={counts} />));
  const scroller = document.querySelector<HTMLElement>('[data-testid="grid-scroller"]')!;
  await userEvent.click(page.getByRole('slider', { name: 'Jump to a date' }));
  await userEvent.keyboard('{Home}{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}{PageDown}{ArrowDown}');
  // In the middle of the album, on the canvas's far side from its start: photos drawn there.
  const photoAtTop = () => {
    const top = scroller.getBoundingClientRect().top + 100;
    const tile = [...scroller.querySelectorAll<HTMLElement>('[data-item-id]')].find((t) => t.getBoundingClientRect().top >= top);
    return tile ? { id: tile.dataset.itemId!, y: tile.getBoundingClientRect().top } : null;
  };
  await expect.poll(() => photoAtTop()?.id.startsWith('2016-11')).toBe(true);
  await new Promise((r) => setTimeout(r, 300));
  const seen = photoAtTop()!;
  const stays = async () => {
    await new Promise((r) => setTimeout(r, 300));
    const el = scroller.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(seen.id)}"]`);
    expect(el?.getBoundingClientRect().top).toBeCloseTo(seen.y, 0);
  };

  // 20,000 photos arrive in a month two years above (its rows grow by about 700,000 px).
  counts = counts.map((c, i) => (i === 30 ? { ...c, count: c.count + 20_000 } : c));
  flushSync(() => root.render(<LiveAlbum counts={counts} />));
  await stays();
  // 3,000 go from another.
  counts = counts.map((c, i) => (i === 40 ? { ...c, count: c.count - 3_000 } : c));
  flushSync(() => root.render(<LiveAlbum counts={counts} />));
  await stays();
});

test('on a phone the photos keep the whole width, and the scrubber shows over them while the grid moves', async () => {
  await page.viewport(390, 844);
  try {
    const sections = millionSections();
    flushSync(() => root.render(<MillionGrid sections={sections} height={700} />));
    const scroller = document.querySelector<HTMLElement>('[data-testid="grid-scroller"]')!;
    const scrubber = document.querySelector<HTMLElement>('[data-testid="date-scrubber"]')!;
    expect(scroller.getBoundingClientRect().width).toBe(390);
    // At rest it takes no touches meant for the photos under it.
    expect(getComputedStyle(scrubber).pointerEvents).toBe('none');
    scroller.scrollTop += 2_000;
    await expect.poll(() => getComputedStyle(scrubber).pointerEvents).toBe('auto');
    await expect.poll(() => getComputedStyle(scrubber).opacity).toBe('1');
    // And it goes again once the grid has stood still a moment.
    await expect.poll(() => getComputedStyle(scrubber).pointerEvents, { timeout: 4_000 }).toBe('none');
  } finally {
    await page.viewport(1280, 800);
  }
});
