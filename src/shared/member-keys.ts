/** TanStack Query keys for an album's members: one list per album, read once and shared by every screen. */
export const memberKeys = {
  all: (albumId: string) => ['members', albumId] as const,
  list: (albumId: string) => [...memberKeys.all(albumId), 'list'] as const,
};
