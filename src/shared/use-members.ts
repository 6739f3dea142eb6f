import { useQuery } from '@tanstack/react-query';
import { requirePort, useAlbumBackend } from '../backend/backend-context';
import { memberKeys } from './member-keys';

/**
 * The album's members (one request per album, whoever asks: the member list, credits, filters). A link's
 * visitor is told the names of those who added what it sees; a backend without even that asks nothing.
 */
export function useMembers(albumId: string) {
  const { members } = useAlbumBackend();
  return useQuery({
    queryKey: memberKeys.list(albumId),
    queryFn: ({ signal }) => requirePort(members, 'members').listMembers(albumId, { signal }),
    enabled: members !== undefined,
  });
}
