import type { QueryClient } from '@tanstack/react-query';
import type { ChangeEvent, ChangeOfEntity } from '../../backend/ports';
import type { Comment, Favoriter, ItemSocial, Member } from '../../domain/entities';
import { socialKeys, type TileSocial } from '../social-keys';

/**
 * [Note: Live comments and hearts]
 * A comment or heart event updates the caches it concerns from the event itself: the open item's comment
 * list and who gave hearts, and the tiles' counts. Nothing of the album is read again. The author's name is
 * taken from the album's member list already held (or from the signed-in profile); a comment whose author is
 * not in it leaves that one item's list to be read again (one request). Every update is keyed by ids, so
 * hearing one's own change both from the call and from the channel counts it once: a list holds an id once,
 * and one's own heart is a state (given or not), not a count to add to. Where no list is loaded to say so, what
 * the events applied so far said of each comment and heart (`HeardSocial`) keeps an event heard again from
 * counting twice ([Note: Applying an event once] in use-album-live.ts).
 */

interface Self {
  userId: string | undefined;
  displayName: string | undefined;
}

/** What the events applied so far said, kept by whoever applies them, one per subscription. */
export interface HeardSocial {
  /** By comment id: the item it is counted on, or null once it was deleted. */
  comments: Map<string, string | null>;
  /** By `itemId:userId`: whether that person's heart is counted. */
  hearts: Map<string, boolean>;
}

export const heardNothing = (): HeardSocial => ({ comments: new Map(), hearts: new Map() });

function nameOf(qc: QueryClient, albumId: string, userId: string | null, self: Self): string | null {
  if (!userId) return '';
  if (userId === self.userId && self.displayName !== undefined) return self.displayName;
  const members = qc.getQueryData<Member[]>(socialKeys.members(albumId));
  return members?.find((m) => m.userId === userId)?.displayName ?? null;
}

function updateTile(qc: QueryClient, albumId: string, itemId: string, change: (s: ItemSocial) => ItemSocial): void {
  qc.setQueryData<TileSocial>(socialKeys.tiles(albumId), (tiles) => {
    if (!tiles) return tiles;
    const before = tiles[itemId] ?? { itemId, commentCount: 0, favoriteCount: 0, myFavorite: false };
    return { ...tiles, [itemId]: change(before) };
  });
}

function commentOf(qc: QueryClient, ev: ChangeOfEntity<'comment'>, self: Self): Comment | 'unnamed' | null {
  if (!ev.row) return null;
  const authorName = nameOf(qc, ev.albumId, ev.row.authorId, self);
  if (authorName === null) return 'unnamed';
  return { ...ev.row, id: ev.id, albumId: ev.albumId, authorName };
}

/** Where a comment with this id is listed, among the album's loaded comment lists. */
function findComment(qc: QueryClient, albumId: string, id: string): Comment | undefined {
  for (const [, list] of qc.getQueriesData<Comment[]>({ queryKey: [...socialKeys.album(albumId), 'comments'] })) {
    const found = list?.find((c) => c.id === id);
    if (found) return found;
  }
  return undefined;
}

/** Deletions this tab made and already applied, so their event (which may come later) is not applied twice. */
const appliedDeletes = new Set<string>();

/**
 * A comment is gone: out of its list, one fewer on its tile. Called by the delete's own success and by its
 * event, in either order; whichever comes second changes nothing. `countedOn`: the item its event was counted
 * on, when no loaded list holds it.
 */
export function applyCommentDeleted(qc: QueryClient, albumId: string, id: string, fromEvent: boolean, countedOn?: string): void {
  if (fromEvent && appliedDeletes.delete(id)) return;
  const gone = findComment(qc, albumId, id);
  const itemId = gone?.itemId ?? countedOn;
  if (!itemId) {
    // The count of a tile whose comments are not loaded cannot be told from an id alone: read the tiles again.
    if (fromEvent) void qc.invalidateQueries({ queryKey: [...socialKeys.album(albumId), 'month'] });
    return;
  }
  if (gone) qc.setQueryData<Comment[]>(socialKeys.comments(albumId, itemId), (list) => list?.filter((c) => c.id !== id));
  updateTile(qc, albumId, itemId, (s) => ({ ...s, commentCount: Math.max(0, s.commentCount - 1) }));
  if (!fromEvent) appliedDeletes.add(id);
}

