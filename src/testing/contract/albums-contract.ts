/**
 * The AlbumsPort contract: making, reading, changing and deleting albums, and their covers, as the app sees
 * them. Written against the ports only, so any backend runs it with a factory of fresh backends.
 */
import { describe, expect, it } from 'vitest';
import { limits } from '../../config';
import type { Backend } from '../../backend/ports';
import {
  addReadyItem,
  clockPasses,
  expectAbortError,
  expectAppError,
  reserveInput,
} from './contract-fixtures';

export function describeAlbumsContract(makeBackend: () => Promise<Backend> | Backend): void {
  describe('albums', () => {
    it('creates an album with trimmed text, the caller as owner, and nothing in it', async () => {
      const b = await makeBackend();
      const session = await b.auth.getSession();
      const album = await b.albums.createAlbum({ title: '  Summer in Lisbon ', description: ' Beaches\n\tand trams ' });
      expect(album).toMatchObject({
        title: 'Summer in Lisbon',
        description: 'Beaches\n\tand trams',
        role: 'owner',
        ownerId: session!.userId,
        itemCount: 0,
        bytesTotal: 0,
        coverItemId: null,
        coverThumbKey: null,
        coverThumbhash: null,
      });
      expect(await b.albums.getAlbum(album.id)).toEqual(album);
      expect((await b.albums.listAlbums()).map((a) => a.id)).toContain(album.id);
      expect((await b.albums.createAlbum({ title: 'No description' })).description).toBe('');
    });

    it('refuses invalid titles and descriptions, naming the field', async () => {
      const b = await makeBackend();
      for (const title of ['', '   ', 'x'.repeat(limits().titleMax + 1), 'line\nbreak', 'evil\u202Etxt.exe']) {
        const e = await expectAppError(b.albums.createAlbum({ title }), 'validation/invalid');
        expect(e.details).toMatchObject({ field: 'title' });
      }
      const e = await expectAppError(b.albums.createAlbum({ title: 'ok', description: 'x'.repeat(limits().descriptionMax + 1) }), 'validation/invalid');
      expect(e.details).toMatchObject({ field: 'description' });

      const album = await b.albums.createAlbum({ title: 'Kept' });
      await expectAppError(b.albums.updateAlbum(album.id, { title: ' ' }), 'validation/invalid');
      expect((await b.albums.getAlbum(album.id)).title).toBe('Kept');
    });

    it('renames and describes an album, and lists the most recently updated first', async () => {
      const b = await makeBackend();
      // Each write is stamped after the one before it, also where the clock counts whole milliseconds.
      const first = await b.albums.createAlbum({ title: 'First' });
      await clockPasses(first.updatedAt);
      const second = await b.albums.createAlbum({ title: 'Second' });
      let ids = (await b.albums.listAlbums()).map((a) => a.id);
      expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));

      await clockPasses(second.updatedAt);
      const renamed = await b.albums.updateAlbum(first.id, { title: ' Renamed ', description: 'Now with words' });
      expect(renamed).toMatchObject({ id: first.id, title: 'Renamed', description: 'Now with words' });
      expect(Date.parse(renamed.updatedAt)).toBeGreaterThan(Date.parse(first.updatedAt));
      expect(await b.albums.getAlbum(first.id)).toMatchObject({ title: 'Renamed', description: 'Now with words' });
      ids = (await b.albums.listAlbums()).map((a) => a.id);
      expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    });

    it('removes location from originals unless the owner chooses to keep it, and remembers the choice', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Places' });
      expect(album.keepLocation).toBe(false);
      expect(await b.albums.updateAlbum(album.id, { keepLocation: true })).toMatchObject({ keepLocation: true, title: 'Places' });
      expect((await b.albums.getAlbum(album.id)).keepLocation).toBe(true);
      expect((await b.albums.listAlbums()).find((a) => a.id === album.id)?.keepLocation).toBe(true);
      await expectAppError(b.albums.updateAlbum(album.id, { keepLocation: 'yes' as unknown as boolean }), 'validation/invalid');
      expect((await b.albums.updateAlbum(album.id, { keepLocation: false })).keepLocation).toBe(false);
    });

    it('answers album/not-found for an album that does not exist or was deleted', async () => {
      const b = await makeBackend();
      const unknown = crypto.randomUUID();
      await expectAppError(b.albums.getAlbum(unknown), 'album/not-found');
      await expectAppError(b.albums.updateAlbum(unknown, { title: 'x' }), 'album/not-found');
      await expectAppError(b.albums.deleteAlbum(unknown), 'album/not-found');
      await expectAppError(b.items.listItems(unknown, { sort: 'taken' }), 'album/not-found');
      await expectAppError(b.itemWrites.reserveItems(unknown, [reserveInput()]), 'album/not-found');

      const album = await b.albums.createAlbum({ title: 'Short-lived' });
      await addReadyItem(b, album.id);
      await b.albums.deleteAlbum(album.id);
      await expectAppError(b.albums.getAlbum(album.id), 'album/not-found');
      await expectAppError(b.items.listItems(album.id, { sort: 'added' }), 'album/not-found');
      await expectAppError(b.items.countItemsByMonth(album.id, { sort: 'added' }), 'album/not-found');
      expect((await b.albums.listAlbums()).map((a) => a.id)).not.toContain(album.id);
    });

    it('stops at once when the signal is already aborted', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Aborted' });
      const signal = AbortSignal.abort();
      await expectAbortError(b.albums.listAlbums({ signal }));
      await expectAbortError(b.items.listItems(album.id, { sort: 'taken' }, { signal }));
      await expectAbortError(b.albums.createAlbum({ title: 'Never' }, { signal }));
      expect((await b.albums.listAlbums()).map((a) => a.title)).not.toContain('Never');
    });
  });

  describe('covers', () => {
    it('uses the chosen cover, and falls back to the newest photo or video when it is trashed', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Covers' });
      const older = await addReadyItem(b, album.id, { thumbhash: 'OLDER' });
      await clockPasses(older.createdAt);
      const newer = await addReadyItem(b, album.id, { thumbhash: 'NEWER' });
      await clockPasses(newer.createdAt);
      const doc = await addReadyItem(b, album.id, { kind: 'file' });
      expect((await b.albums.getAlbum(album.id)).coverThumbKey).toBe(newer.thumbKey);

      const chosen = await b.albums.updateAlbum(album.id, { coverItemId: older.id });
      expect(chosen).toMatchObject({ coverItemId: older.id, coverThumbKey: older.thumbKey, coverThumbhash: 'OLDER' });
      expect((await b.albums.listAlbums()).find((a) => a.id === album.id)?.coverThumbKey).toBe(older.thumbKey);

      await b.itemWrites.trashItems(album.id, [older.id]);
      expect((await b.albums.getAlbum(album.id)).coverThumbKey).toBe(newer.thumbKey);

      const e = await expectAppError(b.albums.updateAlbum(album.id, { coverItemId: doc.id }), 'validation/invalid');
      expect(e.details).toMatchObject({ field: 'coverItemId' });
      const cleared = await b.albums.updateAlbum(album.id, { coverItemId: null });
      expect(cleared).toMatchObject({ coverItemId: null, coverThumbKey: newer.thumbKey });
    });

  });
}
