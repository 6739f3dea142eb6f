/**
 * The life of a local item row: reserved while its bytes upload, then ready or failed, then trashed and
 * restored. Each change writes the row, its counters (local-item-ledger.ts) and its activity in one
 * transaction, then emits the rows it changed.
 */
import { limits } from '../../config';
import { AppError } from '../../lib/app-error';
import { objectKeys, type CallOptions, type ChangeEvent, type ItemWritesPort } from '../ports';
import type { FinalizeItemInput, ItemEdit, ReserveItemInput } from '../../domain/inputs';
import { applyItemEdit, checkItemEdit, fitsMetadataBound } from '../../lib/item-edit';
import type { ItemRecord } from './local-db';
import type { Item } from '../../domain/entities';
import { addActivity, noteAddition } from './local-activity';
import { itemChange, albumChange } from './local-changes';
import { albumView, requireAlbum } from './local-album-view';
import { now, writeTransaction, type LocalDataDeps } from './local-data-deps';
import { guard, invalid, itemNotFound } from './local-errors';
import { checkFinalizeInput, checkIds, checkReserveInput, type ReserveInput } from './local-item-input';
import { ItemLedger } from './local-item-ledger';
import { toItem } from './local-item-record';
import { withListFields } from './local-list-fields';

/** Trashes (`trash` true) or restores ready items; one activity row for all that changed. */
export function setTrashed(deps: LocalDataDeps, albumId: string, itemIds: string[], trash: boolean, opts: CallOptions): Promise<void> {
  return guard(opts.signal, async () => {
    const ids = checkIds(itemIds);
    const profile = await deps.profile();
    const at = now();
    const events: ChangeEvent[] = [];
    await writeTransaction(deps, async (tx) => {
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
        events.push(itemChange('update', next));
        changed++;
      }
      if (changed === 0) return;
      await addActivity(tx, albumId, profile.id, trash ? 'trashed_items' : 'restored_items', changed, at);
      const [album] = await ledger.flush(tx, at);
      if (album) events.push(albumChange('update', await albumView(tx, album)));
    });
    deps.realtime.emit(events);
  });
}

/** Edits ready items' details (one person owns every local album: nothing to refuse by role). */
function editItems(deps: LocalDataDeps, albumId: string, itemIds: string[], edit: ItemEdit, opts: CallOptions): Promise<Item[]> {
  return guard(opts.signal, async () => {
    const ids = checkIds(itemIds);
    if (ids.length === 0 || ids.length > limits().maxFilesPerBatch) throw invalid('itemIds', 'Choose 1 to 10,000 items.');
    const checked = checkItemEdit(edit);
    const at = now();
    const events: ChangeEvent[] = [];
    const items = await writeTransaction(deps, async (tx) => {
      await requireAlbum(tx, albumId);
      const store = tx.objectStore('items');
      const rows = await Promise.all(ids.map((id) => store.get([albumId, id])));
      // Items in the trash are restored before they are edited.
      if (rows.some((r) => !r || r.status !== 'ready' || r.deletedAt)) throw itemNotFound();
      const ledger = new ItemLedger();
      const out: Item[] = [];
      for (const before of rows as ItemRecord[]) {
        const next: Item = { ...toItem(before), ...applyItemEdit(before, checked), editedAt: at };
        if (!fitsMetadataBound(next.metadata)) throw invalid('metadata', 'An item holds at most 200 keywords and 16 KiB of details.');
        const record = withListFields(next);
        await store.put(record);
        ledger.record(before, record);
        events.push(itemChange('update', next));
        out.push(next);
      }
      await ledger.flush(tx, null);
      return out;
    });
    deps.realtime.emit(events);
    deps.sidecars.write(items);
    return items;
  });
}

/** Adding items and the trash on IndexedDB (others' unfinished uploads: local-pending-items.ts). */
export function localItemWrites(deps: LocalDataDeps): Omit<ItemWritesPort, 'countPendingItems' | 'clearPendingItems'> {
  return {
    reserveItems(albumId: string, inputs: ReserveItemInput[], opts: CallOptions = {}): Promise<Item[]> {
      return guard(opts.signal, async () => {
        if (!Array.isArray(inputs)) throw invalid('items', 'The files to add must be a list.');
        const maxBatch = limits().maxFilesPerBatch;
        if (inputs.length > maxBatch) throw invalid('files', `Add at most ${maxBatch.toLocaleString('en')} files at once.`, 'too-many', maxBatch);
        const unique = new Map<string, ReserveInput>();
        for (const input of inputs) {
          const checked = checkReserveInput(input);
          if (!unique.has(checked.id)) unique.set(checked.id, checked);
        }
        if (unique.size === 0) return [];
        const profile = await deps.profile();
        const at = now();
        const events: ChangeEvent[] = [];
        const items = await writeTransaction(deps, async (tx) => {
          const album = await requireAlbum(tx, albumId);
          const store = tx.objectStore('items');
          const wanted = [...unique.values()];
          const existing = await Promise.all(wanted.map((w) => store.get([albumId, w.id])));
          const adding = existing.filter((e) => !e || e.status === 'failed').length;
          const max = limits().maxItemsPerAlbum;
          if (album.heldCount + adding > max) {
            throw new AppError('validation/invalid', `This album is full: it can hold ${max.toLocaleString('en')} items.`, {
              details: { field: 'items', rule: 'full', limit: max },
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
            // A failed item reserved again is a retry: it goes back to uploading, stored as it goes up now.
            const { storedEncoding: _e, storedBytes: _b, ...kept } = before ? toItem(before) : ({} as Partial<Item>);
            const stored = w.stored ? { storedEncoding: w.stored.encoding, storedBytes: w.stored.bytes } : {};
            const item: Item = before
              ? { ...(kept as Item), ...stored, status: 'uploading' }
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
                  ...stored,
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
            events.push(itemChange(before ? 'update' : 'insert', item));
            result.push(item);
          }
          await ledger.flush(tx, null);
          return result;
        });
        deps.realtime.emit(events);
        return items;
      });
    },
    finalizeItem(albumId: string, itemId: string, input: FinalizeItemInput, opts: CallOptions = {}): Promise<Item> {
      return guard(opts.signal, async () => {
        const done = await checkFinalizeInput(input);
        const profile = await deps.profile();
        const at = now();
        const events: ChangeEvent[] = [];
        const item = await writeTransaction(deps, async (tx) => {
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
          await noteAddition(tx, albumId, profile.id, at, 1, itemId, record.kind);
          const [album] = await ledger.flush(tx, at);
          events.push(itemChange('update', next));
          if (album) events.push(albumChange('update', await albumView(tx, album)));
          return next;
        });
        deps.realtime.emit(events);
        return item;
      });
    },
    failItem(albumId: string, itemId: string, opts: CallOptions = {}): Promise<void> {
      return guard(opts.signal, async () => {
        const events: ChangeEvent[] = [];
        await writeTransaction(deps, async (tx) => {
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
          events.push(itemChange('update', next));
        });
        deps.realtime.emit(events);
      });
    },
    editItems: (albumId: string, itemIds: string[], edit: ItemEdit, opts: CallOptions = {}) => editItems(deps, albumId, itemIds, edit, opts),
    trashItems: (albumId: string, itemIds: string[], opts: CallOptions = {}) => setTrashed(deps, albumId, itemIds, true, opts),
    restoreItems: (albumId: string, itemIds: string[], opts: CallOptions = {}) => setTrashed(deps, albumId, itemIds, false, opts),
  };
}
