import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import type { Activity } from '../../backend/entities';
import { AlbumCard } from '../../features/albums/album-card';
import { AlbumFormDialog } from '../../features/albums/album-form-dialog';
import { useActivity, useAlbums, useAlbumsLive, useCreateAlbum } from '../../features/albums/use-albums';
import { useObjectUrls } from '../../features/files/use-object-urls';
import { formatDateTime } from '../../lib/format';
import { ErrorPanel } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';

export function AlbumsRoute() {
  useAlbumsLive();
  const albums = useAlbums();
  const activity = useActivity();
  const create = useCreateAlbum();
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
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

      {albums.isPending ? (
        <div className="album-list" aria-busy="true" aria-label="Loading albums">
          {[0, 1, 2, 3].map((i) => (
            <div key={i} className="skeleton" style={{ aspectRatio: '1' }} />
          ))}
        </div>
      ) : albums.isError ? (
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
              <AlbumCard album={album} coverUrl={album.coverThumbKey ? covers.data?.get(album.coverThumbKey) : undefined} />
            </li>
          ))}
        </ul>
      )}

      <h2 className="section-title">Recent activity</h2>
      {activity.isSuccess && activity.data.length === 0 && <p className="muted">Nothing yet.</p>}
      {activity.isError && <ErrorPanel error={activity.error} />}
      {activity.isSuccess && activity.data.length > 0 && (
        <ul className="activity">
          {activity.data.map((a) => (
            <li key={a.id}>
              <ActivityLine activity={a} />
            </li>
          ))}
        </ul>
      )}

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
    </div>
  );
}

const VERBS: Record<Activity['verb'], (n: number) => string> = {
  added_items: (n) => `added ${n} item${n === 1 ? '' : 's'} to`,
  created_album: () => 'created',
  commented: () => 'commented in',
  joined: () => 'joined',
  trashed_items: (n) => `moved ${n} item${n === 1 ? '' : 's'} to the trash in`,
  restored_items: (n) => `restored ${n} item${n === 1 ? '' : 's'} in`,
  left: () => 'left',
  removed_member: () => 'removed a member from',
  changed_role: () => 'changed a member’s role in',
  transferred_ownership: () => 'handed over',
};

function ActivityLine({ activity }: { activity: Activity }) {
  return (
    <>
      <strong>{activity.actorName}</strong> {VERBS[activity.verb](activity.count)}{' '}
      <Link to={`/albums/${activity.albumId}`}>{activity.albumTitle}</Link>{' '}
      <span className="muted">· {formatDateTime(activity.createdAt)}</span>
    </>
  );
}
