/**
 * DataPort on IndexedDB. The local profile owns every local album. Every write happens in one transaction
 * over the same stores (rows, counters and activity together), then emits its changes to realtime.
 * Indexes and counters: [Note: Local item indexes] in local-db.ts.
 */
import { unwrap } from 'idb';
import { limits } from '../../config';
import { AppError, throwIfAborted } from '../../lib/app-error';
import { albumDescription, albumTitle, parseField, validateAlbumInput } from '../../lib/validation';
import {
  objectKeys,
  type Activity,
  type Album,
  type AlbumInput,
  type AlbumPatch,
  type CallOptions,
  type ChangeEvent,
  type DataPort,
  type FinalizeItemInput,
  type Item,
  type ItemKind,
  type ItemMetadata,
  type ItemQuery,
  type ItemSort,
  type MonthCount,
  type Page,
  type Profile,
  type ReserveItemInput,
} from '../ports';
import { decodeItemCursor, encodeItemCursor, type ItemCursor } from './local-cursor';
import {
  readDescending,
  WRITE_STORES,
  type ActivityRecord,
  type AlbumRecord,
  type ItemRecord,
  type ListBucket,
  type LocalDb,
  type ReadTx,
  type WriteTx,
} from './local-db';
import { guard } from './local-errors';
import type { LocalFiles } from './local-files';
import { ItemLedger } from './local-item-ledger';
import { ITEM_KINDS, monthRange, sortableTime, toItem, withListFields } from './local-item-record';
import type { LocalRealtime } from './local-realtime';

export const DEFAULT_PAGE_SIZE = 200;
export const MAX_PAGE_SIZE = 1000;
/** Additions by the same person to the same album within this long read as one activity row. */
export const ADDED_ITEMS_BURST_MS = 5 * 60_000;
const DAY_MS = 86_400_000;
/** How many of the newest items to look through for one with a thumbnail, for the default cover. */
const COVER_LOOKAHEAD = 8;
/** Client-chosen item ids: uuids in practice; never anything that could act as a path. */
const ITEM_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export interface LocalDataDeps {
  db: LocalDb;
  files: LocalFiles;
  realtime: LocalRealtime;
  profile: () => Promise<Profile>;
}

type AnyTx = ReadTx | WriteTx;

function albumNotFound(): AppError {
  return new AppError('album/not-found', 'This album does not exist or was deleted.', { retryable: false });
}

function itemNotFound(): AppError {
  return new AppError('item/not-found', 'This item does not exist or was deleted.', { retryable: false });
}

