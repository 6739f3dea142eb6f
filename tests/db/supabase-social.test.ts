/**
 * Comments and favourites through the Supabase adapter with several people: real supabase-js, our real SQL
 * and RLS, only the hosted HTTP API emulated (tests/db/wire). What one person sees alone is in the data ports'
 * contract (src/testing/contract/social-contract.ts); this file holds what needs someone else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReadyItem, expectAppError } from '../../src/testing/contract/contract-fixtures';
import type { Harness } from './db-harness';
import { startWire, type WireEmulator } from './wire/wire-emulator';
import { signUpPerson, type WirePerson } from './wire/wire-person';

let db: Harness;
let wire: WireEmulator;

beforeAll(async () => ({ db, wire } = await startWire()), 300_000);
afterAll(() => db?.close());


type Person = WirePerson;

const person = () => signUpPerson(wire, 'Friend');

/** `owner`'s new album with one ready item, joined by each of `others` with its role. */
async function sharedAlbum(owner: Person, others: [Person, 'editor' | 'contributor' | 'viewer'][]): Promise<{ albumId: string; itemId: string }> {
  const album = await owner.backend.albums.createAlbum({ title: 'Together' });
  for (const [other, role] of others) {
    const { token } = await owner.backend.members.createInvite(album.id, { role });
    await other.backend.members.acceptInvite(token);
  }
  const item = await addReadyItem(owner.backend, album.id);
  return { albumId: album.id, itemId: item.id };
}

