/**
 * Local search beyond the shared contract: the words of rows stored before the word index existed, the index
 * kept in step with edits, the trash and the purge, and how many rows a page reads among 20,000 items.
 */
import { describe, expect, it } from 'vitest';
import { objectKeys, type Backend } from '../ports';
import type { Item, ItemMetadata } from '../../domain/entities';
import type { SearchQuery } from '../../domain/queries';
import { itemWords, queryWords, wordsMatch } from '../../lib/search-words';
import { addReadyItem, afterTrashPeriod, expectNewestFirst, listAll } from '../../testing/contract/contract-fixtures';
import { version2Stores } from '../../testing/local-old-schema';
import { seedLocalAlbum } from '../../testing/local-seed';
import { createLocalBackend, type LocalBackendOptions } from './create-local-backend';
import { LOCAL_DB_VERSION, LocalDb, newAlbumRecord, SEARCH_WORDS_JOB } from './local-db';
import { withListFields } from './local-list-fields';

function isolated(): Required<LocalBackendOptions> {
  const id = crypto.randomUUID();
  return { dbName: `test-${id}`, opfsDir: `test-${id}`, channelName: `test-${id}` };
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function openRaw(name: string, version?: number, upgrade?: (db: IDBDatabase) => void): Promise<IDBDatabase> {
  const open = indexedDB.open(name, version);
  if (upgrade) open.onupgradeneeded = () => upgrade(open.result);
  return request(open);
}

/** How many entries the `words` index holds for a word's prefix. */
async function wordEntries(dbName: string, word: string): Promise<number> {
  const db = await openRaw(dbName);
  try {
    return await request(db.transaction('items').objectStore('items').index('words').count(IDBKeyRange.bound([word], [`${word}\uffff`])));
  } finally {
    db.close();
  }
}

const ids = (rows: Item[]) => rows.map((r) => r.id).sort();

async function searchAll(b: Backend, query: SearchQuery): Promise<Item[]> {
  const rows: Item[] = [];
  let cursor: string | null = null;
  do {
    const page = await b.search.searchItems({ ...query, cursor });
    rows.push(...page.rows);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

/** An item as version 2 stored it: every field but the search words. */
function version2Row(albumId: string, uploaderId: string, filename: string, metadata: ItemMetadata, at: string, deletedAt: string | null = null) {
  const id = crypto.randomUUID();
  const item: Item = {
    id,
    albumId,
    uploaderId,
    kind: 'image',
    status: 'ready',
    filename,
    mime: 'image/jpeg',
    bytes: 1000,
    sha256: null,
    width: 4000,
    height: 3000,
    durationMs: null,
    takenAt: at,
    originalKey: objectKeys.original(albumId, id),
    previewKey: null,
    thumbKey: null,
    thumbhash: null,
    metadata,
    createdAt: at,
    deletedAt,
  };
  const { w: _w, ...row } = withListFields(item);
  return row;
}

describe('local search', () => {
  it('finds the items of a database made before the word index, once the app updates', async () => {
    const names = isolated();
    // Version 2's schema, as the app before this one made it.
    const old = await openRaw(names.dbName, 2, version2Stores);
    const profileId = crypto.randomUUID();
    const albumId = crypto.randomUUID();
    const at = '2024-05-01T10:00:00.000Z';
    const harbour = version2Row(albumId, profileId, 'IMG_0001.JPG', { title: 'Harbour at night', keywords: ['Porto'] }, at);
    const trashed = version2Row(albumId, profileId, 'IMG_0002.JPG', { keywords: ['Harbour'] }, '2024-05-02T10:00:00.000Z', '2024-06-01T00:00:00.000Z');
    const other = version2Row(albumId, profileId, 'DSCF0003.RAF', { cameraMake: 'FUJIFILM' }, '2024-05-03T10:00:00.000Z');
    // Enough rows that the upgrade reads them in several requests.
    const scans = Array.from({ length: 1234 }, (_, i) => version2Row(albumId, profileId, `scan-${i}.tif`, {}, new Date(Date.UTC(1990, 0, 1) + i * 60_000).toISOString()));
    const tx = old.transaction(['meta', 'albums', 'items'], 'readwrite');
    tx.objectStore('meta').put({ id: profileId, displayName: 'Me', avatarKey: null, createdAt: at }, 'profile');
    tx.objectStore('albums').put({ ...newAlbumRecord(albumId, profileId, 'Before', '', at), itemCount: 2 + scans.length, heldCount: 3 + scans.length });
    for (const row of [harbour, trashed, other, ...scans]) tx.objectStore('items').put(row);
    await new Promise((resolve) => (tx.oncomplete = resolve));
    old.close();

    // The app opens at once: the album lists before the old rows have words (the upgrade left the job to do).
    const unfilled = new LocalDb(names.dbName);
    await unfilled.get();
    expect(await (await unfilled.get()).get('jobs', SEARCH_WORDS_JOB)).toEqual({ after: null });
    expect(await wordEntries(names.dbName, 'harbour')).toBe(0);
    await unfilled.close();
    const b = createLocalBackend(names);
    expect((await b.albums.listAlbums()).map((a) => a.title)).toEqual(['Before']);
    // A search waits for them.
    expect(ids(await searchAll(b, { text: 'harbour' }))).toEqual([harbour.id]);
    const after = new LocalDb(names.dbName);
    expect(await (await after.get()).get('jobs', SEARCH_WORDS_JOB)).toBeUndefined();
    await after.close();
    expect(ids(await searchAll(b, { text: 'fuji' }))).toEqual([other.id]);
    expect(ids(await searchAll(b, { text: 'img', albumId }))).toEqual([harbour.id]);
    expect(ids(await searchAll(b, { text: 'scan tif', limit: 500 }))).toEqual(ids(scans as Item[]));
    expect(LOCAL_DB_VERSION).toBe(4);
    // The trashed one has no words until it is back in the album.
    expect(await wordEntries(names.dbName, 'harbour')).toBe(1);
    await b.itemWrites.restoreItems(albumId, [trashed.id]);
    expect(ids(await searchAll(b, { text: 'harbour' }))).toEqual(ids([harbour, trashed] as Item[]));
  });

  it('keeps an item’s words in step with its edits, the trash and the purge', async () => {
    const names = isolated();
    const b = createLocalBackend(names);
    const album = await b.albums.createAlbum({ title: 'Coast' });
    const one = await addReadyItem(b, album.id, { filename: 'one.jpg', metadata: { title: 'Harbour', keywords: ['Boats'] } });
    const two = await addReadyItem(b, album.id, { filename: 'two.jpg', metadata: { keywords: ['Lighthouse'] } });
    expect(ids(await searchAll(b, { text: 'harbour' }))).toEqual([one.id]);

    await b.itemWrites.editItems(album.id, [one.id], { title: 'Beacon', removeKeywords: ['Boats'], addKeywords: ['Gulls'] });
    expect(await searchAll(b, { text: 'harbour' })).toEqual([]);
    expect(await searchAll(b, { text: 'boats' })).toEqual([]);
    expect(ids(await searchAll(b, { text: 'beacon gulls' }))).toEqual([one.id]);
    expect(await wordEntries(names.dbName, 'harbour')).toBe(0);
    expect(await wordEntries(names.dbName, 'boats')).toBe(0);

    await b.itemWrites.trashItems(album.id, [two.id]);
    expect(await searchAll(b, { text: 'lighthouse' })).toEqual([]);
    expect(await wordEntries(names.dbName, 'lighthouse')).toBe(0);
    await b.itemWrites.restoreItems(album.id, [two.id]);
    expect(ids(await searchAll(b, { text: 'lighthouse' }))).toEqual([two.id]);

    await b.itemWrites.trashItems(album.id, [two.id]);
    await afterTrashPeriod(async () => expect(await b.functions.invoke('purge', {})).toEqual({ purged: 1 }));
    expect(await searchAll(b, { text: 'lighthouse' })).toEqual([]);
    expect(await wordEntries(names.dbName, 'two')).toBe(0);
    expect(ids(await searchAll(b, {}))).toEqual([one.id]);
  });

  describe('20,000 items in two albums', () => {
    const PER_ALBUM = 10_000;
    /** What the seeded i-th item of an album says: 2 % are in Lisbon, half of those with trams, all rated. */
    const details = (i: number): ItemMetadata => ({
      title: i % 2 ? 'Holiday' : 'Family',
      rating: (i % 5) + 1,
      ...(i % 100 === 0 ? { keywords: ['Lisbon', 'Tram'] } : i % 100 === 50 ? { keywords: ['Lisbon'] } : {}),
    });

    /** Rows handed out by IndexedDB reads (get, getAll, getAllRecords, cursor steps) while `run` runs. */
    async function rowsRead<T>(run: () => Promise<T>): Promise<{ result: T; rows: number }> {
      let rows = 0;
      const saved: [object, string, PropertyDescriptor][] = [];
      const wrap = (proto: object, name: string, count: (result: unknown) => number) => {
        const d = Object.getOwnPropertyDescriptor(proto, name);
        if (!d || typeof d.value !== 'function') return;
        saved.push([proto, name, d]);
        const original = d.value as (...args: unknown[]) => IDBRequest;
        Object.defineProperty(proto, name, {
          ...d,
          value(this: unknown, ...args: unknown[]) {
            const req = original.apply(this, args);
            req.addEventListener('success', () => (rows += count(req.result)));
            return req;
          },
        });
      };
      for (const proto of [IDBObjectStore.prototype, IDBIndex.prototype]) {
        wrap(proto, 'get', (r) => (r === undefined ? 0 : 1));
        wrap(proto, 'getAll', (r) => (r as unknown[]).length);
        wrap(proto, 'getAllRecords', (r) => (r as unknown[]).length);
        wrap(proto, 'openCursor', (r) => (r ? 1 : 0));
      }
      try {
        return { result: await run(), rows };
      } finally {
        for (const [proto, name, d] of saved) Object.defineProperty(proto, name, d);
      }
    }

    it('answers each page from a small part of them, with the same results as testing every item', async () => {
      const names = isolated();
      const b = createLocalBackend(names);
      const first = await b.albums.createAlbum({ title: 'First' });
      const second = await b.albums.createAlbum({ title: 'Second' });
      await seedLocalAlbum(names, first.id, PER_ALBUM, { seed: 7, filename: (i) => `DSC_${i}.jpg`, metadata: details });
      await seedLocalAlbum(names, second.id, PER_ALBUM, { seed: 8, filename: (i) => `DSC_${i}.jpg`, metadata: details });
      const everything = [...(await listAll(b, first.id, { sort: 'taken', limit: 1000 })).rows, ...(await listAll(b, second.id, { sort: 'taken', limit: 1000 })).rows];
      expect(everything).toHaveLength(2 * PER_ALBUM);
      const sortTime = (i: Item) => Date.parse(i.takenAt ?? i.createdAt);
      const newest = (a: Item, c: Item) => sortTime(c) - sortTime(a) || (a.id < c.id ? 1 : a.id > c.id ? -1 : 0);
      /** The first page, worked out by testing every item. */
      const expected = (query: SearchQuery, test: (i: Item) => boolean = () => true) => {
        const words = queryWords(query.text ?? '');
        return everything
          .filter((i) => (!query.albumId || i.albumId === query.albumId) && (i.metadata.rating ?? 0) >= (query.minRating ?? 0) && wordsMatch(itemWords(i), words) && test(i))
          .sort(newest)
          .slice(0, query.limit ?? 100)
          .map((i) => i.id);
      };

      const cases: { query: SearchQuery; maxRows: number }[] = [
        // 2 %: the word's newest rows (half of them in each album).
        { query: { text: 'lisbon' }, maxRows: 150 },
        { query: { text: 'lisbon', albumId: second.id }, maxRows: 300 },
        // The rarer of two words: 1 %, its rows.
        { query: { text: 'lisbon tram' }, maxRows: 250 },
        { query: { text: 'dsc lisbon' }, maxRows: 150 },
        // Every item has it: the newest rows, not all of them.
        { query: { text: 'dsc' }, maxRows: 150 },
        // "12" begins 111 distinct words: the sort order walked, testing the words.
        { query: { text: 'dsc_12' }, maxRows: 600 },
        // Half have it, a fifth of those are rated 5: a tenth of the rows walked.
        { query: { text: 'holiday', minRating: 5 }, maxRows: 800 },
        // No text: the newest rows that pass.
        { query: { minRating: 4 }, maxRows: 400 },
        { query: { albumId: first.id }, maxRows: 200 },
      ];
      for (const { query, maxRows } of cases) {
        const { result, rows } = await rowsRead(() => b.search.searchItems(query));
        expect(result.rows.map((r) => r.id), JSON.stringify(query)).toEqual(expected(query));
        expect(rows, JSON.stringify(query)).toBeLessThanOrEqual(maxRows);
        expectNewestFirst(result.rows, (i) => i.takenAt ?? i.createdAt);
      }

      // Following the cursors gives every result once.
      const lisbon = await searchAll(b, { text: 'lisbon', limit: 150 });
      expect(lisbon.map((i) => i.id)).toEqual(expected({ text: 'lisbon', limit: 1000 }));
      expect(lisbon).toHaveLength(400);
      const { result: second3, rows } = await rowsRead(async () => {
        const one = await b.search.searchItems({ text: 'dsc' });
        return b.search.searchItems({ text: 'dsc', cursor: one.nextCursor });
      });
      expect(second3.rows.map((r) => r.id)).toEqual(expected({ text: 'dsc', limit: 200 }).slice(100));
      expect(rows).toBeLessThanOrEqual(1200);
    }, 120_000);
  });
});
