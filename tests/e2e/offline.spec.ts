import type { BrowserContext, Page, Route } from '@playwright/test';
import { expect, test } from './csp-test';
import { addFiles, createAlbum, expectItemCount, fixture, tile, workerReady } from './helpers';
import { test as worldTest } from './supabase-world';

async function thumbnailDrawn(page: Page, filename: string): Promise<void> {
  const img = tile(page, filename).locator('img.tile__thumb');
  await expect(img).toBeVisible();
  await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
}

test('the app shell opens with the network off, from the built index.html under its policy', async ({ page, context }) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  await workerReady(page);

  // What is precached is the built page, Content-Security-Policy meta included.
  const cached = await page.evaluate(async () => (await (await caches.match('/index.html', { ignoreSearch: true }))?.text()) ?? '');
  expect(cached).toContain('http-equiv="Content-Security-Policy"');

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  // A deep link too: every app route is answered with the shell.
  await page.goto('/uploads');
  await expect(page.getByRole('heading', { level: 1, name: /uploads/i })).toBeVisible();
  await context.setOffline(false);
});

test('the sign-in callback, function, REST and download paths are never answered from the cache', async ({ page, context }) => {
  await page.goto('/');
  await workerReady(page);
  await context.setOffline(true);
  // An app route opens from the cache.
  await page.goto('/account');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  for (const path of ['/auth/callback?code=one-time', '/functions/v1/storage-sign', '/rest/v1/albums']) {
    // Offline, only the cache could answer: a navigation that fails shows it went to the network.
    const tab = await context.newPage();
    const error = await tab.goto(path).then(
      () => null,
      (e: Error) => e.message,
    );
    expect(error, path).toMatch(/ERR_INTERNET_DISCONNECTED|ERR_FAILED|chrome-error/);
    await tab.close();
  }
  await context.setOffline(false);
  // A download path is the download route's, which says the download has ended rather than showing the app.
  const download = await page.goto('/__download/gone/photos.zip');
  expect(download?.status()).toBe(404);
  await expect(page.getByText('This download has ended')).toBeVisible();
});

test('an album viewed online browses offline after a reload, thumbnails included (local backend)', async ({ page, context }) => {
  await createAlbum(page, 'Seen before');
  await workerReady(page);
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('orientation-3.jpg')]);
  await expectItemCount(page, 2);
  await thumbnailDrawn(page, 'orientation-1.jpg');
  const albumUrl = page.url();

  await context.setOffline(true);
  await page.goto('/');
  await page.getByRole('link', { name: /Seen before/ }).first().click();
  await expectItemCount(page, 2);
  await page.goto(albumUrl);
  await expectItemCount(page, 2);
  await thumbnailDrawn(page, 'orientation-1.jpg');
  await thumbnailDrawn(page, 'orientation-3.jpg');
  await context.setOffline(false);
});

worldTest('a thumbnail from the S3 bucket is kept by object and shows offline under a signature the bucket would refuse', async ({ browser, world, signIn }) => {
  const ana = await world.newPerson('Ana');
  const context = await browser.newContext();
  const page = await signIn(context, ana);
  await createAlbum(page, 'Porto');
  await workerReady(page);
  await addFiles(page, [fixture('orientation-1.jpg')]);
  await thumbnailDrawn(page, 'orientation-1.jpg');
  const src = (await tile(page, 'orientation-1.jpg').locator('img.tile__thumb').getAttribute('src')) ?? '';
  expect(src).toContain('X-Amz-Signature=');

  // Kept under the object's address, without the signing query.
  const object = src.split('?')[0]!;
  await expect.poll(() => page.evaluate(async () => (await (await caches.open('shoebox-thumbnails')).keys()).map((r) => r.url))).toContain(object);

  await context.setOffline(true);
  const resigned = `${object}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=${'0'.repeat(64)}`;
  expect(await drawnWidth(page, resigned)).toBeGreaterThan(0);
  await context.close();
});

/** The addresses the worker keeps thumbnails and previews under: its cache's and its index's. */
async function keptThumbnails(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const cached = (await (await caches.open('shoebox-thumbnails')).keys()).map((r) => r.url);
    const indexed = await new Promise<string[]>((resolve, reject) => {
      const open = indexedDB.open('shoebox-thumbnails-index');
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        const db = open.result;
        if (!db.objectStoreNames.contains('entries')) return (db.close(), resolve([]));
        const keys = db.transaction('entries').objectStore('entries').getAllKeys();
        keys.onsuccess = () => (db.close(), resolve(keys.result.map(String)));
        keys.onerror = () => reject(keys.error);
      };
    });
    return [...new Set([...cached, ...indexed])];
  });
}

/** The width an image at `url` is drawn with on `page`; 0 when it cannot be loaded. */
function drawnWidth(page: Page, url: string): Promise<number> {
  return page.evaluate(
    (src) =>
      new Promise<number>((resolve) => {
        const img = new Image();
        img.onload = () => resolve(img.naturalWidth);
        img.onerror = () => resolve(0);
        img.src = src;
      }),
    url,
  );
}

/** The queries this browser keeps on the device (the persisted query cache), as JSON; none when there is none. */
async function keptQueryTexts(page: Page): Promise<string[]> {
  return page.evaluate(
    () =>
      new Promise<string[]>((resolve, reject) => {
        const open = indexedDB.open('shoebox-query-cache');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          if (!db.objectStoreNames.contains('queries')) return (db.close(), resolve([]));
          const all = db.transaction('queries').objectStore('queries').getAll();
          all.onsuccess = () => (db.close(), resolve(all.result.map((value) => JSON.stringify(value))));
          all.onerror = () => reject(all.error);
        };
      }),
  );
}

