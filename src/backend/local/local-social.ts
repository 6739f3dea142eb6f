/**
 * Comments and favourites on this device. One profile writes everything here, so it authors every comment
 * and its hearts are the only ones; the rules are still the server's (PRODUCT.md §6), so the app behaves the
 * same on both backends. Every change is emitted as a `comment` or `favorite` ChangeEvent whose row has the
 * camelCase shape the Supabase adapter gives its rows, so other tabs update as they would for a co-member.
 */
import type { CallOptions, ChangeEvent, SocialPort } from '../ports';
import type { Comment, Favoriter, ItemSocial, Profile } from '../../domain/entities';
import { AppError } from '../../lib/app-error';
import { commentChange, favoriteChange } from './local-changes';
import { requireAlbum } from './local-album-view';
import { now, readTransaction, writeTransaction, type AnyTx, type LocalDataDeps } from './local-data-deps';
import { prefixRange, type CommentRecord, type FavoriteRecord, type WriteTx } from './local-db';
import { guard, invalid, itemNotFound } from './local-errors';

// The text rules (and zod) load with the first write that checks text: reading comments never needs them.
const validation = () => import('../../lib/validation');

/** Several comments by one person in one album within this long read as one line of activity. */
export const COMMENT_BURST_MS = 10 * 60_000;
const MAX_SOCIAL_IDS = 1000;

function forbidden(): AppError {
  return new AppError('album/forbidden', 'Only its author, the owner and editors change a comment.', { retryable: false });
}

/** The item, when the caller can see it (ready, or their own unfinished upload). */
/**
 * The item, as the caller sees it: ready, or their own upload. `forNew` asks for what a new comment or heart
 * needs: ready and not in the trash (as the database's policies ask).
 */
async function requireItem(tx: AnyTx, albumId: string, itemId: unknown, profile: Profile, forNew = false): Promise<void> {
  if (typeof itemId !== 'string' || itemId === '') throw itemNotFound();
  const item = await tx.objectStore('items').get([albumId, itemId]);
  if (!item || (item.status !== 'ready' && item.uploaderId !== profile.id)) throw itemNotFound();
  if (forNew && (item.status !== 'ready' || item.deletedAt)) throw itemNotFound();
}

function toComment(r: CommentRecord, profile: Profile): Comment {
  return { ...r, authorName: r.authorId === profile.id ? profile.displayName : '' };
}

async function noteComment(tx: WriteTx, albumId: string, actorId: string, at: string): Promise<void> {
  const since = new Date(Date.parse(at) - COMMENT_BURST_MS).toISOString();
  const burst = tx.objectStore('activity').index('burst');
  const cursor = await burst.openCursor(IDBKeyRange.bound([albumId, actorId, 'commented', since], [albumId, actorId, 'commented', '\uffff']), 'prev');
  if (cursor) await cursor.update({ ...cursor.value, count: cursor.value.count + 1, createdAt: at });
  else await tx.objectStore('activity').add({ id: crypto.randomUUID(), albumId, actorId, verb: 'commented', count: 1, createdAt: at });
}

/** Items read from IndexedDB at once: see [Note: Counting an album's comments and hearts]. */
const SOCIAL_SLICE = 64;

/** The ids of the album's items that have comments: one cursor step per such item, past all of its comments. */
async function commentedItems(tx: AnyTx, albumId: string): Promise<Set<string>> {
  const out = new Set<string>();
  let cursor = await tx.objectStore('comments').index('item').openKeyCursor(prefixRange(albumId));
  while (cursor) {
    const itemId = cursor.key[1];
    out.add(itemId);
    // Past every key of this item's comments ([album, item, createdAt, id], createdAt an ISO time).
    cursor = await cursor.continue([albumId, itemId, '\uffff', '']);
  }
  return out;
}

