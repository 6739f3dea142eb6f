/**
 * One browser, two people, on an emulated Supabase project (tests/browser/browser-wire.ts): Ana uses the app,
 * then Bea signs in on the same browser. Nothing Ana left on the device (the thumbnails the worker cached, her
 * upload queue, the files shared while she was signed in) reaches Bea, and it is deleted when Ana's session ends.
 * A session merely unreadable offline deletes nothing.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { page } from 'vitest/browser';
import { PASSWORD, startBrowserWire, type BrowserWire } from '../../../tests/browser/browser-wire';
import { PersistedQueries } from '../../app/persisted-queries';
import { createQueryClient } from '../../app/query-client';
import { BackendContext, useSession } from '../../backend/backend-context';
import type { Backend, Session } from '../../backend/ports';
import type { KeyValueStorage } from '../../backend/supabase/kept-profile';
import { ByteCappedCache } from '../../sw/byte-capped-cache';
import { THUMBNAIL_CACHE } from '../../sw/thumbnail-cache';
import type { LazyUploadEngine } from '../../upload/lazy-upload-engine';
import { DEFAULT_UPLOAD_DB, UploadStore } from '../../upload/upload-store';
import { UploadEngineProvider, useUploadEngine, useUploadQueue } from '../uploads/upload-engine-provider';
import { DeviceOwner } from './device-owner';
import { DevicesSection } from './devices-section';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);

let wire: BrowserWire;
beforeAll(async () => {
  wire = await startBrowserWire();
}, 300_000);
afterAll(() => wire.stop());

const eventually = <T,>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout });

/** What the queue screen showed, to whom. */
let shownTo: Map<string | null, string[][]>;
let engine: LazyUploadEngine | null;

function QueueProbe() {
  const userId = useSession()?.userId ?? null;
  const { tasks } = useUploadQueue({ load: userId !== null });
  engine = useUploadEngine();
  const names = tasks.map((t) => t.filename);
  shownTo.set(userId, [...(shownTo.get(userId) ?? []), names]);
  return (
    <ul aria-label="Uploads" data-user={userId ?? ''}>
      {names.map((n) => (
        <li key={n}>{n}</li>
      ))}
    </ul>
  );
}

/** The page of one browser, its providers as App mounts them, following the backend's session. */
function BrowserPage({ backend, children }: { backend: Backend; children?: ReactNode }) {
  const client = useMemo(createQueryClient, []);
  const [session, setSession] = useState<{ now: Session | null } | null>(null);
  useEffect(() => backend.auth.onSessionChange((now) => setSession({ now })), [backend]);
  if (!session) return null;
  return (
    <BackendContext.Provider value={{ backend, session: session.now }}>
      <QueryClientProvider client={client}>
        <PersistedQueries>
          <DeviceOwner>
            <UploadEngineProvider>
              <QueueProbe />
              {children}
            </UploadEngineProvider>
          </DeviceOwner>
        </PersistedQueries>
      </QueryClientProvider>
    </BackendContext.Provider>
  );
}

const open = (backend: Backend, children?: ReactNode) =>
  flushSync(() =>
    root.render(
      <BrowserPage key={crypto.randomUUID()} backend={backend}>
        {children}
      </BrowserPage>,
    ),
  );
const close = () => flushSync(() => root.render(null));
/** Whose screens show, once they show. */
const screensOf = () => document.querySelector('[aria-label="Uploads"]')?.getAttribute('data-user') ?? 'none';
const uploadsShown = () => [...document.querySelectorAll('[aria-label="Uploads"] li')].map((li) => li.textContent);

/** The ids of the upload tasks kept in any of the browser's upload databases. */
async function storedTaskIds(): Promise<string[]> {
  const ids: string[] = [];
  for (const { name } of await indexedDB.databases()) {
    if (!name?.startsWith(DEFAULT_UPLOAD_DB)) continue;
    const store = await UploadStore.open(name);
    ids.push(...(await store.loadAll()).map((t) => t.id));
    store.close();
  }
  return ids;
}

