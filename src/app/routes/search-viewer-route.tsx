import { useOutletContext, useParams } from 'react-router';
import { Viewer } from '../../features/viewer/viewer';
import { useAlbum } from '../../features/albums/use-albums';
import { ErrorPanel } from '../../ui/error-panel';
import type { SearchOutletContext } from './search-route';

/** A result opened from a search across albums: the viewer of its own album, stepping through the results. */
export function SearchViewerRoute() {
  const { albumId = '', itemId = '' } = useParams();
  const ctx = useOutletContext<SearchOutletContext>();
  const album = useAlbum(albumId);
  if (album.data) return <Viewer key={album.data.id} album={album.data} itemId={itemId} showAlbum {...ctx} />;
  if (album.isError) return <div className="viewer-error"><ErrorPanel error={album.error} onRetry={() => void album.refetch()} /></div>;
  return null;
}