/** The ids of the items `userId` gave a heart in the album ([Note: Favourites filter] on the server). */
export async function favoriteItemIds(tx: AnyTx, albumId: string, userId: string): Promise<string[]> {
  const rows = await tx.objectStore('favorites').getAll(prefixRange(albumId));
  return rows.filter((r) => r.userId === userId).map((r) => r.itemId);
}

/** Deletes the comments and hearts of an album (a deleted album) or of one of its items (a purged one). */
export async function forgetSocial(tx: WriteTx, albumId: string, itemId?: string): Promise<void> {
  const range = itemId === undefined ? prefixRange(albumId) : prefixRange(albumId, itemId);
  const comments = tx.objectStore('comments');
  const ids = await comments.index('item').getAllKeys(range);
  await Promise.all(ids.map((id) => comments.delete(id)));
  await tx.objectStore('favorites').delete(range);
}

/** Comments and hearts on IndexedDB. */
export function localSocial(deps: LocalDataDeps): SocialPort {
  return {
    listComments(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Comment[]> {
      return guard(opts.signal, async () => {
        const profile = await deps.profile();
        return readTransaction(deps, opts.signal, async (tx) => {
          await requireAlbum(tx, albumId);
          await requireItem(tx, albumId, itemId, profile);
          const rows = await tx.objectStore('comments').index('item').getAll(prefixRange(albumId, itemId));
          return rows.map((r) => toComment(r, profile));
        });
      });
    },
    addComment(albumId: string, itemId: string, body: string, opts: CallOptions = {}): Promise<Comment> {
      return guard(opts.signal, async () => {
        const { commentBody, parseField } = await validation();
        const text = parseField(commentBody, body, 'comment');
        const profile = await deps.profile();
        const record = await writeTransaction(deps, async (tx) => {
          await requireAlbum(tx, albumId);
          await requireItem(tx, albumId, itemId, profile, true);
          const at = now();
          const r: CommentRecord = { id: crypto.randomUUID(), albumId, itemId, authorId: profile.id, body: text, createdAt: at, editedAt: null };
          await tx.objectStore('comments').add(r);
          await noteComment(tx, albumId, profile.id, at);
          return r;
        });
        deps.realtime.emit([commentChange('insert', record)]);
        return toComment(record, profile);
      });
    },
    editComment(albumId: string, commentId: string, body: string, opts: CallOptions = {}): Promise<Comment> {
      return guard(opts.signal, async () => {
        const { commentBody, parseField } = await validation();
        const text = parseField(commentBody, body, 'comment');
        const profile = await deps.profile();
        const { record, changed } = await writeTransaction(deps, async (tx) => {
          await requireAlbum(tx, albumId);
          const before = typeof commentId === 'string' ? await tx.objectStore('comments').get(commentId) : undefined;
          // As on the server, a comment one may not edit and one that is not there are refused alike.
          if (!before || before.albumId !== albumId || before.authorId !== profile.id) throw forbidden();
          if (before.body === text) return { record: before, changed: false };
          const after: CommentRecord = { ...before, body: text, editedAt: now() };
          await tx.objectStore('comments').put(after);
          return { record: after, changed: true };
        });
        if (changed) deps.realtime.emit([commentChange('update', record)]);
        return toComment(record, profile);
      });
    },
    deleteComment(albumId: string, commentId: string, opts: CallOptions = {}): Promise<void> {
      return guard(opts.signal, async () => {
        // The one profile owns every album here, so it may delete any comment in it (as an owner may).
        const gone = await writeTransaction(deps, async (tx) => {
          await requireAlbum(tx, albumId);
          const before = typeof commentId === 'string' ? await tx.objectStore('comments').get(commentId) : undefined;
          if (!before || before.albumId !== albumId) return null;
          await tx.objectStore('comments').delete(commentId);
          return before;
        });
        if (gone) deps.realtime.emit([commentChange('delete', gone)]);
      });
    },
    setFavorite(albumId: string, itemId: string, on: boolean, opts: CallOptions = {}): Promise<void> {
      return guard(opts.signal, async () => {
        if (typeof on !== 'boolean') throw invalid('on', 'A heart is given or taken back.');
        const profile = await deps.profile();
        const change = await writeTransaction(deps, async (tx): Promise<ChangeEvent | null> => {
          await requireAlbum(tx, albumId);
          await requireItem(tx, albumId, itemId, profile, on);
          const store = tx.objectStore('favorites');
          const key: [string, string, string] = [albumId, itemId, profile.id];
          const before = await store.get(key);
          if (on && !before) {
            const r: FavoriteRecord = { albumId, itemId, userId: profile.id, createdAt: now() };
            await store.add(r);
            return favoriteChange('insert', r);
          }
          if (!on && before) {
            await store.delete(key);
            return favoriteChange('delete', { albumId, itemId, userId: profile.id });
          }
          return null;
        });
        if (change) deps.realtime.emit([change]);
      });
    },
    listFavoriters(albumId: string, itemId: string, opts: CallOptions = {}): Promise<Favoriter[]> {
      return guard(opts.signal, async () => {
        const profile = await deps.profile();
        return readTransaction(deps, opts.signal, async (tx) => {
          await requireAlbum(tx, albumId);
          if (typeof itemId !== 'string') return [];
          const rows = await tx.objectStore('favorites').getAll(prefixRange(albumId, itemId));
          return rows
            .map((r) => ({ userId: r.userId, displayName: r.userId === profile.id ? profile.displayName : '', createdAt: r.createdAt }))
            .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.userId.localeCompare(b.userId));
        });
      });
    },
    itemSocial(albumId: string, itemIds: string[], opts: CallOptions = {}): Promise<ItemSocial[]> {
      return guard(opts.signal, async () => {
        if (!Array.isArray(itemIds) || itemIds.length > MAX_SOCIAL_IDS) {
          throw invalid('items', `Ask about 0 to ${MAX_SOCIAL_IDS} items at once.`, 'too-many', MAX_SOCIAL_IDS);
        }
        const profile = await deps.profile();
        return readTransaction(deps, opts.signal, async (tx) => {
          await requireAlbum(tx, albumId);
          const ids = [...new Set(itemIds.filter((id): id is string => typeof id === 'string' && id !== ''))];
          // [Note: Counting an album's comments and hearts] Three requests per item (the item, its comments, its
          // hearts) for a month of a thousand items held the page's thread for over 50 ms while the grid scrolled:
          // making a request costs some tens of microseconds. The album's hearts come in one request (their keys name
          // item and person), the items with comments in one step each of a key cursor, and only those items' comments
          // are counted; the items themselves are read in slices, each made once the slice before has answered.
          const [commented, heartKeys] = await Promise.all([commentedItems(tx, albumId), tx.objectStore('favorites').getAllKeys(prefixRange(albumId))]);
          const hearts = new Map<string, { count: number; mine: boolean }>();
          for (const key of heartKeys) {
            const [, itemId, userId] = key as [string, string, string];
            const h = hearts.get(itemId) ?? { count: 0, mine: false };
            h.count++;
            if (userId === profile.id) h.mine = true;
            hearts.set(itemId, h);
          }
          const one = async (itemId: string): Promise<ItemSocial | null> => {
            const item = await tx.objectStore('items').get([albumId, itemId]);
            if (!item || (item.status !== 'ready' && item.uploaderId !== profile.id)) return null;
            const commentCount = commented.has(itemId) ? await tx.objectStore('comments').index('item').count(prefixRange(albumId, itemId)) : 0;
            const h = hearts.get(itemId);
            return { itemId, commentCount, favoriteCount: h?.count ?? 0, myFavorite: h?.mine ?? false };
          };
          const answers: (ItemSocial | null)[] = [];
          for (let i = 0; i < ids.length; i += SOCIAL_SLICE) answers.push(...(await Promise.all(ids.slice(i, i + SOCIAL_SLICE).map(one))));
          return answers.filter((a): a is ItemSocial => a !== null);
        });
      });
    },
  };
}
