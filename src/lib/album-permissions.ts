/**
 * What each role may do in an album: the table of PRODUCT.md §6, the one place the screens ask. The database
 * decides (RLS and the SQL functions refuse what is not allowed); this only tells the UI what to offer, and
 * a test holds it against the same table the database's permission matrix runs
 * (src/testing/permission-table.ts).
 */
import type { Role } from '../domain/entities';

/** Who acts on an album: a member, by their role, or a visitor who came through a share link. */
export type AlbumActor = Role | 'link-visitor';

/** The rows of §6. */
export type AlbumAction =
  /** View items, download them (a link visitor: if the link allows downloads). */
  | 'view'
  | 'addItems'
  /** Move items to the trash and restore them. */
  | 'deleteItems'
  | 'editItemMetadata'
  /** Comment, mark favourites. */
  | 'comment'
  /** Change the words of a comment: its author only. */
  | 'editComment'
  /** Delete a comment: one's own, and the owner and editors any. */
  | 'deleteComment'
  | 'manageShareLinks'
  /** Invite, change roles, remove members. */
  | 'manageMembers'
  /** Rename, describe, choose the cover. */
  | 'editAlbum'
  /** Delete the album, transfer ownership, keep or remove locations. */
  | 'deleteAlbum'
  /** Leave, keeping or trashing one's own items. */
  | 'leaveAlbum';

/** How far a permission reaches: every item, only the actor's own (those they added), or nothing. */
export type Reach = 'all' | 'own' | 'none';

const SECTION_6: Record<AlbumAction, Record<AlbumActor, Reach>> = {
  view: { owner: 'all', editor: 'all', contributor: 'all', viewer: 'all', 'link-visitor': 'all' },
  addItems: { owner: 'all', editor: 'all', contributor: 'all', viewer: 'none', 'link-visitor': 'all' },
  deleteItems: { owner: 'all', editor: 'all', contributor: 'own', viewer: 'none', 'link-visitor': 'own' },
  editItemMetadata: { owner: 'all', editor: 'all', contributor: 'own', viewer: 'none', 'link-visitor': 'none' },
  comment: { owner: 'all', editor: 'all', contributor: 'all', viewer: 'all', 'link-visitor': 'none' },
  editComment: { owner: 'own', editor: 'own', contributor: 'own', viewer: 'own', 'link-visitor': 'none' },
  deleteComment: { owner: 'all', editor: 'all', contributor: 'own', viewer: 'own', 'link-visitor': 'none' },
  manageShareLinks: { owner: 'all', editor: 'all', contributor: 'none', viewer: 'none', 'link-visitor': 'none' },
  manageMembers: { owner: 'all', editor: 'none', contributor: 'none', viewer: 'none', 'link-visitor': 'none' },
  editAlbum: { owner: 'all', editor: 'all', contributor: 'none', viewer: 'none', 'link-visitor': 'none' },
  deleteAlbum: { owner: 'all', editor: 'none', contributor: 'none', viewer: 'none', 'link-visitor': 'none' },
  leaveAlbum: { owner: 'all', editor: 'all', contributor: 'all', viewer: 'all', 'link-visitor': 'none' },
};

export interface AbilityContext {
  /** The item acted on was added by the actor (for a link visitor: with this link's guest token). */
  own?: boolean;
  /** The share link has guest upload on: only then may a link visitor add items, or delete those they added. */
  guestUpload?: boolean;
  /** The actor is the album's only owner, who cannot leave it (an album has one owner: the default). */
  lastOwner?: boolean;
}

/** How far `actor`'s permission for `action` reaches, before any condition of the context. */
export function reachOf(actor: AlbumActor, action: AlbumAction): Reach {
  return SECTION_6[action][actor];
}

/** Whether `actor` may do `action`, on an item that is theirs or not (`own`), under the link's options. */
export function can(actor: AlbumActor, action: AlbumAction, ctx: AbilityContext = {}): boolean {
  const reach = reachOf(actor, action);
  if (reach === 'none') return false;
  if (reach === 'own' && !ctx.own) return false;
  if (actor === 'link-visitor' && (action === 'addItems' || action === 'deleteItems') && !ctx.guestUpload) return false;
  if (actor === 'owner' && action === 'leaveAlbum' && (ctx.lastOwner ?? true)) return false;
  return true;
}

/** What the album screens offer a member; an item's own actions ask `can` with `own`. */
export interface AlbumAbilities {
  addItems: boolean;
  /** Some items may be moved to the trash or restored (for a contributor: their own; the server refuses others). */
  deleteSomeItems: boolean;
  editAlbum: boolean;
  deleteAlbum: boolean;
  manageMembers: boolean;
  manageShareLinks: boolean;
  /** Hand the album to another member (§6 puts it with deleting the album). */
  transferOwnership: boolean;
  /** Choose whether originals keep their location (§6 puts it with deleting the album too). */
  chooseLocation: boolean;
}

export function albumAbilities(role: Role): AlbumAbilities {
  return {
    addItems: can(role, 'addItems'),
    deleteSomeItems: can(role, 'deleteItems', { own: true }),
    editAlbum: can(role, 'editAlbum'),
    deleteAlbum: can(role, 'deleteAlbum'),
    manageMembers: can(role, 'manageMembers'),
    manageShareLinks: can(role, 'manageShareLinks'),
    transferOwnership: can(role, 'deleteAlbum'),
    chooseLocation: can(role, 'deleteAlbum'),
  };
}

/** The sections of an album's settings screen a member sees; the backend refuses the rest anyway. */
export interface SettingsSections {
  /** Title, description, cover. */
  album: boolean;
  /** The list is everyone's; changing roles, removing and handing over are the owner's. */
  members: true;
  invitations: boolean;
  shareLinks: boolean;
  /** Deleting the album. */
  dangerZone: boolean;
  /** Leaving, with a choice about one's items: anyone but the album's one owner. */
  leave: boolean;
}

export function settingsSections(role: Role): SettingsSections {
  return {
    album: can(role, 'editAlbum'),
    members: true,
    invitations: can(role, 'manageMembers'),
    shareLinks: can(role, 'manageShareLinks'),
    dangerZone: can(role, 'deleteAlbum'),
    leave: can(role, 'leaveAlbum'),
  };
}
