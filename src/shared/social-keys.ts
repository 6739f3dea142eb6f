import type { ItemSocial } from '../domain/entities';
import { memberKeys } from './member-keys';

/** TanStack Query keys for comments and favourites, apart from the items' keys so a grid refresh leaves them be. */
export const socialKeys = {
  album: (albumId: string) => ['social', albumId] as const,
  comments: (albumId: string, itemId: string) => [...socialKeys.album(albumId), 'comments', itemId] as const,
  favoriters: (albumId: string, itemId: string) => [...socialKeys.album(albumId), 'favoriters', itemId] as const,
  /** Counts and one's own heart per item id, for every tile loaded so far (TileSocial). */
  tiles: (albumId: string) => [...socialKeys.album(albumId), 'tiles'] as const,
  /** The request that filled `tiles` for one loaded month. */
  month: (albumId: string, sort: string, month: string, ids: string) => [...socialKeys.album(albumId), 'month', sort, month, ids] as const,
  /** The album's members, for names beside comments, hearts and the "Added by" filter: the one member list
   * every screen shares, which membership events keep current. */
  members: (albumId: string) => memberKeys.list(albumId),
};

export type TileSocial = Readonly<Record<string, ItemSocial>>;
