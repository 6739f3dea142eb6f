/**
 * Uploads other members started in an album and never finished ([Note: Pending uploads] in
 * supabase/migrations/20261123120300_pending_uploads.sql). On this device every row is the one profile's own,
 * so there are none to count or clear; the rule is still the server's, so a seeded row of someone else obeys it.
 */
import type { CallOptions, ChangeEvent, ItemWritesPort } from '../ports';
import { itemChange, albumChange } from './local-changes';
import { albumView, requireAlbum } from './local-album-view';
import { readTransaction, removeItemFiles, writeTransaction, type AnyTx, type LocalDataDeps } from './local-data-deps';
import type { ItemRecord } from './local-db';
import { guard } from './local-errors';
import { ItemLedger } from './local-item-ledger';
import { toItem } from './local-item-record';

async function othersPending(tx: AnyTx, albumId: string, me: string): Promise<ItemRecord[]> {
  await requireAlbum(tx, albumId);
  const rows = await tx.objectStore('items').getAll(IDBKeyRange.bound([albumId], [albumId, []]));
  return rows.filter((r) => r.status !== 'ready' && r.uploaderId !== me);
}

/** Others' unfinished uploads: part of the item writes port. */
export function localPendingItems(deps: LocalDataDeps): Pick<ItemWritesPort, 'countPendingItems' | 'clearPendingItems'> {
  return {
    countPendingItems(albumId: string, opts: CallOptions = {}): Promise<number> {
      return guard(opts.signal, async () => {
        const profile = await deps.profile();
        return (await readTransaction(deps, opts.signal, (tx) => othersPending(tx, albumId, profile.id))).length;
      });
    },
    clearPendingItems(albumId: string, opts: CallOptions = {}): Promise<number> {
      return guard(opts.signal, async () => {
        const profile = await deps.profile();
        const events: ChangeEvent[] = [];
        const gone = await writeTransaction(deps, async (tx) => {
          const rows = await othersPending(tx, albumId, profile.id);
          const ledger = new ItemLedger();
          for (const row of rows) {
            await tx.objectStore('items').delete([row.albumId, row.id]);
            ledger.record(row, null);
            events.push(itemChange('delete', toItem(row)));
          }
          for (const album of await ledger.flush(tx, null)) {
            events.push(albumChange('update', await albumView(tx, album)));
          }
          return rows;
        });
        deps.realtime.emit(events);
        await removeItemFiles(deps, gone, 'cleared uploads');
        return gone.length;
      });
    },
  };
}
