/** The local backend's trash retention: what the server's scheduled purge does, run on the device. */
import { limits } from '../../config';
import type { CallOptions, ChangeEvent } from '../ports';
import { itemChange, albumChange } from './local-changes';
import { albumView } from './local-album-view';
import { removeItemFiles, writeTransaction, type LocalDataDeps } from './local-data-deps';
import type { ItemRecord } from './local-db';
import { guard } from './local-errors';
import { ItemLedger } from './local-item-ledger';
import { toItem } from './local-item-record';
import { forgetSocial } from './local-social';

const DAY_MS = 86_400_000;

/** Deletes items trashed more than `limits().trashDays` ago: rows first, then their bytes. */
export function purgeTrash(deps: LocalDataDeps, opts: CallOptions): Promise<{ purged: number }> {
  return guard(opts.signal, async () => {
    const cutoff = new Date(Date.now() - limits().trashDays * DAY_MS).toISOString();
    const events: ChangeEvent[] = [];
    const purged = await writeTransaction(deps, async (tx) => {
      const store = tx.objectStore('items');
      const keys = await store.index('deleted').getAllKeys(IDBKeyRange.upperBound(cutoff, true));
      const rows = await Promise.all(keys.map((key) => store.get(key)));
      const ledger = new ItemLedger();
      const gone: ItemRecord[] = [];
      for (const row of rows) {
        if (!row) continue;
        await store.delete([row.albumId, row.id]);
        await forgetSocial(tx, row.albumId, row.id);
        ledger.record(row, null);
        gone.push(row);
        events.push(itemChange('delete', toItem(row)));
      }
      const albums = tx.objectStore('albums');
      for (const albumId of new Set(gone.map((r) => r.albumId))) {
        const album = await albums.get(albumId);
        if (album?.coverItemId && gone.some((r) => r.albumId === albumId && r.id === album.coverItemId)) {
          await albums.put({ ...album, coverItemId: null });
        }
      }
      for (const album of await ledger.flush(tx, null)) {
        events.push(albumChange('update', await albumView(tx, album)));
      }
      return gone;
    });
    deps.realtime.emit(events);
    await removeItemFiles(deps, purged, 'purged items');
    return { purged: purged.length };
  });
}
