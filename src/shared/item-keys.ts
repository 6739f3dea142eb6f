import type { ItemQuery } from '../domain/queries';

type View = Pick<ItemQuery, 'sort' | 'trashed' | 'favoritesOnly' | 'uploaderId'>;

/** The album's filters as one key part: a filtered list never shares a cache entry with the whole album. */
const filterPart = (view: View) => `${view.favoritesOnly ? 'fav' : ''}|${view.uploaderId ?? ''}`;

export const itemKeys = {
  album: (albumId: string) => ['items', albumId] as const,
  months: (albumId: string, view: View) => [...itemKeys.album(albumId), 'months', view.sort, !!view.trashed, filterPart(view)] as const,
  month: (albumId: string, view: View, month: string) => [...itemKeys.album(albumId), 'month', view.sort, !!view.trashed, filterPart(view), month] as const,
  detail: (albumId: string, itemId: string) => [...itemKeys.album(albumId), 'detail', itemId] as const,
  /** The newest ready photos and videos, offered as the album's cover. */
  coverChoices: (albumId: string) => [...itemKeys.album(albumId), 'cover-choices'] as const,
};
