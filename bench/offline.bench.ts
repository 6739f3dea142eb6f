/**
 * Offline browsing of a large album seen online, on the emulated Supabase project (tests/e2e/supabase-world.ts)
 * with the app's service worker. Run by bench/offline-bench.mjs, which turns what this writes to OFFLINE_RESULT
 * into the result table.
 *
 * The album's items and thumbnail objects are seeded straight into SQL and the bucket. Signed in, the person
 * opens the album and scrolls the whole grid a screenful at a time, waiting for every thumbnail in view to be
 * drawn; then the context goes offline and the same page is browsed again from the top to the end, with the
 * page's memory and HTTP caches bypassed (DevTools' "disable cache") so that every thumbnail the grid shows is
 * asked of the service worker. Last, the page is reloaded offline, as an app started without the network, and
 * browsed the same way once more.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, test } from '../tests/e2e/supabase-world';
import { varyingThumbnails } from './bench-photos';
import { seedAlbum } from './bench-seed';
import { workerReady } from '../tests/e2e/helpers';

const ITEMS = Number(process.env.OFFLINE_ITEMS ?? 10_000);
const DISTINCT = Number(process.env.OFFLINE_DISTINCT_THUMBS ?? 400);
const VIEWPORT = { width: 1600, height: 2400 };
/** How long one screenful may take to draw before its missing thumbnails are counted as missing. */
const SCREEN_TIMEOUT_MS = Number(process.env.OFFLINE_SCREEN_TIMEOUT_MS ?? 20_000);

export interface Pass {
  seconds: number;
  screens: number;
  /** Tiles seen in view during the pass, and of those, the ones whose thumbnail was drawn at some point. */
  tiles: number;
  drawn: number;
  /** Thumbnail requests the page made during the pass: answered by the service worker (200), by the network, failed. */
  requests: number;
  fromWorker: number;
  fromNetwork: number;
  failed: number;
  /** Other requests the network answered (API, signing): none may while offline. */
  otherFromNetwork: number;
}
export interface OfflineOutput {
  items: number;
  distinctThumbs: number;
  thumbBytes: number;
  seedSeconds: number;
  online: Pass;
  offline: Pass;
  cache: { indexBytes: number; indexEntries: number; cacheEntries: number; usage: number; quota: number; cap: number };
  /** The same offline pass after a reload with the network off; `shows` is what the page says first. */
  reload: Pass & { shows: string; onLine: boolean };
}

const emptyPass: Pass = { seconds: 0, screens: 0, tiles: 0, drawn: 0, requests: 0, fromWorker: 0, fromNetwork: 0, failed: 0, otherFromNetwork: 0 };

interface Screen {
  drawn: string[];
  missing: string[];
  atEnd: boolean;
}

/**
 * Scrolls the grid to `top` and waits until every tile in view has its thumbnail complete (drawn or broken), or
 * the timeout; returns the tiles in view by what they show.
 */
async function screenAt(page: Page, top: number | 'next'): Promise<Screen> {
  return page.evaluate(
    async ({ top, timeout }) => {
      const el = document.querySelector<HTMLElement>('[data-testid="grid-scroller"]')!;
      if (top === 'next') el.scrollTop += el.clientHeight;
      else el.scrollTop = top;
      const view = el.getBoundingClientRect();
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const started = performance.now();
      for (;;) {
        await frame();
        const tiles = [...el.querySelectorAll<HTMLElement>('.tile')].filter((t) => {
          const r = t.getBoundingClientRect();
          return r.bottom > view.top && r.top < view.bottom;
        });
        const state = tiles.map((t) => {
          const img = t.querySelector<HTMLImageElement>('img.tile__thumb');
          return { id: t.dataset.itemId!, done: !!img && img.complete, drawn: !!img && img.complete && img.naturalWidth > 0 };
        });
        if ((state.length > 0 && state.every((s) => s.done)) || performance.now() - started > timeout) {
          return {
            drawn: state.filter((s) => s.drawn).map((s) => s.id),
            missing: state.filter((s) => !s.drawn).map((s) => s.id),
            atEnd: el.scrollTop + el.clientHeight >= el.scrollHeight - 2,
          };
        }
      }
    },
    { top, timeout: SCREEN_TIMEOUT_MS },
  );
}

/** Counts the thumbnail requests of the page while `during` runs. */
async function counted(page: Page, during: () => Promise<Omit<Pass, 'requests' | 'fromWorker' | 'fromNetwork' | 'failed' | 'otherFromNetwork'>>): Promise<Pass> {
  const c = { requests: 0, fromWorker: 0, fromNetwork: 0, failed: 0, otherFromNetwork: 0 };
  const isThumb = (url: string) => /\/thumb\.webp(\?|$)/.test(url);
  const onRequest = (r: { url(): string }) => void (isThumb(r.url()) && c.requests++);
  const onResponse = (r: { url(): string; status(): number; fromServiceWorker(): boolean }) => {
    if (!isThumb(r.url())) {
      if (!r.fromServiceWorker() && /^https?:/.test(r.url())) c.otherFromNetwork++;
      return;
    }
    if (r.status() !== 200) c.failed++;
    else if (r.fromServiceWorker()) c.fromWorker++;
    else c.fromNetwork++;
  };
  const onFailed = (r: { url(): string }) => void (isThumb(r.url()) && c.failed++);
  page.on('request', onRequest);
  page.on('response', onResponse);
  page.on('requestfailed', onFailed);
  try {
    return { ...(await during()), ...c };
  } finally {
    page.off('request', onRequest);
    page.off('response', onResponse);
    page.off('requestfailed', onFailed);
  }
}

