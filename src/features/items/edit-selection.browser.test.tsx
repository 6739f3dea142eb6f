/**
 * Editing a selection's details from the grid, on the local backend in Chromium: keywords added to every selected
 * photo (each keeps its own), the date shifted by the same amount, and the whole edit undone from its notice.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { createLocalBackend } from '../../backend/local/create-local-backend';
import { isolatedLocal } from '../../testing/isolated-local';
import { seedLocalAlbum } from '../../testing/local-seed';
import { renderRoutes } from '../../testing/render-routes';
import { keywordList, shiftMs } from './edit-selection-dialog';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));
beforeAll(() => page.viewport(1280, 800));

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const tile = (id: string) => document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"]`);

async function select(id: string): Promise<void> {
  await eventually(() => tile(id)).toBeTruthy();
  tile(id)!.focus();
  await userEvent.keyboard(' ');
  await eventually(() => tile(id)?.getAttribute('aria-selected')).toBe('true');
}

test('keywords added to a selection, and its dates shifted an hour and a half earlier, then undone at once', async () => {
  const names = isolatedLocal('edit-selection');
  const backend = createLocalBackend(names);
  const album = await backend.albums.createAlbum({ title: 'Azores' });
  await seedLocalAlbum(names, album.id, 3, { seed: 9 });
  const items = (await backend.items.listItems(album.id, { sort: 'taken', limit: 10 })).rows;
  const [a, b, untouched] = items;
  await backend.itemWrites.editItems(album.id, [a!.id], { keywords: ['whales'] });
  await renderRoutes(root, backend, `/albums/${album.id}`);
  await select(a!.id);
  await select(b!.id);

  await userEvent.click(page.getByRole('button', { name: 'Edit details' }));
  const dialog = page.getByRole('dialog', { name: 'Edit 2 items' });
  await expect.element(dialog).toBeVisible();
  await userEvent.fill(dialog.getByLabelText('Add keywords'), 'sea, Pico ,sea');
  await userEvent.click(dialog.getByLabelText('Shift by'));
  await userEvent.selectOptions(dialog.getByLabelText('Direction'), 'Earlier');
  await userEvent.fill(dialog.getByLabelText('hours'), '1');
  await userEvent.fill(dialog.getByLabelText('minutes'), '30');
  await userEvent.click(dialog.getByRole('button', { name: 'Apply' }));

  const now = async (id: string) => backend.items.getItem(album.id, id);
  await eventually(async () => (await now(a!.id)).metadata.keywords).toEqual(['whales', 'sea', 'Pico']);
  expect((await now(b!.id)).metadata.keywords).toEqual(['sea', 'Pico']);
  expect((await now(a!.id)).takenAt).toBe(new Date(Date.parse(a!.takenAt!) - 90 * 60_000).toISOString());
  expect((await now(b!.id)).takenAt).toBe(new Date(Date.parse(b!.takenAt!) - 90 * 60_000).toISOString());
  expect((await now(untouched!.id)).editedAt ?? null).toBeNull();
  await eventually(() => document.querySelector('[role="dialog"]')).toBeNull();

  await userEvent.click(page.getByRole('button', { name: 'Undo' }));
  await eventually(async () => (await now(a!.id)).metadata.keywords).toEqual(['whales']);
  expect((await now(b!.id)).metadata.keywords).toBeUndefined();
  expect((await now(a!.id)).takenAt).toBe(a!.takenAt);
  expect((await now(b!.id)).takenAt).toBe(b!.takenAt);
});

test('keyword lists and shifts as the dialog reads them', () => {
  expect(keywordList(' sea, ,Pico,sea ')).toEqual(['sea', 'Pico']);
  expect(shiftMs(-1, 1, 2, 3)).toBe(-((24 + 2) * 60 + 3) * 60_000);
});

test('editing photos with no date taken keeps the month they are shown in, and its count', async () => {
  const names = isolatedLocal('edit-selection');
  const backend = createLocalBackend(names);
  const album = await backend.albums.createAlbum({ title: 'Undated' });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const [r] = await backend.itemWrites.reserveItems(album.id, [{ id: crypto.randomUUID(), filename: `p${i}.png`, mime: 'image/png', kind: 'image', bytes: 100 }]);
    await backend.itemWrites.finalizeItem(album.id, r!.id, { sha256: 'a'.repeat(64), width: 10, height: 10, durationMs: null, takenAt: null, hasPreview: false, hasThumb: false, thumbhash: null, metadata: {} });
    ids.push(r!.id);
  }
  await renderRoutes(root, backend, `/albums/${album.id}`);
  const header = () => document.querySelector('.album-grid h2, [role="rowheader"], .grid-month')?.textContent ?? document.body.textContent ?? '';
  await eventually(header).toContain('· 3');
  await select(ids[0]!);
  await select(ids[1]!);
  await userEvent.click(page.getByRole('button', { name: 'Edit details' }));
  const dialog = page.getByRole('dialog', { name: 'Edit 2 items' });
  await userEvent.fill(dialog.getByLabelText('Add keywords'), 'family');
  await userEvent.click(dialog.getByRole('button', { name: 'Apply' }));
  await eventually(async () => (await backend.items.getItem(album.id, ids[1]!)).metadata.keywords).toEqual(['family']);
  await new Promise((r) => setTimeout(r, 300));
  expect(header()).toContain('· 3');
  expect(header()).not.toContain('· 4');
});
