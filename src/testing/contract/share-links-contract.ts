/**
 * The ShareLinksPort contract, for every backend that has the port: a new album has no link, an unknown album is
 * `album/not-found`, and input that breaks the rules is refused before anything is sent. Making links through
 * the share-links function, states and roles are tested per backend (tests/db/supabase-share-links.test.ts,
 * tests/e2e/share-links.spec.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Backend, ShareLinksPort } from '../../backend/ports';
import type { ShareLinkInput } from '../../domain/entities';
import { expectAbortError, expectAppError } from './contract-fixtures';

const plain: ShareLinkInput = { allowDownload: true, allowGuestUpload: false };

export function describeShareLinksContract(makeBackend: () => Promise<Backend> | Backend): void {
  const withLinks = async (): Promise<Backend & { shareLinks: ShareLinksPort }> => {
    const b = await makeBackend();
    if (!b.shareLinks) throw new Error('The share links contract is for a backend with the port.');
    return { ...b, shareLinks: b.shareLinks };
  };
  describe('share links', () => {
    it('lists no link on a new album', async () => {
      const b = await withLinks();
      const album = await b.albums.createAlbum({ title: 'Not shared yet' });
      expect(await b.shareLinks.listShareLinks(album.id)).toEqual([]);
    });

    it('answers album/not-found for the links of an album that does not exist', async () => {
      const b = await withLinks();
      await expectAppError(b.shareLinks.listShareLinks(crypto.randomUUID()), 'album/not-found');
    });

    it('refuses input outside the rules (password 8–128, expiry an hour to a year, limits, label) before anything is made', async () => {
      const b = await withLinks();
      const album = await b.albums.createAlbum({ title: 'Rules first' });
      const soon = new Date(Date.now() + 10 * 60_000).toISOString();
      const late = new Date(Date.now() + 400 * 86_400_000).toISOString();
      const cases: [ShareLinkInput, string][] = [
        [{ ...plain, password: 'seven77' }, 'password'],
        [{ ...plain, password: 'x'.repeat(129) }, 'password'],
        [{ ...plain, expiresAt: soon }, 'expiresAt'],
        [{ ...plain, expiresAt: late }, 'expiresAt'],
        [{ ...plain, maxViews: 0 }, 'maxViews'],
        [{ ...plain, maxViews: 1.5 }, 'maxViews'],
        [{ ...plain, allowGuestUpload: true, guestMaxFiles: 10_001 }, 'guestMaxFiles'],
        [{ ...plain, allowGuestUpload: true, guestMaxBytes: 0 }, 'guestMaxBytes'],
        [{ ...plain, label: 'x'.repeat(121) }, 'label'],
        [{ ...plain, label: 'Ana\u202Egpj.exe' }, 'label'],
      ];
      for (const [input, field] of cases) {
        const e = await expectAppError(b.shareLinks.createShareLink(album.id, input), 'validation/invalid');
        expect(e.details).toMatchObject({ field });
      }
      expect(await b.shareLinks.listShareLinks(album.id)).toEqual([]);
    });

    it('answers a link id nobody made with album/not-found', async () => {
      const b = await withLinks();
      await expectAppError(b.shareLinks.revokeShareLink(crypto.randomUUID()), 'album/not-found');
    });

    it('stops at once when the signal is already aborted', async () => {
      const b = await withLinks();
      const album = await b.albums.createAlbum({ title: 'Aborted links' });
      const signal = AbortSignal.abort();
      await expectAbortError(b.shareLinks.listShareLinks(album.id, { signal }));
      await expectAbortError(b.shareLinks.createShareLink(album.id, plain, { signal }));
      await expectAbortError(b.shareLinks.revokeShareLink(crypto.randomUUID(), { signal }));
    });
  });
}
