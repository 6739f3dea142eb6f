import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useBackend } from '../../backend/backend-context';
import { albumKeys } from '../../shared/album-keys';
import { memberKeys } from '../../shared/member-keys';

/**
 * Keeps the settings screen's members and the caller's own role current: a membership or album change heard on
 * the album's channel reads both again (they are small), so the sections follow a role change made elsewhere.
 */
export function useMembersLive(albumId: string): void {
  const { realtime } = useBackend();
  const qc = useQueryClient();
  useEffect(() => {
    const refresh = () => {
      void qc.invalidateQueries({ queryKey: memberKeys.list(albumId) });
      void qc.invalidateQueries({ queryKey: albumKeys.detail(albumId) });
    };
    return realtime.subscribe(albumId, {
      onChange: (ev) => (ev.entity === 'album_member' || ev.entity === 'album') && refresh(),
      onJoined: ({ mayHaveMissed }) => mayHaveMissed && refresh(),
    });
  }, [realtime, qc, albumId]);
}
