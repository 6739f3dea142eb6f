import { useQuery } from '@tanstack/react-query';
import { useAlbumBackend } from '../../backend/backend-context';

/** URLs for a set of object keys, fetched in one call (one call per page of thumbnails). */
export function useObjectUrls(keys: (string | null | undefined)[]) {
  const { files } = useAlbumBackend();
  const wanted = keys.filter((k): k is string => !!k);
  return useQuery({
    queryKey: ['object-urls', ...wanted],
    queryFn: ({ signal }) => files.urls(wanted, { signal }),
    enabled: wanted.length > 0,
    // Presigned URLs live an hour; refresh well before.
    staleTime: 45 * 60_000,
    gcTime: 50 * 60_000,
  });
}
