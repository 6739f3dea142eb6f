import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { ActivityList } from '../../features/activity/activity-list';
import { useUnreadCounts } from '../../features/activity/use-activity';
import { AlbumCard } from '../../features/albums/album-card';
import { useAlbums, useAlbumsLive, useCreateAlbum } from '../../features/albums/use-albums';
import { useObjectUrls } from '../../shared/files/use-object-urls';
import { showsWhatItHad } from '../../lib/error-policy';
import { ErrorPanel, StaleNotice } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';

// A click away: the form and the text rules it checks load when it first opens, not with the albums.
const AlbumFormDialog = lazy(async () => ({ default: (await import('../../features/albums/album-form-dialog')).AlbumFormDialog }));

export function AlbumsRoute() {
  useAlbumsLive();
  const albums = useAlbums();
  const unread = useUnreadCounts();
  const create = useCreateAlbum();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  // Once opened, the form stays mounted, so closing it is the dialog's own (focus goes back where it was).
  const [formOpened, setFormOpened] = useState(false);
  if (creating && !formOpened) setFormOpened(true);
  const [params, setParams] = useSearchParams();
  // The installed app's "Add photos" shortcut opens `/?add=1`: a new album, whose screen then takes the photos.
  // The parameter is dropped at once, so Back or a reload does not open the dialog again.
  const addRequested = params.has('add');
  useEffect(() => {
    if (!addRequested) return;
    setCreating(true);
    setParams(
      (p) => {
        p.delete('add');
        return p;
      },
      { replace: true },
    );
  }, [addRequested, setParams]);
  const covers = useObjectUrls(albums.data?.map((a) => a.coverThumbKey) ?? []);

  return (
    <div className="page">
      <div className="page-header">
        <div className="page-header__text">
          <h1>Albums</h1>
          <p className="muted">Photos and files, shared on storage you own.</p>
        </div>
        <div className="page-header__actions">
          <button type="button" className="btn btn--primary" onClick={() => setCreating(true)}>
            <Icon name="plus" /> New album
          </button>
        </div>
      </div>

      {showsWhatItHad(albums.data, albums.error) && <StaleNotice error={albums.error} onRetry={() => void albums.refetch()} />}
      {albums.isPending ? (
        <div className="album-list" aria-busy="true" aria-label="Loading albums">
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="skeleton" style={{ aspectRatio: '1' }} />
          ))}
        </div>
      ) : albums.data === undefined || (albums.isError && !showsWhatItHad(albums.data, albums.error)) ? (
        <ErrorPanel error={albums.error} onRetry={() => void albums.refetch()} />
      ) : albums.data.length === 0 ? (
        <div className="empty">
          <h2>No albums yet</h2>
          <p>Create an album, then drop photos, videos or any files into it.</p>
          <button type="button" className="btn btn--primary" onClick={() => setCreating(true)}>
            <Icon name="plus" /> Create your first album
          </button>
        </div>
      ) : (
        <ul className="album-list" aria-label="Your albums" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {albums.data.map((album) => (
            <li key={album.id}>
              <AlbumCard
                album={album}
                coverUrl={album.coverThumbKey ? covers.data?.get(album.coverThumbKey) : undefined}
                unread={unread.data?.[album.id] ?? 0}
              />
            </li>
          ))}
        </ul>
      )}

      <ActivityList />

      {formOpened && (
        <Suspense fallback={null}>
          <AlbumFormDialog
            open={creating}
            onClose={() => setCreating(false)}
            title="New album"
            submitLabel="Create album"
            onSubmit={async (input) => {
              const album = await create.mutateAsync(input);
              setCreating(false);
              void navigate(`/albums/${album.id}`);
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