function invalid(field: string, message: string): AppError {
  return new AppError('validation/invalid', message, { details: { field } });
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function now(): string {
  return new Date().toISOString();
}

/** The whole key range of records whose compound key starts with `prefix`. */
function prefixRange(...prefix: IDBValidKey[]): IDBKeyRange {
  return IDBKeyRange.bound(prefix, [...prefix, []]);
}

function rowOf<T extends { id: string }>(value: T): { id: string } & Record<string, unknown> {
  return { ...value };
}

function isCoverable(r: ItemRecord): boolean {
  return r.lb === 'a' && (r.kind === 'image' || r.kind === 'video') && !!r.thumbKey;
}

/** Newer first by (time, id), the order of every item list. */
function compareDesc(aTime: number, aId: string, bTime: number, bId: string): number {
  if (aTime !== bTime) return bTime - aTime;
  return aId < bId ? 1 : aId > bId ? -1 : 0;
}

async function coverOf(tx: AnyTx, album: AlbumRecord): Promise<ItemRecord | null> {
  const items = unwrap(tx).objectStore('items');
  if (album.coverItemId) {
    const chosen = (await request(items.get([album.id, album.coverItemId]))) as ItemRecord | undefined;
    if (chosen && isCoverable(chosen)) return chosen;
  }
  const index = items.index('added');
  const newest = await Promise.all(
    (['image', 'video'] as const).map((kind) => readDescending<ItemRecord>(index, prefixRange(album.id, 'a', kind), COVER_LOOKAHEAD)),
  );
  let best: ItemRecord | null = null;
  for (const rows of newest) {
    const found = rows.find((r) => !!r.value.thumbKey)?.value;
    if (found && (!best || compareDesc(found.sa, found.id, best.sa, best.id) < 0)) best = found;
  }
  return best;
}

function toAlbum(record: AlbumRecord, cover: ItemRecord | null): Album {
  return {
    id: record.id,
    ownerId: record.ownerId,
    title: record.title,
    description: record.description,
    coverItemId: record.coverItemId,
    coverThumbKey: cover?.thumbKey ?? null,
    coverThumbhash: cover?.thumbhash ?? null,
    itemCount: record.itemCount,
    bytesTotal: record.bytesTotal,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    role: 'owner',
  };
}

async function albumView(tx: AnyTx, record: AlbumRecord): Promise<Album> {
  return toAlbum(record, await coverOf(tx, record));
}

async function requireAlbum(tx: AnyTx, albumId: string): Promise<AlbumRecord> {
  if (typeof albumId !== 'string' || albumId.length === 0) throw albumNotFound();
  const album = await tx.objectStore('albums').get(albumId);
  if (!album) throw albumNotFound();
  return album;
}

function checkId(id: unknown, field = 'id'): string {
  if (typeof id !== 'string' || !ITEM_ID.test(id)) throw invalid(field, 'An item id must be 1–64 letters, digits, dashes or underscores.');
  return id;
}

function checkIds(ids: unknown): string[] {
  if (!Array.isArray(ids)) throw invalid('itemIds', 'Item ids must be a list.');
  return [...new Set(ids.map((id) => checkId(id, 'itemIds')))];
}

function checkSort(sort: unknown): ItemSort {
  if (sort !== 'taken' && sort !== 'added') throw invalid('sort', 'Sort by "taken" or "added".');
  return sort;
}

function checkKind(kind: unknown): ItemKind | undefined {
  if (kind === undefined || kind === null) return undefined;
  if (!(ITEM_KINDS as readonly unknown[]).includes(kind)) throw invalid('kind', 'The kind must be image, video or file.');
  return kind as ItemKind;
}

interface ParsedQuery {
  sort: ItemSort;
  lb: ListBucket;
  kinds: readonly ItemKind[];
  limit: number;
  cursor: ItemCursor | null;
  /** [start, end) ms, `empty` for a month no item can be in, or null for all. */
  month: [number, number] | 'empty' | null;
}

function parseQuery(query: ItemQuery): ParsedQuery {
  const sort = checkSort(query?.sort);
  const kind = checkKind(query.kind);
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw invalid('limit', `A page holds 1 to ${MAX_PAGE_SIZE} items.`);
  }
  let month: ParsedQuery['month'] = null;
  if (query.month !== undefined && query.month !== null) {
    // Every local item has a sort date (the date added, at least), so `unknown` is always empty here.
    if (query.month === 'unknown') month = 'empty';
    else {
      const range = monthRange(query.month);
      if (!range) throw invalid('month', 'A month is written YYYY-MM.');
      month = range;
    }
  }
  return {
    sort,
    lb: query.trashed ? 't' : 'a',
    kinds: kind ? [kind] : ITEM_KINDS,
    limit,
    cursor: query.cursor ? decodeItemCursor(query.cursor, sort) : null,
    month,
  };
}

/** The index range of one kind for a page: below the cursor, inside the month. Null when empty. */
function pageRange(albumId: string, q: ParsedQuery, kind: ItemKind): IDBKeyRange | null {
  if (q.month === 'empty') return null;
  const lower: IDBValidKey[] = q.month ? [albumId, q.lb, kind, q.month[0]] : [albumId, q.lb, kind];
  let upper: IDBValidKey[] = q.month ? [albumId, q.lb, kind, q.month[1]] : [albumId, q.lb, kind, []];
  if (q.cursor && (!q.month || q.cursor.time < q.month[1])) upper = [albumId, q.lb, kind, q.cursor.time, q.cursor.id];
  if (indexedDB.cmp(lower, upper) >= 0) return null;
  return IDBKeyRange.bound(lower, upper, false, true);
}

interface ReserveInput {
  id: string;
  filename: string;
  mime: string;
  kind: ItemKind;
  bytes: number;
}

