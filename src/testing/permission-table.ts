/**
 * The permission matrix of PRODUCT.md §6 as expected outcomes: every table (and view, and the bucket's
 * objects, and the functions behind §6's actions) × {anonymous, owner, editor, contributor, viewer, stranger}
 * × {select, insert, update, delete, call}. The database matrix (tests/db/permission-matrix.test.ts) runs each
 * row as each actor against real Postgres; the rows that carry a §6 `action` also hold the screens'
 * permissions (src/features/albums/album-permissions.ts) to the same answers, so the UI and RLS cannot drift.
 *
 * A new row: one line here, and its statement under the same `target|op` key in the database matrix (the
 * compiler asks for it).
 */
import type { AlbumAction } from '../lib/album-permissions';

/** anonymous, owner, editor, contributor, viewer, stranger (signed in, not a member). */
export type Who = 'A' | 'O' | 'E' | 'C' | 'V' | 'S';
export const ACTORS: readonly Who[] = ['A', 'O', 'E', 'C', 'V', 'S'];
export const NAMES: Record<Who, string> = { A: 'anonymous', O: 'owner', E: 'editor', C: 'contributor', V: 'viewer', S: 'stranger' };

export interface PermissionRow {
  target: string;
  op: 'select' | 'insert' | 'update' | 'delete' | 'call';
  /** Who may, per §6: a string of actor letters ('' = nobody). */
  allowed: string;
  /** The row of §6 this case enforces, when it is one the screens offer or hide. */
  action?: AlbumAction;
  /** Whose item the case acts on, for §6's "own" (a contributor deletes and edits their own items). */
  ownedBy?: Who;
}

