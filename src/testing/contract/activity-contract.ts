/**
 * The ActivityPort contract: the activity feed and unread counts that every backend shares: what
 * one person's own doing records, newest first, and that it is never unread to them. What another member's
 * doing looks like is tested per backend with two accounts (tests/db/supabase-activity.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../../backend/ports';
import { addReadyItem, clockPasses, expectAppError } from './contract-fixtures';

export function describeActivityContract(makeBackend: () => Promise<Backend> | Backend): void {
  describe('activity', () => {
    it('records album creation, additions in one row, trash and restore, newest first', async () => {
      const b = await makeBackend();
      const session = await b.auth.getSession();
      // Each step is stamped after the one before it, also where the clock counts whole milliseconds.
      const album = await b.albums.createAlbum({ title: 'Activity' });
      await clockPasses(album.updatedAt);
      const items = [await addReadyItem(b, album.id), await addReadyItem(b, album.id), await addReadyItem(b, album.id)];
      await clockPasses(items[2]!.createdAt);
      await b.itemWrites.trashItems(album.id, [items[0]!.id, items[1]!.id]);
      // Stamped before the call returned: the next millisecond is later.
      await clockPasses(Date.now());
      await b.itemWrites.restoreItems(album.id, [items[0]!.id]);
      await b.albums.updateAlbum(album.id, { title: 'Activity, renamed' });

      const rows = (await b.activity.listActivity(50)).filter((a) => a.albumId === album.id);
      expect(rows.map((a) => [a.verb, a.count])).toEqual([
        ['restored_items', 1],
        ['trashed_items', 2],
        ['added_items', 3],
        ['created_album', 1],
      ]);
      for (const row of rows) {
        expect(row).toMatchObject({ albumTitle: 'Activity, renamed', actorId: session!.userId, actorName: session!.profile.displayName });
      }
      for (let i = 1; i < rows.length; i++) expect(rows[i - 1]!.createdAt >= rows[i]!.createdAt).toBe(true);
      // An addition names its first item (where the line links) and the kind all three share ("3 photos");
      // the others name nothing.
      expect(rows.map((a) => [a.verb, a.subjectId, a.subjectKind])).toEqual([
        ['restored_items', null, null],
        ['trashed_items', null, null],
        ['added_items', items[0]!.id, 'image'],
        ['created_album', null, null],
      ]);
      expect(await b.activity.listActivity(2)).toHaveLength(2);
    });

    it('one\'s own doing is never unread; opening an album marks it seen, a stranger\'s id is album/not-found', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Unread' });
      await addReadyItem(b, album.id);
      const counts = await b.activity.unreadCounts();
      expect(counts[album.id] ?? 0).toBe(0);
      for (const n of Object.values(counts)) expect(Number.isInteger(n) && n > 0 && n <= 100).toBe(true);
      await b.activity.markAlbumSeen(album.id);
      expect((await b.activity.unreadCounts())[album.id] ?? 0).toBe(0);
      await expectAppError(b.activity.markAlbumSeen(crypto.randomUUID()), 'album/not-found');
      await b.albums.deleteAlbum(album.id);
      await expectAppError(b.activity.markAlbumSeen(album.id), 'album/not-found');
      expect(album.id in (await b.activity.unreadCounts())).toBe(false);
    });
  });
}
