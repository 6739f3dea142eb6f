/**
 * A month's days in the grid, in real Chromium ([Note: Days flow together]): each day labelled above its first
 * photo, days of a photo or two side by side in one row, a larger day in rows of its own.
 */
import { useState } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import type { Item } from '../../domain/entities';
import { UrlBatcher } from '../../shared/files/url-batcher';
import { UrlBatcherContext } from '../../shared/files/use-url';
import { AlbumGrid } from './album-grid';
import type { GridSection } from './grid-model';
import { emptySelection, type Selection } from './selection';
import '../../ui/styles.css';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
beforeAll(() => page.viewport(1280, 800));
afterEach(() => flushSync(() => root.render(null)));

/** `n` landscape photos taken on `date` (YYYY-MM-DD), the first at 20:00 UTC and an hour apart. */
const takenOn = (date: string, n: number, added = `${date}T23:00:00Z`): Item[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `${date}:${i}`, albumId: 'a', uploaderId: 'u', kind: 'image', status: 'ready', filename: `${date}-${i}.jpg`, mime: 'image/jpeg', bytes: 1,
    sha256: null, width: 4000, height: 3000, durationMs: null, takenAt: `${date}T${String(20 - i).padStart(2, '0')}:00:00Z`, originalKey: 'k', previewKey: null,
    thumbKey: null, thumbhash: null, metadata: {}, createdAt: added, deletedAt: null,
  }));

/** The ids selected in the grid last rendered. */
let selected: ReadonlySet<string> = new Set();

function Grid({ sections, sort }: { sections: GridSection[]; sort?: 'taken' | 'added' }) {
  const [batcher] = useState(() => new UrlBatcher({ urls: () => Promise.resolve(new Map()) }));
  const [selection, setSelection] = useState<Selection>(emptySelection);
  selected = selection.ids;
  return (
    <UrlBatcherContext.Provider value={batcher}>
      <div style={{ height: 800, display: 'flex', flexDirection: 'column' }}>
        <AlbumGrid sections={sections} selection={selection} onSelectionChange={setSelection} onOpen={() => {}} onWantedMonths={() => {}} onDeleteKey={() => {}} label="Holiday" {...(sort ? { sort } : {})} />
      </div>
    </UrlBatcherContext.Provider>
  );
}

const dayName = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleDateString(undefined, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

test("a month's days are labelled above their first photos, and days of a photo or two share a row", async () => {
  const items = [...takenOn('2024-05-20', 1), ...takenOn('2024-05-18', 2), ...takenOn('2024-05-11', 14), ...takenOn('2024-05-02', 1)];
  flushSync(() => root.render(<Grid sections={[{ month: '2024-05', count: items.length, items }]} />));
  const grid = page.getByRole('grid', { name: 'Holiday' });
  const rows = grid.getByRole('row');
  await expect.element(rows.first()).toHaveTextContent(/^May 2024 · 18$/);
  // The 20th and the 18th in one row, each label over its own first photo.
  const shared = rows.nth(1);
  expect(shared.getByRole('columnheader').elements().map((h) => h.textContent)).toEqual([dayName('2024-05-20'), dayName('2024-05-18')]);
  expect(shared.getByRole('gridcell').elements()).toHaveLength(3);
  for (const [label, photo] of [[0, 0], [1, 1]] as const) {
    const l = shared.getByRole('columnheader').elements()[label]!.getBoundingClientRect();
    const p = shared.getByRole('gridcell').elements()[photo]!.getBoundingClientRect();
    expect(Math.abs(l.left - p.left)).toBeLessThan(1);
    expect(l.bottom).toBeLessThanOrEqual(p.top + 1);
  }
  // The 11th's fourteen photos start a row under their label, and fill the width; the 2nd comes after them.
  const big = rows.nth(2);
  expect(big.getByRole('columnheader').elements().map((h) => h.textContent)).toEqual([dayName('2024-05-11')]);
  const cells = grid.getByRole('gridcell').elements();
  const last = cells[cells.length - 1]!;
  expect(last.closest('[role="row"]')?.querySelector('[role="columnheader"]')?.textContent).toBe(dayName('2024-05-02'));
  const labels = grid.getByRole('columnheader').elements().map((h) => h.textContent);
  expect(labels).toEqual(['May 2024 · 18', ...['2024-05-20', '2024-05-18', '2024-05-11', '2024-05-02'].map(dayName)]);
});

test('in the order photos were added, the days are the days they were added', async () => {
  const items = [...takenOn('2019-07-04', 6, '2024-06-03T10:00:00Z'), ...takenOn('2021-01-01', 6, '2024-06-01T10:00:00Z')];
  flushSync(() => root.render(<Grid sections={[{ month: '2024-06', count: 12, items }]} sort="added" />));
  const labels = page.getByRole('grid', { name: 'Holiday' }).getByRole('columnheader');
  await expect.element(labels.first()).toBeVisible();
  expect(labels.elements().map((h) => h.textContent)).toEqual(['June 2024 · 12', dayName('2024-06-03'), dayName('2024-06-01')]);
});

test("a day's check selects every photo of that day, in all its rows, and a second click none of them", async () => {
  const items = [...takenOn('2024-05-20', 1), ...takenOn('2024-05-11', 14), ...takenOn('2024-05-02', 1)];
  flushSync(() => root.render(<Grid sections={[{ month: '2024-05', count: items.length, items }]} />));
  const check = page.getByRole('button', { name: `Select all of ${dayName('2024-05-11')}` });
  await userEvent.hover(page.getByRole('columnheader', { name: dayName('2024-05-11') }));
  await userEvent.click(check);
  await expect.element(check).toHaveAttribute('aria-pressed', 'true');
  expect([...selected].sort()).toEqual(items.filter((i) => i.takenAt!.startsWith('2024-05-11')).map((i) => i.id).sort());
  // Every one of the fourteen shows as selected, on the rows below the label too.
  expect(page.getByRole('gridcell', { selected: true }).elements()).toHaveLength(14);
  await userEvent.click(check);
  await expect.element(check).toHaveAttribute('aria-pressed', 'false');
  expect(selected.size).toBe(0);
});
