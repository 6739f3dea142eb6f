/**
 * The owner's line about uploads other members started and never finished: they are invisible to the owner,
 * yet count toward the album's limit until they expire after 24 hours. The owner can clear them at once.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useBackend } from '../../backend/backend-context';
import type { Album } from '../../domain/entities';
import { formatCount } from '../../lib/format';
import { ErrorLine } from '../../ui/error-panel';
import { albumKeys } from '../../shared/album-keys';
import { can } from '../../lib/album-permissions';

export function PendingUploads({ album }: { album: Album }) {
  const { capabilities, itemWrites } = useBackend();
  const qc = useQueryClient();
  // Clearing what a member left behind is the owner's, with the other decisions about members. Where albums
  // have no other members there is nothing to ask (and a large album would be read whole for it).
  const isOwner = can(album.role, 'manageMembers') && capabilities.sharing.members;
  const pending = useQuery({
    queryKey: albumKeys.pending(album.id),
    queryFn: ({ signal }) => itemWrites.countPendingItems(album.id, { signal }),
    enabled: isOwner,
  });
  const clear = useMutation({
    mutationFn: () => itemWrites.clearPendingItems(album.id),
    onSettled: () => void qc.invalidateQueries({ queryKey: albumKeys.pending(album.id) }),
  });

  const count = pending.data ?? 0;
  if (!isOwner || (count === 0 && !clear.error)) return null;
  return (
    <div className="pending-uploads" role="status">
      {count > 0 && (
        <p className="muted" style={{ margin: '4px 0' }}>
          {formatCount(count, 'upload by others never finished', 'uploads by others never finished')} ·{' '}
          <button
            type="button"
            className="btn btn--ghost"
            onClick={() => clear.mutate()}
            disabled={clear.isPending}
            title="Removes them now, with whatever was sent of them; otherwise they expire after 24 hours"
          >
            Clear
          </button>
        </p>
      )}
      {clear.error && <ErrorLine error={clear.error} />}
    </div>
  );
}
