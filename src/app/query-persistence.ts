import { experimental_createQueryPersister, type AsyncStorage, type PersistedQuery } from '@tanstack/query-persist-client-core';
import type { QueryClient, QueryKey, QueryPersister } from '@tanstack/react-query';
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import { AppError, type ErrorCode } from '../lib/app-error';
import { log } from '../lib/log';

// [Note: The query cache kept on the device]
// On a backend whose data lives on a server, what browsing needs (the albums list, an album, its month counts
// and rows, an item, the signed URLs of their thumbnails) is written to IndexedDB one query at a time, so an
// album seen before opens offline after a reload, and an installed app draws its albums at once while the
// fresh answers come (stale-while-revalidate).
// - One entry per query (TanStack's per-query persister): a new page of a 10,000-item album writes that page,
//   never the whole cache again. Entries are stored as structured clones (no JSON round trip).
// - Restored before the screens mount, not on a query's first fetch: offline, a query in networkMode 'online'
//   is paused and never calls its queryFn, so a persister that restores from inside the fetch would never run.
//   Restored data is marked stale (invalidated), so online a screen that uses it reads it again at once. Its
//   save time alone would not do: a page reloaded within `staleTime` of the save (30 s: an installed app that
//   receives a share just after an album was made) would take the copy as fresh and never ask for what
//   changed meanwhile.
// - Per person: entries are keyed by the user id, everyone else's are deleted when someone signs in, and all
//   are deleted when nobody is signed in (sign-out, or a session that ended). A build changes the buster, and
//   entries older than MAX_AGE_MS are dropped.
// - An answer that says the data is gone or no longer ours (not found, forbidden, session expired) deletes the
//   entry and the data shown: a stale copy must not stand in for it.
// The local backend keeps nothing here: its data is on the device already, and its object URLs are `blob:`
// URLs that die with the page.

export const QUERY_CACHE_DB = 'shoebox-query-cache';
const STORE = 'queries';
export const MAX_AGE_MS = 30 * 24 * 60 * 60_000;
const WRITE_DELAY_MS = 300;

interface QueryCacheDb extends DBSchema {
  queries: { key: string; value: PersistedQuery };
}

/** The query keys whose answers browsing needs; nothing else (share-link pages, devices, invitations) is kept. */
export function isPersistedKey(key: QueryKey): boolean {
  const [root] = key;
  if (root === 'albums') return key[1] === 'list' || key[1] === 'detail';
  // ['items', albumId, kind, ...]
  if (root === 'items') return key[2] === 'months' || key[2] === 'month' || key[2] === 'detail';
  return root === 'object-urls';
}

/** Answers after which the data must not be shown again from the device. */
const GONE: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['auth/session-expired', 'album/not-found', 'album/forbidden', 'item/not-found']);

/** This build's identity: the main bundle's name carries its content hash, so a new build has a new one. */
export function buildBuster(): string {
  return new URL(import.meta.url).pathname;
}

let opening: Promise<IDBPDatabase<QueryCacheDb>> | null = null;
function db(): Promise<IDBPDatabase<QueryCacheDb>> {
  opening ??= openDB<QueryCacheDb>(QUERY_CACHE_DB, 1, {
    upgrade: (d) => void d.createObjectStore(STORE),
    // Another tab of a newer build wants to upgrade: let it.
    blocking: () => {
      void opening?.then((d) => d.close());
      opening = null;
    },
  });
  return opening;
}

/**
 * The store as TanStack's persister wants it. A write that fails (quota, a value that cannot be cloned) only
 * loses the offline copy; one that lands after the person signed out (a fetch that was under way) is dropped.
 */
const storageWhile = (active: () => boolean): AsyncStorage<PersistedQuery> => ({
  getItem: async (key) => (await db()).get(STORE, key),
  setItem: async (key, value) => {
    if (!active()) return;
    try {
      await (await db()).put(STORE, value, key);
    } catch (e) {
      log.warn('The offline copy of a query could not be written', e);
    }
  },
  removeItem: async (key) => void (await (await db()).delete(STORE, key)),
  entries: async () => {
    const d = await db();
    const tx = d.transaction(STORE);
    const [keys, values] = await Promise.all([tx.store.getAllKeys(), tx.store.getAll()]);
    return keys.map((k, i) => [k, values[i]!] as [string, PersistedQuery]);
  },
});

