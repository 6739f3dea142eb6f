/**
 * Uploads added while the device is offline, on a Supabase project with an S3 bucket (supabase-world.ts), where
 * an upload needs the network: they wait, say so, survive a reload with the network still off (the service
 * worker serves the shell), and arrive whole once the network is back.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { BrowserContext, Page, Request } from '@playwright/test';
import type { SupabaseClient } from '@supabase/supabase-js';
import { addFiles, createAlbum, fixture } from './helpers';
import { expect, test } from './supabase-world';

/** Real photographs where Debian's mate-backgrounds is installed; the test fixtures otherwise. */
const PHOTO_DIR = '/usr/share/backgrounds/mate/nature';
function photos(): string[] {
  const chosen = ['Aqua.jpg', 'Garden.jpg', 'YellowFlower.jpg'];
  if (existsSync(PHOTO_DIR) && chosen.every((f) => readdirSync(PHOTO_DIR).includes(f))) return chosen.map((f) => join(PHOTO_DIR, f));
  return [fixture('orientation-1.jpg'), fixture('orientation-3.jpg'), fixture('xmp.jpg')];
}

const OFFLINE_TEXT = 'Offline — uploads will continue when you’re back online';

interface Row {
  filename: string;
  bytes: number;
  status: string;
}

async function items(api: SupabaseClient, albumId: string): Promise<Row[]> {
  const { data, error } = await api.from('items').select('filename, bytes, status').eq('album_id', albumId);
  if (error) throw new Error(error.message);
  return (data as Row[]).sort((a, b) => a.filename.localeCompare(b.filename));
}

const expected = (files: string[]): Row[] =>
  files.map((f) => ({ filename: basename(f), bytes: statSync(f).size, status: 'ready' })).sort((a, b) => a.filename.localeCompare(b.filename));

/** How many of `who`'s upload tasks have been read and have their previews made (kept in their queue's IndexedDB). */
function processedTasks(page: Page, who: { id: string }): Promise<number> {
  return page.evaluate(
    (queue) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open(queue);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const all = db.transaction('tasks').objectStore('tasks').getAll();
          all.onerror = () => reject(all.error);
          all.onsuccess = () => {
            db.close();
            resolve((all.result as { processed: unknown }[]).filter((t) => t.processed !== null).length);
          };
        };
      }),
    `shoebox-uploads:${who.id}`,
  );
}

/** Copies the test's screenshots to OFFLINE_SHOTS_DIR when it is set. */
async function shoot(page: Page, name: string): Promise<void> {
  const path = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path });
  const dir = process.env.OFFLINE_SHOTS_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    copyFileSync(path, join(dir, `${name}.png`));
  }
}

async function controlledByWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready);
  await expect.poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
}

/**
 * Takes `context` offline for real. `context.setOffline` alone does not stop requests a route fulfils: the
 * emulated project and bucket (and config.json) kept answering. So those routes refuse while offline, as the
 * network would, and every request that still got an answer is listed (the test expects none).
 */
async function offlineSwitch(context: BrowserContext, page: Page, bucketOrigin: string) {
  let offline = false;
  const reached: string[] = [];
  for (const pattern of ['https://emulated-project.supabase.test/**', `${bucketOrigin}/**`, '**/config.json']) {
    await context.route(pattern, (route) => (offline ? route.abort('internetdisconnected') : route.fallback()));
  }
  // A request sent while offline that still got an answer; one sent just before the switch may finish after it.
  const sentOffline = new WeakSet<Request>();
  page.on('request', (r) => {
    if (offline) sentOffline.add(r);
  });
  page.on('requestfinished', (r) => {
    if (sentOffline.has(r) && (/supabase\.test|config\.json/.test(r.url()) || r.url().startsWith(`${bucketOrigin}/`))) reached.push(`${r.method()} ${r.url()}`);
  });
  return {
    reached,
    set: async (value: boolean) => {
      offline = value;
      await context.setOffline(value);
    },
  };
}