/** Built from PRODUCT.md §6; the comments name the row of the table each line comes from. */
export const PERMISSION_TABLE = [
  // profiles: your own and your co-members' (display names next to comments and avatars).
  { target: 'profiles (viewer\'s)', op: 'select', allowed: 'OECV' },
  { target: 'profiles (viewer\'s)', op: 'insert', allowed: '' },
  { target: 'profiles (viewer\'s)', op: 'update', allowed: 'V' },
  { target: 'profiles (viewer\'s)', op: 'delete', allowed: '' },

  // albums: "view items" (all members); "rename, delete album": owner, editor renames; creation via create_album.
  { target: 'albums', op: 'select', allowed: 'OECV', action: 'view' },
  { target: 'albums', op: 'insert', allowed: '' },
  { target: 'albums', op: 'update', allowed: '' },
  { target: 'albums', op: 'delete', allowed: '' },
  { target: 'albums.item_count', op: 'update', allowed: '' },
  { target: 'album_summaries', op: 'select', allowed: 'OECV', action: 'view' },

  // album_members: "invite, change roles, remove members": owner only (target: the second viewer's row).
  { target: 'album_members', op: 'select', allowed: 'OECV', action: 'view' },
  { target: 'album_members', op: 'insert', allowed: '' },
  { target: 'album_members', op: 'update', allowed: '' },
  { target: 'album_members', op: 'delete', allowed: '' },

  // invites: owner only.
  { target: 'invites', op: 'select', allowed: 'O', action: 'manageMembers' },
  { target: 'invites', op: 'insert', allowed: '' },
  // Withdrawing goes through revoke_invite (supabase/migrations/20261123200000_invitations.sql).
  { target: 'invites', op: 'update', allowed: '' },
  { target: 'invites', op: 'delete', allowed: 'O', action: 'manageMembers' },
  { target: 'invites.token_hash', op: 'select', allowed: '' },

  // items: "view" all members; "add" through reserve_items; "edit metadata" (through edit_items) and "delete": owner,
  // editor all, contributor own.
  { target: 'items (editor\'s)', op: 'select', allowed: 'OECV', action: 'view' },
  { target: 'items (editor\'s)', op: 'insert', allowed: '' },
  { target: 'items (editor\'s)', op: 'update', allowed: '' },
  { target: 'items (editor\'s)', op: 'delete', allowed: '' },
  { target: 'items (contributor\'s)', op: 'update', allowed: '' },
  { target: 'items (contributor\'s)', op: 'delete', allowed: '' },
  { target: 'items.status', op: 'update', allowed: '' },
  { target: 'items (uploading)', op: 'select', allowed: 'C' },

  // comments: every member comments as themselves; the author edits; author, owner, editor delete (target: the viewer's).
  { target: 'comments (viewer\'s)', op: 'select', allowed: 'OECV' },
  { target: 'comments (viewer\'s)', op: 'insert', allowed: 'OECV', action: 'comment' },
  { target: 'comments (viewer\'s)', op: 'update', allowed: 'V', action: 'editComment', ownedBy: 'V' },
  { target: 'comments (viewer\'s)', op: 'delete', allowed: 'OEV', action: 'deleteComment', ownedBy: 'V' },
  { target: 'comments (as someone else)', op: 'insert', allowed: '' },
  { target: 'comments (contributor\'s)', op: 'update', allowed: 'C', action: 'editComment', ownedBy: 'C' },
  { target: 'comments (contributor\'s)', op: 'delete', allowed: 'OEC', action: 'deleteComment', ownedBy: 'C' },
  { target: 'comments (owner\'s)', op: 'update', allowed: 'O', action: 'editComment', ownedBy: 'O' },
  { target: 'comments (owner\'s)', op: 'delete', allowed: 'OE', action: 'deleteComment', ownedBy: 'O' },
  // The database stamps an edit; a deleted comment is deleted, never hidden behind deleted_at.
  { target: 'comments.edited_at', op: 'update', allowed: '' },
  { target: 'comments.deleted_at', op: 'update', allowed: '' },

  // favorites: every member marks their own (target: the viewer's).
  { target: 'favorites (viewer\'s)', op: 'select', allowed: 'OECV' },
  { target: 'favorites (viewer\'s)', op: 'insert', allowed: 'OECV', action: 'comment' },
  { target: 'favorites (viewer\'s)', op: 'update', allowed: '' },
  { target: 'favorites (viewer\'s)', op: 'delete', allowed: 'V' },
  // One person's heart is never another's to give or take.
  { target: 'favorites (as someone else)', op: 'insert', allowed: '' },
  { target: 'favorites (editor\'s)', op: 'delete', allowed: 'E' },
  { target: 'item_counts', op: 'call', allowed: 'OECV', action: 'view' },

  // album_visits: when each member last opened the album is theirs alone; mark_album_seen writes it.
  { target: 'album_visits (viewer\'s)', op: 'select', allowed: 'V' },
  { target: 'album_visits (viewer\'s)', op: 'insert', allowed: '' },
  { target: 'album_visits (viewer\'s)', op: 'update', allowed: '' },
  { target: 'album_visits (viewer\'s)', op: 'delete', allowed: '' },
  { target: 'mark_album_seen', op: 'call', allowed: 'OECV', action: 'view' },
  { target: 'unread_counts', op: 'call', allowed: 'OECVS' },

  // share_links: "manage share links": owner, editor.
  { target: 'share_links', op: 'select', allowed: 'OE', action: 'manageShareLinks' },
  { target: 'share_links', op: 'insert', allowed: '' },
  { target: 'share_links', op: 'update', allowed: 'OE', action: 'manageShareLinks' },
  { target: 'share_links', op: 'delete', allowed: 'OE', action: 'manageShareLinks' },
  // The hashes are for the SQL functions that check them: nobody reads them, so no password is tried offline.
  { target: 'share_links.password_hash', op: 'select', allowed: '' },
  { target: 'share_links.token_hash', op: 'select', allowed: '' },
  { target: 'share_links.has_password', op: 'select', allowed: 'OE', action: 'manageShareLinks' },

  // devices: each signed-in user reads their own (target: the viewer's); rows are written only by the device
  // functions, which stamp the session (20261127100000_device_sessions.sql, tests/db/devices.test.ts).
  { target: 'devices (viewer\'s)', op: 'select', allowed: 'V' },
  { target: 'devices (viewer\'s)', op: 'insert', allowed: '' },
  { target: 'devices (viewer\'s)', op: 'update', allowed: '' },
  { target: 'devices (viewer\'s)', op: 'delete', allowed: '' },

  // activity: members read; only functions and triggers write.
  { target: 'activity', op: 'select', allowed: 'OECV', action: 'view' },
  { target: 'activity', op: 'insert', allowed: '' },
  { target: 'activity', op: 'update', allowed: '' },
  { target: 'activity', op: 'delete', allowed: '' },
  { target: 'activity_feed', op: 'select', allowed: 'OECV', action: 'view' },

  // storage.objects: members read the album's objects; writers write under items they reserved; the bytes of an item
  // in the album are deleted by purge alone (deleting an item trashes it), a member deletes only their unfinished upload.
  { target: 'storage.objects (editor\'s item)', op: 'select', allowed: 'OECV', action: 'view' },
  { target: 'storage.objects (editor\'s item)', op: 'insert', allowed: '' },
  { target: 'storage.objects (editor\'s item)', op: 'update', allowed: '' },
  { target: 'storage.objects (editor\'s item)', op: 'delete', allowed: '' },
  { target: 'storage.objects (contributor\'s item)', op: 'delete', allowed: '' },
  { target: 'storage.objects (uploading item)', op: 'insert', allowed: 'C' },
  { target: 'storage.objects (uploading item)', op: 'delete', allowed: 'C' },
  { target: 'storage.objects (outside albums/)', op: 'insert', allowed: '' },
  { target: 'storage.s3_multipart_uploads', op: 'select', allowed: 'C' },
  { target: 'storage.s3_multipart_uploads_parts', op: 'select', allowed: 'C' },

  // The functions behind §6's actions.
  { target: 'reserve_items', op: 'call', allowed: 'OEC', action: 'addItems' },
  { target: 'finalize_item (contributor\'s)', op: 'call', allowed: 'C' },
  { target: 'edit_items (editor\'s)', op: 'call', allowed: 'OE', action: 'editItemMetadata', ownedBy: 'E' },
  { target: 'edit_items (contributor\'s)', op: 'call', allowed: 'OEC', action: 'editItemMetadata', ownedBy: 'C' },
  { target: 'trash_items (editor\'s)', op: 'call', allowed: 'OE', action: 'deleteItems', ownedBy: 'E' },
  { target: 'trash_items (contributor\'s)', op: 'call', allowed: 'OEC', action: 'deleteItems', ownedBy: 'C' },
  { target: 'restore_items (editor\'s)', op: 'call', allowed: 'OE', action: 'deleteItems', ownedBy: 'E' },
  { target: 'count_items_by_month', op: 'call', allowed: 'OECV', action: 'view' },
  { target: 'update_album (rename)', op: 'call', allowed: 'OE', action: 'editAlbum' },
  { target: 'delete_album', op: 'call', allowed: 'O', action: 'deleteAlbum' },
  { target: 'create_invite', op: 'call', allowed: 'O', action: 'manageMembers' },
  { target: 'set_member_role', op: 'call', allowed: 'O', action: 'manageMembers' },
  { target: 'remove_member', op: 'call', allowed: 'O', action: 'manageMembers' },
  { target: 'create_share_link', op: 'call', allowed: 'OE', action: 'manageShareLinks' },
  { target: 'create_album', op: 'call', allowed: 'OECVS' },

  // A write that has a SQL function goes only through it (supabase/migrations/20261123120200_writes_through_functions.sql):
  // deleting items (trash_items, then the purge with their objects), renaming or choosing a cover
  // (update_album), removing members (remove_member). And the owner's view of others' unfinished uploads.
  { target: 'items (own uploading)', op: 'delete', allowed: '' },
  { target: 'items (trashed)', op: 'delete', allowed: '' },
  { target: 'albums.cover_item_id', op: 'update', allowed: '' },
  { target: 'albums.description', op: 'update', allowed: '' },
  { target: 'album_members (own, leaving)', op: 'delete', allowed: '' },
  { target: 'update_album (cover)', op: 'call', allowed: 'OE', action: 'editAlbum' },
  // "keep/remove location" sits with deleting the album in §6: the owner's alone, and only through update_album.
  { target: 'update_album (keep location)', op: 'call', allowed: 'O', action: 'deleteAlbum' },
  { target: 'albums.keep_location', op: 'update', allowed: '' },
  { target: 'count_pending_items', op: 'call', allowed: 'O', action: 'manageMembers' },
  { target: 'clear_pending_items', op: 'call', allowed: 'O', action: 'manageMembers' },

  // Invitations by token (the seed's pending viewer invitation, and a withdrawn one): anyone signed in with a
  // valid token sees the invite page and joins; a member who opens an old link again just opens the album.
  { target: 'invite_preview (valid token)', op: 'call', allowed: 'OECVS' },
  { target: 'invite_preview (revoked token)', op: 'call', allowed: '' },
  { target: 'invite_preview (unknown token)', op: 'call', allowed: '' },
  { target: 'accept_invite (valid token)', op: 'call', allowed: 'OECVS' },
  { target: 'accept_invite (revoked token)', op: 'call', allowed: 'OECV' },
  { target: 'revoke_invite', op: 'call', allowed: 'O', action: 'manageMembers' },

  // Members: "transfer ownership" is the owner's (§6's row with deleting the album); anyone but the owner leaves;
  // the owner's own role changes only by handing over; nobody removes the owner.
  { target: 'transfer_ownership', op: 'call', allowed: 'O', action: 'deleteAlbum' },
  { target: 'leave_album (keeping items)', op: 'call', allowed: 'ECV', action: 'leaveAlbum' },
  { target: 'leave_album (trashing items)', op: 'call', allowed: 'ECV', action: 'leaveAlbum' },
  { target: 'set_member_role (owner\'s own)', op: 'call', allowed: '' },
  { target: 'remove_member (the owner)', op: 'call', allowed: '' },
] as const satisfies readonly PermissionRow[];

/** `target|op`: the key of a row, unique in the table. */
export type PermissionKey = (typeof PERMISSION_TABLE)[number] extends infer R ? (R extends { target: infer T extends string; op: infer O extends string } ? `${T}|${O}` : never) : never;

export const keyOf = (row: Pick<PermissionRow, 'target' | 'op'>): PermissionKey => `${row.target}|${row.op}` as PermissionKey;
