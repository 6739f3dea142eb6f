import { Link } from 'react-router';
import type { Album } from '../../backend/entities';
import { formatBytes, formatCount } from '../../lib/format';
import { Icon } from '../../ui/icon';
import { ThumbhashImage } from '../items/thumbhash-image';

export function AlbumCard({ album, coverUrl }: { album: Album; coverUrl: string | undefined }) {
  return (
    <Link className="album-card" to={`/albums/${album.id}`}>
      <div className="album-card__cover">
        {coverUrl ? (
          <img src={coverUrl} alt="" loading="lazy" decoding="async" />
        ) : album.coverThumbhash ? (
          <ThumbhashImage hash={album.coverThumbhash} className="" />
        ) : (
          <Icon name="image" size={40} />
        )}
      </div>
      <span className="album-card__title">{album.title}</span>
      <span className="album-card__meta">
        {formatCount(album.itemCount, 'item', 'items')} · {formatBytes(album.bytesTotal)}
      </span>
    </Link>
  );
}
