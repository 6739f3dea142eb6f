import { useId, useState } from 'react';
import type { Album } from '../../domain/entities';
import { Dialog } from '../../ui/dialog';
import { ErrorLine } from '../../ui/error-panel';
import { useDeleteAlbum } from './use-albums';

/** Deleting the album (owner): confirmed by typing its title, since it cannot be undone and is everyone's loss. */
export function DangerZone({ album, onDeleted }: { album: Album; onDeleted: () => void }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');
  const remove = useDeleteAlbum();
  const matches = typed.trim() === album.title.trim();
  return (
    <section className="card settings-section settings-section--danger" aria-labelledby="settings-danger">
      <h2 id="settings-danger">Danger zone</h2>
      <p className="muted">Deleting the album deletes its {album.itemCount.toLocaleString()} item{album.itemCount === 1 ? '' : 's'} for every member. This cannot be undone.</p>
      <button
        type="button"
        className="btn btn--danger"
        onClick={() => {
          if (!remove.isPending) remove.reset();
          setTyped('');
          setOpen(true);
        }}
      >
        Delete album
      </button>
      <Dialog open={open} onClose={() => !remove.isPending && setOpen(false)} title="Delete this album?">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            // The promise, not mutate's callback: the screen may unmount as the album's query is dropped.
            if (matches) remove.mutateAsync(album.id).then(onDeleted, () => undefined);
          }}
        >
          <p>
            “{album.title}” and everything in it will be deleted for everyone. Type the album’s title to confirm.
          </p>
          <div className="field">
            <label htmlFor={`${id}-confirm`}>Album title</label>
            <input id={`${id}-confirm`} autoComplete="off" autoFocus value={typed} onChange={(e) => setTyped(e.target.value)} />
          </div>
          {remove.isError && <ErrorLine error={remove.error} />}
          <div className="dialog__actions">
            <button type="button" className="btn" onClick={() => setOpen(false)} disabled={remove.isPending}>
              Cancel
            </button>
            <button type="submit" className="btn btn--destructive" disabled={!matches || remove.isPending}>
              {remove.isPending ? 'Deleting…' : 'Delete album'}
            </button>
          </div>
        </form>
      </Dialog>
    </section>
  );
}
