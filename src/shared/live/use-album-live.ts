import { notifyManager, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useBackend, useSession } from '../../backend/backend-context';
import type { ChangeEvent } from '../../backend/ports';
import type { PresenceViewer } from '../../domain/entities';
import { applyAlbumChange } from './apply-album-change';
import { applyMemberChange } from './apply-member-change';
import { applySocialChange, heardNothing } from './apply-social-change';
import { applyItemChange, type ItemPlaces } from './apply-item-change';
import { invalidateAlbum } from '../invalidate-album';
import { searchKeys } from '../search-keys';

/** Why the person looking can no longer see the album. */
export type AlbumGone = 'removed' | 'deleted';

/** Events heard within this time are written into the cache together: one render for a burst of uploads. */
const BATCH_MS = 50;

// [Note: Applying an event once]
// A change can be heard more than once: Realtime may send changes again (after a reconnection), and one's own
// change comes both from the call that made it and from the channel. So applying an event is idempotent: an
// event says what a row now is (the item is in the album, in the trash or gone; the comment is there or not; a
// person's heart is given or not), and a count moves only when that changes what the cache holds. An item in a
// loaded month, a comment in a loaded list, one's own heart: the cache itself says. For the rest (an item of a
// month not loaded, a comment or another's heart on a tile whose lists are not loaded), the subscription keeps
// what its events last said of each row: `ItemPlaces` and `HeardSocial`, a few fields per row heard of, for as
// long as the album is open. They are kept through a reconnection, when changes may come again. Album rows and
// memberships need none: they are written as values (a title, a count, a role, a list keyed by person), never
// added to.

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
    // What the events applied so far said: [Note: Applying an event once].
    const places: ItemPlaces = new Map();
    const heard = heardNothing();
    const apply = (ev: ChangeEvent) => {
      switch (ev.entity) {
        case 'item':
          applyItemChange(qc, ev, places);
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
          applySocialChange(qc, ev, { userId: selfId, displayName: selfName }, heard);
          break;
      }
    };
    const flush = () => {
      timer = null;
      const events = queue;
      queue = [];
      notifyManager.batch(() => events.forEach(apply));
      // What a search found may have changed with them: an open search reads its results again.
      if (events.some((e) => e.entity === 'item')) void qc.invalidateQueries({ queryKey: searchKeys.all });
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
