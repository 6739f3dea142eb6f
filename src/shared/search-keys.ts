import type { SearchFilter } from '../domain/queries';

/** A filter as one key part, its fields in a fixed order so equal searches share a cache entry. */
const filterPart = (f: SearchFilter) =>
  [f.albumId ?? '', f.text?.trim() ?? '', f.minRating ?? '', f.label ?? '', f.kind ?? '', f.from ?? '', f.to ?? '', f.uploaderId ?? '', f.favoritesOnly ? 'fav' : ''].join('|');

export const searchKeys = {
  all: ['search'] as const,
  results: (filter: SearchFilter) => [...searchKeys.all, filterPart(filter)] as const,
};
