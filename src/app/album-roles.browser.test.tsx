/**
 * The album screens offer each member what PRODUCT.md §6 lets their role do, and nothing the server would
 * refuse. The local backend has one profile, the owner of everything: here its album is shown under another
 * role, and some items as added by someone else.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { createLocalBackend } from '../backend/local/create-local-backend';
import type { Backend } from '../backend/ports';
import type { Item, Role } from '../domain/entities';
import { withOverrides } from '../testing/contract/contract-fixtures';
import { seedLocalAlbum } from '../testing/local-seed';
import { renderRoutes } from '../testing/render-routes';
import { isolatedLocal } from '../testing/isolated-local';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));
// A computer's window: on a phone the album's Edit and Delete sit in its More menu (album-header-actions.tsx).
beforeAll(() => page.viewport(1280, 800));

const isolated = () => isolatedLocal('album-roles');

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

/** An album of three photos, the first in the trash, seen as `role`; `othersItems` were added by someone else. */
async function albumAs(role: Role, othersItems: (items: Item[]) => Set<string> = () => new Set()) {
  const names = isolated();
  const real = createLocalBackend(names);
  const album = await real.albums.createAlbum({ title: 'Porto' });
  await seedLocalAlbum(names, album.id, 3, { seed: 11 });
  const items = (await real.items.listItems(album.id, { sort: 'taken', limit: 10 })).rows;
  await real.itemWrites.trashItems(album.id, [items[0]!.id]);
  const others = othersItems(items);
  const asSeen = (item: Item): Item => (others.has(item.id) ? { ...item, uploaderId: 'someone-else' } : item);
  const backend: Backend = {
    ...real,
    albums: withOverrides(real.albums, {
      getAlbum: async (id, opts) => ({ ...(await real.albums.getAlbum(id, opts)), role }),
      listAlbums: async (opts) => (await real.albums.listAlbums(opts)).map((a) => ({ ...a, role })),
    }),
    items: withOverrides(real.items, {
      listItems: async (id, query, opts) => {
        const page = await real.items.listItems(id, query, opts);
        return { ...page, rows: page.rows.map(asSeen) };
      },
      getItem: async (id, itemId, opts) => asSeen(await real.items.getItem(id, itemId, opts)),
    }),
  };
  return { backend, real, album, items };
}

const show = (backend: Backend, path: string): Promise<void> => renderRoutes(root, backend, path);

const buttons = (scope: ParentNode) =>
  [...scope.querySelectorAll<HTMLButtonElement>('button')].map((b) => b.getAttribute('aria-label') ?? b.textContent?.trim() ?? '');
const tile = (id: string) => document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(id)}"]`);
const viewer = () => document.querySelector<HTMLElement>('[role="dialog"].viewer');

async function select(id: string): Promise<void> {
  await eventually(() => tile(id)).toBeTruthy();
  tile(id)!.focus();
  await userEvent.keyboard(' ');
  await eventually(() => tile(id)?.getAttribute('aria-selected')).toBe('true');
}

test('a viewer is offered nothing that changes the album: no Add, Edit, Delete album, trash or restore', async () => {
  const { backend, real, album, items } = await albumAs('viewer');
  await show(backend, `/albums/${album.id}`);
  await select(items[1]!.id);
  await eventually(() => buttons(document)).toContain('Download');
  expect(buttons(document)).not.toContain('Add');
  expect(buttons(document)).not.toContain('Edit');
  expect(buttons(document)).not.toContain('Delete album');
  expect(buttons(document)).not.toContain('Move to trash');
  await userEvent.keyboard('{Delete}');

  // The trash: a viewer may look, not restore (§6: delete/restore is for the owner, editors, contributors).
  flushSync(() => root.render(null));
  await show(backend, `/albums/${album.id}?view=trash`);
  await select(items[0]!.id);
  await eventually(() => buttons(document)).toContain('Download');
  expect(buttons(document)).not.toContain('Restore');

  flushSync(() => root.render(null));
  await show(backend, `/albums/${album.id}/items/${items[0]!.id}?view=trash`);
  await eventually(() => viewer() && buttons(viewer()!)).toContain('Download original');
  expect(buttons(viewer()!)).not.toContain('Restore');
  expect((await real.albums.getAlbum(album.id)).itemCount).toBe(2);
});

test('a contributor adds, and moves to the trash only what they added: the viewer offers it on their own items only', async () => {
  const { backend, album, items } = await albumAs('contributor', (list) => new Set([list[2]!.id]));
  await show(backend, `/albums/${album.id}/items/${items[1]!.id}`);
  await eventually(() => viewer() && buttons(viewer()!)).toContain('Move to trash');
  expect(buttons(document)).toContain('Add');
  expect(buttons(document)).not.toContain('Edit');

  flushSync(() => root.render(null));
  await show(backend, `/albums/${album.id}/items/${items[2]!.id}`);
  await eventually(() => viewer() && buttons(viewer()!)).toContain('Download original');
  expect(buttons(viewer()!)).not.toContain('Move to trash');
});

test('an editor edits the album but cannot delete it', async () => {
  const { backend, album, items } = await albumAs('editor', (list) => new Set([list[2]!.id]));
  await show(backend, `/albums/${album.id}/items/${items[2]!.id}`);
  await eventually(() => viewer() && buttons(viewer()!)).toContain('Move to trash');
  expect(buttons(document)).toContain('Edit');
  expect(buttons(document)).not.toContain('Delete album');
});
