import { expect, it } from 'vitest';
import { readDescending } from './local-db';

/** A database of its own with one store of `n` rows, indexed by [group, rank, id] as the item lists are. */
async function rows(n: number): Promise<IDBDatabase> {
  const name = `read-descending-${crypto.randomUUID()}`;
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open(name, 1);
    open.onupgradeneeded = () => open.result.createObjectStore('rows', { keyPath: 'id' }).createIndex('rank', ['group', 'rank', 'id']);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  const tx = db.transaction('rows', 'readwrite');
  // Ranks repeat (every tenth row shares one), so the id alone orders some of them, as it does for photos taken
  // in the same second.
  for (let i = 0; i < n; i++) tx.objectStore('rows').put({ id: `r${String(i).padStart(4, '0')}`, group: i % 2 === 0 ? 'a' : 'b', rank: Math.floor(i / 10) });
  await new Promise((resolve) => (tx.oncomplete = resolve));
  return db;
}

const read = (db: IDBDatabase, range: IDBKeyRange, count: number) =>
  readDescending<{ id: string }>(db.transaction('rows').objectStore('rows').index('rank'), range, count).then((r) => r.map((x) => x.value.id));

it('reads a page of hundreds of rows a few at a time: each row once, highest key first, up to the count asked', async () => {
  const db = await rows(1200);
  const group = IDBKeyRange.bound(['a'], ['a', []]);
  const expected = Array.from({ length: 600 }, (_, i) => `r${String(1198 - 2 * i).padStart(4, '0')}`);
  // Every row of the group (600 < 1000), in descending key order.
  expect(await read(db, group, 1000)).toEqual(expected);
  // A count that ends inside a read, and one that ends on a read's edge.
  expect(await read(db, group, 501)).toEqual(expected.slice(0, 501));
  expect(await read(db, group, 300)).toEqual(expected.slice(0, 300));
  // From a cursor: below a key, exclusive.
  const below = IDBKeyRange.bound(['a'], ['a', 50, 'r0500'], false, true);
  expect(await read(db, below, 250)).toEqual(expected.filter((id) => id < 'r0500').slice(0, 250));
  // No lower bound: the whole index, both groups.
  expect(await read(db, IDBKeyRange.upperBound(['b', []]), 1200)).toHaveLength(1200);
  expect(await read(db, group, 0)).toEqual([]);
  db.close();
});
