import type { Role } from '../../domain/entities';

export const ROLE_NAMES: Record<Role, string> = { owner: 'Owner', editor: 'Editor', contributor: 'Contributor', viewer: 'Viewer' };

/** What each role may do, in a phrase, for choosing one. */
export const ROLE_HINTS: Record<Role, string> = {
  owner: 'everything, including deleting the album',
  editor: 'add, remove and restore anyone’s items, edit the album',
  contributor: 'add items and remove their own',
  viewer: 'look, download, comment and mark favourites',
};
