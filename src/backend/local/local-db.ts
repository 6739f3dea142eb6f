/**
 * The local backend's IndexedDB schema and connection.
 *
 * [Note: Local item indexes]
 * An album may hold 1,000,000 items, so nothing ever loads all of an album's rows. Each item row carries
 * derived fields that only exist while it is listable: `lb` ('a' in the album, 't' in the trash; absent
 * while uploading or failed, so such rows are in no list index at all), `st` (sort time for "taken":
 * takenAt by the clock where it was taken, else createdAt, in ms; [Note: Photos filed by the clock where they
 * were taken] in src/lib/item-metadata.ts) and `sa` (sort time for "added": createdAt in ms). Two compound indexes,
 * `taken` = [albumId, lb, kind, st, id] and `added` = [albumId, lb, kind, sa, id], give keyset pages for
 * every view: a page for one kind is one descending range read; a page over all kinds reads the same range
 * for each of the three kinds and merges them. Putting the kind inside the key (instead of keeping a
 * separate all-kinds index) halves the index entries written per item, which is what bulk inserts pay for.
 * Per-month counts live in `counts`, one row per (album, list, sort, month, kind), kept in step with the
 * item rows inside the same transaction (see local-item-ledger.ts), so the month rail of a 100,000-item
 * album is a read of a few hundred small rows.
 * Version 3 adds `w`: the item's search words ([Note: Search words] in lib/search-words.ts), each paired
 * with the row's `st` as [word, st], present, like `lb`, only while the item is listed in its album (ready,
 * not in the trash), and the multiEntry index `words` on it. The words' prefix ranges give a search its
 * candidates, and because each entry carries the sort time, the entries of one word read backwards are that
 * word's items newest first: a search for a common word reads its newest items only ([Note: Local search] in
 * local-search.ts). Trashed, failed and unfinished items have no entries there. The upgrade from version 2
 * only creates the index and notes in `jobs` that the rows already stored have no words yet: filling them
 * rewrites every listed row (about 24 s for 100,000 photos on a busy 2-core machine), which inside the upgrade
 * kept the app from opening that long. They are filled after the database opens, in the background, a chunk
 * per transaction, and a search waits for that to finish (local-words-fill.ts). `withListFields`
 * (local-list-fields.ts) derives all four fields and every write of an item row goes through it, so the
 * index cannot drift from the rows.
 * Version 4 files photos by the clock where they were taken: `st` of a row whose capture time has an offset
 * moves by it. The upgrade only notes the job; the rows, and their months' counts, are moved after the database
 * opens, as the words are (local-clock-fill.ts).
 */
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { ItemSort } from '../../domain/queries';
import type { Activity, Item, ItemKind, Profile } from '../../domain/entities';

export const LOCAL_DB_VERSION = 4;

/** 'a': listed in the album; 't': listed in the trash. */
export type ListBucket = 'a' | 't';

export interface AlbumRecord {
  id: string;
  ownerId: string;
  title: string;
  description: string;
  coverItemId: string | null;
  /** Ready, untrashed items and their bytes. */
  itemCount: number;
  bytesTotal: number;
  /** Rows that take a place in the album (uploading, ready, trashed; not failed): the per-album limit. */
  heldCount: number;
  createdAt: string;
  updatedAt: string;
  /** Absent in records written before the choice existed: false. */
  keepLocation?: boolean;
}

/** A new, empty album owned by `ownerId`. */
export function newAlbumRecord(id: string, ownerId: string, title: string, description: string, at: string): AlbumRecord {
  return { id, ownerId, title, description, coverItemId: null, itemCount: 0, bytesTotal: 0, heldCount: 0, createdAt: at, updatedAt: at, keepLocation: false };
}

export interface ItemRecord extends Item {
  lb?: ListBucket;
  st: number;
  sa: number;
  /** Search words with the sort time, [word, st], while `lb` is 'a' (version 3). */
  w?: [string, number][];
}

export interface CountRecord {
  albumId: string;
  lb: ListBucket;
  sort: ItemSort;
  /** `YYYY-MM` in UTC. */
  month: string;
  kind: ItemKind;
  n: number;
}

export type CountKey = [albumId: string, lb: ListBucket, sort: ItemSort, month: string, kind: ItemKind];

export interface ActivityRecord {
  id: string;
  albumId: string;
  actorId: string;
  verb: Activity['verb'];
  /** What the line is about (see Activity.subjectId); absent in rows written before it was kept. */
  subject?: string | null;
  /** For additions: the kind every item of the line has, or `mixed`; absent in rows written before it was kept. */
  itemKind?: ItemKind | 'mixed';
  count: number;
  createdAt: string;
}

