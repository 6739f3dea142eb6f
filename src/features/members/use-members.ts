import { useQuery } from '@tanstack/react-query';
import { useBackend } from '../../backend/backend-context';
import { memberKeys } from './member-keys';

/** The album's members, the owner first. */
export function useMembers(albumId: string) {
  const { data } = useBackend();
  return useQuery({ queryKey: memberKeys.list(albumId), queryFn: ({ signal }) => data.listMembers(albumId, { signal }) });
}
