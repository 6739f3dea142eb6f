/**
 * The tiles' comment and heart counts while scrolling a large album, on the local backend in real Chromium:
 * the counts held are those of the months the grid holds, not of every month scrolled past, so what a month's
 * counts cost to put in does not grow with the scroll ([Note: The tile map holds the loaded months]); and the
 * counts still show, at the bottom and again at the top after their month was dropped and loaded again.
 */
import type { QueryClient } from '@tanstack/react-query';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { createLocalBackend } from '../backend/local/create-local-backend';
import type { LocalRealtime } from '../backend/local/local-realtime';
import type { Backend } from '../backend/ports';
import type { Item } from '../domain/entities';
import { itemKeys } from '../shared/item-keys';
import { socialKeys, type TileSocial } from '../shared/social-keys';
import { seedLocalAlbum } from '../testing/local-seed';
import { addReadyItem } from '../testing/contract/contract-fixtures';
import { isolatedLocal } from '../testing/isolated-local';
import { gridScroller, scrollGridToEnd } from '../testing/grid-scroll';
import { renderRoutes } from '../testing/render-routes';
import { createQueryClient } from './query-client';
import '../ui/styles.css';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
beforeAll(() => page.viewport(1280, 800));
afterEach(() => flushSync(() => root.render(null)));

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000 });
const tile = (id: string) => document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"]`);
const badge = (id: string) => tile(id)?.querySelector('[data-testid="tile-social"]')?.textContent?.trim() ?? null;


/** The ids of the items the grid holds: the month lists someone is still looking at. */
function loadedItemIds(client: QueryClient, albumId: string): Set<string> {
  const ids = new Set<string>();
  for (const q of client.getQueryCache().findAll({ queryKey: [...itemKeys.album(albumId), 'month'] })) {
    if (q.getObserversCount() === 0) continue;
    for (const item of (q.state.data as Item[] | undefined) ?? []) ids.add(item.id);
  }
  return ids;
}

/** Records every item id the backend is asked comment and heart counts for. */
function askedAbout(backend: Backend): string[] {
  const asked: string[] = [];
  const itemSocial = backend.social.itemSocial.bind(backend.social);
  backend.social.itemSocial = (albumId, ids, opts) => {
    asked.push(...ids);
    return itemSocial(albumId, ids, opts);
  };
  return asked;
}

test('scrolling a 9,000-item album holds the counts of the loaded months only, and counts show at both ends', async () => {
  const names = isolatedLocal('tile-counts');
  const backend = createLocalBackend(names);
  const album = await backend.albums.createAlbum({ title: 'A year of photos' });
  const COUNT = 9000;
  await seedLocalAlbum(names, album.id, COUNT, { seed: 11, fromYear: 2023, toYear: 2024 });
  const months = await backend.items.countItemsByMonth(album.id, { sort: 'taken' });
  const newest = (await backend.items.listItems(album.id, { sort: 'taken', limit: 1 })).rows[0]!;
  const lastMonth = await backend.items.listItems(album.id, { sort: 'taken', month: months.at(-1)!.month, limit: 1000 });
  const oldest = lastMonth.rows.at(-1)!;
  await backend.social.addComment(album.id, newest.id, 'The first of the year');
  await backend.social.setFavorite(album.id, oldest.id, true);

  const client = createQueryClient();
  await renderRoutes(root, backend, `/albums/${album.id}`, client);
  await eventually(() => badge(newest.id)).toBe('1');

  // Down the album a few screens at a time, each screen drawn before the next: every month is loaded on the way.
  const el = gridScroller()!;
  expect(el.scrollHeight).toBeGreaterThan(el.clientHeight * 20);
  await scrollGridToEnd();
  await eventually(() => badge(oldest.id)).toBe('1');

  // The months at the top were dropped on the way (the grid keeps a few thousand items), and their counts with them.
  const held = () => Object.keys(client.getQueryData<TileSocial>(socialKeys.tiles(album.id)) ?? {});
  expect(loadedItemIds(client, album.id).size).toBeLessThan(COUNT / 2);
  await eventually(() => {
    const loaded = loadedItemIds(client, album.id);
    return { outsideLoadedMonths: held().filter((id) => !loaded.has(id)).length };
  }).toEqual({ outsideLoadedMonths: 0 });

  // Back at the top, the first month's counts are read again with it.
  el.scrollTop = 0;
  await eventually(() => badge(newest.id)).toBe('1');
});

test('a month that comes in several pages has its counts asked for once, when it is all in', async () => {
  const names = isolatedLocal('tile-counts-once');
  const backend = createLocalBackend(names);
  const album = await backend.albums.createAlbum({ title: 'One busy month' });
  // 1,200 photos in one month: the grid reads it in three pages.
  await seedLocalAlbum(names, album.id, 1200, { seed: 5, fromYear: 2024, toYear: 2024 });
  const months = await backend.items.countItemsByMonth(album.id, { sort: 'taken' });
  expect(months.map((m) => m.count)).toEqual([1200]);
  const newest = (await backend.items.listItems(album.id, { sort: 'taken', limit: 1 })).rows[0]!;
  await backend.social.addComment(album.id, newest.id, 'Asked about once');
  const asked = askedAbout(backend);

  await renderRoutes(root, backend, `/albums/${album.id}`, createQueryClient());
  await eventually(() => badge(newest.id)).toBe('1');
  expect({ asked: asked.length, distinct: new Set(asked).size }).toEqual({ asked: 1200, distinct: 1200 });
});

test("photos arriving one by one in a month ask only about themselves, and the month's live counts stay", async () => {
  const names = isolatedLocal('tile-counts-arriving');
  const backend = createLocalBackend(names);
  const album = await backend.albums.createAlbum({ title: 'An import' });
  await seedLocalAlbum(names, album.id, 30, { seed: 7, fromYear: 2024, toYear: 2024 });
  const [month] = await backend.items.countItemsByMonth(album.id, { sort: 'taken' });
  expect(month!.count).toBe(30);
  const newest = (await backend.items.listItems(album.id, { sort: 'taken', limit: 1 })).rows[0]!;
  await backend.social.addComment(album.id, newest.id, 'Already here');
  const asked = askedAbout(backend);
  await renderRoutes(root, backend, `/albums/${album.id}`, createQueryClient());
  await eventually(() => badge(newest.id)).toBe('1');
  asked.length = 0;

  // Five photos of the same month arrive from another tab, as an import's do; a heart is given between two of them.
  const other = createLocalBackend(names);
  const arrived: string[] = [];
  for (let i = 0; i < 5; i++) {
    // Taken just before the newest photo: in its month, which the grid shows whole.
    const takenAt = new Date(Date.parse(newest.takenAt!) - (i + 1) * 1000).toISOString();
    const item = await addReadyItem(other, album.id, { takenAt, filename: `IMG_${i}.jpg` });
    arrived.push(item.id);
    await eventually(() => tile(item.id) !== null).toBe(true);
    if (i === 1) {
      await other.social.setFavorite(album.id, newest.id, true);
      await eventually(() => badge(newest.id)).toMatch(/1.*1/s);
    }
  }
  await eventually(() => arrived.every((id) => asked.includes(id))).toBe(true);
  // Only the photos that arrived were asked about: not the month's 30 (then 31, 32…) again with each of them.
  expect(asked.filter((id) => !arrived.includes(id))).toEqual([]);
  expect(badge(newest.id)).toMatch(/1.*1/s);
  (other.realtime as LocalRealtime).close();
});
