/** TanStack Query keys for invitations. */
export const inviteKeys = {
  all: ['invites'] as const,
  /** The owner's pending invitations of one album. */
  pending: (albumId: string) => [...inviteKeys.all, 'pending', albumId] as const,
  /** What the invite page shows for a token. */
  preview: (token: string) => [...inviteKeys.all, 'preview', token] as const,
};
