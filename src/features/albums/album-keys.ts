/** TanStack Query keys for albums: one factory, so invalidation always hits what it should. */
export const albumKeys = {
  all: ['albums'] as const,
  list: () => [...albumKeys.all, 'list'] as const,
  detail: (albumId: string) => [...albumKeys.all, 'detail', albumId] as const,
  activity: () => ['activity'] as const,
};
