import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useBackend } from '../../backend/backend-context';
import type { Album, Role } from '../../domain/entities';
import { albumKeys } from '../../shared/album-keys';
import { memberKeys } from '../../shared/member-keys';

function refreshMembers(qc: QueryClient, albumId: string): void {
  void qc.invalidateQueries({ queryKey: memberKeys.list(albumId) });
  // The caller's own role lives on the album: a hand-over changes it.
  void qc.invalidateQueries({ queryKey: albumKeys.detail(albumId) });
  void qc.invalidateQueries({ queryKey: albumKeys.activity() });
}

export function useSetMemberRole(albumId: string) {
  const { members } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, role }: { userId: string; role: Role }) => members.setMemberRole(albumId, userId, role),
    onSettled: () => refreshMembers(qc, albumId),
  });
}

export function useRemoveMember(albumId: string) {
  const { members } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => members.removeMember(albumId, userId),
    onSettled: () => refreshMembers(qc, albumId),
  });
}

export function useTransferOwnership(albumId: string) {
  const { members } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => members.transferOwnership(albumId, userId),
    onSettled: () => refreshMembers(qc, albumId),
  });
}

/** Leaving: the album goes from every list this person sees. */
export function useLeaveAlbum(albumId: string) {
  const { members } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (keepItems: boolean) => members.leaveAlbum(albumId, { keepItems }),
    onSuccess: () => {
      qc.setQueryData<Album[]>(albumKeys.list(), (list) => list?.filter((a) => a.id !== albumId));
      qc.removeQueries({ queryKey: albumKeys.detail(albumId) });
      qc.removeQueries({ queryKey: memberKeys.list(albumId) });
      void qc.invalidateQueries({ queryKey: albumKeys.all });
      void qc.invalidateQueries({ queryKey: albumKeys.activity() });
    },
  });
}