/** A comment as stored: the author's name is read from the profile when listed. */
export interface CommentRecord {
  id: string;
  albumId: string;
  itemId: string;
  authorId: string;
  body: string;
  createdAt: string;
  editedAt: string | null;
}

/** One person's heart on one item. */
export interface FavoriteRecord {
  albumId: string;
  itemId: string;
  userId: string;
  createdAt: string;
}

export interface LocalSchema extends DBSchema {
  albums: { key: string; value: AlbumRecord; indexes: { updated: [string, string] } };
  items: {
    key: [string, string];
    value: ItemRecord;
    indexes: {
      taken: [string, ListBucket, ItemKind, number, string];
      added: [string, ListBucket, ItemKind, number, string];
      deleted: string;
      /** Version 3: one entry per search word of a listed item, [word, st]. */
      words: [string, number];
    };
  };
  counts: { key: CountKey; value: CountRecord };
  activity: {
    key: string;
    value: ActivityRecord;
    indexes: { created: [string, string]; burst: [string, string, string, string]; album: string };
  };
  meta: { key: string; value: Profile };
  /** Version 2: comments, oldest first per item. */
  comments: { key: string; value: CommentRecord; indexes: { item: [string, string, string, string] } };
  /** Version 2: hearts, keyed [albumId, itemId, userId]. */
  favorites: { key: [string, string, string]; value: FavoriteRecord };
  /** Version 3: work left after an upgrade, by name; `after` is the key of the last row done. */
  jobs: { key: string; value: { after: [string, string] | null } };
}

/** The job of giving the rows stored before version 3 their search words (local-words-fill.ts). */
export const SEARCH_WORDS_JOB = 'search-words';
/** The job of filing the rows stored before version 4 by the clock where they were taken (local-clock-fill.ts). */
export const TAKEN_CLOCK_JOB = 'taken-clock';

export type LocalDatabase = IDBPDatabase<LocalSchema>;

/** Every write transaction spans the same stores, so writes from several tabs queue instead of interleaving. */
export const WRITE_STORES: ('albums' | 'items' | 'counts' | 'activity' | 'comments' | 'favorites')[] = [
  'albums',
  'items',
  'counts',
  'activity',
  'comments',
  'favorites',
];
export type WriteTx = IDBPTransaction<LocalSchema, typeof WRITE_STORES, 'readwrite'>;
export type ReadTx = IDBPTransaction<LocalSchema, typeof WRITE_STORES, 'readonly'>;

/** One lazily opened connection that steps aside when another tab needs to upgrade the schema. */
export class LocalDb {
  private opening: Promise<LocalDatabase> | null = null;

  /** `upgraded`: told once this connection has upgraded a database that held rows of an older version. */
  constructor(
    readonly name: string,
    private readonly upgraded?: (db: LocalDb, oldVersion: number) => void,
  ) {}

  get(): Promise<LocalDatabase> {
    if (this.opening) return this.opening;
    let upgradedFrom = 0;
    const opening: Promise<LocalDatabase> = openDB<LocalSchema>(this.name, LOCAL_DB_VERSION, {
      upgrade: (db, oldVersion, newVersion, tx) => {
        upgradeLocalDb(db, oldVersion, newVersion, tx);
        upgradedFrom = oldVersion;
      },
      // A newer version of the app in another tab wants to upgrade: let it, and reopen on the next call.
      blocking: () => {
        if (this.opening === opening) this.opening = null;
        void opening.then((db) => db.close());
      },
      terminated: () => {
        if (this.opening === opening) this.opening = null;
      },
    });
    this.opening = opening;
    opening.then(
      // Rows stored before search words existed get them now, in the background (a search waits for it).
      () => {
        if (upgradedFrom >= 1) this.upgraded?.(this, upgradedFrom);
      },
      () => {
        if (this.opening === opening) this.opening = null;
      },
    );
    return opening;
  }

  async close(): Promise<void> {
    const opening = this.opening;
    this.opening = null;
    if (opening) (await opening.catch(() => null))?.close();
  }
}

