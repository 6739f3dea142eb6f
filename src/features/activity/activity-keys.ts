/**
 * TanStack Query keys for activity. Everything sits under `['activity']` (albumKeys.activity()), so what
 * refreshes activity after a change refreshes the unread counts with it.
 */
export const activityKeys = {
  all: ['activity'] as const,
  feed: (limit: number) => [...activityKeys.all, 'feed', limit] as const,
  unread: () => [...activityKeys.all, 'unread'] as const,
};
