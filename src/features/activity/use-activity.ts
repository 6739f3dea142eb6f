import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useBackend } from '../../backend/backend-context';
import { activityKeys } from './activity-keys';
import { groupActivity, type ActivityEntry } from './group-activity';

/** Lines read for the home screen; grouping makes fewer entries of them. */
export const FEED_LINES = 30;

/** The recent activity across the caller's albums, grouped into entries. */
export function useActivityFeed(limit = FEED_LINES) {
  const { activity } = useBackend();
  const query = useQuery({ queryKey: activityKeys.feed(limit), queryFn: ({ signal }) => activity.listActivity(limit, { signal }) });
  const entries = useMemo<ActivityEntry[] | undefined>(() => (query.data ? groupActivity(query.data) : undefined), [query.data]);
  return { ...query, entries };
}

/** For each album with something new by others since the caller last opened it, how much. */
export function useUnreadCounts() {
  const { activity } = useBackend();
  return useQuery({ queryKey: activityKeys.unread(), queryFn: ({ signal }) => activity.unreadCounts({ signal }) });
}

function clearUnread(counts: Record<string, number> | undefined, albumId: string): Record<string, number> | undefined {
  if (!counts || !(albumId in counts)) return counts;
  const { [albumId]: _seen, ...rest } = counts;
  return rest;
}

/**
 * Opening an album marks it seen, once per visit of the screen: its badge on the albums screen clears at once,
 * and the backend starts counting again from now. A failure only leaves the badge for next time.
 */
export function useMarkAlbumSeen(albumId: string): void {
  const { activity } = useBackend();
  const qc = useQueryClient();
  useEffect(() => {
    const controller = new AbortController();
    qc.setQueryData<Record<string, number>>(activityKeys.unread(), (c) => clearUnread(c, albumId));
    activity
      .markAlbumSeen(albumId, { signal: controller.signal })
      // A count read while the mark was on its way may have brought the badge back.
      .then(() => qc.setQueryData<Record<string, number>>(activityKeys.unread(), (c) => clearUnread(c, albumId)))
      .catch(() => undefined);
    return () => controller.abort();
  }, [activity, qc, albumId]);
}
