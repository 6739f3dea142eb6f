/**
 * An open album follows what others do from the events alone: an item finished in another tab slots into
 * the grid and the counts without the album being read again, a trashed one leaves it, a role taken away
 * hides Add at once, and the people looking show as avatars. Two local backends on the same database and
 * channel are two tabs; the one on screen counts every call to its data port.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { createLocalBackend } from '../backend/local/create-local-backend';
import { LocalRealtime } from '../backend/local/local-realtime';
import type { Backend, ChangeEvent } from '../backend/ports';
import type { Item, Role } from '../domain/entities';
import { withOverrides } from '../testing/contract/contract-fixtures';
import { seedLocalAlbum } from '../testing/local-seed';
import { renderRoutes } from '../testing/render-routes';
import { isolatedLocal } from '../testing/isolated-local';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
const closers: (() => void)[] = [];
afterEach(() => {
  flushSync(() => root.render(null));
  for (const close of closers.splice(0)) close();
});

const isolated = () => isolatedLocal('album-live');

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });
const tile = (id: string) => document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"]`);
const buttons = () => [...document.querySelectorAll<HTMLButtonElement>('button')].map((b) => b.getAttribute('aria-label') ?? b.textContent?.trim() ?? '');
const header = () => document.querySelector('.page-header')?.textContent ?? '';

/** The backend with every call of its data ports counted by method (and the album seen with `role`). */
function counted(backend: Backend, role?: Role): { backend: Backend; calls: Map<string, number> } {
  const calls = new Map<string, number>();
  const count = <P extends object>(port: P): P =>
    new Proxy(port, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const albums = count(backend.albums);
  return {
    backend: {
      ...backend,
      albums: role ? withOverrides(albums, { getAlbum: async (id, opts) => ({ ...(await albums.getAlbum(id, opts)), role }) }) : albums,
      items: count(backend.items),
      itemWrites: count(backend.itemWrites),
      activity: count(backend.activity),
      members: count(backend.members),
      social: count(backend.social),
    },
    calls,
  };
}

/** An album of 3 photos (or `count`, over more years) on screen in one tab, and a second tab on the same device. */
async function openAlbum(role?: Role, count = 3) {
  const names = isolated();
  const shown = createLocalBackend(names);
  const other = createLocalBackend(names);
  closers.push(() => (shown.realtime as LocalRealtime).close(), () => (other.realtime as LocalRealtime).close());
  const album = await shown.albums.createAlbum({ title: 'Lisbon' });
  await seedLocalAlbum(names, album.id, count, { seed: 5, fromYear: count > 3 ? 2015 : 2023, toYear: 2024 });
  const items = (await shown.items.listItems(album.id, { sort: 'taken', limit: 10 })).rows;
  const { backend, calls } = counted(shown, role);
  await renderRoutes(root, backend, `/albums/${album.id}`);
  for (const item of items.slice(0, 3)) await eventually(() => tile(item.id)).toBeTruthy();
  await eventually(() => header()).toContain(`${count} items`);
  const selfId = (await shown.auth.getSession())!.userId;
  return { album, items, other, calls, selfId, channelName: names.channelName, selfName: (await shown.auth.getSession())!.profile.displayName };
}

const reads = (calls: Map<string, number>) =>
  ['listItems', 'countItemsByMonth', 'getAlbum', 'getItem', 'listAlbums', 'listActivity'].reduce((n, m) => n + (calls.get(m) ?? 0), 0);

/** Another tab adds a photo taken `takenAt`; returns it once finished. */
async function addPhoto(other: Backend, albumId: string, takenAt: string): Promise<Item> {
  const id = crypto.randomUUID();
  await other.itemWrites.reserveItems(albumId, [{ id, filename: 'coffee.jpg', mime: 'image/jpeg', kind: 'image', bytes: 4_000 }]);
  return other.itemWrites.finalizeItem(albumId, id, {
    sha256: 'a'.repeat(64),
    width: 400,
    height: 300,
    durationMs: null,
    takenAt,
    hasPreview: false,
    hasThumb: false,
    thumbhash: null,
    metadata: {},
  });
}

test('a photo finished in another tab slots into its month in order, and the counts follow, with no read of the album', async () => {
  const { album, items, other, calls } = await openAlbum();
  calls.clear();
  // Newer than every seeded photo of its month: it comes first in that month.
  const month = items[0]!.takenAt!.slice(0, 7);
  const added = await addPhoto(other, album.id, `${month}-28T23:59:59.000Z`);
  await eventually(() => tile(added.id)).toBeTruthy();
  await eventually(() => header()).toContain('4 items');
  const order = [...document.querySelectorAll('[data-item-id]')].map((e) => e.getAttribute('data-item-id'));
  expect(order.indexOf(added.id)).toBeLessThan(order.indexOf(items[0]!.id));
  expect(reads(calls)).toBe(0);
  // A month the grid did not hold appears with its count; the grid then reads that month's rows as it reads any
  // month that comes into view: one page, and nothing else.
  const later = await addPhoto(other, album.id, '2025-06-01T10:00:00.000Z');
  await eventually(() => tile(later.id)).toBeTruthy();
  await eventually(() => header()).toContain('5 items');
  expect(reads(calls)).toBe(1);
  expect(calls.get('listItems')).toBe(1);
});

test('a photo moved to the trash in another tab leaves the grid, and the count drops, with no read of the album', async () => {
  const { album, items, other, calls } = await openAlbum();
  calls.clear();
  await other.itemWrites.trashItems(album.id, [items[1]!.id]);
  await eventually(() => tile(items[1]!.id)).toBeNull();
  await eventually(() => header()).toContain('2 items');
  expect(tile(items[0]!.id)).toBeTruthy();
  expect(reads(calls)).toBe(0);
});

/** Every change the album's channel carries, as a tab listening on it hears them. */
function listen(channelName: string, albumId: string): ChangeEvent[] {
  const heard: ChangeEvent[] = [];
  const rt = new LocalRealtime(channelName, async () => ({ id: 'listener', displayName: 'Listener', avatarKey: null, createdAt: new Date(0).toISOString() }));
  closers.push(() => rt.close());
  rt.subscribe(albumId, { onChange: (ev) => heard.push(ev) });
  return heard;
}

const tileLabel = (id: string) => tile(id)?.getAttribute('aria-label') ?? '';

test('changes heard twice count once, and nothing is read again for them: a photo finished, one trashed, a comment', async () => {
  const { album, items, other, calls, channelName, selfId } = await openAlbum(undefined, 400);
  const heard = listen(channelName, album.id);
  const first = items[0]!;

  const added = await addPhoto(other, album.id, '2014-03-01T10:00:00.000Z');
  await eventually(() => header()).toContain('401 items');
  await eventually(() => tile(added.id)).toBeTruthy();
  await other.itemWrites.trashItems(album.id, [items[1]!.id]);
  await eventually(() => header()).toContain('400 items');
  await other.social.addComment(album.id, first.id, 'What a view');
  await eventually(() => tileLabel(first.id)).toMatch(/, 1 comment$/);
  const sent = () => heard.filter((ev) => ev.entity === 'item' || ev.entity === 'comment');
  await eventually(() => sent().some((ev) => ev.entity === 'comment')).toBe(true);
  expect(sent().some((ev) => ev.id === added.id)).toBe(true);
  await eventually(() => buttons()).toContain('Add');
  calls.clear();

  // Sent again, as Realtime may after a reconnection. With them, a change that shows when they were applied
  // (one message is written into the cache at once) and sets no count: the person looking made a viewer.
  const asViewer: ChangeEvent = {
    entity: 'album_member',
    op: 'update',
    albumId: album.id,
    id: `${album.id}:${selfId}`,
    row: { userId: selfId, role: 'viewer' },
  };
  (other.realtime as LocalRealtime).emit([...sent(), asViewer]);
  await eventually(() => buttons()).not.toContain('Add');
  expect(header()).toContain('400 items');
  expect(tileLabel(first.id)).toMatch(/, 1 comment$/);
  expect(tile(items[1]!.id)).toBeNull();
  expect(document.querySelectorAll(`[data-item-id="${CSS.escape(added.id)}"]`)).toHaveLength(1);
  // Counted right from the start, not set right by reading the counts and the album again.
  expect(reads(calls)).toBe(0);
});

test('a contributor made a viewer loses Add at once; removed from the album, they are taken home and told', async () => {
  const { album, other, calls, selfId } = await openAlbum('contributor');
  await eventually(() => buttons()).toContain('Add');
  calls.clear();
  const realtime = other.realtime as LocalRealtime;
  const id = `${album.id}:${selfId}`;
  realtime.emit([{ entity: 'album_member', op: 'update', albumId: album.id, id, row: { userId: selfId, role: 'viewer' } }]);
  await eventually(() => buttons()).not.toContain('Add');
  expect(reads(calls)).toBe(0);

  realtime.emit([{ entity: 'album_member', op: 'delete', albumId: album.id, id, row: { userId: selfId, role: null } }]);
  await eventually(() => document.body.textContent).toContain('You are no longer a member of “Lisbon”');
  await eventually(() => document.querySelector('h1')?.textContent).not.toBe('Lisbon');
});

test('the people looking show as named avatars, the first five and "+N" for the rest; yourself not among them', async () => {
  const { album, channelName, selfName } = await openAlbum();
  // Other people's tabs: the same channel, each with their own profile.
  const names = ['Ana Lima', 'Ben Okafor', 'Chloé Martin', 'Dev Patel', 'Eva Novak', 'Farid Haddad', 'Grace Ho'];
  names.forEach((displayName, i) => {
    const rt = new LocalRealtime(channelName, async () => ({ id: `user-${i}`, displayName, avatarKey: null, createdAt: new Date(0).toISOString() }));
    closers.push(() => rt.close());
    rt.subscribe(album.id, {});
  });
  const list = () => document.querySelector('ul[aria-label="Looking now"]');
  await eventually(() => list()?.querySelectorAll('.avatar--live').length).toBe(5);
  expect(list()!.textContent).toContain('Ana Lima');
  expect(list()!.textContent).toContain('+2');
  expect(list()!.textContent).toContain('Grace Ho');
  expect(list()!.textContent).not.toContain(selfName);
  const first = list()!.querySelector<HTMLElement>('li')!;
  expect(first.querySelector('.avatar')!.textContent).toBe('AL');
  expect(first.tabIndex).toBe(0);
});

test("an album's search follows what another tab adds: a photo that matches joins the results", async () => {
  const names = isolated();
  const shown = createLocalBackend(names);
  const other = createLocalBackend(names);
  closers.push(() => (shown.realtime as LocalRealtime).close(), () => (other.realtime as LocalRealtime).close());
  const album = await shown.albums.createAlbum({ title: 'Lisbon' });
  await seedLocalAlbum(names, album.id, 3, { seed: 5, fromYear: 2023, toYear: 2024 });
  await renderRoutes(root, shown, `/albums/${album.id}?q=coffee`);
  await eventually(() => document.querySelector('[data-testid="search-empty"]')).toBeTruthy();
  const added = await addPhoto(other, album.id, '2024-01-01T00:00:00.000Z');
  await eventually(() => tile(added.id)).toBeTruthy();
  expect(document.querySelectorAll('[data-item-id]')).toHaveLength(1);
});

test('a search across albums follows what another tab adds to any album: a photo that matches joins the results', async () => {
  const names = isolated();
  const shown = createLocalBackend(names);
  const other = createLocalBackend(names);
  closers.push(() => (shown.realtime as LocalRealtime).close(), () => (other.realtime as LocalRealtime).close());
  const lisbon = await shown.albums.createAlbum({ title: 'Lisbon' });
  const porto = await shown.albums.createAlbum({ title: 'Porto' });
  await seedLocalAlbum(names, lisbon.id, 3, { seed: 5, fromYear: 2023, toYear: 2024 });
  await renderRoutes(root, shown, '/search?q=coffee');
  await eventually(() => document.querySelector('[data-testid="search-empty"]')).toBeTruthy();
  const first = await addPhoto(other, porto.id, '2024-01-01T00:00:00.000Z');
  await eventually(() => tile(first.id)).toBeTruthy();
  const second = await addPhoto(other, lisbon.id, '2024-02-01T00:00:00.000Z');
  await eventually(() => tile(second.id)).toBeTruthy();
  expect(document.querySelectorAll('[data-item-id]')).toHaveLength(2);
});
