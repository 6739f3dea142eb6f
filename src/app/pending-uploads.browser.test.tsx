/**
 * The owner's line about uploads others never finished, on the album screen with the local backend: it
 * says how many there are, and Clear removes them (rows and bytes) and the line with them.
 */
import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { afterEach, expect, test } from 'vitest';
import { userEvent } from 'vitest/browser';
import { createLocalBackend } from '../backend/local/create-local-backend';
import { LocalDb, WRITE_STORES } from '../backend/local/local-db';
import { ItemLedger } from '../backend/local/local-item-ledger';
import { withListFields } from '../backend/local/local-list-fields';
import { objectKeys, type Backend } from '../backend/ports';
import type { Item } from '../domain/entities';
import { addReadyItem, withOverrides } from '../testing/contract/contract-fixtures';
import { renderRoutes } from '../testing/render-routes';

const host = document.createElement('div');
document.body.append(host);
const root = createRoot(host);
afterEach(() => flushSync(() => root.render(null)));

const eventually = <T,>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

/** Rows another member left `uploading`, as a shared album's database would hold them. */
async function othersPending(dbName: string, albumId: string, n: number): Promise<void> {
  const db = new LocalDb(dbName);
  try {
    const idb = await db.get();
    const tx = idb.transaction(WRITE_STORES, 'readwrite');
    const ledger = new ItemLedger();
    for (let i = 0; i < n; i++) {
      const id = crypto.randomUUID();
      const item: Item = {
        id, albumId, uploaderId: 'another-member', kind: 'image', status: 'uploading', filename: `IMG_${i}.jpg`, mime: 'image/jpeg',
        bytes: 1000, sha256: null, width: null, height: null, durationMs: null, takenAt: null, originalKey: objectKeys.original(albumId, id),
        previewKey: null, thumbKey: null, thumbhash: null, metadata: {}, createdAt: new Date().toISOString(), deletedAt: null,
      };
      const record = withListFields(item);
      ledger.record(null, record);
      await tx.objectStore('items').put(record);
    }
    await ledger.flush(tx, null);
    await tx.done;
  } finally {
    await db.close();
  }
}

const show = (backend: Backend, path: string): Promise<void> => renderRoutes(root, backend, path);

const line = () => document.querySelector('.pending-uploads');

/** A local backend standing in for one whose albums have other members (it holds their rows as seeded). */
function sharedBackend(tag: string): Backend {
  const local = createLocalBackend({ dbName: tag, opfsDir: tag, channelName: tag });
  return { ...local, capabilities: { ...local.capabilities, sharing: { ...local.capabilities.sharing, members: true } } };
}

test('the owner sees how many uploads others never finished, and Clear removes them', async () => {
  const tag = `pending-${Date.now().toString(36)}`;
  const backend = sharedBackend(tag);
  const album = await backend.albums.createAlbum({ title: 'Shared trip' });
  const [mine] = await backend.itemWrites.reserveItems(album.id, [
    { id: crypto.randomUUID(), filename: 'mine.jpg', mime: 'image/jpeg', kind: 'image', bytes: 10 },
  ]);
  await othersPending(tag, album.id, 3);

  await show(backend, `/albums/${album.id}`);
  await eventually(() => line()?.textContent).toContain('3 uploads by others never finished');
  const clear = [...line()!.querySelectorAll('button')].find((b) => b.textContent === 'Clear')!;
  await userEvent.click(clear);
  await eventually(() => line()).toBeNull();
  expect(await backend.itemWrites.countPendingItems(album.id)).toBe(0);
  // The owner's own upload is not someone else's: it stays, to be finished.
  expect((await backend.items.getItem(album.id, mine!.id)).status).toBe('uploading');
});

test('an album without such uploads shows no line', async () => {
  const tag = `pending-none-${Date.now().toString(36)}`;
  const backend = sharedBackend(tag);
  const album = await backend.albums.createAlbum({ title: 'Quiet' });
  await show(backend, `/albums/${album.id}`);
  await eventually(() => document.querySelector('h1')?.textContent).toBe('Quiet');
  expect(line()).toBeNull();
});

test('where albums have no other members, opening one does not ask for others\' unfinished uploads', async () => {
  // Asking reads every row of the album: on a large album on this device, a long pause for an answer that is
  // always none.
  const tag = `pending-solo-${Date.now().toString(36)}`;
  const local = createLocalBackend({ dbName: tag, opfsDir: tag, channelName: tag });
  let asked = 0;
  const backend: Backend = { ...local, itemWrites: withOverrides(local.itemWrites, { countPendingItems: async (...args) => (asked++, local.itemWrites.countPendingItems(...args)) }) };
  const album = await backend.albums.createAlbum({ title: 'Mine alone' });
  await addReadyItem(backend, album.id);
  await othersPending(tag, album.id, 2);
  await show(backend, `/albums/${album.id}`);
  await eventually(() => document.querySelector('h1')?.textContent).toBe('Mine alone');
  // The grid comes after the header, where the question would be asked: once a tile shows, it was not.
  await eventually(() => document.querySelectorAll('[role="gridcell"]').length).toBe(1);
  expect(asked).toBe(0);
  expect(line()).toBeNull();
});