function upgradeLocalDb(db: IDBPDatabase<LocalSchema>, oldVersion: number, _newVersion: number | null, tx: IDBPTransaction<LocalSchema, StoreNames<LocalSchema>[], 'versionchange'>): void {
  if (oldVersion < 1) {
    const albums = db.createObjectStore('albums', { keyPath: 'id' });
    albums.createIndex('updated', ['updatedAt', 'id']);

    const items = db.createObjectStore('items', { keyPath: ['albumId', 'id'] });
    items.createIndex('taken', ['albumId', 'lb', 'kind', 'st', 'id']);
    items.createIndex('added', ['albumId', 'lb', 'kind', 'sa', 'id']);
    // Only trashed rows have a string here (null is not a key), so the purge reads a small index.
    items.createIndex('deleted', 'deletedAt');

    db.createObjectStore('counts', { keyPath: ['albumId', 'lb', 'sort', 'month', 'kind'] });

    const activity = db.createObjectStore('activity', { keyPath: 'id' });
    activity.createIndex('created', ['createdAt', 'id']);
    activity.createIndex('burst', ['albumId', 'actorId', 'verb', 'createdAt']);
    activity.createIndex('album', 'albumId');

    db.createObjectStore('meta');
  }
  if (oldVersion < 2) {
    const comments = db.createObjectStore('comments', { keyPath: 'id' });
    comments.createIndex('item', ['albumId', 'itemId', 'createdAt', 'id']);
    db.createObjectStore('favorites', { keyPath: ['albumId', 'itemId', 'userId'] });
  }
  if (oldVersion < 3) {
    tx.objectStore('items').createIndex('words', 'w', { multiEntry: true });
    const jobs = db.createObjectStore('jobs');
    if (oldVersion >= 1) void jobs.put({ after: null }, SEARCH_WORDS_JOB);
  }
  if (oldVersion < 4 && oldVersion >= 1) void tx.objectStore('jobs').put({ after: null }, TAKEN_CLOCK_JOB);
}

/** The whole key range of records whose compound key starts with `prefix`. */
export function prefixRange(...prefix: IDBValidKey[]): IDBKeyRange {
  return IDBKeyRange.bound(prefix, [...prefix, []]);
}

export interface IndexRecord<V> {
  key: IDBValidKey;
  primaryKey: IDBValidKey;
  value: V;
}

interface IndexWithRecords {
  getAllRecords?: (options: { query?: IDBKeyRange | null; count?: number; direction?: IDBCursorDirection }) => IDBRequest<IndexRecord<unknown>[]>;
}

// [Note: Reading records a few at a time]
// A page of the grid is 500 items. Read in one request, all 500 are turned back into objects in the one task
// that takes the answer, and with the garbage collector's share that task ran past 50 ms now and then, in the
// middle of a scroll (npm run bench -- grid). Read READ_CHUNK at a time, each from where the last one ended
// (index keys are unique: they end with the item's id), each answer is a task of its own, and the transaction
// stays open between them because the next request is made in the answer to the last.
const READ_CHUNK = 100;

/**
 * Up to `count` records of `range`, highest key first: requests of READ_CHUNK records where the browser has
 * `getAllRecords` (Chromium 141+), else a cursor walk of `count` steps. The index's keys must be unique (every
 * index read this way ends with the row's id).
 */
export function readDescending<V>(index: IDBIndex, range: IDBKeyRange, count: number): Promise<IndexRecord<V>[]> {
  return new Promise((resolve, reject) => {
    if (count <= 0) return resolve([]);
    const withRecords = index as IDBIndex & IndexWithRecords;
    const getAllRecords = withRecords.getAllRecords?.bind(index);
    if (getAllRecords) {
      // [Note: Reading records a few at a time]
      const rows: IndexRecord<V>[] = [];
      const next = (query: IDBKeyRange) => {
        const want = Math.min(READ_CHUNK, count - rows.length);
        const request = getAllRecords({ query, count: want, direction: 'prev' });
        request.onsuccess = () => {
          const got = request.result as IndexRecord<V>[];
          for (const r of got) rows.push(r);
          const last = got[got.length - 1];
          if (got.length < want || rows.length >= count || !last) resolve(rows);
          else next(range.lower === undefined ? IDBKeyRange.upperBound(last.key, true) : IDBKeyRange.bound(range.lower, last.key, range.lowerOpen, true));
        };
        request.onerror = () => reject(request.error);
      };
      next(range);
      return;
    }
    const rows: IndexRecord<V>[] = [];
    const request = index.openCursor(range, 'prev');
    request.onsuccess = () => {
      const cursor = request.result;
      if (!cursor || rows.length >= count) {
        resolve(rows);
        return;
      }
      rows.push({ key: cursor.key, primaryKey: cursor.primaryKey, value: cursor.value as V });
      if (rows.length >= count) resolve(rows);
      else cursor.continue();
    };
    request.onerror = () => reject(request.error);
  });
}
