/**
 * The query cache kept on the device, in Chromium's IndexedDB: what one person saw comes back after a reload
 * (a new QueryClient), only what browsing needs is kept, and nothing comes back for another person, another
 * build, after 30 days, or once the server said it is gone.
 */
import { QueryClient, QueryObserver, type QueryKey } from '@tanstack/react-query';
import { openDB } from 'idb';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { AppError } from '../lib/app-error';
import { createQueryClient } from './query-client';
import { forgetAllQueries, QUERY_CACHE_DB, startQueryPersistence } from './query-persistence';

const DAY = 24 * 60 * 60_000;
const stops: (() => void)[] = [];

beforeEach(() => forgetAllQueries());
afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  vi.useRealTimers();
});

/** Keys of what is stored on the device. */
async function storedKeys(): Promise<string[]> {
  const db = await openDB(QUERY_CACHE_DB);
  try {
    return db.objectStoreNames.contains('queries') ? ((await db.getAllKeys('queries')) as string[]) : [];
  } finally {
    db.close();
  }
}

/** A QueryClient as the app makes one, opened as `userId` (a page load). */
async function opened(userId: string, options: { buster?: string } = {}): Promise<QueryClient> {
  const client = createQueryClient();
  stops.push(await startQueryPersistence(client, { userId, buster: options.buster ?? 'build-1' }));
  return client;
}

/** Fetches `key` with `data` as the server's answer, and waits until it is on the device. */
async function seen(client: QueryClient, key: QueryKey, data: unknown, stored = 1): Promise<void> {
  const before = (await storedKeys()).length;
  await client.fetchQuery({ queryKey: key, queryFn: () => data });
  await expect.poll(async () => (await storedKeys()).length).toBe(before + stored);
}

test('what browsing needs comes back after a reload, structured values (the URL maps) included', async () => {
  const first = await opened('ana');
  await seen(first, ['albums', 'list'], [{ id: 'a1', title: 'Porto' }]);
  await seen(first, ['items', 'a1', 'months', 'taken', false, '|'], [{ month: '2026-05', count: 2 }]);
  await seen(first, ['object-urls', 'thumb/1'], new Map([['thumb/1', 'https://bucket.test/thumb/1?sig=1']]));

  const reloaded = await opened('ana');
  expect(reloaded.getQueryData(['albums', 'list'])).toEqual([{ id: 'a1', title: 'Porto' }]);
  expect(reloaded.getQueryData(['items', 'a1', 'months', 'taken', false, '|'])).toEqual([{ month: '2026-05', count: 2 }]);
  expect(reloaded.getQueryData<Map<string, string>>(['object-urls', 'thumb/1'])?.get('thumb/1')).toBe('https://bucket.test/thumb/1?sig=1');
  // Aged from when it was fetched, so a screen using it fetches it again once it is stale.
  expect(reloaded.getQueryState(['albums', 'list'])?.dataUpdatedAt).toBe(first.getQueryState(['albums', 'list'])?.dataUpdatedAt);
});

/** What a screen using `key` shows, when the server's answer now is `answer`: it subscribes as useQuery does. */
function use(client: QueryClient, key: QueryKey, answer: unknown) {
  let asked = 0;
  const observer = new QueryObserver(client, {
    queryKey: key,
    queryFn: () => {
      asked++;
      return answer;
    },
  });
  stops.push(observer.subscribe(() => undefined));
  return { shown: () => observer.getCurrentResult().data, asked: () => asked };
}

test('a copy restored within staleTime of being saved is shown at once and still read again when a screen uses it', async () => {
  const first = await opened('ana');
  await seen(first, ['albums', 'list'], [{ id: 'a1', title: 'Porto' }]);

  // Reloaded seconds later (an installed app opened by a share), after an album was made.
  const reloaded = await opened('ana');
  const screen = use(reloaded, ['albums', 'list'], [{ id: 'a2', title: 'Harbour' }, { id: 'a1', title: 'Porto' }]);
  expect(screen.shown()).toEqual([{ id: 'a1', title: 'Porto' }]);
  await expect.poll(screen.shown).toEqual([{ id: 'a2', title: 'Harbour' }, { id: 'a1', title: 'Porto' }]);
  expect(screen.asked()).toBe(1);
});

test('a query dropped from memory and restored from the device on its next use is read again too', async () => {
  const first = await opened('ana');
  await seen(first, ['albums', 'detail', 'a1'], { id: 'a1', title: 'Porto' });

  const reloaded = await opened('ana');
  reloaded.removeQueries({ queryKey: ['albums', 'detail', 'a1'] });
  const screen = use(reloaded, ['albums', 'detail', 'a1'], { id: 'a1', title: 'Porto by night' });
  await expect.poll(screen.shown).toEqual({ id: 'a1', title: 'Porto by night' });
});

