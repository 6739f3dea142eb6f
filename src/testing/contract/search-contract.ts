/**
 * The SearchPort contract: what a search finds ([Note: Search words] in lib/search-words.ts), its filters, its
 * order and pages, and what it refuses. One person's backend: who else may see what is the database tests' part
 * (tests/db/item-search.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../../backend/ports';
import type { Item } from '../../domain/entities';
import type { SearchQuery } from '../../domain/queries';
import { addReadyItem, clockPasses, expectAppError, expectNewestFirst, reserveInput } from './contract-fixtures';

const sortTime = (i: Item) => i.takenAt ?? i.createdAt;

/** Every result of a search, following cursors page by page. */
async function searchAll(b: Backend, query: SearchQuery): Promise<Item[]> {
  const rows: Item[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await b.search.searchItems({ ...query, cursor });
    rows.push(...page.rows);
    cursor = page.nextCursor;
    if (++pages > 1000) throw new Error('the results never end');
  } while (cursor);
  return rows;
}

const ids = (rows: Item[]) => rows.map((r) => r.id).sort();
const found = async (b: Backend, query: SearchQuery) => ids(await searchAll(b, query));

export function describeSearchContract(makeBackend: () => Promise<Backend> | Backend): void {
  describe('search', () => {
    it('finds items by the beginnings of the words of their name and details, in every album', async () => {
      const b = await makeBackend();
      const porto = await b.albums.createAlbum({ title: 'Porto' });
      const home = await b.albums.createAlbum({ title: 'Home' });
      const bridge = await addReadyItem(b, porto.id, { filename: 'IMG_1234.JPG', metadata: { title: 'Ponte Luís I', keywords: ['Bridge', 'Été'] } });
      const river = await addReadyItem(b, porto.id, { filename: 'DSCF0042.RAF', metadata: { description: 'The Douro at dusk', cameraMake: 'FUJIFILM', cameraModel: 'X100V', lens: 'XF23mm F2' } });
      const cat = await addReadyItem(b, home.id, { filename: 'cat.png', metadata: { keywords: ['Bridge cat'] } });
      const notes = await addReadyItem(b, home.id, { kind: 'file', filename: 'Straße-Notizen.txt' });

      expect(await found(b, { text: 'bridge' })).toEqual(ids([bridge, cat]));
      expect(await found(b, { text: 'bridge', albumId: porto.id })).toEqual(ids([bridge]));
      expect(await found(b, { text: 'img 12' })).toEqual(ids([bridge]));
      expect(await found(b, { text: 'LUIS ete' })).toEqual(ids([bridge]));
      expect(await found(b, { text: 'douro x100' })).toEqual(ids([river]));
      expect(await found(b, { text: 'xf23' })).toEqual(ids([river]));
      expect(await found(b, { text: 'strasse' })).toEqual(ids([notes]));
      // Words are found from their start, and every word must be found.
      expect(await found(b, { text: 'ridge' })).toEqual([]);
      expect(await found(b, { text: 'bridge douro' })).toEqual([]);
      // No text: everything.
      expect(await found(b, {})).toEqual(ids([bridge, river, cat, notes]));
      expect(await found(b, { text: '  ,. ' })).toEqual(ids([bridge, river, cat, notes]));
    });

    it('filters by rating, label, kind, dates, who added it and the caller’s hearts', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Filters' });
      const me = (await b.auth.getSession())!.userId;
      const a = await addReadyItem(b, album.id, { takenAt: '2021-06-01T10:00:00.000Z', metadata: { rating: 5, label: 'Red' } });
      const c = await addReadyItem(b, album.id, { takenAt: '2022-01-15T10:00:00.000Z', metadata: { rating: 3, label: 'Green' } });
      const v = await addReadyItem(b, album.id, { kind: 'video', takenAt: '2023-03-01T00:00:00.000Z', metadata: { rating: 4 } });
      const f = await addReadyItem(b, album.id, { kind: 'file' });

      expect(await found(b, { minRating: 4 })).toEqual(ids([a, v]));
      expect(await found(b, { minRating: 1 })).toEqual(ids([a, c, v]));
      expect(await found(b, { label: 'Green' })).toEqual(ids([c]));
      expect(await found(b, { kind: 'video' })).toEqual(ids([v]));
      expect(await found(b, { kind: 'file' })).toEqual(ids([f]));
      // [from, to): taken dates; an item without one counts by when it was added.
      expect(await found(b, { from: '2022-01-01T00:00:00.000Z', to: '2023-03-01T00:00:00.000Z' })).toEqual(ids([c]));
      expect(await found(b, { to: '2022-01-01T00:00:00.000Z' })).toEqual(ids([a]));
      expect(await found(b, { from: new Date(Date.parse(f.createdAt) - 1000).toISOString() })).toEqual(ids([f]));
      expect(await found(b, { uploaderId: me })).toEqual(ids([a, c, v, f]));
      expect(await found(b, { uploaderId: crypto.randomUUID() })).toEqual([]);
      expect(await found(b, { favoritesOnly: true })).toEqual([]);
      await b.social.setFavorite(album.id, c.id, true);
      expect(await found(b, { favoritesOnly: true })).toEqual(ids([c]));
      expect(await found(b, { favoritesOnly: true, minRating: 4 })).toEqual([]);
      expect(await found(b, { minRating: 4, kind: 'image', albumId: album.id })).toEqual(ids([a]));
    });

    it('finds what an edit gave an item, and nothing trashed or unfinished', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Edits' });
      const one = await addReadyItem(b, album.id, { filename: 'one.jpg' });
      const two = await addReadyItem(b, album.id, { filename: 'two.jpg', metadata: { keywords: ['Harbour'] } });
      await b.itemWrites.reserveItems(album.id, [reserveInput({ filename: 'harbour-uploading.jpg' })]);
      expect(await found(b, { text: 'harbour' })).toEqual(ids([two]));

      await b.itemWrites.editItems(album.id, [one.id], { addKeywords: ['Harbour lights'], title: 'Night', rating: 4 });
      expect(await found(b, { text: 'harbour' })).toEqual(ids([one, two]));
      expect(await found(b, { text: 'night', minRating: 4 })).toEqual(ids([one]));
      const [hit] = await searchAll(b, { text: 'night' });
      expect(hit).toMatchObject({ id: one.id, albumId: album.id, filename: 'one.jpg', metadata: { title: 'Night', rating: 4 } });

      await b.itemWrites.trashItems(album.id, [two.id]);
      expect(await found(b, { text: 'harbour' })).toEqual(ids([one]));
      await b.itemWrites.restoreItems(album.id, [two.id]);
      expect(await found(b, { text: 'harbour' })).toEqual(ids([one, two]));
    });

    it('gives results newest first in pages that neither repeat nor skip', async () => {
      const b = await makeBackend();
      const first = await b.albums.createAlbum({ title: 'Pages 1' });
      const second = await b.albums.createAlbum({ title: 'Pages 2' });
      const added: Item[] = [];
      for (let i = 0; i < 7; i++) {
        // Two share one capture time: the id orders them.
        const takenAt = i === 3 ? '2020-05-05T05:05:05.000Z' : i === 4 ? '2020-05-05T05:05:05.000Z' : i === 6 ? null : `201${i}-01-01T00:00:00.000Z`;
        added.push(await addReadyItem(b, i % 2 ? first.id : second.id, { filename: `page ${i}.jpg`, takenAt }));
      }
      await clockPasses(added[6]!.createdAt);
      const page = await b.search.searchItems({ text: 'page', limit: 3 });
      expect(page.rows).toHaveLength(3);
      expect(page.nextCursor).not.toBeNull();
      const all = await searchAll(b, { text: 'page', limit: 2 });
      expect(all).toHaveLength(7);
      expect(ids(all)).toEqual(ids(added));
      expectNewestFirst(all, sortTime);
      // The undated one was added last: it sorts by that, first.
      expect(all[0]!.id).toBe(added[6]!.id);
      const last = await b.search.searchItems({ text: 'page', limit: 7 });
      expect(last.nextCursor).toBeNull();
    });

    it('refuses what is out of bounds, and albums the caller is no member of', async () => {
      const b = await makeBackend();
      await b.albums.createAlbum({ title: 'Bounds' });
      await expectAppError(b.search.searchItems({ albumId: crypto.randomUUID() }), 'album/not-found');
      for (const bad of [
        { minRating: 0 },
        { minRating: 6 },
        { minRating: 2.5 },
        { label: 'Pink' },
        { kind: 'document' as never },
        { from: 'yesterday' },
        { to: '2020-13-45' },
        { text: 'x'.repeat(201) },
        { limit: 0 },
        { limit: 501 },
        { cursor: 'not-a-cursor' },
      ] satisfies SearchQuery[]) {
        await expectAppError(b.search.searchItems(bad), 'validation/invalid');
      }
    });
  });
}
