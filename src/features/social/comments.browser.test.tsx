/**
 * Comments and the heart in the viewer, on the local backend in real Chromium: the panel's states, text kept
 * on failure, links only for http and https, the `f` key, and what each role is offered on others' comments.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { userEvent } from 'vitest/browser';
import { createLocalBackend } from '../../backend/local/create-local-backend';
import type { Backend } from '../../backend/ports';
import type { Role } from '../../domain/entities';
import { AppError } from '../../lib/app-error';
import { withOverrides } from '../../testing/contract/contract-fixtures';
import { seedLocalAlbum } from '../../testing/local-seed';
import { renderRoutes } from '../../testing/render-routes';
import { isolatedLocal } from '../../testing/isolated-local';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

const isolated = () => isolatedLocal('comments');

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

async function albumWithPhotos() {
  const names = isolated();
  const backend = createLocalBackend(names);
  const album = await backend.albums.createAlbum({ title: 'Lisbon' });
  await seedLocalAlbum(names, album.id, 3, { seed: 5 });
  const items = (await backend.items.listItems(album.id, { sort: 'taken', limit: 10 })).rows;
  return { backend, album, items };
}

const panel = () => document.querySelector<HTMLElement>('[data-testid="comments-panel"]');
const box = () => panel()?.querySelector<HTMLTextAreaElement>('textarea') ?? null;
const heart = () => document.querySelector<HTMLButtonElement>('[data-testid="favorite-button"]');
const button = (scope: ParentNode | null, name: string) =>
  [...(scope?.querySelectorAll<HTMLButtonElement>('button') ?? [])].find((b) => (b.getAttribute('aria-label') ?? b.textContent?.trim()) === name) ?? null;

async function openComments(backend: Backend, albumId: string, itemId: string): Promise<void> {
  await renderRoutes(root, backend, `/albums/${albumId}/items/${itemId}`);
  await eventually(() => document.querySelector('[data-testid="comments-toggle"]')).toBeTruthy();
  await userEvent.click(document.querySelector<HTMLElement>('[data-testid="comments-toggle"]')!);
  await eventually(() => panel()).toBeTruthy();
}

test('the panel shows none yet, then adds, edits and deletes one\'s comment, with author, time and "edited"', async () => {
  const { backend, album, items } = await albumWithPhotos();
  const me = (await backend.auth.getSession())!.profile.displayName;
  await openComments(backend, album.id, items[0]!.id);
  await eventually(() => panel()?.textContent).toContain('No comments yet.');

  await userEvent.type(box()!, 'Golden hour on the river');
  await userEvent.click(button(panel(), 'Send')!);
  await eventually(() => panel()?.querySelector('.comment')?.textContent).toContain('Golden hour on the river');
  const row = () => panel()!.querySelector<HTMLElement>('.comment')!;
  expect(row().querySelector('.comment__author')?.textContent).toBe(me);
  expect(row().querySelector('time')?.textContent).toBe('just now');
  expect(box()!.value).toBe('');
  expect(row().textContent).not.toContain('edited');
  // The viewer's comment button and the tile behind it count it.
  await eventually(() => document.querySelector('[data-testid="comments-toggle"]')?.getAttribute('aria-label')).toBe('Comments (1)');
  expect((await backend.social.listComments(album.id, items[0]!.id)).map((c) => c.body)).toEqual(['Golden hour on the river']);

  await userEvent.click(button(row(), 'Edit')!);
  const editBox = row().querySelector<HTMLTextAreaElement>('textarea')!;
  await userEvent.clear(editBox);
  await userEvent.type(editBox, 'Golden hour on the Tagus');
  await userEvent.click(button(row(), 'Save')!);
  await eventually(() => row().querySelector('.comment__body')?.textContent).toBe('Golden hour on the Tagus');
  expect(row().textContent).toContain('edited');

  await userEvent.click(button(row(), 'Delete')!);
  expect(row().textContent).toContain('Delete this comment?');
  await userEvent.click(button(row(), 'Delete')!);
  await eventually(() => panel()?.textContent).toContain('No comments yet.');
  expect(await backend.social.listComments(album.id, items[0]!.id)).toEqual([]);
  await eventually(() => document.querySelector('[data-testid="comments-toggle"]')?.getAttribute('aria-label')).toBe('Comments');
});

test('a comment that fails keeps the typed text and says why; an empty one is refused before it is sent', async () => {
  const { backend: real, album, items } = await albumWithPhotos();
  let sent = 0;
  const backend: Backend = {
    ...real,
    social: withOverrides(real.social, {
      addComment: () => {
        sent++;
        return Promise.reject(new AppError('backend/unreachable', 'down', { retryable: true }));
      },
    }),
  };
  await openComments(backend, album.id, items[0]!.id);
  await userEvent.type(box()!, 'Words worth keeping');
  await userEvent.click(button(panel(), 'Send')!);
  await eventually(() => panel()?.querySelector('[role="alert"]')?.getAttribute('data-error-code')).toBe('backend/unreachable');
  expect(box()!.value).toBe('Words worth keeping');
  expect(sent).toBe(1);

  await userEvent.clear(box()!);
  await userEvent.type(box()!, 'x\u202e');
  await userEvent.keyboard('{Control>}{Enter}{/Control}');
  await eventually(() => panel()?.querySelector('.error-line')?.textContent).toBe('A comment cannot contain text-direction control characters.');
  expect(sent).toBe(1);
  expect(box()!.value).toBe('x\u202e');
});

test('only http and https addresses become links, opening in a new tab without a hold on the app; nothing is HTML', async () => {
  const { backend, album, items } = await albumWithPhotos();
  const body = 'Map: https://example.org/lisbon?day=2. Not these: javascript:alert(1) data:text/html,<b>x</b> <img src=x onerror="window.hacked=1"> www.example.com';
  await backend.social.addComment(album.id, items[0]!.id, body);
  await openComments(backend, album.id, items[0]!.id);
  await eventually(() => panel()?.querySelector('.comment__body')).toBeTruthy();
  const bodyEl = panel()!.querySelector<HTMLElement>('.comment__body')!;
  const links = [...bodyEl.querySelectorAll('a')];
  expect(links.map((a) => [a.getAttribute('href'), a.getAttribute('target'), a.getAttribute('rel'), a.textContent])).toEqual([
    ['https://example.org/lisbon?day=2', '_blank', 'noopener noreferrer', 'https://example.org/lisbon?day=2'],
  ]);
  expect(bodyEl.textContent).toBe(body);
  expect(bodyEl.querySelector('img, b, script')).toBeNull();
  expect((window as { hacked?: number }).hacked).toBeUndefined();
});

test('f gives and takes back one\'s heart in the viewer, but not while typing a comment', async () => {
  const { backend, album, items } = await albumWithPhotos();
  const itemId = items[1]!.id;
  await openComments(backend, album.id, itemId);
  await eventually(() => heart()?.getAttribute('aria-pressed')).toBe('false');
  (document.querySelector('.viewer') as HTMLElement).focus();
  await userEvent.keyboard('f');
  await eventually(() => heart()?.getAttribute('aria-pressed')).toBe('true');
  await eventually(async () => (await backend.social.itemSocial(album.id, [itemId]))[0]?.myFavorite).toBe(true);
  await eventually(() => document.querySelector('[data-testid="favorite-count"]')?.textContent).toBe('1');

  await userEvent.click(box()!);
  await userEvent.keyboard('fifi');
  expect(box()!.value).toBe('fifi');
  expect(heart()?.getAttribute('aria-pressed')).toBe('true');
  expect(panel()).toBeTruthy();

  (document.querySelector('.viewer') as HTMLElement).focus();
  await userEvent.keyboard('f');
  await eventually(() => heart()?.getAttribute('aria-pressed')).toBe('false');
  await eventually(async () => (await backend.social.itemSocial(album.id, [itemId]))[0]).toEqual({ itemId, commentCount: 0, favoriteCount: 0, myFavorite: false });
});

async function othersComment(role: Role) {
  const { backend: real, album, items } = await albumWithPhotos();
  await real.social.addComment(album.id, items[0]!.id, 'Someone else said this');
  const backend: Backend = {
    ...real,
    albums: withOverrides(real.albums, {
      getAlbum: async (id, opts) => ({ ...(await real.albums.getAlbum(id, opts)), role }),
    }),
    social: withOverrides(real.social, {
      listComments: async (id, itemId, opts) => (await real.social.listComments(id, itemId, opts)).map((c) => ({ ...c, authorId: 'someone-else', authorName: 'Ben' })),
    }),
  };
  await openComments(backend, album.id, items[0]!.id);
  await eventually(() => panel()?.querySelector('.comment')?.textContent).toContain('Someone else said this');
  return panel()!.querySelector<HTMLElement>('.comment')!;
}

test('on another person\'s comment an editor is offered Delete only, a contributor and a viewer nothing', async () => {
  const asEditor = await othersComment('editor');
  expect(button(asEditor, 'Delete')).not.toBeNull();
  expect(button(asEditor, 'Edit')).toBeNull();
  flushSync(() => root.render(null));
  for (const role of ['contributor', 'viewer'] as const) {
    const row = await othersComment(role);
    expect(button(row, 'Delete')).toBeNull();
    expect(button(row, 'Edit')).toBeNull();
    // They may still comment and give hearts.
    expect(box()).not.toBeNull();
    expect(heart()).not.toBeNull();
    flushSync(() => root.render(null));
  }
});
