import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useBackend } from '../../backend/backend-context';
import type { Invite, InviteInput } from '../../domain/entities';
import { albumKeys } from '../../shared/album-keys';
import { inviteKeys } from './invite-keys';

/** The owner's pending invitations (only asked for when the caller may manage members). */
export function usePendingInvites(albumId: string, enabled: boolean) {
  const { members } = useBackend();
  return useQuery({ queryKey: inviteKeys.pending(albumId), queryFn: ({ signal }) => members.listInvites(albumId, { signal }), enabled });
}

export function useCreateInvite(albumId: string) {
  const { members } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: InviteInput) => members.createInvite(albumId, input),
    onSuccess: ({ invite }) => {
      qc.setQueryData<Invite[]>(inviteKeys.pending(albumId), (list) => (list ? [invite, ...list.filter((i) => i.id !== invite.id)] : list));
      void qc.invalidateQueries({ queryKey: inviteKeys.pending(albumId) });
    },
  });
}

export function useRevokeInvite(albumId: string) {
  const { members } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (inviteId: string) => members.revokeInvite(inviteId),
    onSuccess: (_v, inviteId) => qc.setQueryData<Invite[]>(inviteKeys.pending(albumId), (list) => list?.filter((i) => i.id !== inviteId)),
    onSettled: () => void qc.invalidateQueries({ queryKey: inviteKeys.pending(albumId) }),
  });
}

/** What the invite page shows; the error codes say why a token no longer works, so no retries. */
export function useInvitePreview(token: string, enabled: boolean) {
  const { members } = useBackend();
  return useQuery({ queryKey: inviteKeys.preview(token), queryFn: ({ signal }) => members.invitePreview(token, { signal }), enabled, retry: false });
}

export function useAcceptInvite() {
  const { members } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => members.acceptInvite(token),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: albumKeys.all });
      void qc.invalidateQueries({ queryKey: albumKeys.activity() });
    },
  });
}
