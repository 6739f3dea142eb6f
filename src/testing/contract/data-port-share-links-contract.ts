/**
 * The part of the DataPort contract about share links that every backend shares, with or without links
 * (`capabilities.sharing.links`): a new album has none, an unknown album is `album/not-found`, and a backend
 * without links refuses making or revoking one with `album/forbidden`; one with links refuses input that breaks
 * the rules before anything is sent. Making links through the share-links function, states and roles are
 * tested per backend (tests/db/supabase-share-links.test.ts, tests/e2e/share-links.spec.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../../backend/ports';
import type { ShareLinkInput } from '../../backend/entities';
import { expectAbortError, expectAppError } from './contract-fixtures';

const plain: ShareLinkInput = { allowDownload: true, allowGuestUpload: false };

export function describeShareLinksContract(makeBackend: () => Promise<Backend> | Backend): void {
  describe('share links', () => {
    it('lists no link on a new album', async () => {
      const b = await makeBackend();
      const album = await b.data.createAlbum({ title: 'Not shared yet' });
      expect(await b.data.listShareLinks(album.id)).toEqual([]);
      // Where links are off, even a valid link is refused.
      if (!b.capabilities.sharing.links) await expectAppError(b.data.createShareLink(album.id, plain), 'album/forbidden');
    });

    it('answers album/not-found for the links of an album that does not exist', async () => {
      const b = await makeBackend();
      await expectAppError(b.data.listShareLinks(crypto.randomUUID()), 'album/not-found');
      if (!b.capabilities.sharing.links) await expectAppError(b.data.createShareLink(crypto.randomUUID(), plain), 'album/not-found');
    });

    it('refuses input outside the rules (password 8–128, expiry an hour to a year, limits, label) before anything is made', async () => {
      const b = await makeBackend();
      const links = b.capabilities.sharing.links;
      const album = await b.data.createAlbum({ title: 'Rules first' });
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
        // Without links nothing can be made at all: the refusal comes first.
        const e = await expectAppError(b.data.createShareLink(album.id, input), links ? 'validation/invalid' : 'album/forbidden');
        if (links) expect(e.details).toMatchObject({ field });
      }
      expect(await b.data.listShareLinks(album.id)).toEqual([]);
    });

    it('answers a link id nobody made with album/not-found, or album/forbidden where there are no links', async () => {
      const b = await makeBackend();
      await expectAppError(b.data.revokeShareLink(crypto.randomUUID()), b.capabilities.sharing.links ? 'album/not-found' : 'album/forbidden');
    });

    it('stops at once when the signal is already aborted', async () => {
      const b = await makeBackend();
      const album = await b.data.createAlbum({ title: 'Aborted links' });
      const signal = AbortSignal.abort();
      await expectAbortError(b.data.listShareLinks(album.id, { signal }));
      await expectAbortError(b.data.createShareLink(album.id, plain, { signal }));
      await expectAbortError(b.data.revokeShareLink(crypto.randomUUID(), { signal }));
    });
  });
}
