import { useOutletContext, useParams } from 'react-router';
import { Viewer } from '../../features/viewer/viewer';
import type { AlbumOutletContext } from './album-route';

export function ViewerRoute() {
  const { itemId = '' } = useParams();
  const ctx = useOutletContext<AlbumOutletContext>();
  return <Viewer key={ctx.album.id} itemId={itemId} {...ctx} />;
}
