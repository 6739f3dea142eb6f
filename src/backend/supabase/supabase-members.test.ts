/**
 * Member and invitation rows the app cannot read fail the call with `backend/unreachable` naming the column,
 * rather than showing a member called "" or an invitation used NaN times. What the adapter does with real
 * rows is tested over the emulated wire (tests/db/supabase-members.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { $ZodError } from 'zod/v4/core';
import { expectAppError } from '../../testing/contract/contract-fixtures';
import { PROFILE_ROW, signedIn, USER } from '../../testing/supabase-test-session';

const ALBUM_ID = '0b7c2f8e-5d1a-4e6b-8c3d-9f0a1b2c3d4e';
const INVITE_ID = '7a1e0c3b-2222-4d5e-8f90-1a2b3c4d5e6f';
const TOKEN = 'q2Xb0c9Jf1mZ4vTn8sLw3A';
const MEMBER_ROW = { user_id: USER.id, role: 'owner', added_by: USER.id, created_at: '2024-05-01 10:00:00+00' };
const INVITE_ROW = {
  id: INVITE_ID,
  album_id: ALBUM_ID,
  role: 'viewer',
  email: null,
  expires_at: '2024-05-08T10:00:00+00:00',
  max_uses: null,
  use_count: 0,
  created_by: USER.id,
  created_at: '2024-05-01T10:00:00+00:00',
  revoked_at: null,
};

async function expectUnreadable(call: Promise<unknown>, column: string): Promise<void> {
  const e = await expectAppError(call, 'backend/unreachable');
  expect((e.cause as $ZodError).issues.map((i) => i.path.join('.'))).toContain(column);
}

describe('Supabase members and invitations: what the app cannot read fails the call', () => {
  it('a well-formed member list reads, with the names joined in', async () => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/album_members', [MEMBER_ROW]);
    stub.on('GET', '/rest/v1/profiles', [PROFILE_ROW]);
    expect(await backend.members.listMembers(ALBUM_ID)).toEqual([
      { userId: USER.id, displayName: 'Ada', avatarKey: null, role: 'owner', addedBy: USER.id, addedByName: 'Ada', createdAt: '2024-05-01T10:00:00.000Z' },
    ]);
  });

  it.each([
    ['role', 'admin'],
    ['user_id', null],
    ['created_at', 'yesterday'],
  ])('a member whose %s is %j', async (column, value) => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/album_members', [{ ...MEMBER_ROW, [column]: value }]);
    await expectUnreadable(backend.members.listMembers(ALBUM_ID), column);
  });

  it('a member whose profile has no name', async () => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/album_members', [MEMBER_ROW]);
    stub.on('GET', '/rest/v1/profiles', [{ ...PROFILE_ROW, display_name: null }]);
    await expectUnreadable(backend.members.listMembers(ALBUM_ID), 'display_name');
  });

  it.each([
    ['use_count', 'once'],
    ['role', 'owner'],
    ['expires_at', null],
  ])('an invitation whose %s is %j', async (column, value) => {
    const { backend, stub } = await signedIn();
    stub.on('GET', '/rest/v1/invites', [{ ...INVITE_ROW, [column]: value }]);
    await expectUnreadable(backend.members.listInvites(ALBUM_ID), column);
  });

  it('a new invitation without its token, a preview without its title, an accept without its album', async () => {
    const { backend, stub } = await signedIn();
    stub.on('POST', '/rest/v1/rpc/create_invite', [{ invite_id: INVITE_ID, token: null }]);
    await expectUnreadable(backend.members.createInvite(ALBUM_ID, { role: 'viewer' }), 'token');
    stub.on('POST', '/rest/v1/rpc/invite_preview', [{ cover_thumb_key: null, inviter_name: 'Ada' }]);
    await expectUnreadable(backend.members.invitePreview(TOKEN), 'album_title');
    stub.on('POST', '/rest/v1/rpc/accept_invite', [{ title: 'Lisbon' }]);
    await expectUnreadable(backend.members.acceptInvite(TOKEN), 'id');
  });
});
