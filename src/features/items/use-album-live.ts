import { notifyManager, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useBackend, useSession } from '../../backend/backend-context';
import type { ChangeEvent, PresenceViewer } from '../../backend/ports';
import { applyAlbumChange } from '../albums/apply-album-change';
import { applyMemberChange } from '../members/apply-member-change';
import { applySocialChange } from '../social/apply-social-change';
import { applyItemChange } from './apply-item-change';
import { invalidateAlbum } from './use-item-actions';

/** Why the person looking can no longer see the album. */
export type AlbumGone = 'removed' | 'deleted';

/** Events heard within this time are written into the cache together: one render for a burst of uploads. */
const BATCH_MS = 50;

/**
 * Keeps an open album live: others' changes are written into the query cache from their events (never a
 * refetch of the album), a reconnection reads the album again (what happened meanwhile was not heard), and
 * presence says who else is looking. `onGone` is called when the album is deleted or the person looking is
 * no longer one of its members.
 */
export function useAlbumLive(albumId: string, onGone?: (why: AlbumGone) => void): PresenceViewer[] {
  const { realtime } = useBackend();
  const session = useSession();
  const selfId = session?.userId;
  const selfName = session?.profile.displayName;
  const qc = useQueryClient();
  const [viewers, setViewers] = useState<PresenceViewer[]>([]);
  const goneRef = useRef(onGone);
  goneRef.current = onGone;
  useEffect(() => {
    let queue: ChangeEvent[] = [];
    let timer: ReturnType<typeof setTimeout> | null = null;
    let gone: AlbumGone | null = null;
    const apply = (ev: ChangeEvent) => {
      switch (ev.entity) {
        case 'item':
          applyItemChange(qc, ev);
          break;
        case 'album':
          if (applyAlbumChange(qc, ev) === 'deleted') gone ??= 'deleted';
          break;
        case 'album_member':
          if (applyMemberChange(qc, ev, selfId) === 'removed') gone ??= 'removed';
          break;
        case 'comment':
        case 'favorite':
          // Comments and hearts: [Note: Live comments and hearts].
          applySocialChange(qc, ev, { userId: selfId, displayName: selfName });
          break;
      }
    };
    const flush = () => {
      timer = null;
      const events = queue;
      queue = [];
      notifyManager.batch(() => events.forEach(apply));
      if (gone) goneRef.current?.(gone);
    };
    const unsubscribe = realtime.subscribe(albumId, {
      onChange: (ev) => {
        if (ev.albumId !== albumId) return;
        queue.push(ev);
        timer ??= setTimeout(flush, BATCH_MS);
      },
      // Back from a dropped connection (or joined after the grid was read): what changed meanwhile was not
      // heard, so this is the one time the album is read again.
      onJoined: ({ mayHaveMissed }) => mayHaveMissed && invalidateAlbum(qc, albumId),
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
