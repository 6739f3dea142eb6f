import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useBackend } from '../../backend/backend-context';
import type { ShareLink, ShareLinkInput } from '../../backend/entities';
import { shareLinkKeys } from './share-link-keys';

/** The album's links (only asked for where links exist and the caller may manage them). */
export function useShareLinks(albumId: string, enabled: boolean) {
  const { data } = useBackend();
  return useQuery({ queryKey: shareLinkKeys.list(albumId), queryFn: ({ signal }) => data.listShareLinks(albumId, { signal }), enabled });
}

export function useCreateShareLink(albumId: string) {
  const { data } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ShareLinkInput) => data.createShareLink(albumId, input),
    onSuccess: ({ link }) => {
      qc.setQueryData<ShareLink[]>(shareLinkKeys.list(albumId), (list) => (list ? [link, ...list.filter((l) => l.id !== link.id)] : list));
      void qc.invalidateQueries({ queryKey: shareLinkKeys.list(albumId) });
    },
  });
}

export function useRevokeShareLink(albumId: string) {
  const { data } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) => data.revokeShareLink(linkId),
    onSettled: () => qc.invalidateQueries({ queryKey: shareLinkKeys.list(albumId) }),
  });
}
