/** TanStack Query keys for albums: one factory, so invalidation always hits what it should. */
export const albumKeys = {
  all: ['albums'] as const,
  list: () => [...albumKeys.all, 'list'] as const,
  detail: (albumId: string) => [...albumKeys.all, 'detail', albumId] as const,
  /** How many uploads others left unfinished in the album (the owner's view). */
  pending: (albumId: string) => [...albumKeys.all, 'pending', albumId] as const,
  activity: () => ['activity'] as const,
};
