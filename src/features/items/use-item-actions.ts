import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requirePort, useAlbumBackend } from '../../backend/backend-context';
import { invalidateAlbum } from '../../shared/invalidate-album';

export function useTrashItems(albumId: string) {
  // The viewer is a link visitor's too, who is never offered the trash.
  const { itemWrites } = useAlbumBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => requirePort(itemWrites, 'item writes').trashItems(albumId, ids),
    onSettled: () => invalidateAlbum(qc, albumId),
  });
}

export function useRestoreItems(albumId: string) {
  const { itemWrites } = useAlbumBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[]) => requirePort(itemWrites, 'item writes').restoreItems(albumId, ids),
    onSettled: () => invalidateAlbum(qc, albumId),
  });
}
