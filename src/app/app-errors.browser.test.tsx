/**
 * The screens with the local backend, where a call fails on purpose: each error shows where the action was
 * tried, and only there and then.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { withOverrides } from '../testing/contract/contract-fixtures';
import { createLocalBackend } from '../backend/local/create-local-backend';
import { seedLocalAlbum } from '../testing/local-seed';
import type { AlbumsPort, AuthPort, Backend, ItemWritesPort } from '../backend/ports';
import { AppError } from '../lib/app-error';
import { renderRoutes } from '../testing/render-routes';
import { isolatedLocal } from '../testing/isolated-local';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));
// A computer's window: on a phone the album's Edit and Delete sit in its More menu (album-header-actions.tsx).
beforeAll(() => page.viewport(1280, 800));

const isolated = () => isolatedLocal('app-errors');

/** The screens load lazily, as in the app: the first look can take a while on a busy machine. */
const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

const unreachable = () => Promise.reject(new AppError('backend/unreachable', 'The server did not answer.'));

/** An album of three seeded photos on a fresh local backend; calls of its albums, item writes and auth ports can be replaced. */
async function albumOfThree(overrides: { albums?: Partial<AlbumsPort>; itemWrites?: Partial<ItemWritesPort>; auth?: Partial<AuthPort> } = {}) {
  const names = isolated();
  const real = createLocalBackend(names);
  const album = await real.albums.createAlbum({ title: 'Lisbon' });
  await seedLocalAlbum(names, album.id, 3, { seed: 7 });
  const items = (await real.items.listItems(album.id, { sort: 'taken', limit: 10 })).rows;
  const backend: Backend = {
    ...real,
    albums: withOverrides(real.albums, overrides.albums ?? {}),
    itemWrites: withOverrides(real.itemWrites, overrides.itemWrites ?? {}),
    auth: withOverrides(real.auth, overrides.auth ?? {}),
  };
  return { backend, real, album, items };
}

const show = (backend: Backend, path: string): Promise<void> => renderRoutes(root, backend, path);

const button = (scope: ParentNode, text: string) =>
  [...scope.querySelectorAll<HTMLButtonElement>('button')].find((b) => b.textContent?.trim() === text || b.getAttribute('aria-label') === text);
const alerts = (scope: ParentNode) => [...scope.querySelectorAll('[role="alert"]')].map((a) => a.getAttribute('data-error-code'));

test('a failed action in the viewer shows its error on that item only: stepping on, or back, leaves it behind', async () => {
  const { backend, album, items } = await albumOfThree({ itemWrites: { trashItems: unreachable } });
  const [first, second] = items;
  await show(backend, `/albums/${album.id}/items/${first!.id}`);
  const viewer = () => document.querySelector<HTMLElement>('[role="dialog"].viewer');
  await eventually(() => viewer()?.getAttribute('aria-label')).toBe(first!.filename);

  await eventually(() => button(viewer()!, 'Move to trash')).toBeTruthy();
  await userEvent.click(button(viewer()!, 'Move to trash')!);
  await eventually(() => alerts(viewer()!)).toEqual(['backend/unreachable']);

  await userEvent.keyboard('{ArrowRight}');
  await eventually(() => viewer()?.getAttribute('aria-label')).toBe(second!.filename);
  expect(alerts(viewer()!)).toEqual([]);
  await userEvent.keyboard('{ArrowLeft}');
  await eventually(() => viewer()?.getAttribute('aria-label')).toBe(first!.filename);
  expect(alerts(viewer()!)).toEqual([]);
  // Nothing was lost: the item is still in the album.
  expect((await backend.albums.getAlbum(album.id)).itemCount).toBe(3);
});