const keptQueries = async (page: Page): Promise<number> => (await keptQueryTexts(page)).length;

/**
 * Offline for real on the Supabase world: the context's routes to the project and the bucket answer even a
 * context set offline, so they are made to fail as a cut-off device's requests do. Returns the way back.
 */
async function offline(context: BrowserContext, bucketOrigin: string, how: 'offline' | 'cut off while online' = 'offline'): Promise<() => Promise<void>> {
  const cut = (route: Route) => route.abort('internetdisconnected');
  const hosts = (url: URL) => url.origin === 'https://emulated-project.supabase.test' || url.origin === bucketOrigin;
  await context.route(hosts, cut);
  if (how === 'offline') await context.setOffline(true);
  return async () => {
    await context.unroute(hosts, cut);
    await context.setOffline(false);
  };
}

worldTest('an album viewed online browses offline after a reload on the Supabase backend, and the next person on the browser never sees it', async ({ browser, world, signIn }) => {
  const [ana, bea] = await Promise.all([world.newPerson('Ana'), world.newPerson('Bea')]);
  const context = await browser.newContext();
  const page = await signIn(context, ana);
  const albumId = await createAlbum(page, 'Lisbon');
  await workerReady(page);
  await addFiles(page, [fixture('orientation-1.jpg'), fixture('orientation-3.jpg')]);
  await thumbnailDrawn(page, 'orientation-1.jpg');
  await thumbnailDrawn(page, 'orientation-3.jpg');
  // The photo seen once in the viewer, so its preview is kept too.
  await tile(page, 'orientation-1.jpg').click();
  const viewer = page.getByRole('dialog');
  await expect(viewer.getByRole('img', { name: 'orientation-1.jpg' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(viewer).toBeHidden();
  const albumUrl = page.url();
  await page.goto('/');
  const card = page.getByRole('list', { name: 'Your albums' }).getByRole('link', { name: /Lisbon/ });
  await expect(card.locator('img')).toBeVisible();
  await expect.poll(() => keptQueries(page)).toBeGreaterThan(0);

  let online = await offline(context, world.bucketOrigin);
  await page.reload();
  // The albums list, its cover drawn.
  await expect(card).toBeVisible();
  await expect.poll(() => card.locator('img').evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  await card.click();
  await expect(page).toHaveURL(albumUrl);
  await expect(page.getByRole('gridcell')).toHaveCount(2);
  await thumbnailDrawn(page, 'orientation-1.jpg');
  await thumbnailDrawn(page, 'orientation-3.jpg');
  // No error stands in for the data: offline, the fetches wait (their retries would fail within 3 s).
  await page.waitForTimeout(4_000);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Lisbon' })).toBeVisible();
  // The viewer draws the preview it kept.
  await tile(page, 'orientation-1.jpg').click();
  const preview = viewer.getByRole('img', { name: 'orientation-1.jpg' });
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
  await page.keyboard.press('Escape');

  // Meanwhile the album was renamed elsewhere: back online, the screen refreshes by itself.
  const api = await world.api(ana);
  const renamed = await api.rpc('update_album', { p_album_id: albumId, p_patch: { title: 'Lisbon by night' } });
  expect(renamed.error).toBeNull();
  await online();
  await expect(page.getByRole('heading', { level: 1, name: 'Lisbon by night' })).toBeVisible();
  // The new title is kept too (written just after it is shown).
  await expect.poll(async () => (await keptQueryTexts(page)).some((text) => text.includes('Lisbon by night'))).toBe(true);

  // Cut off while the browser says it is online (a captive portal, a dead tunnel): the requests are made and
  // fail. What was kept stays on screen, with a line saying it may be out of date, instead of an error screen.
  online = await offline(context, world.bucketOrigin, 'cut off while online');
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Lisbon by night' })).toBeVisible();
  const stale = page.getByRole('status').filter({ hasText: 'The server cannot be reached.' });
  await expect(stale.first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('gridcell')).toHaveCount(2);
  await thumbnailDrawn(page, 'orientation-3.jpg');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await online();
  await stale.first().getByRole('button', { name: 'Try again' }).click();
  await expect(stale).toHaveCount(0);
  await expect(page.getByRole('heading', { level: 1, name: 'Lisbon by night' })).toBeVisible();

  // Ana signs out: nothing of hers stays on the device, her thumbnails and previews neither.
  const anasThumbnail = ((await tile(page, 'orientation-1.jpg').locator('img.tile__thumb').getAttribute('src')) ?? '').split('?')[0]!;
  expect(await keptThumbnails(page)).toContain(anasThumbnail);
  await page.goto('/account');
  await page.getByRole('button', { name: 'Sign out this device' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await expect.poll(() => keptQueries(page)).toBe(0);
  await expect.poll(() => keptThumbnails(page)).toEqual([]);

  // Bea signs in on the same browser, then goes offline: Ana's album is nowhere.
  await page.getByLabel('Email').fill(bea.email);
  await page.getByLabel('Password').fill('correct horse battery staple');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  online = await offline(context, world.bucketOrigin);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'No albums yet' })).toBeVisible();
  await expect(page.getByText(/Lisbon/)).toHaveCount(0);
  await page.goto(albumUrl);
  await expect(page.getByRole('heading', { level: 1, name: /Lisbon/ })).toHaveCount(0);
  // Nor is Ana's photo drawn from the worker's cache, asked for by its address under a made-up signature.
  expect(await drawnWidth(page, `${anasThumbnail}?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=${'0'.repeat(64)}`)).toBe(0);
  await online();
});