async function waitingShares(): Promise<string[]> {
  const inbox = await UploadStore.open(DEFAULT_UPLOAD_DB);
  const shares = await inbox.listShares();
  inbox.close();
  return shares.map((s) => s.id);
}

/** As the service worker keeps a share: in the device's inbox, received now. */
async function shareArrives(id: string): Promise<void> {
  const inbox = await UploadStore.open(DEFAULT_UPLOAD_DB);
  await inbox.putShare({ id, createdAt: new Date().toISOString(), files: [new File(['%PDF-1.4'], `${id}.pdf`)], title: '', text: '', url: '' });
  inbox.close();
}

/** As the worker keeps a thumbnail seen online. */
async function thumbnailSeen(path: string): Promise<void> {
  const answer = await fetch(URL.createObjectURL(new Blob([new Uint8Array(2_000).fill(7)], { type: 'image/webp' })));
  const cache = new ByteCappedCache({ cacheName: THUMBNAIL_CACHE });
  expect(await cache.put(`https://bucket.test${path}?X-Amz-Signature=${'a'.repeat(64)}`, answer)).toBe(true);
  cache.close();
}

async function thumbnailsKept(): Promise<string[]> {
  const cache = new ByteCappedCache({ cacheName: THUMBNAIL_CACHE });
  const kept = [...(await cache.keys()), ...(await (await caches.open(THUMBNAIL_CACHE)).keys()).map((r) => r.url)];
  cache.close();
  return kept;
}

/** Ana, signed in on `backend`, adds a file to an album of hers and pauses it: an upload not finished. */
async function anaQueuesAFile(backend: Backend): Promise<string> {
  const album = await backend.albums.createAlbum({ title: 'Porto' });
  await eventually(() => engine !== null && screensOf() !== 'none').toBe(true);
  const [view] = await engine!.enqueue(album.id, [new File(['a long day at the beach'], 'ana-beach.txt', { type: 'text/plain' })]);
  await engine!.pause(view!.id);
  await eventually(uploadsShown).toEqual(['ana-beach.txt']);
  return view!.id;
}

beforeEach(async () => {
  close();
  shownTo = new Map();
  engine = null;
  localStorage.removeItem('shoebox.device-owner');
  for (const { name } of await indexedDB.databases()) if (name?.startsWith(DEFAULT_UPLOAD_DB)) await UploadStore.remove(name);
  const thumbs = new ByteCappedCache({ cacheName: THUMBNAIL_CACHE });
  await thumbs.clear();
  thumbs.close();
});

test('Ana signs out: her thumbnails, her unfinished upload and the files shared to her go; what is shared next waits for Bea', async () => {
  const [ana, bea] = await Promise.all([wire.person('Ana'), wire.person('Bea')]);
  const browser = wire.browser();
  await browser.auth.signInWithPassword(ana.email, PASSWORD);
  open(browser);
  await eventually(screensOf).toBe(ana.id);
  const taskId = await anaQueuesAFile(browser);
  await thumbnailSeen('/albums/a1/i1/thumb.webp');
  await shareArrives('shared-to-ana');
  expect(await storedTaskIds()).toEqual([taskId]);

  await browser.auth.signOut();
  await eventually(storedTaskIds).toEqual([]);
  await eventually(thumbnailsKept).toEqual([]);
  await eventually(waitingShares).toEqual([]);

  // Shared while nobody is signed in: for whoever signs in next.
  await shareArrives('shared-after');
  await browser.auth.signInWithPassword(bea.email, PASSWORD);
  await eventually(screensOf).toBe(bea.id);
  await engine!.load();
  expect(uploadsShown()).toEqual([]);
  expect(shownTo.get(bea.id)?.flat()).not.toContain('ana-beach.txt');
  expect(await waitingShares()).toEqual(['shared-after']);
});