test('photos added offline wait, say so, and all arrive once the network is back', async ({ browser, world, signIn }) => {
  const ana = await world.newPerson('Ana');
  const context = await browser.newContext();
  const page = await signIn(context, ana);
  const albumId = await createAlbum(page, 'Harbour');
  // As an installed app: its worker serves the screens' code offline.
  await controlledByWorker(page);
  const api = await world.api(ana);
  const files = photos();

  const network = await offlineSwitch(context, page, world.bucketOrigin);
  await network.set(true);
  await addFiles(page, files);
  const bar = page.getByRole('complementary', { name: 'Upload progress' });
  await expect(bar.getByRole('status')).toHaveText(OFFLINE_TEXT);
  // Reading and making previews need no network: they are done while waiting, and nothing is sent.
  await expect.poll(() => processedTasks(page, ana), { message: 'every file read and its previews made, offline' }).toBe(files.length);
  await expect(bar.getByRole('status')).toHaveText(OFFLINE_TEXT);
  expect(network.reached).toEqual([]);
  expect(await items(api, albumId)).toEqual([]);

  await bar.getByRole('link', { name: 'Details' }).click();
  const rows = page.getByRole('list', { name: 'Upload queue' }).getByRole('listitem');
  await expect(rows).toHaveCount(files.length);
  await expect(page.getByRole('status').filter({ hasText: OFFLINE_TEXT }).first()).toBeVisible();

  await network.set(false);
  await expect(page.getByRole('status').filter({ hasText: OFFLINE_TEXT })).toHaveCount(0);
  await expect(rows.and(page.locator('[data-state="done"]'))).toHaveCount(files.length, { timeout: 90_000 });
  expect(await items(api, albumId)).toEqual(expected(files));
  await page.goBack();
  await expect(bar).toBeHidden();
  for (const f of files) await expect(page.getByRole('gridcell', { name: basename(f), exact: true }).locator('img.tile__thumb')).toBeVisible();
});

test('photos added offline survive a reload with the network still off, then all arrive', async ({ browser, world, signIn }) => {
  const ana = await world.newPerson('Ana');
  const context = await browser.newContext();
  const page = await signIn(context, ana);
  const albumId = await createAlbum(page, 'Lighthouse');
  await controlledByWorker(page);
  const api = await world.api(ana);
  const files = photos();

  const network = await offlineSwitch(context, page, world.bucketOrigin);
  await network.set(true);
  await addFiles(page, files);
  await expect(page.getByRole('complementary', { name: 'Upload progress' }).getByRole('status')).toHaveText(OFFLINE_TEXT);
  await shoot(page, 'album-offline-desktop');

  // Closed and opened again, still offline: the worker serves the app, the queue still holds every file.
  await page.goto('/uploads');
  // Signed in still: the stored session stands, though the profile cannot be read (supabase-js tries it 4 times first).
  await expect(page.getByRole('heading', { level: 1, name: 'Uploads' })).toBeVisible({ timeout: 30_000 });
  const queue = page.getByRole('list', { name: 'Upload queue' });
  await expect(queue.getByRole('listitem')).toHaveCount(files.length);
  await expect(page.getByRole('status').filter({ hasText: OFFLINE_TEXT }).first()).toBeVisible();
  await expect(queue.locator('[data-state="queued"]')).toHaveCount(files.length, { timeout: 30_000 });
  await shoot(page, 'uploads-offline-desktop');
  await page.setViewportSize({ width: 390, height: 844 });
  await shoot(page, 'uploads-offline-phone');
  await page.goto(`/albums/${albumId}`);
  await expect(page.getByRole('complementary', { name: 'Upload progress' }).getByRole('status')).toHaveText(OFFLINE_TEXT);
  await shoot(page, 'album-offline-phone');
  expect(network.reached).toEqual([]);
  expect(await items(api, albumId)).toEqual([]);

  await network.set(false);
  await expect.poll(() => items(api, albumId), { timeout: 90_000 }).toEqual(expected(files));
  await expect(page.getByRole('complementary', { name: 'Upload progress' })).toBeHidden();
});