/** One pass over the whole grid, top to end, a screenful at a time. */
async function browseAll(page: Page): Promise<Pass> {
  return counted(page, async () => {
    const t0 = Date.now();
    const drawn = new Set<string>();
    const seen = new Set<string>();
    let screens = 0;
    let s = await screenAt(page, 0);
    for (;;) {
      screens++;
      for (const id of s.drawn) {
        drawn.add(id);
        seen.add(id);
      }
      for (const id of s.missing) seen.add(id);
      if (s.atEnd) {
        // The grid may grow as it nears the end (a month's pages arriving): look again once it is still.
        await page.waitForTimeout(500);
        const again = await screenAt(page, 'next');
        if (again.atEnd && again.drawn.concat(again.missing).every((id) => seen.has(id))) break;
        s = again;
        continue;
      }
      s = await screenAt(page, 'next');
    }
    return { seconds: (Date.now() - t0) / 1000, screens, tiles: seen.size, drawn: drawn.size };
  });
}

/** The byte-capped cache's own accounting (src/sw/byte-capped-cache.ts), the Cache API's entries, the origin's estimate. */
async function cacheState(page: Page): Promise<OfflineOutput['cache']> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open('shoebox-thumbnails-index');
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const ask = <T,>(store: string, op: (s: IDBObjectStore) => IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        const req = op(db.transaction(store).objectStore(store));
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    const indexBytes = ((await ask('totals', (s) => s.get('bytes'))) as number | undefined) ?? 0;
    const indexEntries = await ask('entries', (s) => s.count());
    db.close();
    const cacheEntries = (await (await caches.open('shoebox-thumbnails')).keys()).length;
    const { usage = 0, quota = 0 } = await navigator.storage.estimate();
    return { indexBytes, indexEntries, cacheEntries, usage, quota, cap: 300 * 1024 * 1024 };
  });
}


test('an album of many items seen online browses offline from the worker cache', async ({ browser, world, signIn }) => {
  test.setTimeout(45 * 60_000);
  const who = await world.newPerson('Otto');
  const seedStart = Date.now();
  const thumbs = await varyingThumbnails(DISTINCT);
  const album = await seedAlbum(world, who, 'Every day of the trip', ITEMS, thumbs);
  const seedSeconds = (Date.now() - seedStart) / 1000;

  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await signIn(context, who);
  await workerReady(page);
  await page.goto(`/albums/${album.albumId}`);
  await expect(page.locator('img.tile__thumb').first()).toBeVisible({ timeout: 60_000 });

  const online = await browseAll(page);
  // The worker keeps each answer after passing it on: wait until its count stops moving.
  let last = -1;
  for (let i = 0; i < 60; i++) {
    const now = (await cacheState(page)).indexEntries;
    if (now === last) break;
    last = now;
    await page.waitForTimeout(1000);
  }
  const cache = await cacheState(page);

  await context.setOffline(true);
  // [Note: Offline is also refused at the gateway] The emulated project and bucket answer through Playwright's
  // routing, and a routed request is fulfilled without touching the network, offline or not. So the network
  // goes away there too: every request that leaves the page or the worker is refused as a dropped connection.
  await context.route('**/*', (route) => route.abort('internetdisconnected'));
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const offline = await browseAll(page);

  // A start without the network: the shell from the precache, the album from the query cache kept on the
  // device, the thumbnails from the worker's cache. The same pass again, from the top.
  // A new document has no memory cache to bypass. The DevTools session goes first: with it attached, the
  // reloaded page says navigator.onLine true although the context is offline, which no real start would.
  await cdp.detach();
  await page.reload().catch(() => undefined);
  const shown = await page
    .locator('.tile')
    .first()
    .waitFor({ timeout: 30_000 })
    .then(() => true)
    .catch(() => false);
  const onLine = await page.evaluate(() => navigator.onLine);
  const shows = (await page.evaluate(() => (document.querySelector('main')?.innerText || document.body.innerText).replace(/\s+/g, ' ').trim().slice(0, 200))) as string;
  const reload: OfflineOutput['reload'] = shown ? { ...(await browseAll(page)), shows, onLine } : { ...emptyPass, shows, onLine };
  await context.close();

  const out: OfflineOutput = { items: ITEMS, distinctThumbs: thumbs.length, thumbBytes: album.thumbBytes, seedSeconds, online, offline, cache, reload };
  const file = process.env.OFFLINE_RESULT;
  if (file) writeFileSync(file, JSON.stringify(out, null, 2));
  else console.log(JSON.stringify(out, null, 2));
});
