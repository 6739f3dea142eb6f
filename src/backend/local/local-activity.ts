/** The activity feed of local albums: rows written inside each change's own transaction, and the feed read. */
import { unwrap } from 'idb';
import type { ActivityPort, CallOptions } from '../ports';
import type { Activity, ItemKind } from '../../domain/entities';
import { readTransaction, type LocalDataDeps } from './local-data-deps';
import { readDescending, type ActivityRecord, type WriteTx } from './local-db';
import { guard, invalid } from './local-errors';
import { requireAlbum } from './local-album-view';
import { MAX_PAGE_SIZE } from './local-data-deps';

/** Additions by the same person to the same album within this long read as one activity row. */
export const ADDED_ITEMS_BURST_MS = 5 * 60_000;

/** Counts an addition, merged into the same person's latest `added_items` row when it is recent. */
export async function noteAddition(tx: WriteTx, albumId: string, actorId: string, at: string, count: number, itemId: string, kind: ItemKind): Promise<void> {
  const since = new Date(Date.parse(at) - ADDED_ITEMS_BURST_MS).toISOString();
  const burst = tx.objectStore('activity').index('burst');
  const cursor = await burst.openCursor(IDBKeyRange.bound([albumId, actorId, 'added_items', since], [albumId, actorId, 'added_items', '\uffff']), 'prev');
  if (cursor) {
    // "12 photos" while every item is one; "items" once they are mixed (or were added before kinds were kept).
    await cursor.update({ ...cursor.value, count: cursor.value.count + count, createdAt: at, itemKind: cursor.value.itemKind === kind ? kind : 'mixed' });
    return;
  }
  // The first item added names the line, as on the server.
  await tx.objectStore('activity').add({ id: crypto.randomUUID(), albumId, actorId, verb: 'added_items', subject: itemId, itemKind: kind, count, createdAt: at });
}

export async function addActivity(tx: WriteTx, albumId: string, actorId: string, verb: ActivityRecord['verb'], count: number, at: string, subject: string | null = null): Promise<void> {
  await tx.objectStore('activity').add({ id: crypto.randomUUID(), albumId, actorId, verb, subject, count, createdAt: at });
}

/** Activity on IndexedDB. */
export function localActivity(deps: LocalDataDeps): ActivityPort {
  return {
    /** The newest `limit` rows across every album that still exists. */
    listActivity(limit: number, opts: CallOptions = {}): Promise<Activity[]> {
      return guard(opts.signal, async () => {
        if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw invalid('limit', `Ask for 1 to ${MAX_PAGE_SIZE} rows.`);
        const profile = await deps.profile();
        return readTransaction(deps, opts.signal, async (tx) => {
          const index = unwrap(tx).objectStore('activity').index('created');
          const rows = await readDescending<ActivityRecord>(index, IDBKeyRange.lowerBound(['']), limit);
          const albumIds = [...new Set(rows.map((r) => r.value.albumId))];
          const albums = await Promise.all(albumIds.map((id) => tx.objectStore('albums').get(id)));
          const titles = new Map(albums.flatMap((a) => (a ? [[a.id, a.title] as const] : [])));
          // The kind of each commented item, as the server's view gives it (null once the item is gone).
          const commented = rows.filter(({ value: r }) => r.verb === 'commented' && r.subject && titles.has(r.albumId));
          const items = await Promise.all(commented.map(({ value: r }) => tx.objectStore('items').get([r.albumId, r.subject ?? ''])));
          const kinds = new Map(items.flatMap((i) => (i ? [[i.id, i.kind] as const] : [])));
          return rows.flatMap(({ value: r }) => {
            const albumTitle = titles.get(r.albumId);
            if (albumTitle === undefined) return [];
            const subjectId = r.subject ?? null;
            return [
              {
                id: r.id,
                albumId: r.albumId,
                albumTitle,
                actorId: r.actorId,
                // One profile writes every row here; another id would be a profile this device no longer has.
                actorName: r.actorId === profile.id ? profile.displayName : null,
                verb: r.verb,
                subjectId,
                subjectKind: r.verb === 'commented' && subjectId ? (kinds.get(subjectId) ?? null) : r.verb === 'added_items' && r.itemKind && r.itemKind !== 'mixed' ? r.itemKind : null,
                count: r.count,
                createdAt: r.createdAt,
              },
            ];
          });
        });
      });
    },
    /** Marks nothing: every line here is the one person's own, so none is ever unread. Checks the album exists. */
    markAlbumSeen(albumId: string, opts: CallOptions = {}): Promise<void> {
      return guard(opts.signal, async () => {
        await readTransaction(deps, opts.signal, (tx) => requireAlbum(tx, albumId));
      });
    },
    // One person on this device: nobody else's doing is ever unread.
    unreadCounts: (opts: CallOptions = {}) => guard(opts.signal, () => Promise.resolve({})),
  };
}