test('Bea signing in where Ana is still signed in never sees Ana\u2019s upload, and Ana\u2019s things are gone before Bea\u2019s screens show', async () => {
  const [ana, bea] = await Promise.all([wire.person('Ana'), wire.person('Bea')]);
  const browser = wire.browser();
  await browser.auth.signInWithPassword(ana.email, PASSWORD);
  open(browser);
  await eventually(screensOf).toBe(ana.id);
  await anaQueuesAFile(browser);
  await thumbnailSeen('/albums/a1/i2/preview.webp');
  await shareArrives('shared-to-ana');

  await browser.auth.signInWithPassword(bea.email, PASSWORD);
  await eventually(screensOf).toBe(bea.id);
  // By the time Bea's first screen showed, nothing of Ana's was left.
  expect(await thumbnailsKept()).toEqual([]);
  expect(await storedTaskIds()).toEqual([]);
  expect(await waitingShares()).toEqual([]);
  await engine!.load();
  expect(uploadsShown()).toEqual([]);
  expect(shownTo.get(bea.id)?.flat()).not.toContain('ana-beach.txt');
});

test('signing out with an upload not finished asks first: kept uploading, nothing goes; confirmed, the upload goes with the session', async () => {
  const ana = await wire.person('Ana');
  const browser = wire.browser();
  await browser.auth.signInWithPassword(ana.email, PASSWORD);
  open(browser, <DevicesSection />);
  await eventually(screensOf).toBe(ana.id);
  const taskId = await anaQueuesAFile(browser);

  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  const asked = page.getByRole('dialog', { name: 'Sign out before your uploads finish?' });
  await expect.element(asked).toHaveTextContent('1 file has not finished uploading.');
  await asked.getByRole('button', { name: 'Keep uploading' }).click();
  await expect.element(asked).not.toBeInTheDocument();
  expect(screensOf()).toBe(ana.id);
  expect(await storedTaskIds()).toEqual([taskId]);

  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  await asked.getByRole('button', { name: 'Sign out', exact: true }).click();
  await eventually(screensOf).toBe('');
  await eventually(storedTaskIds).toEqual([]);
});

test('opened offline with an expired session, nothing of Ana\u2019s is deleted, and her upload is there once the session comes back', async () => {
  const ana = await wire.person('Ana');
  const kept = new Map<string, string>();
  const storageArea: KeyValueStorage = { getItem: (k) => kept.get(k) ?? null, setItem: (k, v) => void kept.set(k, v), removeItem: (k) => void kept.delete(k) };
  let online = true;
  const fetchWhileOnline: typeof fetch = (input, init) => (online ? wire.fetch(input, init) : Promise.reject(new TypeError('Failed to fetch')));
  const first = wire.browser({ storageArea, fetch: fetchWhileOnline });
  await first.auth.signInWithPassword(ana.email, PASSWORD);
  open(first);
  await eventually(screensOf).toBe(ana.id);
  const taskId = await anaQueuesAFile(first);
  await thumbnailSeen('/albums/a1/i3/thumb.webp');
  close();

  // The next day, offline: the access token kept has expired and cannot be refreshed.
  online = false;
  const tokenKey = [...kept.keys()].find((k) => k.endsWith('-auth-token'))!;
  const token = JSON.parse(kept.get(tokenKey)!) as { expires_at: number };
  kept.set(tokenKey, JSON.stringify({ ...token, expires_at: Math.floor(Date.now() / 1000) - 3600 }));
  open(wire.browser({ storageArea, fetch: fetchWhileOnline }));
  // supabase-js tries to refresh for half a minute before it gives up and reads no session.
  await eventually(screensOf, 60_000).toBe('');
  // Past the time a missing session is checked for (10 s): the check could not tell, so nothing went.
  await new Promise((r) => setTimeout(r, 11_000));
  expect(await storedTaskIds()).toEqual([taskId]);
  expect(await thumbnailsKept()).toHaveLength(2);

  online = true;
  close();
  open(wire.browser({ storageArea, fetch: fetchWhileOnline }));
  await eventually(screensOf).toBe(ana.id);
  await eventually(uploadsShown).toEqual(['ana-beach.txt']);
}, 120_000);
