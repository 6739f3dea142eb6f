import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '../../scripts/chromium.mjs';
import { expect, test as cspTest } from './csp-test';
import { createAlbum, expectItemCount, tile } from './helpers';
import { expectNoSeriousAxe, SHARED, shareFiles } from './share-target-helpers';

/**
 * An installed app runs in a profile on disk, never in an incognito context (Playwright's default), whose
 * IndexedDB lives in memory and keeps references to the files given to it rather than copies; the worker
 * deletes its scratch files once IndexedDB has the share, so these tests run as an installed app does.
 */
const test = cspTest.extend<{ context: BrowserContext; page: Page }>({
  context: async ({ baseURL }, provide) => {
    const profile = mkdtempSync(join(tmpdir(), 'share-target-profile-'));
    const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: chromiumArgs, baseURL });
    await provide(context);
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  },
  page: async ({ context }, provide) => {
    await provide(context.pages()[0] ?? (await context.newPage()));
  },
});

test('files shared from another app wait in the inbox, then join the queue of the album chosen and upload', async ({ page, baseURL }) => {
  await createAlbum(page, 'Work');
  const albumId = await createAlbum(page, 'Holidays');
  // The worker controls the app by now (it claims its clients as soon as it is active).
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);

  await shareFiles(page, baseURL!, SHARED);
  // The worker answered: the host would have sent the page to ?missed=1.
  await expect(page).toHaveURL(/\/share-target\?inbox=[0-9a-f-]{36}$/);
  const inboxUrl = page.url();
  const list = page.getByRole('list', { name: 'Shared files' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  await expect(page.getByRole('heading', { name: /^3 files · / })).toBeVisible();
  for (const name of ['rocket.jpg', 'chelsea.png', 'tiny.pdf']) await expect(list.getByText(name, { exact: true })).toBeVisible();
  // The two photos show as thumbnails, drawn from the stored files.
  const thumbs = list.locator('img.shared-file__thumb');
  await expect(thumbs).toHaveCount(2);
  await expect.poll(() => thumbs.evaluateAll((imgs) => imgs.every((i) => (i as HTMLImageElement).naturalWidth > 0))).toBe(true);
  await expectNoSeriousAxe(page);

  // The inbox survives the page going away.
  await page.reload();
  await expect(list.getByRole('listitem')).toHaveCount(3);

  await page.getByRole('radio', { name: /^Holidays/ }).check();
  await page.getByRole('button', { name: 'Add to album' }).click();
  await expect(page).toHaveURL(new RegExp(`/albums/${albumId}$`));
  await expectItemCount(page, 3);
  await expect(tile(page, 'rocket.jpg')).toHaveAttribute('data-kind', 'image');
  await expect(tile(page, 'chelsea.png')).toHaveAttribute('data-kind', 'image');
  await expect(tile(page, 'tiny.pdf')).toHaveAttribute('data-kind', 'file');

  // Once added, the share is no longer waiting: it cannot be added twice.
  await page.goto(inboxUrl);
  await expect(page.getByRole('heading', { name: 'Nothing waiting here' })).toBeVisible();
});

test('a share sent before the service worker is in control lands on a page that explains, and the next share arrives', async ({ page, baseURL }) => {
  // A browser that never opened Shoebox: the POST reaches the host, which sends it on to the explaining page.
  await shareFiles(page, baseURL!, SHARED);
  await expect(page).toHaveURL(/\/share-target\?missed=1$/);
  await expect(page.getByText('Shoebox was still getting ready and didn’t receive these files. Share them again.')).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Shoebox is ready to receive shares now.' })).toBeVisible();
  await expectNoSeriousAxe(page);

  // Sharing again now reaches the worker.
  await shareFiles(page, baseURL!, SHARED);
  await expect(page).toHaveURL(/\/share-target\?inbox=/);
  await expect(page.getByRole('list', { name: 'Shared files' }).getByRole('listitem')).toHaveCount(3);
  // No album yet: the user makes one for the files, and they upload into it.
  await page.getByRole('button', { name: 'New album' }).click();
  const dialog = page.getByRole('dialog', { name: 'New album' });
  await dialog.getByLabel('Title').fill('Shared');
  await dialog.getByRole('button', { name: 'Create and add files' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Shared' })).toBeVisible();
  await expectItemCount(page, 3);
});

test('a discarded share is gone, and nothing is uploaded', async ({ page, baseURL }) => {
  await createAlbum(page, 'Kept');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await shareFiles(page, baseURL!, SHARED);
  await expect(page).toHaveURL(/\/share-target\?inbox=/);
  const inboxUrl = page.url();
  await page.getByRole('button', { name: 'Discard' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/uploads');
  await expect(page.getByRole('heading', { name: 'Nothing to upload' })).toBeVisible();
  await page.goto(inboxUrl);
  await expect(page.getByRole('heading', { name: 'Nothing waiting here' })).toBeVisible();
});

/** The names at the top of the origin private file system, where the worker keeps a share's scratch files. */
function opfsNames(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const root = (await navigator.storage.getDirectory()) as FileSystemDirectoryHandle & { keys(): AsyncIterable<string> };
    const names: string[] = [];
    for await (const name of root.keys()) names.push(name);
    return names.sort();
  });
}

test('the scratch files of a share cut short by the browser stopping the worker are removed at its next start, and never shown as a share', async ({ page, context }) => {
  await createAlbum(page, 'Holidays');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  const killed = '3f1c2a4e-8b7d-4c21-9e55-0a1b2c3d4e5f';
  const running = '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d';
  // As a worker stopped mid-share leaves it: a scratch directory with half a photo in it, and no inbox record.
  // And a share still being received, whose worker holds the lock on its scratch directory.
  await page.evaluate(async (ids) => {
    const root = await navigator.storage.getDirectory();
    for (const id of ids) {
      const file = await (await root.getDirectoryHandle(`share-${id}`, { create: true })).getFileHandle('0', { create: true });
      const w = await file.createWritable();
      await w.write(new Uint8Array(512 * 1024));
      await w.close();
    }
  }, [killed, running]);
  // The lock is held from another tab: the page below navigates, and a document lets go of its locks as it goes.
  const receiver = await context.newPage();
  await receiver.goto('/');
  await receiver.evaluate(
    (running) =>
      new Promise<void>((held) => {
        void navigator.locks.request(`shoebox:share-${running}`, () => {
          held();
          return new Promise(() => undefined);
        });
      }),
    running,
  );
  expect(await opfsNames(page)).toEqual(expect.arrayContaining([`share-${killed}`, `share-${running}`]));

  // The browser stops the worker; the next visit starts it again.
  const cdp = await context.newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await page.goto(`/share-target?inbox=${killed}`);
  await expect(page.getByRole('heading', { name: 'Nothing waiting here' })).toBeVisible();
  await expect.poll(() => opfsNames(page)).not.toContain(`share-${killed}`);
  // The share still being received keeps its files.
  expect(await opfsNames(page)).toContain(`share-${running}`);
  await page.goto('/share-target');
  await expect(page.getByRole('heading', { name: 'Nothing was shared' })).toBeVisible();
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: 'waiting for an album' })).toHaveCount(0);
});

