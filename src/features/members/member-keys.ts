/** TanStack Query keys for an album's members. */
export const memberKeys = {
  list: (albumId: string) => ['members', albumId, 'list'] as const,
};
