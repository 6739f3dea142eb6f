/**
 * Members and invitations on this device, where one profile owns every album ([Note: Members without sharing]
 * in ports.ts): the owner is the only member, no invitation exists, and whatever needs another person is
 * refused. An unknown album is `album/not-found` before anything else, as on the server.
 */
import { AppError } from '../../lib/app-error';
import type { CallOptions } from '../ports';
import type { Invite, Member, ShareLink } from '../entities';
import { requireAlbum } from './local-album-view';
import { readTransaction, type LocalDataDeps } from './local-data-deps';
import { albumNotFound, guard } from './local-errors';

function needsOthers(): AppError {
  return new AppError('album/forbidden', 'Albums on this device have one member; sharing needs a Supabase project.', { retryable: false });
}

function noInvitation(): AppError {
  return new AppError('invite/not-found', 'There are no invitations on this device.', { retryable: false });
}

export function listMembers(deps: LocalDataDeps, albumId: string, opts: CallOptions): Promise<Member[]> {
  return guard(opts.signal, async () => {
    const profile = await deps.profile();
    const album = await readTransaction(deps, opts.signal, (tx) => requireAlbum(tx, albumId));
    return [
      {
        userId: album.ownerId,
        displayName: profile.id === album.ownerId ? profile.displayName : '',
        avatarKey: profile.id === album.ownerId ? profile.avatarKey : null,
        role: 'owner',
        addedBy: album.ownerId,
        ...(profile.id === album.ownerId ? { addedByName: profile.displayName } : {}),
        createdAt: album.createdAt,
      },
    ];
  });
}

/** `album/not-found` for an unknown album, else `album/forbidden`: the refusal of every call that needs others. */
export function refuse(deps: LocalDataDeps, albumId: string, opts: CallOptions): Promise<never> {
  return guard(opts.signal, async () => {
    await readTransaction(deps, opts.signal, (tx) => requireAlbum(tx, albumId));
    throw needsOthers();
  });
}

export function listShareLinks(deps: LocalDataDeps, albumId: string, opts: CallOptions): Promise<ShareLink[]> {
  return guard(opts.signal, async () => {
    await readTransaction(deps, opts.signal, (tx) => requireAlbum(tx, albumId));
    return [];
  });
}

/** A share link, which this device never has: there is no album to look up, only the refusal. */
export function refuseLink(opts: CallOptions): Promise<never> {
  return guard(opts.signal, () => Promise.reject(needsOthers()));
}

export function listInvites(deps: LocalDataDeps, albumId: string, opts: CallOptions): Promise<Invite[]> {
  return guard(opts.signal, async () => {
    await readTransaction(deps, opts.signal, (tx) => requireAlbum(tx, albumId));
    return [];
  });
}

export function revokeInvite(opts: CallOptions): Promise<void> {
  // The server's answer for an id that is no invitation.
  return guard(opts.signal, () => Promise.reject(albumNotFound()));
}

export function findInvite(opts: CallOptions): Promise<never> {
  return guard(opts.signal, () => Promise.reject(noInvitation()));
}
