/**
 * Members and invitations on this device, where one profile owns every album ([Note: Members without sharing]
 * in ports.ts): the owner is the only member, no invitation exists, and whatever needs another person is
 * refused. An unknown album is `album/not-found` before anything else, as on the server.
 */
import { AppError } from '../../lib/app-error';
import type { CallOptions, MembersPort } from '../ports';
import type { Invite, InviteInput, Member, Role } from '../../domain/entities';
import { requireAlbum } from './local-album-view';
import { readTransaction, type LocalDataDeps } from './local-data-deps';
import { albumNotFound, guard } from './local-errors';

function needsOthers(): AppError {
  return new AppError('album/forbidden', 'Albums on this device have one member; sharing needs a Supabase project.', { retryable: false });
}

/** Members and invitations on this device: the owner alone, and no invitation. */
export function localMembers(deps: LocalDataDeps): MembersPort {
  const album = (albumId: string, opts: CallOptions) => readTransaction(deps, opts.signal, (tx) => requireAlbum(tx, albumId));
  /** `album/not-found` for an unknown album, else `album/forbidden`: the refusal of every call that needs others. */
  const refuse = (albumId: string, opts: CallOptions = {}): Promise<never> =>
    guard(opts.signal, async () => {
      await album(albumId, opts);
      throw needsOthers();
    });
  const noInvitation = (opts: CallOptions = {}): Promise<never> =>
    guard(opts.signal, () => Promise.reject(new AppError('invite/not-found', 'There are no invitations on this device.', { retryable: false })));
  return {
    listMembers(albumId: string, opts: CallOptions = {}): Promise<Member[]> {
      return guard(opts.signal, async () => {
        const profile = await deps.profile();
        const record = await album(albumId, opts);
        const mine = profile.id === record.ownerId;
        return [
          {
            userId: record.ownerId,
            displayName: mine ? profile.displayName : '',
            avatarKey: mine ? profile.avatarKey : null,
            role: 'owner',
            addedBy: record.ownerId,
            ...(mine ? { addedByName: profile.displayName } : {}),
            createdAt: record.createdAt,
          },
        ];
      });
    },
    listInvites: (albumId: string, opts: CallOptions = {}): Promise<Invite[]> => guard(opts.signal, async () => (await album(albumId, opts), [])),
    setMemberRole: (albumId: string, _userId: string, _role: Role, opts?: CallOptions) => refuse(albumId, opts),
    removeMember: (albumId: string, _userId: string, opts?: CallOptions) => refuse(albumId, opts),
    transferOwnership: (albumId: string, _userId: string, opts?: CallOptions) => refuse(albumId, opts),
    leaveAlbum: (albumId: string, _choice: { keepItems: boolean }, opts?: CallOptions) => refuse(albumId, opts),
    createInvite: (albumId: string, _input: InviteInput, opts?: CallOptions) => refuse(albumId, opts),
    // The server's answer for an id that is no invitation.
    revokeInvite: (_inviteId: string, opts: CallOptions = {}) => guard(opts.signal, () => Promise.reject(albumNotFound())),
    invitePreview: (_token: string, opts?: CallOptions) => noInvitation(opts),
    acceptInvite: (_token: string, opts?: CallOptions) => noInvitation(opts),
  };
}