test('the delete-album confirmation opens clean after a failed attempt was canceled', async () => {
  const { backend, album } = await albumOfThree({ albums: { deleteAlbum: unreachable } });
  await show(backend, `/albums/${album.id}`);
  await eventually(() => button(document, 'Delete album')).toBeTruthy();
  await userEvent.click(button(document, 'Delete album')!);
  const dialog = () => document.querySelector<HTMLElement>('[role="dialog"][data-state="open"]');
  const dialogName = () => document.getElementById(dialog()?.getAttribute('aria-labelledby') ?? '')?.textContent;
  await eventually(dialogName).toBe('Delete this album?');
  await userEvent.click(button(dialog()!, 'Delete album')!);
  await eventually(() => alerts(dialog()!)).toEqual(['backend/unreachable']);

  await userEvent.click(button(dialog()!, 'Cancel')!);
  await eventually(() => dialog()).toBeNull();
  await userEvent.click(button(document, 'Delete album')!);
  await eventually(dialogName).toBe('Delete this album?');
  expect(alerts(dialog()!)).toEqual([]);
  expect((await backend.albums.getAlbum(album.id)).title).toBe('Lisbon');
});

test('Delete pressed again while the selection is on its way to the trash sends it once', async () => {
  let calls = 0;
  let release: () => void = () => undefined;
  const { backend, real, album, items } = await albumOfThree({
    itemWrites: {
      trashItems: async (albumId, ids, opts) => {
        calls += 1;
        await new Promise<void>((resolve) => (release = resolve));
        return real.itemWrites.trashItems(albumId, ids, opts);
      },
    },
  });
  await show(backend, `/albums/${album.id}`);
  const tile = () => document.querySelector<HTMLElement>(`[data-item-id="${CSS.escape(items[0]!.id)}"]`);
  await eventually(() => tile()).toBeTruthy();
  tile()!.focus();
  await userEvent.keyboard(' ');
  await eventually(() => tile()?.getAttribute('aria-selected')).toBe('true');

  await userEvent.keyboard('{Delete}');
  await eventually(() => calls).toBe(1);
  await userEvent.keyboard('{Delete}');
  await userEvent.keyboard('{Backspace}');
  release();
  await eventually(async () => (await real.albums.getAlbum(album.id)).itemCount).toBe(2);
  expect(calls).toBe(1);
});

test('a failed sign-out says so beside the sign-out buttons, not under the profile form', async () => {
  const { backend } = await albumOfThree({
    auth: {
      capabilities: () => ({ requiresSignIn: true, methods: ['password'], oauthProviders: [] }),
      signOut: unreachable,
    },
  });
  await show(backend, '/account');
  await eventually(() => button(document, 'Sign out everywhere')).toBeTruthy();
  await userEvent.click(button(document, 'Sign out everywhere')!);
  const devices = () => document.querySelector('section:has(h2[id$="-devices"])');
  await eventually(() => alerts(devices()!)).toEqual(['backend/unreachable']);
  expect(alerts(document.querySelector('form')!)).toEqual([]);
  expect(button(document, 'Sign out everywhere')?.disabled).toBe(false);
});

test('albums already on screen stay when a refresh cannot reach the server, with a line that says so', async () => {
  let down = false;
  const { backend, real } = await albumOfThree({
    albums: { listAlbums: (opts) => (down ? unreachable() : real.albums.listAlbums(opts)) },
  });
  await show(backend, '/');
  const cards = () => [...document.querySelectorAll('[aria-label="Your albums"] li')].map((li) => li.textContent ?? '');
  const notices = () => [...document.querySelectorAll('[role="status"][data-error-code]')].map((n) => n.getAttribute('data-error-code'));
  await eventually(cards).toEqual([expect.stringContaining('Lisbon')]);

  // Another tab adds an album: the list refreshes, and the refresh (with its retries) fails.
  down = true;
  await real.albums.createAlbum({ title: 'Porto' });
  await eventually(notices).toEqual(['backend/unreachable']);
  expect(cards()).toEqual([expect.stringContaining('Lisbon')]);
  expect(alerts(document)).toEqual([]);

  down = false;
  await userEvent.click(button(document.querySelector('[role="status"][data-error-code]')!, 'Try again')!);
  await eventually(() => cards().length).toBe(2);
  expect(notices()).toEqual([]);
});
