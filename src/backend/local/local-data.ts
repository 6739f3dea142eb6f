/**
 * DataPort on IndexedDB. Each group of operations lives in its own module; this class only gives them
 * their shared dependencies. How every read and write meets the database: local-data-deps.ts.
 * Indexes and counters: [Note: Local item indexes] in local-db.ts.
 */
import type { AlbumInput, AlbumPatch, CallOptions, DataPort, Device, DeviceInput, FinalizeItemInput, ItemCountQuery, ItemQuery, MonthCount, Page, ReserveItemInput } from '../ports';
import type { Activity, Album, Comment, Favoriter, Invite, InviteInput, InvitePreview, Item, ItemSocial, Member, Role, ShareLink, ShareLinkInput } from '../entities';
import * as activity from './local-activity';
import * as albums from './local-albums';
import { LocalDevices } from './local-devices';
import { guard } from './local-errors';
import type { LocalDataDeps } from './local-data-deps';

// The albums screen reads albums and activity; the other operations (an album's items, uploads, comments,
// members, the trash) load with their first call, so the first screen does not carry them.
const members = () => import('./local-members');
const pages = () => import('./local-item-pages');
const pending = () => import('./local-pending-items');
const social = () => import('./local-social');
const writes = () => import('./local-item-writes');
const trash = () => import('./local-trash-purge');

export class LocalData implements DataPort {
  private readonly devices = new LocalDevices();

  constructor(private readonly deps: LocalDataDeps) {}

  // --- Albums -------------------------------------------------------------------------------------------

  listAlbums(opts: CallOptions = {}): Promise<Album[]> {
    return albums.listAlbums(this.deps, opts);
  }

  getAlbum(albumId: string, opts: CallOptions = {}): Promise<Album> {
    return albums.getAlbum(this.deps, albumId, opts);
  }

  createAlbum(input: AlbumInput, opts: CallOptions = {}): Promise<Album> {
    return albums.createAlbum(this.deps, input, opts);
  }

  updateAlbum(albumId: string, patch: AlbumPatch, opts: CallOptions = {}): Promise<Album> {
    return albums.updateAlbum(this.deps, albumId, patch, opts);
  }

  deleteAlbum(albumId: string, opts: CallOptions = {}): Promise<void> {
    return albums.deleteAlbum(this.deps, albumId, opts);
  }

  // --- Items --------------------------------------------------------------------------------------------

  listItems(albumId: string, query: ItemQuery, opts: CallOptions = {}): Promise<Page<Item>> {
    return pages().then((m) => m.listItems(this.deps, albumId, query, opts));
  }

  countItemsByMonth(albumId: string, query: ItemCountQuery, opts: CallOptions = {}): Promise<MonthCount[]> {
    return pages().then((m) => m.countItemsByMonth(this.deps, albumId, query, opts));
  }

