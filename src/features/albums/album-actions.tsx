import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { Album } from '../../domain/entities';
import { Dialog } from '../../ui/dialog';
import { ErrorLine } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';
import { AlbumFormDialog } from './album-form-dialog';
import { albumAbilities } from '../../lib/album-permissions';
import { useDeleteAlbum, useUpdateAlbum } from './use-albums';

/** What a header offers to edit (owner, editor) and delete (owner only) the album, and the dialogs both open. */
export interface AlbumActionsState {
  canEdit: boolean;
  canDelete: boolean;
  edit: () => void;
  askDelete: () => void;
  /** The edit and delete dialogs: rendered once, wherever the choices that open them are. */
  dialogs: ReactNode;
}

/** Rename/describe and delete, for buttons or a menu to open: the dialogs live outside either. */
export function useAlbumActions(album: Album): AlbumActionsState {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const update = useUpdateAlbum(album.id);
  const remove = useDeleteAlbum();
  const navigate = useNavigate();
  const abilities = albumAbilities(album.role);
  const dialogs = abilities.editAlbum ? (
    <>
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
  ) : null;
  return {
    canEdit: abilities.editAlbum,
    canDelete: abilities.editAlbum && abilities.deleteAlbum,
    edit: () => setEditing(true),
    askDelete: () => {
      // A new confirmation starts clean: an earlier attempt's error is not this one's.
      if (!remove.isPending) remove.reset();
      setConfirming(true);
    },
    dialogs,
  };
}

/** Rename/describe (owner, editor) and delete (owner only, after confirmation), as buttons. */
export function AlbumActions({ album }: { album: Album }) {
  const actions = useAlbumActions(album);
  if (!actions.canEdit) return null;
  return (
    <>
      <button type="button" className="btn" onClick={actions.edit}>
        <Icon name="pencil" /> Edit
      </button>
      {actions.canDelete && (
        <button type="button" className="btn btn--danger" onClick={actions.askDelete}>
          <Icon name="trash" /> Delete album
        </button>
      )}
      {actions.dialogs}
    </>
  );
}