function checkReserveInput(input: ReserveItemInput): ReserveInput {
  const id = checkId(input?.id);
  const { filename, mime, kind, bytes } = input;
  if (typeof filename !== 'string' || filename.length === 0 || filename.length > 1024) {
    throw invalid('filename', 'A file name must have 1 to 1,024 characters.');
  }
  if (typeof mime !== 'string' || mime.length > 255) throw invalid('mime', 'The file type is not valid.');
  const checkedKind = checkKind(kind);
  if (!checkedKind) throw invalid('kind', 'The kind must be image, video or file.');
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) throw invalid('bytes', 'The file size is not valid.');
  if (bytes === 0) throw new AppError('upload/empty', `"${filename}" is empty.`, { details: { id } });
  const max = limits().maxUploadBytes;
  if (bytes > max) throw new AppError('upload/too-large', `"${filename}" is larger than the ${max} bytes a file may have.`, { details: { id, max } });
  return { id, filename, mime: mime || 'application/octet-stream', kind: checkedKind, bytes };
}

function nullableNumber(value: unknown, field: string, integer: boolean): number | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value))) {
    throw invalid(field, `The ${field} is not valid.`);
  }
  return value;
}

function checkFinalizeInput(input: FinalizeItemInput) {
  if (!input || typeof input !== 'object') throw invalid('input', 'The upload result is missing.');
  const sha256 = typeof input.sha256 === 'string' && input.sha256.length <= 128 ? input.sha256 : null;
  const thumbhash = typeof input.thumbhash === 'string' && input.thumbhash.length <= 128 ? input.thumbhash : null;
  const taken = sortableTime(input.takenAt);
  const metadata: ItemMetadata =
    input.metadata && typeof input.metadata === 'object' && !Array.isArray(input.metadata) ? structuredClone(input.metadata) : {};
  return {
    sha256,
    thumbhash,
    width: nullableNumber(input.width, 'width', true),
    height: nullableNumber(input.height, 'height', true),
    durationMs: nullableNumber(input.durationMs, 'durationMs', false),
    takenAt: taken === null ? null : new Date(taken).toISOString(),
    hasPreview: input.hasPreview === true,
    hasThumb: input.hasThumb === true,
    metadata,
  };
}

/** Counts an addition, merged into the same person's latest `added_items` row when it is recent. */
async function noteAddition(tx: WriteTx, albumId: string, actorId: string, at: string, count: number): Promise<void> {
  const since = new Date(Date.parse(at) - ADDED_ITEMS_BURST_MS).toISOString();
  const burst = tx.objectStore('activity').index('burst');
  const cursor = await burst.openCursor(IDBKeyRange.bound([albumId, actorId, 'added_items', since], [albumId, actorId, 'added_items', '\uffff']), 'prev');
  if (cursor) {
    await cursor.update({ ...cursor.value, count: cursor.value.count + count, createdAt: at });
    return;
  }
  await tx.objectStore('activity').add({ id: crypto.randomUUID(), albumId, actorId, verb: 'added_items', count, createdAt: at });
}

async function addActivity(tx: WriteTx, albumId: string, actorId: string, verb: ActivityRecord['verb'], count: number, at: string): Promise<void> {
  await tx.objectStore('activity').add({ id: crypto.randomUUID(), albumId, actorId, verb, count, createdAt: at });
}

export class LocalData implements DataPort {
  constructor(private readonly deps: LocalDataDeps) {}

  // --- Albums -------------------------------------------------------------------------------------------

  listAlbums(opts: CallOptions = {}): Promise<Album[]> {
    return this.read(opts.signal, async (tx) => {
      const records = await tx.objectStore('albums').index('updated').getAll();
      records.reverse();
      return Promise.all(records.map((r) => albumView(tx, r)));
    });
  }

  getAlbum(albumId: string, opts: CallOptions = {}): Promise<Album> {
    return this.read(opts.signal, async (tx) => albumView(tx, await requireAlbum(tx, albumId)));
  }

