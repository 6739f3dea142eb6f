import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Album } from '../../backend/entities';
import { Dialog } from '../../ui/dialog';
import { ErrorLine } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';
import { AlbumFormDialog } from './album-form-dialog';
import { albumAbilities } from './album-permissions';
import { useDeleteAlbum, useUpdateAlbum } from './use-albums';

/** Rename/describe (owner, editor) and delete (owner only, after confirmation). */
export function AlbumActions({ album }: { album: Album }) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateAlbum(album.id);
  const remove = useDeleteAlbum();
  const navigate = useNavigate();
  const abilities = albumAbilities(album.role);
  if (!abilities.editAlbum) return null;
  return (
    <>
      <button type="button" className="btn" onClick={() => setEditing(true)}>
        <Icon name="pencil" /> Edit
      </button>
      {abilities.deleteAlbum && (
        <button
          type="button"
          className="btn btn--danger"
          onClick={() => {
            // A new confirmation starts clean: an earlier attempt's error is not this one's.
            if (!remove.isPending) remove.reset();
            setConfirming(true);
          }}
        >
          <Icon name="trash" /> Delete album
        </button>
      )}
      <AlbumFormDialog
        open={editing}
        onClose={() => setEditing(false)}
        title="Edit album"
        submitLabel="Save"
        initial={{ title: album.title, description: album.description }}
        onSubmit={async (input) => {
          await update.mutateAsync(input);
          setEditing(false);
        }}
      />
      <Dialog open={confirming} onClose={() => setConfirming(false)} title="Delete this album?">
        <p>
          “{album.title}” and its {album.itemCount.toLocaleString()} item{album.itemCount === 1 ? '' : 's'} will be deleted for
          everyone. This cannot be undone.
        </p>
        {remove.isError && <ErrorLine error={remove.error} />}
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn--destructive"
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(album.id, {
                onSuccess: () => {
                  setConfirming(false);
                  void navigate('/', { replace: true });
                },
              })
            }
          >
            {remove.isPending ? 'Deleting…' : 'Delete album'}
          </button>
        </div>
      </Dialog>
    </>
  );
}