  getItem(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Item> {
    return pages().then((m) => m.getItem(this.deps, albumId, itemId, opts));
  }

  reserveItems(albumId: string, inputs: ReserveItemInput[], opts: CallOptions = {}): Promise<Item[]> {
    return writes().then((m) => m.reserveItems(this.deps, albumId, inputs, opts));
  }

  finalizeItem(albumId: string, itemId: string, input: FinalizeItemInput, opts: CallOptions = {}): Promise<Item> {
    return writes().then((m) => m.finalizeItem(this.deps, albumId, itemId, input, opts));
  }

  failItem(albumId: string, itemId: string, opts: CallOptions = {}): Promise<void> {
    return writes().then((m) => m.failItem(this.deps, albumId, itemId, opts));
  }

  trashItems(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<void> {
    return writes().then((m) => m.setTrashed(this.deps, albumId, itemIds, true, opts));
  }

  restoreItems(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<void> {
    return writes().then((m) => m.setTrashed(this.deps, albumId, itemIds, false, opts));
  }

  countPendingItems(albumId: string, opts: CallOptions = {}): Promise<number> {
    return pending().then((m) => m.countPendingItems(this.deps, albumId, opts));
  }

  clearPendingItems(albumId: string, opts: CallOptions = {}): Promise<number> {
    return pending().then((m) => m.clearPendingItems(this.deps, albumId, opts));
  }

  // --- Activity -----------------------------------------------------------------------------------------

  listActivity(limit: number, opts: CallOptions = {}): Promise<Activity[]> {
    return activity.listActivity(this.deps, limit, opts);
  }

  unreadCounts(opts: CallOptions = {}): Promise<Record<string, number>> {
    // One person on this device: nobody else's doing is ever unread.
    return guard(opts.signal, () => Promise.resolve({}));
  }

  markAlbumSeen(albumId: string, opts: CallOptions = {}): Promise<void> {
    return activity.markAlbumSeen(this.deps, albumId, opts);
  }

  // --- Members and invitations: one member, the owner ([Note: Members without sharing] in ports.ts) ------

  listMembers(albumId: string, opts: CallOptions = {}): Promise<Member[]> {
    return members().then((m) => m.listMembers(this.deps, albumId, opts));
  }

  setMemberRole(albumId: string, _userId: string, _role: Role, opts: CallOptions = {}): Promise<void> {
    return members().then((m) => m.refuse(this.deps, albumId, opts));
  }

  removeMember(albumId: string, _userId: string, opts: CallOptions = {}): Promise<void> {
    return members().then((m) => m.refuse(this.deps, albumId, opts));
  }

  transferOwnership(albumId: string, _userId: string, opts: CallOptions = {}): Promise<void> {
    return members().then((m) => m.refuse(this.deps, albumId, opts));
  }

  leaveAlbum(albumId: string, _choice: { keepItems: boolean }, opts: CallOptions = {}): Promise<void> {
    return members().then((m) => m.refuse(this.deps, albumId, opts));
  }

  createInvite(albumId: string, _input: InviteInput, opts: CallOptions = {}): Promise<{ invite: Invite; token: string }> {
    return members().then((m) => m.refuse(this.deps, albumId, opts));
  }

  listInvites(albumId: string, opts: CallOptions = {}): Promise<Invite[]> {
    return members().then((m) => m.listInvites(this.deps, albumId, opts));
  }

  revokeInvite(_inviteId: string, opts: CallOptions = {}): Promise<void> {
    return members().then((m) => m.revokeInvite(opts));
  }

  invitePreview(_token: string, opts: CallOptions = {}): Promise<InvitePreview> {
    return members().then((m) => m.findInvite(opts));
  }

  acceptInvite(_token: string, opts: CallOptions = {}): Promise<string> {
    return members().then((m) => m.findInvite(opts));
  }

  // --- Comments and favourites (local-social.ts) ------------------------------------------------------

  listComments(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Comment[]> {
    return social().then((m) => m.listComments(this.deps, albumId, itemId, opts));
  }

  addComment(albumId: string, itemId: string, body: string, opts: CallOptions = {}): Promise<Comment> {
    return social().then((m) => m.addComment(this.deps, albumId, itemId, body, opts));
  }

  editComment(albumId: string, commentId: string, body: string, opts: CallOptions = {}): Promise<Comment> {
    return social().then((m) => m.editComment(this.deps, albumId, commentId, body, opts));
  }

  deleteComment(albumId: string, commentId: string, opts: CallOptions = {}): Promise<void> {
    return social().then((m) => m.deleteComment(this.deps, albumId, commentId, opts));
  }

  setFavorite(albumId: string, itemId: string, on: boolean, opts: CallOptions = {}): Promise<void> {
    return social().then((m) => m.setFavorite(this.deps, albumId, itemId, on, opts));
  }

  listFavoriters(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Favoriter[]> {
    return social().then((m) => m.listFavoriters(this.deps, albumId, itemId, opts));
  }

  itemSocial(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<ItemSocial[]> {
    return social().then((m) => m.itemSocial(this.deps, albumId, itemIds, opts));
  }

  // --- Share links: none on this device ([Note: Members without sharing]; capabilities.sharing.links) ------

  listShareLinks(albumId: string, opts: CallOptions = {}): Promise<ShareLink[]> {
    return members().then((m) => m.listShareLinks(this.deps, albumId, opts));
  }

  createShareLink(albumId: string, _input: ShareLinkInput, opts: CallOptions = {}): Promise<{ link: ShareLink; token: string }> {
    return members().then((m) => m.refuse(this.deps, albumId, opts));
  }

  revokeShareLink(_linkId: string, opts: CallOptions = {}): Promise<void> {
    return members().then((m) => m.refuseLink(opts));
  }

  // --- Functions ----------------------------------------------------------------------------------------

  /** Deletes items trashed more than `limits().trashDays` ago: rows first, then their bytes. */
  purgeTrash(opts: CallOptions = {}): Promise<{ purged: number }> {
    return trash().then((m) => m.purgeTrash(this.deps, opts));
  }

  // --- Devices ------------------------------------------------------------------------------------------

  listDevices(opts: CallOptions = {}): Promise<Device[]> {
    return this.devices.list(opts);
  }

  touchDevice(input: DeviceInput, opts: CallOptions = {}): Promise<void> {
    return this.devices.touch(input, opts);
  }

  signOutDevice(deviceId: string, opts: CallOptions = {}): Promise<void> {
    return this.devices.signOut(deviceId, opts);
  }

  signOutOtherDevices(opts: CallOptions = {}): Promise<void> {
    return this.devices.signOut('', opts);
  }
}
