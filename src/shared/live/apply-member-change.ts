/**
 * A membership change heard on the album's channel, written into the member list and, when it is about the
 * person looking, into the album's role: a contributor made a viewer loses the Add button at once.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { ChangeOfEntity } from '../../backend/ports';
import type { Album, Member } from '../../domain/entities';
import { albumKeys } from '../album-keys';
import { memberKeys } from '../member-keys';

/** What happened to the person looking: nothing, or they are no longer a member. */
export type MemberChangeOutcome = 'none' | 'removed';

export function applyMemberChange(qc: QueryClient, ev: ChangeOfEntity<'album_member'>, selfId: string | undefined): MemberChangeOutcome {
  const listKey = memberKeys.list(ev.albumId);
  if (!ev.row) {
    // A row the app cannot read: read the list and the album (it may be about oneself) again.
    void qc.invalidateQueries({ queryKey: listKey, exact: true });
    void qc.invalidateQueries({ queryKey: albumKeys.detail(ev.albumId), exact: true });
    return 'none';
  }
  const { userId, role } = ev.row;
  const self = userId === selfId;
  if (ev.op === 'delete') {
    qc.setQueryData<Member[]>(listKey, (list) => list?.filter((m) => m.userId !== userId));
    return self ? 'removed' : 'none';
  }
  const newRole = role;
  if (!newRole) return 'none'; // only a delete has none
  if (ev.op === 'insert') {
    // The row has no name or avatar: the list is read again, once, if it is shown.
    void qc.invalidateQueries({ queryKey: listKey, exact: true });
  } else {
    qc.setQueryData<Member[]>(listKey, (list) => list?.map((m) => (m.userId === userId ? { ...m, role: newRole } : m)));
  }
  qc.setQueryData<Album>(albumKeys.detail(ev.albumId), (album) => {
    if (!album) return album;
    let next = album;
    if (self && album.role !== newRole) next = { ...next, role: newRole };
    // A hand-over: the new owner's row says so (the old owner's row becomes an editor's in the same change).
    if (newRole === 'owner' && album.ownerId !== userId) next = { ...next, ownerId: userId };
    return next;
  });
  return 'none';
}