  createAlbum(input: AlbumInput, opts: CallOptions = {}): Promise<Album> {
    return guard(opts.signal, async () => {
      const { title, description } = validateAlbumInput(input ?? { title: '' });
      const profile = await this.deps.profile();
      const at = now();
      const record: AlbumRecord = {
        id: crypto.randomUUID(),
        ownerId: profile.id,
        title,
        description,
        coverItemId: null,
        itemCount: 0,
        bytesTotal: 0,
        heldCount: 0,
        createdAt: at,
        updatedAt: at,
      };
      await this.write(async (tx) => {
        await tx.objectStore('albums').add(record);
        await addActivity(tx, record.id, profile.id, 'created_album', 1, at);
      });
      const album = toAlbum(record, null);
      this.emit([{ entity: 'album', op: 'insert', albumId: album.id, row: rowOf(album) }]);
      return album;
    });
  }

  updateAlbum(albumId: string, patch: AlbumPatch, opts: CallOptions = {}): Promise<Album> {
    return guard(opts.signal, async () => {
      const changes: Partial<AlbumRecord> = {};
      if (patch?.title !== undefined) changes.title = parseField(albumTitle, patch.title, 'title');
      if (patch?.description !== undefined) changes.description = parseField(albumDescription, patch.description, 'description');
      const album = await this.write(async (tx) => {
        const current = await requireAlbum(tx, albumId);
        if (patch?.coverItemId !== undefined) {
          if (patch.coverItemId === null) changes.coverItemId = null;
          else {
            const id = typeof patch.coverItemId === 'string' ? patch.coverItemId : '';
            const item = id ? await tx.objectStore('items').get([albumId, id]) : undefined;
            if (!item || !isCoverable(item)) throw invalid('coverItemId', 'Choose a photo or video of this album as its cover.');
            changes.coverItemId = id;
          }
        }
        const next: AlbumRecord = { ...current, ...changes, updatedAt: now() };
        await tx.objectStore('albums').put(next);
        return albumView(tx, next);
      });
      this.emit([{ entity: 'album', op: 'update', albumId, row: rowOf(album) }]);
      return album;
    });
  }

  deleteAlbum(albumId: string, opts: CallOptions = {}): Promise<void> {
    return guard(opts.signal, async () => {
      const album = await this.write(async (tx) => {
        const record = await requireAlbum(tx, albumId);
        const view = await albumView(tx, record);
        await tx.objectStore('albums').delete(albumId);
        await tx.objectStore('items').delete(prefixRange(albumId));
        await tx.objectStore('counts').delete(prefixRange(albumId));
        const activity = tx.objectStore('activity');
        const activityIds = await activity.index('album').getAllKeys(albumId);
        await Promise.all(activityIds.map((id) => activity.delete(id)));
        return view;
      });
      this.emit([{ entity: 'album', op: 'delete', albumId, row: rowOf(album) }]);
      // The rows are gone; the bytes follow. A failure here leaves unreachable bytes, never a broken album.
      await this.deps.files.removeTree(`albums/${albumId}`).catch((e: unknown) => console.error('Could not remove album files', e));
    });
  }

  // --- Items --------------------------------------------------------------------------------------------

  listItems(albumId: string, query: ItemQuery, opts: CallOptions = {}): Promise<Page<Item>> {
    return guard(opts.signal, async () => {
      const q = parseQuery(query);
      return this.read(opts.signal, async (tx) => {
        await requireAlbum(tx, albumId);
        const index = unwrap(tx).objectStore('items').index(q.sort);
        const pages = await Promise.all(
          q.kinds.map((kind) => {
            const range = pageRange(albumId, q, kind);
            return range ? readDescending<ItemRecord>(index, range, q.limit + 1) : Promise.resolve([]);
          }),
        );
        const time = (r: ItemRecord) => (q.sort === 'taken' ? r.st : r.sa);
        const merged = pages.flat().map((r) => r.value);
        if (pages.length > 1) merged.sort((a, b) => compareDesc(time(a), a.id, time(b), b.id));
        const rows = merged.slice(0, q.limit);
        const last = rows[rows.length - 1];
        const nextCursor = merged.length > q.limit && last ? encodeItemCursor({ sort: q.sort, time: time(last), id: last.id }) : null;
        return { rows: rows.map(toItem), nextCursor };
      });
    });
  }

