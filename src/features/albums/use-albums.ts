import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useBackend } from '../../backend/backend-context';
import type { AlbumInput, AlbumPatch } from '../../domain/inputs';
import type { Album } from '../../domain/entities';
import { albumKeys } from '../../shared/album-keys';
import { useLiveAnywhere } from '../../shared/live/use-live-anywhere';

export function useAlbums() {
  const { albums } = useBackend();
  return useQuery({ queryKey: albumKeys.list(), queryFn: ({ signal }) => albums.listAlbums({ signal }) });
}

export function useAlbum(albumId: string) {
  const { albums } = useBackend();
  return useQuery({ queryKey: albumKeys.detail(albumId), queryFn: ({ signal }) => albums.getAlbum(albumId, { signal }) });
}

export function useCreateAlbum() {
  const { albums } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AlbumInput) => albums.createAlbum(input),
    onSuccess: (album) => {
      qc.setQueryData(albumKeys.detail(album.id), album);
      // Into the list from the answer, first (the list is newest first): the refetch below is cancelled when
      // the screen that started it goes (the app opens the new album at once), and a cancelled fetch puts back
      // the data it started from, which then holds the album; the copy kept on the device is written from it.
      qc.setQueryData<Album[]>(albumKeys.list(), (list) => list && [album, ...list.filter((a) => a.id !== album.id)]);
      void qc.invalidateQueries({ queryKey: albumKeys.all });
      void qc.invalidateQueries({ queryKey: albumKeys.activity() });
    },
  });
}

export function useUpdateAlbum(albumId: string) {
  const { albums } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: AlbumPatch) => albums.updateAlbum(albumId, patch),
    onSuccess: (album) => {
      qc.setQueryData(albumKeys.detail(albumId), album);
      qc.setQueryData<Album[]>(albumKeys.list(), (list) => list?.map((a) => (a.id === album.id ? album : a)));
    },
  });
}

export function useDeleteAlbum() {
  const { albums } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (albumId: string) => albums.deleteAlbum(albumId),
    onSuccess: (_v, albumId) => {
      qc.setQueryData<Album[]>(albumKeys.list(), (list) => list?.filter((a) => a.id !== albumId));
      qc.removeQueries({ queryKey: albumKeys.detail(albumId) });
      void qc.invalidateQueries({ queryKey: albumKeys.all });
    },
  });
}

function refreshAlbums(qc: QueryClient): void {
  void qc.invalidateQueries({ queryKey: albumKeys.list() });
  // Activity and the unread counts, which sit under the same key.
  void qc.invalidateQueries({ queryKey: albumKeys.activity() });
}

/** Keeps the albums screen live: any album or item change anywhere refreshes the list, activity and unread counts. */
export function useAlbumsLive() {
  const qc = useQueryClient();
  useLiveAnywhere(() => refreshAlbums(qc));
}