describe('comments and favourites between people over the emulated wire', () => {
  it('shows one person\'s heart as theirs only: the other sees the count, never a heart of their own', async () => {
    const ana = await person();
    const ben = await person();
    const { albumId, itemId } = await sharedAlbum(ana, [[ben, 'viewer']]);
    await ana.backend.social.setFavorite(albumId, itemId, true);

    expect(await ana.backend.social.itemSocial(albumId, [itemId])).toEqual([{ itemId, commentCount: 0, favoriteCount: 1, myFavorite: true }]);
    expect(await ben.backend.social.itemSocial(albumId, [itemId])).toEqual([{ itemId, commentCount: 0, favoriteCount: 1, myFavorite: false }]);
    expect((await ben.backend.social.listFavoriters(albumId, itemId)).map((f) => [f.userId, f.displayName])).toEqual([[ana.id, ana.name]]);
    // Ben's favourites filter shows none of Ana's hearts.
    expect((await ben.backend.items.listItems(albumId, { sort: 'taken', favoritesOnly: true })).rows).toEqual([]);
    expect(await ben.backend.items.countItemsByMonth(albumId, { sort: 'taken', favoritesOnly: true })).toEqual([]);
    expect((await ana.backend.items.listItems(albumId, { sort: 'taken', favoritesOnly: true })).rows.map((i) => i.id)).toEqual([itemId]);
    // Taking back a heart one never gave changes nothing of another's.
    await ben.backend.social.setFavorite(albumId, itemId, false);
    expect((await ana.backend.social.itemSocial(albumId, [itemId]))[0]).toMatchObject({ favoriteCount: 1, myFavorite: true });
  });

  it('lets a viewer comment and give hearts; the author is named for everyone', async () => {
    const ana = await person();
    const vic = await person();
    const { albumId, itemId } = await sharedAlbum(ana, [[vic, 'viewer']]);
    const said = await vic.backend.social.addComment(albumId, itemId, 'Beautiful');
    expect(said).toMatchObject({ authorId: vic.id, authorName: vic.name, body: 'Beautiful' });
    await vic.backend.social.setFavorite(albumId, itemId, true);
    expect((await ana.backend.social.listComments(albumId, itemId)).map((c) => [c.authorName, c.body])).toEqual([[vic.name, 'Beautiful']]);
    expect((await ana.backend.social.itemSocial(albumId, [itemId]))[0]).toEqual({ itemId, commentCount: 1, favoriteCount: 1, myFavorite: false });
  });

  it('refuses a contributor deleting or editing another\'s comment, lets an editor delete it, and only the author edits', async () => {
    const ana = await person();
    const carl = await person();
    const eve = await person();
    const vic = await person();
    const { albumId, itemId } = await sharedAlbum(ana, [[carl, 'contributor'], [eve, 'editor'], [vic, 'viewer']]);
    const vics = await vic.backend.social.addComment(albumId, itemId, 'First!');

    await expectAppError(carl.backend.social.deleteComment(albumId, vics.id), 'album/forbidden');
    await expectAppError(carl.backend.social.editComment(albumId, vics.id, 'Hijacked'), 'album/forbidden');
    await expectAppError(eve.backend.social.editComment(albumId, vics.id, 'Tidied'), 'album/forbidden');
    await expectAppError(ana.backend.social.editComment(albumId, vics.id, 'Tidied'), 'album/forbidden');
    expect((await vic.backend.social.listComments(albumId, itemId)).map((c) => [c.body, c.editedAt])).toEqual([['First!', null]]);

    const edited = await vic.backend.social.editComment(albumId, vics.id, 'First, edited');
    expect(edited.editedAt).not.toBeNull();
    expect(edited.authorName).toBe(vic.name);

    await eve.backend.social.deleteComment(albumId, vics.id);
    const anas = await ana.backend.social.addComment(albumId, itemId, 'Thanks all');
    await expectAppError(vic.backend.social.deleteComment(albumId, anas.id), 'album/forbidden');
    await eve.backend.social.deleteComment(albumId, anas.id);
    const carls = await carl.backend.social.addComment(albumId, itemId, 'Mine');
    await carl.backend.social.deleteComment(albumId, carls.id);
    expect(await ana.backend.social.listComments(albumId, itemId)).toEqual([]);
  });

  it('tells a stranger nothing: every call on the album is album/not-found', async () => {
    const ana = await person();
    const stranger = await person();
    const { albumId, itemId } = await sharedAlbum(ana, []);
    const comment = await ana.backend.social.addComment(albumId, itemId, 'Private');
    await ana.backend.social.setFavorite(albumId, itemId, true);
    await expectAppError(stranger.backend.social.listComments(albumId, itemId), 'album/not-found');
    await expectAppError(stranger.backend.social.addComment(albumId, itemId, 'Hi'), 'album/not-found');
    await expectAppError(stranger.backend.social.editComment(albumId, comment.id, 'Hi'), 'album/not-found');
    await expectAppError(stranger.backend.social.deleteComment(albumId, comment.id), 'album/not-found');
    await expectAppError(stranger.backend.social.setFavorite(albumId, itemId, true), 'album/not-found');
    await expectAppError(stranger.backend.social.setFavorite(albumId, itemId, false), 'album/not-found');
    await expectAppError(stranger.backend.social.listFavoriters(albumId, itemId), 'album/not-found');
    await expectAppError(stranger.backend.social.itemSocial(albumId, [itemId]), 'album/not-found');
    await expectAppError(stranger.backend.items.listItems(albumId, { sort: 'taken', favoritesOnly: true }), 'album/not-found');
    expect((await ana.backend.social.listComments(albumId, itemId)).map((c) => c.body)).toEqual(['Private']);
  });

  it('filters to one person\'s items, in pages and month counts', async () => {
    const ana = await person();
    const carl = await person();
    const { albumId, itemId: anasItem } = await sharedAlbum(ana, [[carl, 'contributor']]);
    const carls = await addReadyItem(carl.backend, albumId);
    expect((await ana.backend.items.listItems(albumId, { sort: 'added', uploaderId: carl.id })).rows.map((i) => i.id)).toEqual([carls.id]);
    expect((await carl.backend.items.listItems(albumId, { sort: 'taken', uploaderId: ana.id })).rows.map((i) => i.id)).toEqual([anasItem]);
    const counts = await ana.backend.items.countItemsByMonth(albumId, { sort: 'added', uploaderId: carl.id });
    expect(counts.reduce((n, m) => n + m.count, 0)).toBe(1);
  });
});
