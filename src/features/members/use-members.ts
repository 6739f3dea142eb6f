import { useQuery } from '@tanstack/react-query';
import { useBackend } from '../../backend/backend-context';
import { memberKeys } from './member-keys';

/** The album's members (one request per album, whoever asks: the member list, credits, filters). */
export function useMembers(albumId: string) {
  const { members } = useBackend();
  return useQuery({ queryKey: memberKeys.list(albumId), queryFn: ({ signal }) => members.listMembers(albumId, { signal }) });
}
