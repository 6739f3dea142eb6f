import { useOutletContext, useParams } from 'react-router';
import type { SharedAlbumOutletContext } from '../../features/link-page/shared-album';
import { Viewer } from '../../features/viewer/viewer';

/** The viewer over a shared album: as members have it, without comments and hearts, and with the link's own addresses. */
export function ShareViewerRoute() {
  const { itemId = '' } = useParams();
  const { download, ...ctx } = useOutletContext<SharedAlbumOutletContext>();
  return <Viewer key={ctx.album.id} itemId={itemId} {...ctx} social={false} download={download} />;
}
