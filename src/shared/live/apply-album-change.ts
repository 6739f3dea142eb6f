/**
 * The album's own row, heard on its channel, written into the album's cache: a new title, description, cover
 * or counts show at once. A message that names only the album (a change to more than 100 items in one go)
 * says "read it again", and is the one item change that refetches.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ChangeOfEntity } from '../../backend/ports';
import type { Album } from '../../domain/entities';
import { itemKeys } from '../item-keys';
import { albumKeys } from '../album-keys';

/** What happened to the album: nothing the screen must do, or it is gone. */
export type AlbumChangeOutcome = 'none' | 'deleted';

export function applyAlbumChange(qc: QueryClient, ev: ChangeOfEntity<'album'>): AlbumChangeOutcome {
  if (ev.op === 'delete') return 'deleted';
  const r = ev.row;
  const key = albumKeys.detail(ev.albumId);
  void qc.invalidateQueries({ queryKey: albumKeys.list(), refetchType: 'none' });
  if (!r) {
    // Only the album's id: many of its items changed at once (or a row the app cannot read).
    void qc.invalidateQueries({ queryKey: itemKeys.album(ev.albumId) });
    void qc.invalidateQueries({ queryKey: key, exact: true });
    return 'none';
  }
  let coverUnknown = false;
  qc.setQueryData<Album>(key, (album) => {
    if (!album) return album;
    const next: Album = { ...album, title: r.title, description: r.description, itemCount: r.itemCount, bytesTotal: r.bytesTotal, updatedAt: r.updatedAt, coverItemId: r.coverItemId };
    if (r.cover) {
      next.coverThumbKey = r.cover.thumbKey;
      next.coverThumbhash = r.cover.thumbhash;
    } else if (r.coverItemId !== album.coverItemId) {
      // The table's row names the cover item, not its thumbnail: that one read is worth it (rare).
      coverUnknown = true;
    }
    return next;
  });
  if (coverUnknown) void qc.invalidateQueries({ queryKey: key, exact: true });
  return 'none';
}
