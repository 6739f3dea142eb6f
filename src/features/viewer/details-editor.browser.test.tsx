/**
 * Editing a photo's details in the viewer (PRODUCT.md §6 "edit item metadata"), on the local backend in Chromium:
 * what the person types and picks is what the backend then holds, an edit can be undone from its notice, a failed
 * save keeps the typing, and those §6 does not allow see the details as text only.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { createLocalBackend } from '../../backend/local/create-local-backend';
import type { Backend } from '../../backend/ports';
import type { Item, Role } from '../../domain/entities';
import { AppError } from '../../lib/app-error';
import { withOverrides } from '../../testing/contract/contract-fixtures';
import { isolatedLocal } from '../../testing/isolated-local';
import { seedLocalAlbum } from '../../testing/local-seed';
import { renderRoutes } from '../../testing/render-routes';
import { fromLocalInput, toLocalInput } from './details-editor';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));
beforeAll(() => page.viewport(1280, 800));

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const details = () => document.querySelector<HTMLElement>('aside[aria-label="Details"]');
const field = (label: string) => page.getByLabelText(label, { exact: true });

async function opened(opts: { role?: Role; others?: boolean; failEdits?: boolean; takenOffset?: number; unlisted?: (real: Backend, items: Item[]) => Promise<string> } = {}) {
  const names = isolatedLocal('details-editor');
  const real = createLocalBackend(names);
  const album = await real.albums.createAlbum({ title: 'Porto' });
  await seedLocalAlbum(names, album.id, 2, { seed: 5, metadata: () => (opts.takenOffset === undefined ? {} : { takenOffset: opts.takenOffset }) });
  const items = (await real.items.listItems(album.id, { sort: 'taken', limit: 10 })).rows;
  const asSeen = (item: Item): Item => (opts.others ? { ...item, uploaderId: 'someone-else' } : item);
  // An item the grid never lists (as if in a month far from the screen): only a search reaches it.
  const hidden = opts.unlisted ? await opts.unlisted(real, items) : null;
  const backend: Backend = {
    ...real,
    albums: withOverrides(real.albums, { getAlbum: async (id, o) => ({ ...(await real.albums.getAlbum(id, o)), role: opts.role ?? 'owner' }) }),
    items: withOverrides(real.items, {
      listItems: async (id, q, o) => {
        const p = await real.items.listItems(id, q, o);
        return { ...p, rows: p.rows.filter((r) => r.id !== hidden).map(asSeen) };
      },
      getItem: async (id, itemId, o) => asSeen(await real.items.getItem(id, itemId, o)),
    }),
    itemWrites: withOverrides(real.itemWrites, {
      editItems: async (...args) => {
        if (opts.failEdits) throw new AppError('offline', 'No network.');
        return real.itemWrites.editItems(...args);
      },
    }),
  };
  const item = items[0]!;
  await renderRoutes(root, backend, `/albums/${album.id}/items/${item.id}`);
  await eventually(() => document.querySelector('button[aria-label="Details"]')).toBeTruthy();
  await userEvent.keyboard('i');
  await eventually(() => details()).toBeTruthy();
  const stored = () => real.items.getItem(album.id, item.id);
  return { real, album, item, stored };
}

test('title, description, rating, label, keywords and date, each kept by the backend as typed and picked', async () => {
  const { stored } = await opened();
  await field('Title').fill('Tram 28 at dusk');
  await field('Description').fill('Alfama,\nlooking down');
  await userEvent.click(field('Title'));
  await eventually(async () => (await stored()).metadata).toMatchObject({ title: 'Tram 28 at dusk', description: 'Alfama,\nlooking down' });

  // Keys 0–5 rate, once the typing is done.
  (document.activeElement as HTMLElement | null)?.blur();
  await userEvent.keyboard('4');
  await eventually(async () => (await stored()).metadata.rating).toBe(4);
  await eventually(() => document.querySelector('[role="radio"][aria-checked="true"]')?.getAttribute('aria-label')).toBe('4 stars');
  // The rating given again takes it away.
  await userEvent.click(page.getByRole('radio', { name: '4 stars' }));
  await eventually(async () => (await stored()).metadata.rating).toBeUndefined();

  await userEvent.selectOptions(field('Label'), 'Green');
  await eventually(async () => (await stored()).metadata.label).toBe('Green');

  await userEvent.type(field('Add a keyword'), 'tram{Enter}');
  await userEvent.type(field('Add a keyword'), 'Lisbon,');
  await eventually(async () => (await stored()).metadata.keywords).toEqual(['tram', 'Lisbon']);
  await userEvent.click(page.getByRole('button', { name: 'Remove keyword tram' }));
  await eventually(async () => (await stored()).metadata.keywords).toEqual(['Lisbon']);

  await userEvent.click(page.getByRole('button', { name: 'Change the date taken' }));
  await field('Date taken').fill('2021-03-14T15:09:26');
  await userEvent.click(page.getByRole('button', { name: 'Save', exact: true }));
  await eventually(async () => (await stored()).takenAt).toBe(new Date('2021-03-14T15:09:26').toISOString());
  expect(toLocalInput((await stored()).takenAt)).toBe('2021-03-14T15:09:26');
  await eventually(() => details()?.textContent).toContain('2021');
});

test("a keyword field offers the album's keywords that begin as typed, those of items not loaded too", async () => {
  await opened({
    unlisted: async (real, [, other]) => {
      await real.itemWrites.editItems(other!.albumId, [other!.id], { addKeywords: ['Ribeira', 'Douro'] });
      return other!.id;
    },
  });
  await field('Add a keyword').fill('rib');
  const offered = () => [...document.querySelectorAll('datalist option')].map((o) => (o as HTMLOptionElement).value);
  await eventually(offered).toEqual(['Ribeira']);
  await field('Add a keyword').fill('x');
  await eventually(offered).toEqual([]);
});

test('a date taken whose offset the camera wrote shows, opens and saves as the clock read it there', async () => {
  const { real, album, item, stored } = await opened({ takenOffset: 345 });
  // 22:00 on New Year's Eve in Kathmandu (UTC+5:45), whatever this browser's own zone is.
  await real.itemWrites.editItems(album.id, [item.id], { takenAt: '2023-12-31T16:15:00.000Z' });
  const utc = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  const shown = `${utc.format(Date.UTC(2023, 11, 31, 22, 0))} (UTC+5:45)`;
  await eventually(() => details()?.textContent).toContain(shown);
  await userEvent.click(page.getByRole('button', { name: 'Change the date taken' }));
  expect((field('Date taken').element() as HTMLInputElement).value).toBe('2023-12-31T22:00');
  await field('Date taken').fill('2024-01-01T09:30:00');
  await userEvent.click(page.getByRole('button', { name: 'Save', exact: true }));
  await eventually(async () => (await stored()).takenAt).toBe('2024-01-01T03:45:00.000Z');
  expect((await stored()).metadata.takenOffset).toBe(345);
  await eventually(() => details()?.textContent).toContain(`${utc.format(Date.UTC(2024, 0, 1, 9, 30))} (UTC+5:45)`);
  // Read and written the same way, in the place's clock or this device's.
  expect(fromLocalInput(toLocalInput('2024-01-01T03:45:00.000Z', 345), 345)?.toISOString()).toBe('2024-01-01T03:45:00.000Z');
  expect(fromLocalInput(toLocalInput('2024-01-01T03:45:00.000Z'))?.toISOString()).toBe('2024-01-01T03:45:00.000Z');
  expect(fromLocalInput('not a date')).toBeNull();
});

test('an edit is undone from its notice, and only what it changed goes back', async () => {
  const { stored } = await opened();
  await userEvent.type(field('Add a keyword'), 'harbour{Enter}');
  await eventually(async () => (await stored()).metadata.keywords).toEqual(['harbour']);
  await field('Title').fill('Boats');
  (document.activeElement as HTMLElement | null)?.blur();
  await eventually(async () => (await stored()).metadata.title).toBe('Boats');
  const undo = page.getByRole('button', { name: 'Undo' });
  await userEvent.click(undo.last());
  await eventually(async () => (await stored()).metadata.title).toBeUndefined();
  expect((await stored()).metadata.keywords).toEqual(['harbour']);
  await eventually(() => (document.getElementById(field('Title').element().id) as HTMLInputElement).value).toBe('');
});

test('a save that fails keeps the typed words, says why, and changes nothing', async () => {
  const { stored } = await opened({ failEdits: true });
  await field('Title').fill('Not saved yet');
  (document.activeElement as HTMLElement | null)?.blur();
  await eventually(() => details()?.querySelector('[data-error-code]')?.getAttribute('data-error-code')).toBe('offline');
  expect((field('Title').element() as HTMLInputElement).value).toBe('Not saved yet');
  expect((await stored()).metadata.title).toBeUndefined();
});

test('a viewer, and a contributor on another\'s photo, see the details as text, with no field to edit', async () => {
  for (const opts of [{ role: 'viewer' as const }, { role: 'contributor' as const, others: true }]) {
    await opened(opts);
    expect(details()!.querySelector('input, textarea, select')).toBeNull();
    await userEvent.keyboard('5');
    flushSync(() => root.render(null));
  }
});

test('a contributor edits the details of a photo they added', async () => {
  const { stored } = await opened({ role: 'contributor' });
  await userEvent.keyboard('3');
  await eventually(async () => (await stored()).metadata.rating).toBe(3);
});