test('only the allow-listed keys are kept: not devices, invitations, share-link pages or members', async () => {
  const client = await opened('ana');
  await seen(client, ['albums', 'detail', 'a1'], { id: 'a1' });
  for (const key of [['devices', 'list'], ['invites', 'a1'], ['share', 'token-1'], ['members', 'a1'], ['albums', 'pending', 'a1'], ['share-guest-uploads', 't', 'g']]) {
    await client.fetchQuery({ queryKey: key, queryFn: () => ({ secret: key.join('/') }) });
  }
  await seen(client, ['albums', 'list'], []);
  const keys = await storedKeys();
  expect(keys).toHaveLength(2);
  expect(keys.every((k) => k.startsWith('shoebox-ana-') && k.includes('albums'))).toBe(true);
});

test('another person signing in on the browser never gets the last one\u2019s copy, which is deleted', async () => {
  const ana = await opened('ana');
  await seen(ana, ['albums', 'list'], [{ id: 'a1', title: 'Porto' }]);

  const bea = await opened('bea');
  expect(bea.getQueryData(['albums', 'list'])).toBeUndefined();
  expect(await storedKeys()).toEqual([]);
});

test('signing out (nobody signed in) deletes everything kept, and a fetch finishing afterwards writes nothing back', async () => {
  const client = createQueryClient();
  const stop = await startQueryPersistence(client, { userId: 'ana', buster: 'build-1' });
  let answer!: (v: unknown) => void;
  const late = client.fetchQuery({ queryKey: ['albums', 'list'], queryFn: () => new Promise((resolve) => (answer = resolve)) });
  await seen(client, ['albums', 'detail', 'a1'], { id: 'a1' });

  stop();
  await forgetAllQueries();
  answer([{ id: 'a1' }]);
  await late;
  await new Promise((r) => setTimeout(r, 50));
  expect(await storedKeys()).toEqual([]);
});

test('a new build of the app does not restore what the last one kept', async () => {
  const old = await opened('ana', { buster: 'build-1' });
  await seen(old, ['albums', 'list'], [{ id: 'a1' }]);

  const next = await opened('ana', { buster: 'build-2' });
  expect(next.getQueryData(['albums', 'list'])).toBeUndefined();
  expect(await storedKeys()).toEqual([]);
});

test('a copy is kept 30 days: at 29 days it comes back, past 30 it is dropped', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  const start = Date.now();
  const client = await opened('ana');
  await seen(client, ['albums', 'list'], [{ id: 'a1' }]);

  vi.setSystemTime(start + 29 * DAY);
  expect((await opened('ana')).getQueryData(['albums', 'list'])).toEqual([{ id: 'a1' }]);

  vi.setSystemTime(start + 31 * DAY);
  expect((await opened('ana')).getQueryData(['albums', 'list'])).toBeUndefined();
  expect(await storedKeys()).toEqual([]);
});

test('an answer that the album is gone or forbidden is not papered over with the kept copy', async () => {
  const first = await opened('ana');
  await seen(first, ['albums', 'detail', 'a1'], { id: 'a1', title: 'Porto' });

  const reloaded = await opened('ana');
  expect(reloaded.getQueryData(['albums', 'detail', 'a1'])).toEqual({ id: 'a1', title: 'Porto' });
  await expect(
    reloaded.fetchQuery({
      queryKey: ['albums', 'detail', 'a1'],
      queryFn: () => Promise.reject(new AppError('album/forbidden', 'You are no longer a member of this album.')),
      staleTime: 0,
    }),
  ).rejects.toThrow(AppError);
  expect(reloaded.getQueryData(['albums', 'detail', 'a1'])).toBeUndefined();
  await expect.poll(storedKeys).toEqual([]);

  // A failure that may pass (the network) keeps the copy.
  const third = await opened('ana');
  await seen(third, ['albums', 'list'], [{ id: 'a1' }]);
  await expect(
    third.fetchQuery({ queryKey: ['albums', 'list'], queryFn: () => Promise.reject(new AppError('backend/unreachable', 'down', { retryable: false })), staleTime: 0 }),
  ).rejects.toThrow(AppError);
  expect(third.getQueryData(['albums', 'list'])).toEqual([{ id: 'a1' }]);
  expect(await storedKeys()).toHaveLength(1);
});
