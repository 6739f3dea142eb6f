/**
 * The SocialPort contract: comments and favourites that every backend shares: one person
 * comments, edits (the backend stamps the edit), deletes, gives and takes back hearts, and filters the album
 * to their favourites or to one person's items. What needs a second person (one person's heart never shown as
 * another's, a contributor refused another's comment, an editor allowed) is tested per backend with two
 * accounts (tests/db/supabase-social.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../../backend/ports';
import { addReadyItem, clockPasses, expectAppError, listAll } from './contract-fixtures';

export function describeSocialContract(makeBackend: () => Promise<Backend> | Backend): void {
  describe('comments and favourites', () => {
    it('lists comments oldest first with the author named; an edit changes the words and stamps editedAt', async () => {
      const b = await makeBackend();
      const session = (await b.auth.getSession())!;
      const album = await b.albums.createAlbum({ title: 'Talk' });
      const item = await addReadyItem(b, album.id);
      expect(await b.social.listComments(album.id, item.id)).toEqual([]);

      const first = await b.social.addComment(album.id, item.id, '  Lovely light  ');
      expect(first).toMatchObject({ itemId: item.id, albumId: album.id, authorId: session.userId, authorName: session.profile.displayName, body: 'Lovely light', editedAt: null });
      await clockPasses(first.createdAt);
      const second = await b.social.addComment(album.id, item.id, 'Where is this?\nLisbon?');
      expect((await b.social.listComments(album.id, item.id)).map((c) => c.body)).toEqual(['Lovely light', 'Where is this?\nLisbon?']);

      const edited = await b.social.editComment(album.id, first.id, 'Lovely light!');
      expect(edited).toMatchObject({ id: first.id, body: 'Lovely light!', createdAt: first.createdAt });
      expect(edited.editedAt).not.toBeNull();
      expect(Date.parse(edited.editedAt!)).toBeGreaterThanOrEqual(Date.parse(first.createdAt));
      const listed = await b.social.listComments(album.id, item.id);
      expect(listed.map((c) => [c.id, c.body, c.editedAt !== null])).toEqual([
        [first.id, 'Lovely light!', true],
        [second.id, 'Where is this?\nLisbon?', false],
      ]);

      await b.social.deleteComment(album.id, second.id);
      await b.social.deleteComment(album.id, second.id);
      expect((await b.social.listComments(album.id, item.id)).map((c) => c.id)).toEqual([first.id]);
    });

    it('refuses empty, over-long and direction-tricking comments with the field named, and keeps nothing', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Rules' });
      const item = await addReadyItem(b, album.id);
      for (const [body, rule] of [
        ['   ', 'empty'],
        ['x'.repeat(2001), 'too-long'],
        ['file\u202egpj.exe', 'bidi'],
        ['a\u0007b', 'control'],
      ] as const) {
        const e = await expectAppError(b.social.addComment(album.id, item.id, body), 'validation/invalid');
        expect(e.details).toMatchObject({ field: 'comment', rule });
      }
      expect((await b.social.addComment(album.id, item.id, 'y'.repeat(2000))).body).toHaveLength(2000);
      const kept = await b.social.addComment(album.id, item.id, 'Keep me');
      await expectAppError(b.social.editComment(album.id, kept.id, ' '), 'validation/invalid');
      expect((await b.social.listComments(album.id, item.id)).map((c) => c.body)).toEqual(['y'.repeat(2000), 'Keep me']);
    });

    it('gives and takes back a heart idempotently, names who gave it, and counts per tile in one call', async () => {
      const b = await makeBackend();
      const session = (await b.auth.getSession())!;
      const album = await b.albums.createAlbum({ title: 'Hearts' });
      const [one, two, three] = [await addReadyItem(b, album.id), await addReadyItem(b, album.id), await addReadyItem(b, album.id)];
      await b.social.setFavorite(album.id, one.id, true);
      await b.social.setFavorite(album.id, one.id, true);
      await b.social.setFavorite(album.id, two.id, true);
      await b.social.setFavorite(album.id, two.id, false);
      await b.social.setFavorite(album.id, two.id, false);
      await b.social.addComment(album.id, three.id, 'A');
      await b.social.addComment(album.id, three.id, 'B');

      const favoriters = await b.social.listFavoriters(album.id, one.id);
      expect(favoriters.map((f) => [f.userId, f.displayName])).toEqual([[session.userId, session.profile.displayName]]);
      expect(await b.social.listFavoriters(album.id, two.id)).toEqual([]);

      const social = await b.social.itemSocial(album.id, [one.id, two.id, three.id, crypto.randomUUID()]);
      const byId = new Map(social.map((s) => [s.itemId, s]));
      expect(byId.size).toBe(3);
      expect(byId.get(one.id)).toEqual({ itemId: one.id, commentCount: 0, favoriteCount: 1, myFavorite: true });
      expect(byId.get(two.id)).toEqual({ itemId: two.id, commentCount: 0, favoriteCount: 0, myFavorite: false });
      expect(byId.get(three.id)).toEqual({ itemId: three.id, commentCount: 2, favoriteCount: 0, myFavorite: false });
      expect(await b.social.itemSocial(album.id, [])).toEqual([]);
    });

    it('filters the album to my favourites and to one person\'s items, in pages and in the month counts', async () => {
      const b = await makeBackend();
      const me = (await b.auth.getSession())!.userId;
      const album = await b.albums.createAlbum({ title: 'Filters' });
      const items = [];
      for (const takenAt of ['2024-01-05T10:00:00.000Z', '2024-01-20T10:00:00.000Z', '2024-03-02T10:00:00.000Z', '2024-03-09T10:00:00.000Z', '2024-05-01T10:00:00.000Z']) {
        items.push(await addReadyItem(b, album.id, { takenAt }));
      }
      const hearted = [items[0]!, items[2]!, items[3]!];
      for (const item of hearted) await b.social.setFavorite(album.id, item.id, true);

      const { rows: favorites } = await listAll(b, album.id, { sort: 'taken', favoritesOnly: true, limit: 2 });
      expect(favorites.map((i) => i.id)).toEqual([items[3]!.id, items[2]!.id, items[0]!.id]);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken', favoritesOnly: true })).toEqual([
        { month: '2024-03', count: 2 },
        { month: '2024-01', count: 1 },
      ]);
      const march = await b.items.listItems(album.id, { sort: 'taken', favoritesOnly: true, month: '2024-03' });
      expect(march.rows.map((i) => i.id)).toEqual([items[3]!.id, items[2]!.id]);

      // Trashed favourites leave the filter; the heart stays and comes back with the item.
      await b.itemWrites.trashItems(album.id, [items[2]!.id]);
      expect((await b.items.listItems(album.id, { sort: 'added', favoritesOnly: true })).rows.map((i) => i.id).sort()).toEqual([items[0]!.id, items[3]!.id].sort());

      expect((await listAll(b, album.id, { sort: 'taken', uploaderId: me })).rows.length).toBe(4);
      expect((await b.items.countItemsByMonth(album.id, { sort: 'taken', uploaderId: me })).reduce((n, m) => n + m.count, 0)).toBe(4);
      const stranger = crypto.randomUUID();
      expect((await b.items.listItems(album.id, { sort: 'taken', uploaderId: stranger })).rows).toEqual([]);
      expect(await b.items.countItemsByMonth(album.id, { sort: 'taken', uploaderId: stranger })).toEqual([]);
    });

    it('answers album/not-found for an album that does not exist, and item/not-found for an item not in it', async () => {
      const b = await makeBackend();
      const unknown = crypto.randomUUID();
      const album = await b.albums.createAlbum({ title: 'Known' });
      const item = await addReadyItem(b, album.id);
      await expectAppError(b.social.listComments(unknown, item.id), 'album/not-found');
      await expectAppError(b.social.addComment(unknown, item.id, 'Hello'), 'album/not-found');
      await expectAppError(b.social.setFavorite(unknown, item.id, true), 'album/not-found');
      await expectAppError(b.social.listFavoriters(unknown, item.id), 'album/not-found');
      await expectAppError(b.social.itemSocial(unknown, [item.id]), 'album/not-found');
      await expectAppError(b.social.deleteComment(unknown, crypto.randomUUID()), 'album/not-found');
      await expectAppError(b.social.addComment(album.id, crypto.randomUUID(), 'Hello'), 'item/not-found');
      await expectAppError(b.social.setFavorite(album.id, crypto.randomUUID(), true), 'item/not-found');
      await expectAppError(b.social.listComments(album.id, crypto.randomUUID()), 'item/not-found');
      await expectAppError(b.social.editComment(album.id, crypto.randomUUID(), 'Hello'), 'album/forbidden');
    });

    it('a trashed item takes no new comment or heart (item/not-found, as an unknown id), and a heart given before can be taken back', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Trash talk' });
      const item = await addReadyItem(b, album.id);
      await b.social.addComment(album.id, item.id, 'Before');
      await b.social.setFavorite(album.id, item.id, true);
      await b.itemWrites.trashItems(album.id, [item.id]);
      await expectAppError(b.social.addComment(album.id, item.id, 'After'), 'item/not-found');
      await expectAppError(b.social.setFavorite(album.id, item.id, true), 'item/not-found');
      await b.social.setFavorite(album.id, item.id, false);
      await b.itemWrites.restoreItems(album.id, [item.id]);
      expect((await b.social.listComments(album.id, item.id)).map((c) => c.body)).toEqual(['Before']);
      expect(await b.social.itemSocial(album.id, [item.id])).toEqual([{ itemId: item.id, commentCount: 1, favoriteCount: 0, myFavorite: false }]);
    });
  });
}