  countItemsByMonth(albumId: string, query: Pick<ItemQuery, 'sort' | 'trashed' | 'kind'>, opts: CallOptions = {}): Promise<MonthCount[]> {
    return guard(opts.signal, async () => {
      const sort = checkSort(query?.sort);
      const kind = checkKind(query.kind);
      const lb: ListBucket = query.trashed ? 't' : 'a';
      return this.read(opts.signal, async (tx) => {
        await requireAlbum(tx, albumId);
        const rows = await tx.objectStore('counts').getAll(prefixRange(albumId, lb, sort));
        const byMonth = new Map<string, number>();
        for (const r of rows) {
          if (kind && r.kind !== kind) continue;
          byMonth.set(r.month, (byMonth.get(r.month) ?? 0) + r.n);
        }
        return [...byMonth]
          .map(([month, count]) => ({ month, count }))
          .sort((a, b) => (a.month < b.month ? 1 : a.month > b.month ? -1 : 0));
      });
    });
  }

  getItem(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Item> {
    return this.read(opts.signal, async (tx) => {
      await requireAlbum(tx, albumId);
      const record = typeof itemId === 'string' ? await tx.objectStore('items').get([albumId, itemId]) : undefined;
      if (!record) throw itemNotFound();
      return toItem(record);
    });
  }

  reserveItems(albumId: string, inputs: ReserveItemInput[], opts: CallOptions = {}): Promise<Item[]> {
    return guard(opts.signal, async () => {
      if (!Array.isArray(inputs)) throw invalid('items', 'The files to add must be a list.');
      const maxBatch = limits().maxFilesPerBatch;
      if (inputs.length > maxBatch) throw invalid('items', `Add at most ${maxBatch.toLocaleString('en')} files at once.`);
      const unique = new Map<string, ReserveInput>();
      for (const input of inputs) {
        const checked = checkReserveInput(input);
        if (!unique.has(checked.id)) unique.set(checked.id, checked);
      }
      if (unique.size === 0) return [];
      const profile = await this.deps.profile();
      const at = now();
      const events: ChangeEvent[] = [];
      const items = await this.write(async (tx) => {
        const album = await requireAlbum(tx, albumId);
        const store = tx.objectStore('items');
        const wanted = [...unique.values()];
        const existing = await Promise.all(wanted.map((w) => store.get([albumId, w.id])));
        const adding = existing.filter((e) => !e || e.status === 'failed').length;
        const max = limits().maxItemsPerAlbum;
        if (album.heldCount + adding > max) {
          throw new AppError('validation/invalid', `This album is full: it can hold ${max.toLocaleString('en')} items.`, {
            details: { field: 'items', limit: max },
          });
        }
        const ledger = new ItemLedger();
        const result: Item[] = [];
        for (const [i, w] of wanted.entries()) {
          const before = existing[i];
          if (before && before.status !== 'failed') {
            result.push(toItem(before));
            continue;
          }
          // A failed item reserved again is a retry: it goes back to uploading.
          const item: Item = before
            ? { ...toItem(before), status: 'uploading' }
            : {
                id: w.id,
                albumId,
                uploaderId: profile.id,
                kind: w.kind,
                status: 'uploading',
                filename: w.filename,
                mime: w.mime,
                bytes: w.bytes,
                sha256: null,
                width: null,
                height: null,
                durationMs: null,
                takenAt: null,
                originalKey: objectKeys.original(albumId, w.id),
                previewKey: null,
                thumbKey: null,
                thumbhash: null,
                metadata: {},
                createdAt: at,
                deletedAt: null,
              };
          const record = withListFields(item);
          await store.put(record);
          ledger.record(before ?? null, record);
          events.push({ entity: 'item', op: before ? 'update' : 'insert', albumId, row: rowOf(item) });
          result.push(item);
        }
        await ledger.flush(tx, null);
        return result;
      });
      this.emit(events);
      return items;
    });
  }

  finalizeItem(albumId: string, itemId: string, input: FinalizeItemInput, opts: CallOptions = {}): Promise<Item> {
    return guard(opts.signal, async () => {
      const done = checkFinalizeInput(input);
      const profile = await this.deps.profile();
      const at = now();
      const events: ChangeEvent[] = [];
      const item = await this.write(async (tx) => {
        await requireAlbum(tx, albumId);
        const store = tx.objectStore('items');
        const before = typeof itemId === 'string' ? await store.get([albumId, itemId]) : undefined;
        if (!before) throw itemNotFound();
        // Finalizing again (a retry after a lost answer) changes nothing.
        if (before.status === 'ready') return toItem(before);
        const next: Item = {
          ...toItem(before),
          status: 'ready',
          sha256: done.sha256,
          width: done.width,
          height: done.height,
          durationMs: done.durationMs,
          takenAt: done.takenAt,
          thumbhash: done.thumbhash,
          metadata: done.metadata,
          thumbKey: done.hasThumb ? objectKeys.thumb(albumId, itemId) : null,
          previewKey: done.hasPreview
            ? before.kind === 'video'
              ? objectKeys.poster(albumId, itemId)
              : objectKeys.preview(albumId, itemId)
            : null,
          deletedAt: null,
        };
        const record = withListFields(next);
        await store.put(record);
        const ledger = new ItemLedger();
        ledger.record(before, record);
        await noteAddition(tx, albumId, profile.id, at, 1);
        const [album] = await ledger.flush(tx, at);
        events.push({ entity: 'item', op: 'update', albumId, row: rowOf(next) });
        if (album) events.push({ entity: 'album', op: 'update', albumId, row: rowOf(await albumView(tx, album)) });
        return next;
      });
      this.emit(events);
      return item;
    });
  }

  failItem(albumId: string, itemId: string, opts: CallOptions = {}): Promise<void> {
    return guard(opts.signal, async () => {
      const events: ChangeEvent[] = [];
      await this.write(async (tx) => {
        await requireAlbum(tx, albumId);
        const store = tx.objectStore('items');
        const before = typeof itemId === 'string' ? await store.get([albumId, itemId]) : undefined;
        if (!before) throw itemNotFound();
        // Only an unfinished upload can fail; a ready item stays as it is.
        if (before.status !== 'uploading') return;
        const next: Item = { ...toItem(before), status: 'failed' };
        const record = withListFields(next);
        await store.put(record);
        const ledger = new ItemLedger();
        ledger.record(before, record);
        await ledger.flush(tx, null);
        events.push({ entity: 'item', op: 'update', albumId, row: rowOf(next) });
      });
      this.emit(events);
    });
  }

  trashItems(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<void> {
    return this.setTrashed(albumId, itemIds, true, opts);
  }

  restoreItems(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<void> {
    return this.setTrashed(albumId, itemIds, false, opts);
  }

  private setTrashed(albumId: string, itemIds: string[], trash: boolean, opts: CallOptions): Promise<void> {
    return guard(opts.signal, async () => {
      const ids = checkIds(itemIds);
      const profile = await this.deps.profile();
      const at = now();
      const events: ChangeEvent[] = [];
      await this.write(async (tx) => {
        await requireAlbum(tx, albumId);
        const store = tx.objectStore('items');
        const rows = await Promise.all(ids.map((id) => store.get([albumId, id])));
        const ledger = new ItemLedger();
        let changed = 0;
        for (const before of rows) {
          // Unknown ids and items already in the wanted state are left alone: trashing twice is harmless.
          if (!before || before.status !== 'ready' || !!before.deletedAt === trash) continue;
          const next: Item = { ...toItem(before), deletedAt: trash ? at : null };
          const record = withListFields(next);
          await store.put(record);
          ledger.record(before, record);
          events.push({ entity: 'item', op: 'update', albumId, row: rowOf(next) });
          changed++;
        }
        if (changed === 0) return;
        await addActivity(tx, albumId, profile.id, trash ? 'trashed_items' : 'restored_items', changed, at);
        const [album] = await ledger.flush(tx, at);
        if (album) events.push({ entity: 'album', op: 'update', albumId, row: rowOf(await albumView(tx, album)) });
      });
      this.emit(events);
    });
  }

  // --- Activity -----------------------------------------------------------------------------------------

  listActivity(limit: number, opts: CallOptions = {}): Promise<Activity[]> {
    return guard(opts.signal, async () => {
      if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw invalid('limit', `Ask for 1 to ${MAX_PAGE_SIZE} rows.`);
      const profile = await this.deps.profile();
      return this.read(opts.signal, async (tx) => {
        const index = unwrap(tx).objectStore('activity').index('created');
        const rows = await readDescending<ActivityRecord>(index, IDBKeyRange.lowerBound(['']), limit);
        const albumIds = [...new Set(rows.map((r) => r.value.albumId))];
        const albums = await Promise.all(albumIds.map((id) => tx.objectStore('albums').get(id)));
        const titles = new Map(albums.flatMap((a) => (a ? [[a.id, a.title] as const] : [])));
        return rows.flatMap(({ value: r }) => {
          const albumTitle = titles.get(r.albumId);
          if (albumTitle === undefined) return [];
          return [
            {
              id: r.id,
              albumId: r.albumId,
              albumTitle,
              actorId: r.actorId,
              actorName: r.actorId === profile.id ? profile.displayName : 'Someone',
              verb: r.verb,
              count: r.count,
              createdAt: r.createdAt,
            },
          ];
        });
      });
    });
  }

  // --- Functions ----------------------------------------------------------------------------------------

  /** Deletes items trashed more than `limits().trashDays` ago: rows first, then their bytes. */
  purgeTrash(opts: CallOptions = {}): Promise<{ purged: number }> {
    return guard(opts.signal, async () => {
      const cutoff = new Date(Date.now() - limits().trashDays * DAY_MS).toISOString();
      const events: ChangeEvent[] = [];
      const purged = await this.write(async (tx) => {
        const store = tx.objectStore('items');
        const keys = await store.index('deleted').getAllKeys(IDBKeyRange.upperBound(cutoff, true));
        const rows = await Promise.all(keys.map((key) => store.get(key)));
        const ledger = new ItemLedger();
        const gone: ItemRecord[] = [];
        for (const row of rows) {
          if (!row) continue;
          await store.delete([row.albumId, row.id]);
          ledger.record(row, null);
          gone.push(row);
          events.push({ entity: 'item', op: 'delete', albumId: row.albumId, row: rowOf(toItem(row)) });
        }
        const albums = tx.objectStore('albums');
        for (const albumId of new Set(gone.map((r) => r.albumId))) {
          const album = await albums.get(albumId);
          if (album?.coverItemId && gone.some((r) => r.albumId === albumId && r.id === album.coverItemId)) {
            await albums.put({ ...album, coverItemId: null });
          }
        }
        for (const album of await ledger.flush(tx, null)) {
          events.push({ entity: 'album', op: 'update', albumId: album.id, row: rowOf(await albumView(tx, album)) });
        }
        return gone;
      });
      this.emit(events);
      const results = await Promise.allSettled(purged.map((r) => this.deps.files.removeTree(`albums/${r.albumId}/${r.id}`)));
      const failed = results.filter((r) => r.status === 'rejected');
      if (failed.length > 0) console.error(`Could not remove the files of ${failed.length} purged items`, failed[0]);
      return { purged: purged.length };
    });
  }

  // --- Plumbing -----------------------------------------------------------------------------------------

  private emit(events: ChangeEvent[]): void {
    this.deps.realtime.emit(events);
  }

  private read<T>(signal: AbortSignal | undefined, fn: (tx: ReadTx) => Promise<T>): Promise<T> {
    return guard(signal, async () => {
      const db = await this.deps.db.get();
      const tx = db.transaction(WRITE_STORES, 'readonly');
      tx.done.catch(() => undefined);
      const result = await fn(tx);
      throwIfAborted(signal);
      return result;
    });
  }

  /** Runs `fn` in one write transaction; anything it throws aborts the transaction, so nothing half-done stays. */
  private async write<T>(fn: (tx: WriteTx) => Promise<T>): Promise<T> {
    const db = await this.deps.db.get();
    const tx = db.transaction(WRITE_STORES, 'readwrite');
    tx.done.catch(() => undefined);
    try {
      const result = await fn(tx);
      await tx.done;
      return result;
    } catch (e) {
      try {
        tx.abort();
      } catch {
        // Already committed or aborted.
      }
      throw e;
    }
  }
}
