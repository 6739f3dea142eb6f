/**
 * A share link's guest in real Chromium, over an emulated Supabase project with the real share-upload function
 * in Deno and the real S3 test gateway: the guest gives a name, uploads photos through the upload engine,
 * sees them under "Your uploads", and deletes one; members see what is left, credited to the guest.
 */
import { QueryClientProvider } from '@tanstack/react-query';
import axe from 'axe-core';
import { openDB } from 'idb';
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterAll, afterEach, beforeAll, expect, test } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { createQueryClient } from '../../src/app/query-client';
import { BackendContext } from '../../src/backend/backend-context';
import type { Backend } from '../../src/backend/ports';
import { GuestUploads } from '../../src/features/link-page/guest-uploads';
import { jpeg } from '../../src/testing/engine-test-kit';
import { startBrowserWire, type BrowserWire } from './browser-wire';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

let wire: BrowserWire;
beforeAll(async () => {
  wire = await startBrowserWire({ functions: ['share-open', 'share-upload'] });
}, 300_000);
afterAll(async () => {
  expect(await wire.unserved()).toEqual([]);
  await wire.stop();
});

/** What the public page does first: share-open lets the visitor in and hands out a visit token. */
async function open(visitor: Backend, token: string): Promise<string> {
  const answer = await visitor.functions.invoke<{ visit: string }>('share-open', { op: 'open', token, visitor: crypto.randomUUID().replaceAll('-', '') });
  return answer.visit;
}

function render(visitor: Backend, token: string, visit: string, link = { guestMaxFiles: 10, guestMaxBytes: null }) {
  flushSync(() =>
    root.render(
      <BackendContext.Provider value={{ backend: visitor, session: null }}>
        <QueryClientProvider client={createQueryClient()}>
          <GuestUploads token={token} visit={visit} link={link} />
        </QueryClientProvider>
      </BackendContext.Provider>,
    ),
  );
}

/** The records in the guest's upload queue in this browser (IndexedDB), finished ones included. */
async function queuedTasks(token: string): Promise<number> {
  const db = await openDB(`shoebox-guest-uploads:${token}`);
  try {
    return db.objectStoreNames.contains('tasks') ? await db.count('tasks') : 0;
  } finally {
    db.close();
  }
}

const mineNames = () => [...document.querySelectorAll('[data-testid="guest-uploads-mine"] .guest-uploads__name')].map((e) => e.textContent);

test('a guest uploads two photos, sees them as theirs, deletes one, and members see the other "added by Ana (guest)"', async () => {
  const olive = await wire.person('Olive');
  const album = await olive.backend.albums.createAlbum({ title: 'Wedding' });
  const token = await wire.guestShareLink(album.id, olive);
  const visitor = wire.visitor();
  render(visitor, token, await open(visitor, token));

  await expect.element(page.getByText('Each guest can add up to 10 files.')).toBeVisible();
  await page.getByRole('textbox', { name: 'Your name' }).fill('Ana');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.element(page.getByText('Adding as')).toBeVisible();
  await expect.element(page.getByTestId('guest-uploads-empty')).toBeVisible();

  await userEvent.upload(page.getByTestId('add-files-input'), [await jpeg('beach.jpg', 640, 480, 10), await jpeg('forest.jpg', 480, 640, 140)]);
  await expect.poll(() => mineNames().sort(), { timeout: 90_000 }).toEqual(['beach.jpg', 'forest.jpg']);
  // Their thumbnails come from the bucket through share-upload's URLs.
  await expect
    .poll(() => [...document.querySelectorAll<HTMLImageElement>('[data-testid="guest-uploads-mine"] img')].filter((i) => i.complete && i.naturalWidth > 0).length, { timeout: 15_000 })
    .toBe(2);
  // Listed from the server, the finished uploads leave nothing behind in this browser's queue.
  await expect.poll(() => queuedTasks(token), { timeout: 15_000 }).toBe(0);
  const a11y = await axe.run(host);
  expect(a11y.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  const before = (await olive.backend.items.listItems(album.id, { sort: 'added' })).rows;
  expect(before.map((i) => [i.filename, i.uploaderId, i.guestLabel]).sort()).toEqual([
    ['beach.jpg', '', 'Ana'],
    ['forest.jpg', '', 'Ana'],
  ]);

  await page.getByRole('button', { name: 'Delete beach.jpg' }).click();
  await expect.poll(() => mineNames(), { timeout: 15_000 }).toEqual(['forest.jpg']);
  const after = (await olive.backend.items.listItems(album.id, { sort: 'added' })).rows;
  expect(after.map((i) => i.filename)).toEqual(['forest.jpg']);

  // The guest token stays in this browser: on the next visit the guest is known and sees what is theirs.
  flushSync(() => root.render(null));
  const again = wire.visitor();
  render(again, token, await open(again, token));
  await expect.element(page.getByText('Adding as')).toBeVisible();
  await expect.poll(() => mineNames(), { timeout: 15_000 }).toEqual(['forest.jpg']);
}, 180_000);

test('past the link\'s files per guest, the next photo says so and is not uploaded; a photo the album holds says it is already there', async () => {
  const olive = await wire.person('Olive');
  const album = await olive.backend.albums.createAlbum({ title: 'Party' });
  const token = await wire.guestShareLink(album.id, olive, 1);
  const visitor = wire.visitor();
  render(visitor, token, await open(visitor, token), { guestMaxFiles: 1, guestMaxBytes: null });
  await page.getByRole('textbox', { name: 'Your name' }).fill('Ben');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect.element(page.getByText('Adding as')).toBeVisible();

  const cake = await jpeg('cake.jpg', 320, 240, 30);
  await userEvent.upload(page.getByTestId('add-files-input'), [cake]);
  await expect.poll(() => mineNames(), { timeout: 90_000 }).toEqual(['cake.jpg']);
  await userEvent.upload(page.getByTestId('add-files-input'), [await jpeg('balloons.jpg', 320, 240, 200)]);
  await expect.element(page.getByText('You have added as much as this link allows.', { exact: false })).toBeVisible();
  // The same photo again: the album holds it already, which is said, not counted against the limit.
  await userEvent.upload(page.getByTestId('add-files-input'), [cake]);
  await expect.element(page.getByText('Already in the album.')).toBeVisible();
  expect((await olive.backend.items.listItems(album.id, { sort: 'added' })).rows.map((i) => i.filename)).toEqual(['cake.jpg']);
}, 180_000);
