/**
 * Members and invitations over PostgREST. Reads come from `album_members`, `profiles` and `invites` as RLS lets
 * the caller see them; every change goes through its SQL function (supabase/migrations/20261123200000_* and
 * 20261123200100_*), which checks the caller's role and answers with the codes of PRODUCT.md §8.
 */
import { AppError, throwIfAborted } from '../../lib/app-error';
import type { CallOptions, MembersPort } from '../ports';
import type { Invite, InviteInput, InvitePreview, Member, Role } from '../../domain/entities';
import type { PostgrestCalls, Sendable } from './supabase-calls';
import { INVITE_COLUMNS, rows, toAlbumId, toInvite, toInvitePreview, toMembership, toNewInvite, toProfileCard } from './supabase-rows';

const DAY_MS = 86_400_000;
const MAX_INVITE_DAYS = 365;

function noAnswer(what: string): AppError {
  return new AppError('backend/unreachable', `The server sent no ${what}.`);
}

function checkInviteInput(input: InviteInput): { expiresAt: string | null; maxUses: number | null } {
  const days = input.expiresInDays;
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_INVITE_DAYS)) {
    throw new AppError('validation/invalid', `An invitation lasts 1 to ${MAX_INVITE_DAYS} days.`, { details: { field: 'expiresInDays' } });
  }
  const uses = input.maxUses;
  if (uses !== undefined && (!Number.isInteger(uses) || uses < 1)) {
    throw new AppError('validation/invalid', 'An invitation can be used at least once.', { details: { field: 'maxUses' } });
  }
  // A year is measured by the server from its own clock: a whole year asked for is kept just inside it.
  const ms = days === undefined ? null : Math.min(days * DAY_MS, MAX_INVITE_DAYS * DAY_MS - 60_000);
  return { expiresAt: ms === null ? null : new Date(Date.now() + ms).toISOString(), maxUses: uses ?? null };
}

export class SupabaseMembers implements MembersPort {
  constructor(private readonly calls: PostgrestCalls) {}

  async listMembers(albumId: string, opts: CallOptions = {}): Promise<Member[]> {
    throwIfAborted(opts.signal);
    const { client } = this.calls;
    const send = this.calls.send.bind(this.calls);
    const query = client.from('album_members').select('user_id,role,added_by,created_at').eq('album_id', albumId);
    const memberships = rows(await send(query as unknown as Sendable, opts.signal, 'album/not-found')).map(toMembership);
    // A member always sees themselves, so no rows means no album the caller belongs to.
    if (memberships.length === 0) {
      await this.calls.requireAlbum(albumId, opts.signal);
      return [];
    }
    const ids = [...new Set(memberships.flatMap((m) => (m.addedBy ? [m.userId, m.addedBy] : [m.userId])))];
    const profileQuery = client.from('profiles').select('id,display_name,avatar_key').in('id', ids);
    const profiles = new Map(rows(await send(profileQuery as unknown as Sendable, opts.signal)).map(toProfileCard).map((p) => [p.id, p]));
    const members = memberships.map((m): Member => {
      const profile = profiles.get(m.userId);
      const adder = m.addedBy ? profiles.get(m.addedBy) : undefined;
      return {
        userId: m.userId,
        displayName: profile?.displayName ?? '',
        avatarKey: profile?.avatarKey ?? null,
        role: m.role,
        addedBy: m.addedBy,
        ...(adder ? { addedByName: adder.displayName } : {}),
        createdAt: m.createdAt,
      };
    });
    return members.sort((a, b) => Number(b.role === 'owner') - Number(a.role === 'owner') || a.createdAt.localeCompare(b.createdAt) || a.userId.localeCompare(b.userId));
  }

  async setMemberRole(albumId: string, userId: string, role: Role, opts: CallOptions = {}): Promise<void> {
    await this.calls.send(this.calls.rpc('set_member_role', { p_album_id: albumId, p_user_id: userId, p_role: role }), opts.signal, 'album/not-found');
  }

  async removeMember(albumId: string, userId: string, opts: CallOptions = {}): Promise<void> {
    await this.calls.send(this.calls.rpc('remove_member', { p_album_id: albumId, p_user_id: userId }), opts.signal, 'album/not-found');
  }

  async transferOwnership(albumId: string, userId: string, opts: CallOptions = {}): Promise<void> {
    await this.calls.send(this.calls.rpc('transfer_ownership', { p_album_id: albumId, p_new_owner_id: userId }), opts.signal, 'album/not-found');
  }

  async leaveAlbum(albumId: string, choice: { keepItems: boolean }, opts: CallOptions = {}): Promise<void> {
    if (typeof choice?.keepItems !== 'boolean') {
      throw new AppError('validation/invalid', 'Say whether the items you added stay in the album.', { details: { field: 'keepItems' } });
    }
    await this.calls.send(this.calls.rpc('leave_album', { p_album_id: albumId, p_keep_items: choice.keepItems }), opts.signal, 'album/not-found');
  }

  async createInvite(albumId: string, input: InviteInput, opts: CallOptions = {}): Promise<{ invite: Invite; token: string }> {
    throwIfAborted(opts.signal);
    const { expiresAt, maxUses } = checkInviteInput(input);
    const args = { p_album_id: albumId, p_role: input.role, p_email: null, p_expires_at: expiresAt, p_max_uses: maxUses };
    const [created] = rows(await this.calls.send(this.calls.rpc('create_invite', args), opts.signal, 'album/not-found')).map(toNewInvite);
    if (!created) throw noAnswer('invitation');
    const query = this.calls.client.from('invites').select(INVITE_COLUMNS).eq('id', created.inviteId);
    const [invite] = rows(await this.calls.send(query as unknown as Sendable, opts.signal)).map(toInvite);
    if (!invite) throw noAnswer('invitation');
    return { invite, token: created.token };
  }

  async listInvites(albumId: string, opts: CallOptions = {}): Promise<Invite[]> {
    throwIfAborted(opts.signal);
    const query = this.calls.client
      .from('invites')
      .select(INVITE_COLUMNS)
      .eq('album_id', albumId)
      .is('revoked_at', null)
      .gt('expires_at', new Date().toISOString())
      .order('created_at', { ascending: false })
      .order('id', { ascending: false });
    const invites = rows(await this.calls.send(query as unknown as Sendable, opts.signal, 'album/not-found')).map(toInvite);
    if (invites.length === 0) await this.calls.requireAlbum(albumId, opts.signal);
    // PostgREST compares a column with values only, so "used up" (use_count against max_uses) is decided here.
    return invites.filter((i) => i.maxUses === null || i.useCount < i.maxUses);
  }

  async revokeInvite(inviteId: string, opts: CallOptions = {}): Promise<void> {
    await this.calls.send(this.calls.rpc('revoke_invite', { p_invite_id: inviteId }), opts.signal, 'album/not-found');
  }

  async invitePreview(token: string, opts: CallOptions = {}): Promise<InvitePreview> {
    const [preview] = rows(await this.calls.send(this.calls.rpc('invite_preview', { p_token: token }), opts.signal, 'invite/not-found')).map(toInvitePreview);
    if (!preview) throw noAnswer('invitation');
    return preview;
  }

  async acceptInvite(token: string, opts: CallOptions = {}): Promise<string> {
    const [albumId] = rows(await this.calls.send(this.calls.rpc('accept_invite', { p_token: token }), opts.signal, 'invite/not-found')).map(toAlbumId);
    if (!albumId) throw noAnswer('album');
    return albumId;
  }
}
