/** TanStack Query keys for an album's share links. */
export const shareLinkKeys = {
  all: ['share-links'] as const,
  list: (albumId: string) => [...shareLinkKeys.all, 'list', albumId] as const,
};
