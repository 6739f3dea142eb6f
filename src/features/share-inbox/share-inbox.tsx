import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ErrorLine, ErrorPanel } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';
import { AlbumFormDialog } from '../albums/album-form-dialog';
import { useAlbums, useCreateAlbum } from '../albums/use-albums';
import { useUploadEngine } from '../uploads/upload-engine-provider';
import { AlbumChoice, addableAlbums } from './album-choice';
import { SharedFiles } from './shared-files';
import { useInboxShare } from './use-inbox-share';
import { useActionError } from '../../ui/use-action-error';

/**
 * The files of one share, waiting in the inbox: the user picks an album they may add to (or makes one) and
 * the files join the upload queue as added files do, or discards them. The inbox keeps them meanwhile, through
 * a sign-in or a closed app.
 */
export function ShareInbox({ id }: { id: string }) {
  const { state, drop } = useInboxShare(id);
  const albums = useAlbums();
  const create = useCreateAlbum();
  const engine = useUploadEngine();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const [busy, setBusy] = useState(false);
  const { error, attempt } = useActionError();

  if (state.status === 'loading') return <div className="card" aria-busy="true" aria-label="Loading the shared files" />;
  if (state.status === 'error') return <ErrorPanel error={state.error} />;
  if (state.status === 'gone') {
    return (
      <div className="empty">
        <h2>Nothing waiting here</h2>
        <p>These files were already added to an album or discarded.</p>
      </div>
    );
  }
  const { files } = state.share;
  const choices = addableAlbums(albums.data ?? []);
  const target = chosen ?? (choices.length === 1 ? (choices[0]?.id ?? null) : null);

  const addTo = async (albumId: string) => {
    setBusy(true);
    await attempt(async () => {
      // The same way in as "Add files": too large or empty files become failed uploads that say why. The share
      // leaves the inbox in the same transaction, so it can never be queued twice.
      await engine.enqueue(albumId, [...files], { id, ...(state.share.fileIds ? { fileIds: state.share.fileIds } : {}) });
      void navigate(`/albums/${albumId}`, { replace: true });
    });
    setBusy(false);
  };
  const discard = async () => {
    setBusy(true);
    await attempt(async () => {
      await drop();
      void navigate('/', { replace: true });
    });
    setBusy(false);
  };

  return (
    <>
      {files.length === 0 ? (
        <div className="empty">
          <h2>No files in this share</h2>
          <p>Shoebox keeps files: photos, videos and documents. Share those to add them to an album.</p>
        </div>
      ) : (
        <SharedFiles files={files} />
      )}
      {files.length > 0 && (
        <section className="card">
          {albums.isPending ? (
            <p aria-busy="true">Loading albums…</p>
          ) : albums.isError ? (
            <ErrorPanel error={albums.error} onRetry={() => void albums.refetch()} />
          ) : choices.length === 0 ? (
            <p>You have no album to add to yet. Create one for these files.</p>
          ) : (
            <AlbumChoice albums={choices} value={target} onChange={setChosen} />
          )}
          {error !== null && <ErrorLine error={error} />}
          <div className="settings-row share-target__actions">
            <button type="button" className="btn btn--primary" disabled={busy || target === null} onClick={() => target && void addTo(target)}>
              <Icon name="upload" /> {busy ? 'Adding…' : 'Add to album'}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={() => setCreating(true)}>
              <Icon name="plus" /> New album
            </button>
          </div>
        </section>
      )}
      <div className="settings-row">
        <button type="button" className="btn" disabled={busy} onClick={() => void discard()}>
          <Icon name="trash" /> Discard
        </button>
      </div>
      <AlbumFormDialog
        open={creating}
        onClose={() => setCreating(false)}
        title="New album"
        submitLabel="Create and add files"
        onSubmit={async (input) => {
          const album = await create.mutateAsync(input);
          setCreating(false);
          await addTo(album.id);
        }}
      />
    </>
  );
}
