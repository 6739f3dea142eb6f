/**
 * The change events the local backend sends, typed as the port says: the row after the change (before it,
 * for a delete) as the entity the reads return; a deleted comment as its id alone, a heart taken back as its key,
 * as the server sends them. An album's change carries its cover's thumbnail too.
 */
import type { ChangeEvent, ChangeOp } from '../ports';
import type { Album, Item } from '../../domain/entities';
import type { CommentRecord, FavoriteRecord } from './local-db';

export function itemChange(op: ChangeOp, item: Item): ChangeEvent {
  return { entity: 'item', op, albumId: item.albumId, id: item.id, row: { ...item } };
}

export function albumChange(op: ChangeOp, album: Album): ChangeEvent {
  const row = {
    title: album.title,
    description: album.description,
    coverItemId: album.coverItemId,
    cover: { thumbKey: album.coverThumbKey, thumbhash: album.coverThumbhash },
    itemCount: album.itemCount,
    bytesTotal: album.bytesTotal,
    updatedAt: album.updatedAt,
  };
  return { entity: 'album', op, albumId: album.id, id: album.id, row };
}

export function commentChange(op: ChangeOp, r: CommentRecord): ChangeEvent {
  const row = op === 'delete' ? null : { itemId: r.itemId, authorId: r.authorId, body: r.body, createdAt: r.createdAt, editedAt: r.editedAt };
  return { entity: 'comment', op, albumId: r.albumId, id: r.id, row };
}

/** A heart given (the record) or taken back (its key, as on the server). */
export function favoriteChange(op: ChangeOp, r: Pick<FavoriteRecord, 'albumId' | 'itemId' | 'userId'> & { createdAt?: string }): ChangeEvent {
  return { entity: 'favorite', op, albumId: r.albumId, id: `${r.itemId}:${r.userId}`, row: { itemId: r.itemId, userId: r.userId, createdAt: r.createdAt ?? null } };
}
