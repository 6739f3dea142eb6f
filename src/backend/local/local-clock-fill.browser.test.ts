/**
 * A database made before photos were filed by the clock where they were taken (version 3): once the app updates,
 * its rows with a capture offset move to their own day and month, the month counts with them, while the app is
 * already open ([Note: Photos filed by the clock where they were taken] in src/lib/item-metadata.ts).
 */
import { describe, expect, it } from 'vitest';
import { objectKeys } from '../ports';
import type { Item, ItemMetadata } from '../../domain/entities';
import { version3Stores } from '../../testing/local-old-schema';
import { createLocalBackend } from './create-local-backend';
import { LocalDb, newAlbumRecord, TAKEN_CLOCK_JOB, type ItemRecord } from './local-db';
import { monthOf } from './local-item-record';
import { searchEntries, withListFields } from './local-list-fields';

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** An item row as version 3 stored it: sorted by the instant it was taken. */
function version3Row(albumId: string, uploaderId: string, takenAt: string, metadata: ItemMetadata): ItemRecord {
  const id = crypto.randomUUID();
  const item: Item = {
    id,
    albumId,
    uploaderId,
    kind: 'image',
    status: 'ready',
    filename: `IMG_${id.slice(0, 4)}.JPG`,
    mime: 'image/jpeg',
    bytes: 1000,
    sha256: null,
    width: 4000,
    height: 3000,
    durationMs: null,
    takenAt,
    originalKey: objectKeys.original(albumId, id),
    previewKey: null,
    thumbKey: null,
    thumbhash: null,
    metadata,
    createdAt: '2024-06-01T10:00:00.000Z',
    deletedAt: null,
  };
  const st = Date.parse(takenAt);
  return { ...withListFields(item), st, w: searchEntries(item, st) };
}

describe('local rows filed by the clock where they were taken', () => {
  it('moves the rows of an older database, and their months\' counts, once the app updates', async () => {
    const id = crypto.randomUUID();
    const names = { dbName: `test-${id}`, opfsDir: `test-${id}`, channelName: `test-${id}` };
    const profileId = crypto.randomUUID();
    const albumId = crypto.randomUUID();
    // 21:30 and 22:00 on 31 January in New York; 08:00 on 1 February in Tokyo; a date whose zone is not known.
    const newYork = version3Row(albumId, profileId, '2024-02-01T02:30:00.000Z', { takenOffset: -300 });
    const later = version3Row(albumId, profileId, '2024-02-01T03:00:00.000Z', { takenOffset: -300 });
    const tokyo = version3Row(albumId, profileId, '2024-01-31T23:00:00.000Z', { takenOffset: 540 });
    const unknown = version3Row(albumId, profileId, '2024-02-01T00:30:00.000Z', {});
    const rows = [newYork, later, tokyo, unknown];

    // Version 3's schema, with its rows and its counts.
    const open = indexedDB.open(names.dbName, 3);
    open.onupgradeneeded = () => version3Stores(open.result);
    const old = await request(open);
    const tx = old.transaction(['meta', 'albums', 'items', 'counts'], 'readwrite');
    const at = '2024-06-01T10:00:00.000Z';
    tx.objectStore('meta').put({ id: profileId, displayName: 'Me', avatarKey: null, createdAt: at }, 'profile');
    tx.objectStore('albums').put({ ...newAlbumRecord(albumId, profileId, 'Winter', '', at), itemCount: 4, heldCount: 4 });
    for (const row of rows) tx.objectStore('items').put(row);
    // Version 3 counted them by the instant, in UTC: three in February, Tokyo's in January.
    tx.objectStore('counts').put({ albumId, lb: 'a', sort: 'taken', month: '2024-02', kind: 'image', n: 3 });
    tx.objectStore('counts').put({ albumId, lb: 'a', sort: 'taken', month: '2024-01', kind: 'image', n: 1 });
    tx.objectStore('counts').put({ albumId, lb: 'a', sort: 'added', month: monthOf(Date.parse(at)), kind: 'image', n: 4 });
    await new Promise((resolve) => (tx.oncomplete = resolve));
    old.close();

    const b = createLocalBackend(names);
    expect((await b.albums.listAlbums()).map((a) => a.title)).toEqual(['Winter']);
    // Moved in the background: New York's evening to January, Tokyo's morning to February.
    const filed = [
      { month: '2024-02', count: 2 },
      { month: '2024-01', count: 2 },
    ];
    let months = await b.items.countItemsByMonth(albumId, { sort: 'taken' });
    for (let i = 0; i < 100 && JSON.stringify(months) !== JSON.stringify(filed); i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      months = await b.items.countItemsByMonth(albumId, { sort: 'taken' });
    }
    expect(months).toEqual(filed);
    const ids = (list: Item[]) => list.map((i) => i.id);
    expect(ids((await b.items.listItems(albumId, { sort: 'taken' })).rows)).toEqual([tokyo.id, unknown.id, later.id, newYork.id]);
    expect(ids((await b.items.listItems(albumId, { sort: 'taken', month: '2024-01' })).rows)).toEqual([later.id, newYork.id]);
    expect(await b.items.countItemsByMonth(albumId, { sort: 'added' })).toEqual([{ month: '2024-06', count: 4 }]);
    // The instant is kept as it was; the job is done.
    expect((await b.items.getItem(albumId, newYork.id)).takenAt).toBe('2024-02-01T02:30:00.000Z');
    const db = new LocalDb(names.dbName);
    expect(await (await db.get()).get('jobs', TAKEN_CLOCK_JOB)).toBeUndefined();
    await db.close();
  });
});
