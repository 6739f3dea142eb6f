/**
 * The MembersPort contract: members and invitations that every backend shares, with or
 * without other people ([Note: Members without sharing] in ports.ts): a new album's one member is its owner,
 * the owner cannot leave or demote themselves, and tokens nobody issued are `invite/not-found`.
 * What needs a second person is tested per backend (tests/db/supabase-members.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Backend } from '../../backend/ports';
import { expectAbortError, expectAppError } from './contract-fixtures';

export function describeMembersContract(makeBackend: () => Promise<Backend> | Backend): void {
  describe('members and invitations', () => {
    it('lists the owner as the one member of a new album, named, added by themselves', async () => {
      const b = await makeBackend();
      const session = (await b.auth.getSession())!;
      const album = await b.albums.createAlbum({ title: 'Ours' });
      const members = await b.members.listMembers(album.id);
      expect(members).toEqual([
        {
          userId: session.userId,
          displayName: session.profile.displayName,
          avatarKey: session.profile.avatarKey,
          role: 'owner',
          addedBy: session.userId,
          addedByName: session.profile.displayName,
          createdAt: expect.any(String) as unknown as string,
        },
      ]);
      expect(Number.isNaN(Date.parse(members[0]!.createdAt))).toBe(false);
    });

    it('refuses the last owner leaving, removing or demoting themselves, and keeps them the owner', async () => {
      const b = await makeBackend();
      const me = (await b.auth.getSession())!.userId;
      const album = await b.albums.createAlbum({ title: 'Mine to keep' });
      await expectAppError(b.members.leaveAlbum(album.id, { keepItems: true }), 'album/forbidden');
      await expectAppError(b.members.leaveAlbum(album.id, { keepItems: false }), 'album/forbidden');
      await expectAppError(b.members.removeMember(album.id, me), 'album/forbidden');
      await expectAppError(b.members.setMemberRole(album.id, me, 'viewer'), 'album/forbidden');
      expect((await b.members.listMembers(album.id)).map((m) => [m.userId, m.role])).toEqual([[me, 'owner']]);
      expect((await b.albums.getAlbum(album.id)).role).toBe('owner');
    });

    it('has no pending invitations on a new album, and answers invite/not-found for a token nobody issued', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Nobody invited' });
      expect(await b.members.listInvites(album.id)).toEqual([]);
      const token = 'AAAAAAAAAAAAAAAAAAAAAA';
      await expectAppError(b.members.invitePreview(token), 'invite/not-found');
      await expectAppError(b.members.acceptInvite(token), 'invite/not-found');
      await expectAppError(b.members.revokeInvite(crypto.randomUUID()), 'album/not-found');
    });

    it('answers album/not-found for the members and invitations of an album that does not exist', async () => {
      const b = await makeBackend();
      const unknown = crypto.randomUUID();
      await expectAppError(b.members.listMembers(unknown), 'album/not-found');
      await expectAppError(b.members.listInvites(unknown), 'album/not-found');
      await expectAppError(b.members.leaveAlbum(unknown, { keepItems: true }), 'album/not-found');
      await expectAppError(b.members.createInvite(unknown, { role: 'viewer' }), 'album/not-found');
      await expectAppError(b.members.setMemberRole(unknown, crypto.randomUUID(), 'viewer'), 'album/not-found');
    });

    it('stops at once when the signal is already aborted', async () => {
      const b = await makeBackend();
      const album = await b.albums.createAlbum({ title: 'Aborted members' });
      const signal = AbortSignal.abort();
      await expectAbortError(b.members.listMembers(album.id, { signal }));
      await expectAbortError(b.members.listInvites(album.id, { signal }));
      await expectAbortError(b.members.acceptInvite('AAAAAAAAAAAAAAAAAAAAAA', { signal }));
    });
  });
}
