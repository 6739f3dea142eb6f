import { useMutation, useQueryClient } from '@tanstack/react-query';
import { requirePort, useAlbumBackend } from '../../backend/backend-context';
import type { FilesPort } from '../../backend/ports';
import type { Item } from '../../domain/entities';
import { albumKeys } from '../albums/album-keys';
import { itemKeys } from './item-keys';

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

export function invalidateAlbum(qc: ReturnType<typeof useQueryClient>, albumId: string) {
  void qc.invalidateQueries({ queryKey: itemKeys.album(albumId) });
  void qc.invalidateQueries({ queryKey: albumKeys.detail(albumId) });
  void qc.invalidateQueries({ queryKey: albumKeys.list() });
  void qc.invalidateQueries({ queryKey: albumKeys.activity() });
}

/** Saves originals under their own filenames (the name comes from the row; the key never holds it). */
export async function downloadItems(files: Pick<FilesPort, 'urls'>, items: Item[]): Promise<void> {
  for (const item of items) {
    const urls = await files.urls([item.originalKey], { downloadAs: item.filename });
    const url = urls.get(item.originalKey);
    if (!url) continue;
    const a = document.createElement('a');
    a.href = url;
    a.download = item.filename;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
    // Browsers drop rapid successive downloads; give each a moment.
    if (items.length > 1) await new Promise((r) => setTimeout(r, 250));
  }
}
