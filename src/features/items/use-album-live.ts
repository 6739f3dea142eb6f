import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useBackend, useSession } from '../../backend/backend-context';
import type { PresenceViewer } from '../../backend/ports';
import { applySocialChange } from '../social/apply-social-change';
import { invalidateAlbum } from './use-item-actions';

/**
 * Keeps an open album live: others' changes refresh the grid (coalesced, so a burst of uploads is one refetch),
 * as does a reconnection, and presence says who else is looking.
 */
export function useAlbumLive(albumId: string): PresenceViewer[] {
  const { realtime } = useBackend();
  const session = useSession();
  const selfId = session?.userId;
  const selfName = session?.profile.displayName;
  const qc = useQueryClient();
  const [viewers, setViewers] = useState<PresenceViewer[]>([]);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      timer ??= setTimeout(() => {
        timer = null;
        invalidateAlbum(qc, albumId);
      }, 150);
    };
    const unsubscribe = realtime.subscribe(albumId, {
      // Comments and hearts update their caches from the event ([Note: Live comments and hearts]).
      onChange: (ev) => applySocialChange(qc, ev, { userId: selfId, displayName: selfName }) || refresh(),
      // Back from a dropped connection (or joined after the grid was read): what changed meanwhile was not heard.
      onJoined: ({ mayHaveMissed }) => mayHaveMissed && refresh(),
      // Others who are looking: yourself (in this or another tab) is not news.
      onPresence: (all) => setViewers(all.filter((v) => v.userId !== selfId)),
    });
    return () => {
      if (timer) clearTimeout(timer);
      unsubscribe();
    };
  }, [realtime, qc, albumId, selfId, selfName]);
  return viewers;
}