test('a share whose hand-over was cut between queueing its files and leaving the inbox is not added twice', async ({ page, baseURL }) => {
  const albumId = await createAlbum(page, 'Holidays');
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await shareFiles(page, baseURL!, SHARED);
  await expect(page).toHaveURL(/\/share-target\?inbox=/);
  const inboxUrl = page.url();
  const shareId = new URL(inboxUrl).searchParams.get('inbox')!;
  // A copy of the inbox record as it is now, kept aside in a database of the test's own.
  await page.evaluate(async (id) => {
    const open = (name: string, upgrade?: (db: IDBDatabase) => void) =>
      new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name);
        r.onupgradeneeded = () => upgrade?.(r.result);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const done = (r: IDBRequest) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    const uploads = await open('shoebox-uploads');
    const record = await done(uploads.transaction('inbox').objectStore('inbox').get(id));
    uploads.close();
    const aside = await open('test-aside', (db) => db.createObjectStore('kept'));
    const tx = aside.transaction('kept', 'readwrite');
    tx.objectStore('kept').put(record, id);
    // Committed before the page moves on, which would abort it otherwise.
    await new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onerror = () => reject(tx.error))));
    aside.close();
  }, shareId);

  await page.getByRole('radio', { name: /^Holidays/ }).check();
  await page.getByRole('button', { name: 'Add to album' }).click();
  await expect(page).toHaveURL(new RegExp(`/albums/${albumId}$`));
  await expectItemCount(page, 3);

  // The app closed after the files were queued but before the share left the inbox: the share is back there.
  await page.evaluate(async (id) => {
    const open = (name: string) =>
      new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(name);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const done = (r: IDBRequest) => new Promise((resolve, reject) => ((r.onsuccess = () => resolve(r.result)), (r.onerror = () => reject(r.error))));
    const aside = await open('test-aside');
    const record = await done(aside.transaction('kept').objectStore('kept').get(id));
    aside.close();
    const uploads = await open('shoebox-uploads');
    const tx = uploads.transaction('inbox', 'readwrite');
    tx.objectStore('inbox').put(record);
    await new Promise((resolve, reject) => ((tx.oncomplete = resolve), (tx.onerror = () => reject(tx.error))));
    uploads.close();
  }, shareId);
  await page.goto('/');
  await expect(page.getByRole('status').filter({ hasText: '3 shared files are waiting for an album.' })).toBeVisible();
  await page.getByRole('link', { name: 'Choose an album' }).click();
  await expect(page).toHaveURL(inboxUrl);
  await page.getByRole('radio', { name: /^Holidays/ }).check();
  await page.getByRole('button', { name: 'Add to album' }).click();
  await expect(page).toHaveURL(new RegExp(`/albums/${albumId}$`));
  // The hand-over is over once the album shows (it is awaited before leaving the inbox): still three uploads in
  // the queue, not six, and once none is left to do, still three photos.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Uploads' }).click();
  const rows = page.getByRole('list', { name: 'Upload queue' }).getByRole('listitem');
  await expect(rows.and(page.locator('[data-state="done"]'))).toHaveCount(3);
  await expect(rows).toHaveCount(3);
  await expect(page.getByRole('status').filter({ hasText: 'waiting for an album' })).toHaveCount(0);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`/albums/${albumId}$`));
  await expectItemCount(page, 3);
});
