import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { requirePort, useBackend } from '../../backend/backend-context';
import type { ShareLink, ShareLinkInput } from '../../domain/entities';
import { shareLinkKeys } from './share-link-keys';

/** The album's links (only asked for where links exist and the caller may manage them). */
export function useShareLinks(albumId: string, enabled: boolean) {
  const { shareLinks } = useBackend();
  return useQuery({ queryKey: shareLinkKeys.list(albumId), queryFn: ({ signal }) => requirePort(shareLinks, 'share links').listShareLinks(albumId, { signal }), enabled: enabled && shareLinks !== undefined });
}

export function useCreateShareLink(albumId: string) {
  const { shareLinks } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: ShareLinkInput) => requirePort(shareLinks, 'share links').createShareLink(albumId, input),
    onSuccess: ({ link }) => {
      qc.setQueryData<ShareLink[]>(shareLinkKeys.list(albumId), (list) => (list ? [link, ...list.filter((l) => l.id !== link.id)] : list));
      void qc.invalidateQueries({ queryKey: shareLinkKeys.list(albumId) });
    },
  });
}

export function useRevokeShareLink(albumId: string) {
  const { shareLinks } = useBackend();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (linkId: string) => requirePort(shareLinks, 'share links').revokeShareLink(linkId),
    onSettled: () => qc.invalidateQueries({ queryKey: shareLinkKeys.list(albumId) }),
  });
}
