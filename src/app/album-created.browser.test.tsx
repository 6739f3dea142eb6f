/**
 * An album just made is in the albums list, on screen and in the copy kept on the device, whatever the app
 * does next: making it opens the new album at once, which ends the albums screen and cancels the list's
 * refetch that the creation started. Here the list's answers are held back from then on (a slow network),
 * so what is shown is what the cache kept, not a later answer.
 */
import type { QueryClient } from '@tanstack/react-query';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { createLocalBackend } from '../backend/local/create-local-backend';
import type { Backend } from '../backend/ports';
import type { Album } from '../domain/entities';
import { withOverrides } from '../testing/contract/contract-fixtures';
import { isolatedLocal } from '../testing/isolated-local';
import { renderRoutes } from '../testing/render-routes';
import { albumKeys } from '../shared/album-keys';
import { createQueryClient } from './query-client';
import { forgetAllQueries, startQueryPersistence } from './query-persistence';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
const stops: (() => void)[] = [];
afterEach(async () => {
  flushSync(() => root.render(null));
  stops.splice(0).forEach((stop) => stop());
  await forgetAllQueries();
});

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10_000 });
const cardTitles = () => [...document.querySelectorAll('.album-card__title')].map((t) => t.textContent);
const heading = () => document.querySelector('h1')?.textContent;

/** A client keeping `userId`'s browsing queries on the device, as the app's on a server backend does. */
async function keeping(userId: string): Promise<QueryClient> {
  const client = createQueryClient();
  stops.push(await startQueryPersistence(client, { userId, buster: 'build-1' }));
  return client;
}

/** The albums list kept on the device for `userId`, as the next start of the app restores it. */
async function keptTitles(userId: string): Promise<string[] | undefined> {
  const client = createQueryClient();
  const stop = await startQueryPersistence(client, { userId, buster: 'build-1' });
  stop();
  return client.getQueryData<Album[]>(albumKeys.list())?.map((a) => a.title);
}

test('an album just made stays in the albums list and in the kept copy when opening it cancels the list\u2019s refetch', async () => {
  const real = createLocalBackend(isolatedLocal('album-created'));
  await real.albums.createAlbum({ title: 'Notes' });
  const userId = (await real.auth.getSession())!.userId;
  let held = false;
  const backend: Backend = {
    ...real,
    albums: withOverrides(real.albums, {
      // Held: an answer that never comes, until the fetch is cancelled.
      listAlbums: (opts) =>
        held
          ? new Promise<Album[]>((_, reject) => opts?.signal?.addEventListener('abort', () => reject(opts.signal!.reason as Error)))
          : real.albums.listAlbums(opts),
    }),
  };
  const client = await keeping(userId);
  await renderRoutes(root, backend, '/', client);
  await eventually(cardTitles).toEqual(['Notes']);
  await eventually(() => keptTitles(userId)).toEqual(['Notes']);

  held = true;
  await userEvent.click(page.getByRole('button', { name: 'New album' }));
  const dialog = page.getByRole('dialog', { name: 'New album' });
  await userEvent.type(dialog.getByLabelText('Title'), 'Harbour');
  await userEvent.click(dialog.getByRole('button', { name: 'Create album' }));
  await eventually(heading).toBe('Harbour');

  // Back on the albums screen, its refetch still unanswered: the list the cache kept.
  await userEvent.click(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Albums' }));
  await eventually(cardTitles).toEqual(['Harbour', 'Notes']);
  // And the copy a restart (or a share into the installed app) begins with.
  await eventually(() => keptTitles(userId)).toEqual(['Harbour', 'Notes']);
});
