import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import type { ChangeEvent } from '../../backend/ports';
import type { Comment, Favoriter, Member } from '../../backend/entities';
import { applyCommentDeleted, applySocialChange } from './apply-social-change';
import { socialKeys, type TileSocial } from './social-keys';

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
  return { qc, refetches: () => refetches };
}

const commentEvent = (op: ChangeEvent['op'], row: Record<string, unknown> & { id: string }): ChangeEvent => ({ entity: 'comment', op, albumId: album, row });
const bensComment = { id: 'c1', itemId: item, albumId: album, authorId: 'ben', body: 'Nice', createdAt: '2026-02-01T10:00:00.000Z', editedAt: null, deletedAt: null };

describe('live comments and hearts', () => {
  it('adds, edits and removes a comment from its event, naming the author from the members, counting it once', () => {
    const { qc, refetches } = caches();
    expect(applySocialChange(qc, commentEvent('insert', bensComment), ana)).toBe(true);
    expect(applySocialChange(qc, commentEvent('insert', bensComment), ana)).toBe(true);
    expect(qc.getQueryData<Comment[]>(socialKeys.comments(album, item))).toEqual([
      { id: 'c1', itemId: item, albumId: album, authorId: 'ben', authorName: 'Ben', body: 'Nice', createdAt: bensComment.createdAt, editedAt: null },
    ]);
    applySocialChange(qc, commentEvent('update', { ...bensComment, body: 'Nice!', editedAt: '2026-02-01T10:05:00.000Z' }), ana);
    expect(qc.getQueryData<Comment[]>(socialKeys.comments(album, item))?.[0]).toMatchObject({ body: 'Nice!', editedAt: '2026-02-01T10:05:00.000Z' });
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]?.commentCount).toBe(1);
    applySocialChange(qc, commentEvent('delete', { id: 'c1' }), ana);
    expect(qc.getQueryData<Comment[]>(socialKeys.comments(album, item))).toEqual([]);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]?.commentCount).toBe(0);
    expect(refetches()).toBe(0);
  });

  it('a deletion heard after the call already applied it changes nothing more', () => {
    const { qc, refetches } = caches();
    applySocialChange(qc, commentEvent('insert', bensComment), ana);
    applyCommentDeleted(qc, album, 'c1', false);
    applySocialChange(qc, commentEvent('delete', { id: 'c1' }), ana);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]?.commentCount).toBe(0);
    expect(refetches()).toBe(0);
  });

  it('reads the one item\'s comments again only when the author is nobody it knows', () => {
    const { qc, refetches } = caches();
    applySocialChange(qc, commentEvent('insert', { ...bensComment, authorId: 'newcomer' }), ana);
    expect(refetches()).toBe(1);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]?.commentCount).toBe(1);
  });

  it('counts another\'s heart without making it mine, and my own heart once however often it is heard', () => {
    const { qc } = caches();
    const fav = (op: ChangeEvent['op'], userId: string): ChangeEvent => ({ entity: 'favorite', op, albumId: album, row: { id: `${item}:${userId}`, itemId: item, userId, albumId: album, createdAt: '2026-02-01T10:00:00.000Z' } });
    applySocialChange(qc, fav('insert', 'ben'), ana);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]).toEqual({ itemId: item, commentCount: 0, favoriteCount: 1, myFavorite: false });
    expect(qc.getQueryData<Favoriter[]>(socialKeys.favoriters(album, item))?.map((f) => f.displayName)).toEqual(['Ben']);
    applySocialChange(qc, fav('insert', 'ana'), ana);
    applySocialChange(qc, fav('insert', 'ana'), ana);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]).toEqual({ itemId: item, commentCount: 0, favoriteCount: 2, myFavorite: true });
    applySocialChange(qc, fav('delete', 'ben'), ana);
    expect(qc.getQueryData<TileSocial>(socialKeys.tiles(album))?.[item]).toEqual({ itemId: item, commentCount: 0, favoriteCount: 1, myFavorite: true });
    expect(qc.getQueryData<Favoriter[]>(socialKeys.favoriters(album, item))?.map((f) => f.userId)).toEqual(['ana']);
  });

  it('leaves every other event to the caller', () => {
    const { qc } = caches();
    expect(applySocialChange(qc, { entity: 'item', op: 'insert', albumId: album, row: { id: 'x' } }, ana)).toBe(false);
  });
});
