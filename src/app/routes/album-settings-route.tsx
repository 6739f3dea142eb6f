import { useCallback, useEffect, useRef } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { Album } from '../../domain/entities';
import { useBackend, useSession } from '../../backend/backend-context';
import { AlbumDetailsSection } from '../../features/albums/album-details-section';
import { LocationChoiceSection } from '../../features/albums/location-choice-section';
import { settingsSections } from '../../lib/album-permissions';
import { DangerZone } from '../../features/albums/danger-zone';
import { useAlbum } from '../../features/albums/use-albums';
import { InvitationsSection } from '../../features/invites/invitations-section';
import { MembersSection } from '../../features/members/members-section';
import { ShareLinksSection } from '../../features/link-settings/share-links-section';
import { useMembersLive } from '../../features/members/use-members-live';
import { isAppError } from '../../lib/app-error';
import { ErrorPanel } from '../../ui/error-panel';
import { Icon } from '../../ui/icon';
import { useToast } from '../../ui/toast';

/** An album's settings: each section shown only to the roles that may use it (PRODUCT.md §6). */
export function AlbumSettingsRoute() {
  const { albumId = '' } = useParams();
  const album = useAlbum(albumId);
  const navigate = useNavigate();
  const toast = useToast();
  const lastTitle = useRef<string | null>(null);
  // Set once this person left or deleted the album here, so that its vanishing is not news to them.
  const departed = useRef(false);
  useMembersLive(albumId);
  if (album.data) lastTitle.current = album.data.title;
  const home = useCallback(
    (title: string) => {
      departed.current = true;
      toast({ title });
      void navigate('/', { replace: true });
    },
    [navigate, toast],
  );

  // Removed (or the album deleted) by someone else while here: the album can no longer be read.
  const gone = album.isError && lastTitle.current !== null && isAppError(album.error) && album.error.code === 'album/not-found';
  useEffect(() => {
    if (gone && !departed.current) home(`You are no longer a member of “${lastTitle.current ?? ''}”.`);
  }, [gone, home]);

  if (album.isPending) return <div className="page" aria-busy="true"><div className="skeleton" style={{ height: 240 }} /></div>;
  if (album.isError) {
    return (
      <div className="page page--center">
        <ErrorPanel error={album.error} onRetry={() => void album.refetch()} />
      </div>
    );
  }
  return <SettingsScreen album={album.data} home={home} />;
}

function SettingsScreen({ album, home }: { album: Album; home: (toast: string) => void }) {
  const backend = useBackend();
  const session = useSession();
  const sections = settingsSections(album.role);
  const sharing = backend.capabilities.sharing.members;
  return (
    <div className="page settings-page">
      <div className="page-header">
        <div className="page-header__text">
          <Link to={`/albums/${album.id}`} className="btn btn--ghost settings-page__back">
            <Icon name="back" /> {album.title}
          </Link>
          <h1>Album settings</h1>
        </div>
      </div>
      {sections.album && <AlbumDetailsSection key={album.id} album={album} />}
      <LocationChoiceSection key={`location-${album.id}`} album={album} />
      <MembersSection album={album} me={session?.userId ?? album.ownerId} sharing={sharing} onLeft={() => home(`You left “${album.title}”.`)} />
      {sections.invitations && <InvitationsSection albumId={album.id} sharing={sharing} />}
      {sections.shareLinks && <ShareLinksSection album={album} links={backend.shareLinks !== undefined} />}
      {sections.dangerZone && <DangerZone album={album} onDeleted={() => home(`“${album.title}” was deleted.`)} />}
    </div>
  );
}
