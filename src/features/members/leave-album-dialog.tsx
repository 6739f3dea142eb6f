import { useId, useState } from 'react';
import type { Album } from '../../domain/entities';
import { Dialog } from '../../ui/dialog';
import { ErrorLine } from '../../ui/error-panel';
import { useLeaveAlbum } from './use-member-actions';

/** Leaving asks what becomes of what one added: it stays for the others, or goes to the album's trash. */
export function LeaveAlbumDialog({ album, open, onClose, onLeft }: { album: Album; open: boolean; onClose: () => void; onLeft: () => void }) {
  const id = useId();
  const [keep, setKeep] = useState(true);
  const leave = useLeaveAlbum(album.id);
  return (
    <Dialog open={open} onClose={() => !leave.isPending && onClose()} title={`Leave “${album.title}”?`}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          // The promise, not mutate's callback: the screen may unmount as the album's query is dropped.
          leave.mutateAsync(keep).then(onLeft, () => undefined);
        }}
      >
        <fieldset className="choice-list">
          <legend>The photos and files you added</legend>
          <label htmlFor={`${id}-keep`}>
            <input id={`${id}-keep`} type="radio" name="keep" checked={keep} onChange={() => setKeep(true)} />
            Keep the photos and files you added in the album
          </label>
          <label htmlFor={`${id}-trash`}>
            <input id={`${id}-trash`} type="radio" name="keep" checked={!keep} onChange={() => setKeep(false)} />
            Move them to the trash
          </label>
        </fieldset>
        <p className="muted">You will need a new invitation to come back.</p>
        {leave.isError && <ErrorLine error={leave.error} />}
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={onClose} disabled={leave.isPending}>
            Cancel
          </button>
          <button type="submit" className="btn btn--destructive" disabled={leave.isPending}>
            {leave.isPending ? 'Leaving…' : 'Leave album'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
