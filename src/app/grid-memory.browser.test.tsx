/**
 * What scrolling a large album leaves in memory, on the local backend in real Chromium: once the months at the
 * top have scrolled far away and their lists are dropped, their items can be collected. When the query
 * functions were made inside the hooks' render, each render's closures held the render before it, and every item
 * the grid had ever loaded stayed on the heap ([Note: Query functions made outside render]): the major
 * collections that walked it held the thread past 50 ms while scrolling.
 */
import type { QueryClient } from '@tanstack/react-query';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { cdp, page } from 'vitest/browser';
import { createLocalBackend } from '../backend/local/create-local-backend';
import type { Item } from '../domain/entities';
import { itemKeys } from '../shared/item-keys';
import { seedLocalAlbum } from '../testing/local-seed';
import { isolatedLocal } from '../testing/isolated-local';
import { screenLoaded, scrollGridToEnd } from '../testing/grid-scroll';
import { renderRoutes } from '../testing/render-routes';
import { createQueryClient } from './query-client';
import '../ui/styles.css';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
beforeAll(() => page.viewport(1280, 800));
afterEach(() => flushSync(() => root.render(null)));

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 20_000, interval: 250 });


/** The month lists in the cache (observed or not), and the items in them. */
function cachedItems(client: QueryClient, albumId: string): Item[] {
  return client.getQueryCache().findAll({ queryKey: [...itemKeys.album(albumId), 'month'] }).flatMap((q) => (q.state.data as Item[] | undefined) ?? []);
}

/** How many of the items seen are still on the heap, after a full collection. */
async function aliveCount(seen: readonly WeakRef<Item>[]): Promise<number> {
  await cdp().send('HeapProfiler.collectGarbage');
  return seen.filter((r) => r.deref() !== undefined).length;
}

test('scrolling a large album keeps on the heap the items of the months it holds, not of every month passed', async () => {
  const names = isolatedLocal('grid-memory');
  const backend = createLocalBackend(names);
  const album = await backend.albums.createAlbum({ title: 'Two years' });
  const COUNT = 12_000;
  await seedLocalAlbum(names, album.id, COUNT, { seed: 5, fromYear: 2023, toYear: 2024 });

  const client = createQueryClient();
  await renderRoutes(root, backend, `/albums/${album.id}`, client);
  await eventually(screenLoaded).toBe(true);

  // Down the album a few screens at a time, each screen drawn before the next: every month is loaded on the way,
  // and every item object the grid was given is watched (weakly: watching keeps nothing alive).
  const seen: WeakRef<Item>[] = [];
  const watched = new WeakSet<Item>();
  const ids = new Set<string>();
  const watch = () =>
    cachedItems(client, album.id).forEach((item) => {
      ids.add(item.id);
      if (watched.has(item)) return;
      watched.add(item);
      seen.push(new WeakRef(item));
    });
  await scrollGridToEnd(watch);
  watch();
  // Every item passed through the grid's hands; the months dropped on the way leave the cache soon after.
  expect(ids.size).toBe(COUNT);
  await eventually(() => client.getQueryCache().findAll({ queryKey: [...itemKeys.album(album.id), 'month'] }).every((q) => q.getObserversCount() > 0)).toBe(true);
  const held = cachedItems(client, album.id).length;
  expect(held).toBeLessThan(COUNT / 2);
  // What the cache no longer holds can go. Not all of it does at once: a dropped month's list can stay reachable
  // from observers made while it was observed (TanStack's QueriesObserver keeps the observers it replaced in a
  // listener's scope), for as long as those live. But when every render held the one before, none of it went.
  const alive = await aliveCount(seen);
  expect(seen.length).toBeGreaterThanOrEqual(COUNT);
  expect(alive).toBeLessThan(seen.length - held / 4);
});