/** Only what a restore needs: the data and when it was fetched (no error, no fetch state). */
function serialize(p: PersistedQuery): PersistedQuery {
  const { data, dataUpdatedAt } = p.state;
  return {
    ...p,
    state: {
      data,
      dataUpdatedAt,
      dataUpdateCount: 1,
      error: null,
      errorUpdatedAt: 0,
      errorUpdateCount: 0,
      fetchFailureCount: 0,
      fetchFailureReason: null,
      fetchMeta: null,
      isInvalidated: false,
      status: 'success',
      fetchStatus: 'idle',
    },
  };
}

const prefixOf = (userId: string) => `shoebox-${userId}`;

/** Deletes every person's offline copy (sign-out, or a session that ended). */
export async function forgetAllQueries(): Promise<void> {
  await (await db()).clear(STORE);
}

export interface QueryPersistenceOptions {
  userId: string;
  buster?: string;
  maxAge?: number;
}

/**
 * Starts keeping `userId`'s browsing queries on the device: deletes anyone else's, restores this person's into
 * `client`, and persists each allowed query after it is fetched. Returns the function that stops it.
 */
export async function startQueryPersistence(client: QueryClient, { userId, buster = buildBuster(), maxAge = MAX_AGE_MS }: QueryPersistenceOptions): Promise<() => void> {
  const prefix = prefixOf(userId);
  let active = true;
  const storage = storageWhile(() => active);
  const persister = experimental_createQueryPersister<PersistedQuery>({
    storage,
    buster,
    maxAge,
    prefix,
    serialize,
    deserialize: (p) => p,
    filters: { predicate: (q) => isPersistedKey(q.queryKey) },
    // A query dropped from memory and restored on its next fetch: that fetch is its use, so read it again too.
    refetchOnRestore: 'always',
  });
  try {
    const d = await db();
    const others = (await d.getAllKeys(STORE)).filter((k) => !k.startsWith(`${prefix}-`));
    if (others.length > 0) {
      const tx = d.transaction(STORE, 'readwrite');
      await Promise.all([...others.map((k) => tx.store.delete(k)), tx.done]);
    }
    // Expired and busted entries are deleted on the way.
    await persister.restoreQueries(client as never);
    // Nothing else is in the cache yet (the screens mount after this): all of it came from the device.
    await client.invalidateQueries({ predicate: (q) => isPersistedKey(q.queryKey), refetchType: 'none' });
  } catch (e) {
    // No IndexedDB (a private window of some browsers): the app works online as before.
    log.warn('The offline copy of the albums could not be read', e);
  }

  const defaults = client.getDefaultOptions();
  client.setDefaultOptions({ ...defaults, queries: { ...defaults.queries, persister: persister.persisterFn as unknown as QueryPersister } });

  // Changes made in place (a live change, an upload finishing) are no fetch, so the persister does not see them:
  // they are written here, a query at most once per WRITE_DELAY_MS.
  const due = new Map<string, ReturnType<typeof setTimeout>>();
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated') return;
    if (event.action.type === 'success' && event.action.manual && isPersistedKey(event.query.queryKey)) {
      const query = event.query;
      if (!due.has(query.queryHash)) {
        due.set(query.queryHash, setTimeout(() => {
          due.delete(query.queryHash);
          if (active && query.state.data !== undefined) void persister.persistQuery(query as never);
        }, WRITE_DELAY_MS));
      }
      return;
    }
    if (event.action.type !== 'error') return;
    const { error } = event.action;
    if (!(error instanceof AppError) || !GONE.has(error.code) || !isPersistedKey(event.query.queryKey)) return;
    event.query.setState({ data: undefined, dataUpdatedAt: 0 });
    void storage.removeItem(`${prefix}-${event.query.queryHash}`);
  });

  return () => {
    active = false;
    due.forEach((timer) => clearTimeout(timer));
    unsubscribe();
    const now = client.getDefaultOptions();
    const { persister: _dropped, ...queries } = now.queries ?? {};
    client.setDefaultOptions({ ...now, queries });
  };
}
