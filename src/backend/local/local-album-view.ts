/** Album rows as the app sees them: the stored record plus its cover, chosen or else the newest photo or video. */
import { unwrap } from 'idb';
import type { Album } from '../../domain/entities';
import type { AnyTx } from './local-data-deps';
import { prefixRange, readDescending, type AlbumRecord, type ItemRecord } from './local-db';
import { albumNotFound } from './local-errors';
import { compareDesc } from './local-item-record';

/** How many of the newest items to look through for one with a thumbnail, for the default cover. */
const COVER_LOOKAHEAD = 8;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Whether the item can be an album's cover: a listed photo or video with a thumbnail. */
export function isCoverable(r: ItemRecord): boolean {
  return r.lb === 'a' && (r.kind === 'image' || r.kind === 'video') && !!r.thumbKey;
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

export function toAlbum(record: AlbumRecord, cover: ItemRecord | null): Album {
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
    // Records from before the choice existed remove location, the default.
    keepLocation: record.keepLocation ?? false,
  };
}

export async function albumView(tx: AnyTx, record: AlbumRecord): Promise<Album> {
  return toAlbum(record, await coverOf(tx, record));
}

/** The album's record, or `album/not-found`. */
export async function requireAlbum(tx: AnyTx, albumId: string): Promise<AlbumRecord> {
  if (typeof albumId !== 'string' || albumId.length === 0) throw albumNotFound();
  const album = await tx.objectStore('albums').get(albumId);
  if (!album) throw albumNotFound();
  return album;
}
