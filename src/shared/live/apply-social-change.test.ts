import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ChangeEvent, ChangeOp, CommentChange } from '../../backend/ports';
import type { Comment, Favoriter, Member } from '../../domain/entities';
import { applyCommentDeleted, applySocialChange, heardNothing } from './apply-social-change';
import { socialKeys, type TileSocial } from '../social-keys';

const album = 'album-1';
const item = 'item-1';
const ana = { userId: 'ana', displayName: 'Ana' };
const ben: Member = { userId: 'ben', displayName: 'Ben', avatarKey: null, role: 'viewer', addedBy: 'ana', createdAt: '2026-01-01T00:00:00.000Z' };

function caches() {
  const qc = new QueryClient();
  qc.setQueryData<Member[]>(socialKeys.members(album), [ben]);
  qc.setQueryData<Comment[]>(socialKeys.comments(album, item), []);
  qc.setQueryData<Favoriter[]>(socialKeys.favoriters(album, item), []);
  qc.setQueryData<TileSocial>(socialKeys.tiles(album), { [item]: { itemId: item, commentCount: 0, favoriteCount: 0, myFavorite: false } });
  let refetches = 0;
  qc.getQueryCache().subscribe((e) => {
    if (e.type === 'updated' && e.action.type === 'invalidate') refetches++;
  });
  return { qc, refetches: () => refetches, heard: heardNothing() };
}

type CommentRow = { id: string } & Partial<CommentChange>;
const commentEvent = (op: ChangeOp, { id, ...row }: CommentRow): ChangeEvent => ({ entity: 'comment', op, albumId: album, id, row: op === 'delete' ? null : (row as CommentChange) });
const bensComment = { id: 'c1', itemId: item, authorId: 'ben', body: 'Nice', createdAt: '2026-02-01T10:00:00.000Z', editedAt: null };

describe('live comments and hearts', () => {
  it('adds, edits and removes a comment from its event, naming the author from the members, counting it once', () => {
    const { qc, refetches, heard } = caches();
    expect(applySocialChange(qc, commentEvent('insert', bensComment), ana, heard)).toBe(true);
    expect(applySocialChange(qc, commentEvent('insert', bensComment), ana, heard)).toBe(true);
    expect(qc.getQueryData<Comment[]>(socialKeys.comments(album, item))).toEqual([
      { id: 'c1', itemId: item, albumId: album, authorId: 'ben', authorName: 'Ben', body: 'Nice', createdAt: bensComment.createdAt, editedAt: null },
    ]);
    applySocialChange(qc, commentEvent('update', { ...bensComment, body: 'Nice!', editedAt: '2026-02-01T10:05:00.000Z' }), ana, heard);
    expect(qc.getQueryData<Comment[]>(socialKeys.comments(album, item))?.[0]).toMatchObject({ body: 'Nice!', editedAt: '2026-02-01T10:05:00.000Z' });
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]?.commentCount).toBe(1);
    applySocialChange(qc, commentEvent('delete', { id: 'c1' }), ana, heard);
    expect(qc.getQueryData<Comment[]>(socialKeys.comments(album, item))).toEqual([]);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]?.commentCount).toBe(0);
    expect(refetches()).toBe(0);
  });

  it('a deletion heard after the call already applied it changes nothing more', () => {
    const { qc, refetches, heard } = caches();
    applySocialChange(qc, commentEvent('insert', bensComment), ana, heard);
    applyCommentDeleted(qc, album, 'c1', false);
    applySocialChange(qc, commentEvent('delete', { id: 'c1' }), ana, heard);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]?.commentCount).toBe(0);
    expect(refetches()).toBe(0);
  });

  it('reads the one item\'s comments again only when the author is nobody it knows', () => {
    const { qc, refetches, heard } = caches();
    applySocialChange(qc, commentEvent('insert', { ...bensComment, authorId: 'newcomer' }), ana, heard);
    expect(refetches()).toBe(1);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]?.commentCount).toBe(1);
  });

  it('counts another\'s heart without making it mine, and my own heart once however often it is heard', () => {
    const { qc, heard } = caches();
    const fav = (op: ChangeOp, userId: string): ChangeEvent => ({ entity: 'favorite', op, albumId: album, id: `${item}:${userId}`, row: { itemId: item, userId, createdAt: '2026-02-01T10:00:00.000Z' } });
    applySocialChange(qc, fav('insert', 'ben'), ana, heard);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]).toEqual({ itemId: item, commentCount: 0, favoriteCount: 1, myFavorite: false });
    expect(qc.getQueryData<Favoriter[]>(socialKeys.favoriters(album, item))?.map((f) => f.displayName)).toEqual(['Ben']);
    applySocialChange(qc, fav('insert', 'ana'), ana, heard);
    applySocialChange(qc, fav('insert', 'ana'), ana, heard);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]).toEqual({ itemId: item, commentCount: 0, favoriteCount: 2, myFavorite: true });
    applySocialChange(qc, fav('delete', 'ben'), ana, heard);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]).toEqual({ itemId: item, commentCount: 0, favoriteCount: 1, myFavorite: true });
    expect(qc.getQueryData<Favoriter[]>(socialKeys.favoriters(album, item))?.map((f) => f.userId)).toEqual(['ana']);
  });

  it('counts once what is heard twice (Realtime may send a change again) where no list is loaded to tell', () => {
    const { qc, refetches, heard } = caches();
    const other = 'item-2';
    qc.setQueryData<TileSocial>(socialKeys.tiles(album), { [other]: { itemId: other, commentCount: 2, favoriteCount: 1, myFavorite: false } });
    const tile = () => qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[other];
    const bensHeart = (op: ChangeOp): ChangeEvent => ({ entity: 'favorite', op, albumId: album, id: `${other}:ben`, row: { itemId: other, userId: 'ben', createdAt: '2026-02-01T10:00:00.000Z' } });
    const twice = (ev: ChangeEvent) => [ev, ev].forEach((e) => applySocialChange(qc, e, ana, heard));

    twice(bensHeart('insert'));
    twice(commentEvent('insert', { ...bensComment, id: 'c9', itemId: other }));
    expect(tile()).toMatchObject({ commentCount: 3, favoriteCount: 2 });
    twice(bensHeart('delete'));
    twice(commentEvent('delete', { id: 'c9' }));
    expect(tile()).toMatchObject({ commentCount: 2, favoriteCount: 1 });
    // The item the deleted comment was on is known from its insert: the tiles need not be read again.
    expect(refetches()).toBe(0);
    // Heard again after its deletion, from before it (an earlier stretch sent again): there once more, then gone.
    applySocialChange(qc, commentEvent('insert', { ...bensComment, id: 'c9', itemId: other }), ana, heard);
    expect(tile()).toMatchObject({ commentCount: 3 });
    applySocialChange(qc, commentEvent('delete', { id: 'c9' }), ana, heard);
    expect(tile()).toMatchObject({ commentCount: 2 });
  });

  it('leaves every other event to the caller', () => {
    const { qc, heard } = caches();
    expect(applySocialChange(qc, { entity: 'item', op: 'insert', albumId: album, id: 'x', row: null }, ana, heard)).toBe(false);
  });
});