function applyComment(qc: QueryClient, ev: ChangeOfEntity<'comment'>, self: Self, heard: HeardSocial): void {
  const { albumId } = ev;
  const counted = heard.comments.get(ev.id);
  if (ev.op === 'delete') {
    heard.comments.set(ev.id, null);
    // null: its deletion was applied already, and this is it heard again.
    if (counted !== null) applyCommentDeleted(qc, albumId, ev.id, true, counted);
    return;
  }
  const comment = commentOf(qc, ev, self);
  if (comment === null || !ev.row) return;
  const { itemId } = ev.row;
  // One more only when it was not there: new to the events and an insert (an edit of one read with the tiles is
  // counted already), or back after its deletion was heard (a change sent again, from before that deletion).
  const adds = counted === null || (counted === undefined && ev.op === 'insert');
  heard.comments.set(ev.id, itemId);
  if (comment === 'unnamed') {
    void qc.invalidateQueries({ queryKey: socialKeys.comments(albumId, itemId), exact: true });
    if (adds) updateTile(qc, albumId, itemId, (s) => ({ ...s, commentCount: s.commentCount + 1 }));
    return;
  }
  applyCommentSaved(qc, comment, adds);
}

/**
 * A comment added or edited: into its item's list (kept oldest first), and one more on the tile when it is new
 * there. Called by the call's own success and by its event, in either order; the second changes nothing.
 */
export function applyCommentSaved(qc: QueryClient, comment: Comment, added: boolean): void {
  const key = socialKeys.comments(comment.albumId, comment.itemId);
  const list = qc.getQueryData<Comment[]>(key);
  const isNew = !list?.some((c) => c.id === comment.id);
  if (list) {
    const next = isNew ? [...list, comment] : list.map((c) => (c.id === comment.id ? comment : c));
    qc.setQueryData<Comment[]>(key, next.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id)));
  }
  // Without a loaded list the event is the only one to hear of it.
  if (isNew && added) updateTile(qc, comment.albumId, comment.itemId, (s) => ({ ...s, commentCount: s.commentCount + 1 }));
}

function applyFavorite(qc: QueryClient, ev: ChangeOfEntity<'favorite'>, self: Self, heard: HeardSocial): void {
  const { albumId } = ev;
  if (!ev.row) return;
  const { itemId, userId } = ev.row;
  const on = ev.op !== 'delete';
  const mine = userId === self.userId;
  const counted = heard.hearts.get(`${itemId}:${userId}`);
  heard.hearts.set(`${itemId}:${userId}`, on);
  updateTile(qc, albumId, itemId, (s) => {
    // One's own heart is a state: already shown (by the call that gave it) means already counted. Another's is
    // one too, as its events last said.
    if (mine ? s.myFavorite === on : counted === on) return s;
    return { ...s, favoriteCount: Math.max(0, s.favoriteCount + (on ? 1 : -1)), myFavorite: mine ? on : s.myFavorite };
  });
  const key = socialKeys.favoriters(albumId, itemId);
  if (!on) {
    qc.setQueryData<Favoriter[]>(key, (list) => list?.filter((f) => f.userId !== userId));
    return;
  }
  const displayName = nameOf(qc, albumId, userId, self);
  if (displayName === null) {
    void qc.invalidateQueries({ queryKey: key, exact: true });
    return;
  }
  const createdAt = ev.row.createdAt ?? new Date().toISOString();
  qc.setQueryData<Favoriter[]>(key, (list) => (!list || list.some((f) => f.userId === userId) ? list : [...list, { userId, displayName, createdAt }]));
}

/**
 * Applies a comment or favourite event to the caches; false for any other event (the caller handles it).
 * `heard`: what the events applied before this one said, updated here.
 */
export function applySocialChange(qc: QueryClient, ev: ChangeEvent, self: Self, heard: HeardSocial): boolean {
  if (ev.entity === 'comment') applyComment(qc, ev, self, heard);
  else if (ev.entity === 'favorite') applyFavorite(qc, ev, self, heard);
  else return false;
  return true;
}
